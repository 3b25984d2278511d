//! No input can make the Source reader panic, hang or allocate out of proportion: every
//! truncation of every file of every Source fixture set (`.mdl`, `.vvd`, `.vtx`, `.ani`, include
//! model), and a seeded mutation run over the sets, one file of a set at a time.
//!
//! `STUDIO_SOURCE_MUTATIONS` sets the number of mutated files (default 100,000) and
//! `STUDIO_MUTATION_SEED` the seed; a failing file is written to the target directory.

use std::time::Instant;

use studio_testing::Rng;

/// A model set's files: name, bytes, and where its header's int32 counts and offsets are (first
/// byte, count), for the mutations.
#[derive(Clone)]
struct Set {
    name: &'static str,
    files: Vec<(&'static str, Vec<u8>, (usize, usize))>,
}

/// `studiohdr_t`: 62 int32 counts and offsets from byte 156 (source-header.md).
const MDL_FIELDS: (usize, usize) = (156, 62);
/// `vertexFileHeader_t`: 13 int32 from byte 12 (source-mesh.md).
const VVD_FIELDS: (usize, usize) = (12, 13);
/// `FileHeader_t` of the `.vtx`: 9 int32 from byte 0.
const VTX_FIELDS: (usize, usize) = (0, 9);
/// The `.ani`'s header, shaped like `studiohdr_t`, then its blocks.
const ANI_FIELDS: (usize, usize) = (400, 10);

/// The files of each fixture set, by role: `mdl`, `vvd`, `vtx`, `ani`, `include`.
const SETS: [(&str, &[(&str, &str)]); 5] = [
    ("skeleton48", &[("mdl", "skeleton48.mdl"), ("vvd", "skeleton48.vvd"), ("vtx", "skeleton48.dx90.vtx")]),
    (
        "anim48",
        &[("mdl", "anim48.mdl"), ("vvd", "anim48.vvd"), ("vtx", "anim48.dx90.vtx"), ("ani", "anim48.ani")],
    ),
    ("anim48_noani", &[("mdl", "anim48_noani.mdl")]),
    (
        "include48",
        &[
            ("mdl", "include48.mdl"),
            ("vvd", "include48.vvd"),
            ("vtx", "include48.dx90.vtx"),
            ("include", "include48_anims.mdl"),
        ],
    ),
    ("include48_anims", &[("mdl", "include48_anims.mdl")]),
];

fn sets() -> Option<Vec<Set>> {
    let shared = studio_testing::shared()?;
    let fields = |role| match role {
        "vvd" => VVD_FIELDS,
        "vtx" => VTX_FIELDS,
        "ani" => ANI_FIELDS,
        _ => MDL_FIELDS,
    };
    let mut sets: Vec<Set> = SETS
        .iter()
        .map(|(name, files)| Set {
            name,
            files: files
                .iter()
                .map(|(role, file)| {
                    let bytes =
                        studio_testing::read(&shared, &format!("fixtures/source/models/fixture/{file}"));
                    (*role, bytes, fields(role))
                })
                .collect(),
        })
        .collect();
    // anim48's .mdl with a face appended: flex tables, rules, mesh flexes, a mouth and an eyeball.
    let anim48 = studio_testing::read(&shared, "fixtures/source/models/fixture/anim48.mdl");
    sets.push(Set {
        name: "face48",
        files: vec![("mdl", studio_testing::source_face::with_face(&anim48), MDL_FIELDS)],
    });
    Some(sets)
}

impl Set {
    fn file(&self, role: &str) -> Option<&[u8]> {
        self.files.iter().find(|(r, _, _)| *r == role).map(|(_, b, _)| b.as_slice())
    }

    fn len(&self) -> usize {
        self.files.iter().map(|(_, b, _)| b.len()).sum()
    }

    fn parse(&self) -> Result<(), String> {
        let files = studio_source::SourceFiles {
            mdl: self.file("mdl").unwrap_or_default(),
            vvd: self.file("vvd"),
            vtx: self.file("vtx"),
            ani: self.file("ani"),
            includes: vec![self.file("include")],
        };
        let model = studio_source::parse_set(&files).map_err(|e| e.to_string())?;
        // Every stream a chain holds was checked: it decodes to all its frames.
        for chain in model.animations.iter().flat_map(|a| a.chains.iter().flatten()) {
            let bytes = match chain.file {
                studio_source::FileRole::Ani => files.ani.unwrap_or_default(),
                _ => files.mdl,
            };
            for record in &chain.records {
                let mut offsets = Vec::new();
                if let studio_source::Channel::Streams(s) = record.rotation {
                    offsets.extend(s.into_iter().flatten());
                }
                if let studio_source::Channel::Streams(s) = record.position {
                    offsets.extend(s.into_iter().flatten());
                }
                for offset in offsets {
                    let values = studio_source::decode_stream(bytes, offset, chain.frames);
                    if values.is_none_or(|v| v.len() != chain.frames as usize) {
                        panic!(
                            "a checked stream at byte {offset} does not decode to {} frames",
                            chain.frames
                        );
                    }
                }
            }
        }
        Ok(())
    }
}

/// Reads a set, checking that it neither panics nor allocates out of proportion, and that an
/// error names its place; returns whether it was read.
fn check(set: &Set, what: &str) -> Result<bool, String> {
    studio_testing::read_guarded(set.len() as u64, &format!("{}: {what}", set.name), || set.parse())
}

#[test]
fn every_truncation_of_every_fixture_file() {
    let Some(sets) = sets() else { return };
    let mut cases = 0;
    for set in &sets {
        assert_eq!(check(set, "untouched"), Ok(true));
        for (which, (role, bytes, _)) in set.files.iter().enumerate() {
            for len in 0..bytes.len() {
                let mut cut = set.clone();
                cut.files[which].1.truncate(len);
                let read = check(&cut, &format!("{role} cut to {len} bytes")).unwrap();
                // Only a cut .mdl can make the set unusable; a cut companion is a warning.
                if *role == "mdl" {
                    assert!(len >= 408 || !read, "{}: a {len}-byte .mdl has no complete header", set.name);
                } else {
                    assert!(read, "{}: {role} cut to {len} bytes", set.name);
                }
                cases += 1;
            }
        }
    }
    assert!(cases > 100_000, "{cases} truncations");
}

#[test]
fn seeded_mutations_never_panic_or_run_away() {
    let Some(sets) = sets() else { return };
    let count: usize =
        std::env::var("STUDIO_SOURCE_MUTATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let seed: u64 =
        std::env::var("STUDIO_MUTATION_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5EED_0048);
    let mut rng = Rng::new(seed);
    let started = Instant::now();
    let mut parsed = 0usize;
    for i in 0..count {
        // One file of a set: any of its files.
        let mut set = sets[rng.below(sets.len())].clone();
        let which = rng.below(set.files.len());
        let (role, bytes, fields) = &mut set.files[which];
        studio_testing::mutate(&mut rng, bytes, *fields);
        let role = *role;
        match check(&set, &format!("{role}, mutation {i} of seed {seed:#x}")) {
            Ok(ok) => parsed += usize::from(ok),
            Err(message) => {
                let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
                    .join(format!("source-mutation-{seed:x}-{i}.{role}"));
                let _ = std::fs::write(&out, &set.files[which].1);
                panic!("{message} (file written to {})", out.display());
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{count} mutated sets ({parsed} still read) in {secs:.2} s: {:.0} per second",
        count as f64 / secs
    );
    assert!(parsed > count / 20 && parsed < count - count / 20, "{parsed} of {count} read");
}

/// Found by the mutation run: a skin table of 2³¹ − 1 slots in no families reserved room for
/// one family of that many slots before anything was read.
#[test]
fn a_huge_skin_row_with_no_families_allocates_nothing_large() {
    let Some(sets) = sets() else { return };
    let mut set = sets[0].clone();
    let mdl = &mut set.files[0].1;
    mdl[220..224].copy_from_slice(&i32::MAX.to_le_bytes());
    mdl[224..228].copy_from_slice(&0i32.to_le_bytes());
    assert_eq!(check(&set, "numskinref 2147483647, numskinfamilies 0"), Ok(true));
}
