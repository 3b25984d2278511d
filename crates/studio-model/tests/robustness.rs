//! No input can make the parser panic, hang or allocate out of proportion to its size:
//! every truncation of every fixture, and a seeded mutation run over all shared models.
//!
//! `STUDIO_MUTATIONS` sets the number of mutated files (default 200,000) and
//! `STUDIO_MUTATION_SEED` the seed, for longer runs; a failing file is written to the target
//! directory with the seed and index in its name.

mod common;

use std::time::Instant;

use common::ModelSet as Set;
use studio_model::{Problem, Record};
use studio_testing::Rng;

/// The header's counts and offsets: 27 int32 fields from byte 136 (goldsrc-header.md).
const HEADER_FIELDS: (usize, usize) = (136, 27);

/// Parses a set, checking that it neither panics nor allocates out of proportion; returns
/// whether it parsed.
fn check(set: &Set, what: &str) -> Result<bool, String> {
    let what = format!("{}: {what}", set.name);
    studio_testing::read_guarded(set.len(), &what, || set.parse().map(|_| ()).map_err(|e| e.to_string()))
}

fn sets() -> Option<Vec<Set>> {
    Some(common::model_sets(&common::shared()?))
}

#[test]
fn every_truncation_of_every_fixture() {
    let Some(sets) = sets() else { return };
    let fixtures: Vec<&Set> = sets.iter().filter(|s| s.len() < 100_000).collect();
    assert_eq!(fixtures.len(), 4);
    let mut cases = 0;
    for set in fixtures {
        assert_eq!(check(set, "untouched"), Ok(true));
        for len in 0..set.main.len() {
            let mut cut = set.clone();
            cut.main.truncate(len);
            let parsed = check(&cut, &format!("main file cut to {len} bytes")).unwrap();
            if len < 244 {
                assert!(!parsed, "{}: a {len}-byte file has no complete header", set.name);
            }
            cases += 1;
        }
        // Companion files: a cut texture or group file is a warning, never a failure.
        for which in 0..set.num_companions() {
            for len in 0..set.clone().companion_mut(which).len() {
                let mut cut = set.clone();
                cut.companion_mut(which).truncate(len);
                assert_eq!(check(&cut, &format!("companion {which} cut to {len} bytes")), Ok(true));
                cases += 1;
            }
        }
    }
    eprintln!("{cases} truncations checked");
}

#[test]
fn short_header_error_names_the_place() {
    let Some(sets) = sets() else { return };
    let rle = sets.iter().find(|s| s.name == "rle").unwrap();
    let error = studio_model::Model::parse(&rle.main[..100]).unwrap_err();
    assert_eq!((error.place.record, error.place.offset), (Record::Header, 0));
    assert_eq!(error.problem, Problem::Truncated { needed: 244, end: 100 });
    assert_eq!(error.to_string(), "header at byte 0: 244 bytes needed here, but the file ends at byte 100");
}

#[test]
fn seeded_mutations_never_panic_or_run_away() {
    let Some(sets) = sets() else { return };
    let count: usize = std::env::var("STUDIO_MUTATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(200_000);
    let seed: u64 =
        std::env::var("STUDIO_MUTATION_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5EED_0010);
    let mut rng = Rng::new(seed);
    let (small, large): (Vec<&Set>, Vec<&Set>) = sets.iter().partition(|s| s.len() < 100_000);
    let started = Instant::now();
    let mut parsed = 0usize;
    for i in 0..count {
        // One in a hundred mutates a real (large) model; the rest the fixtures, whose tables
        // are all within reach of a few mutations.
        let set = if i % 100 == 99 { large[rng.below(large.len())] } else { small[rng.below(small.len())] };
        let mut file = set.clone();
        let companions = file.num_companions();
        if companions > 0 && rng.below(4) == 0 {
            let which = rng.below(companions);
            studio_testing::mutate(&mut rng, file.companion_mut(which), HEADER_FIELDS);
        } else {
            studio_testing::mutate(&mut rng, &mut file.main, HEADER_FIELDS);
        }
        match check(&file, &format!("mutation {i} of seed {seed:#x}")) {
            Ok(ok) => parsed += usize::from(ok),
            Err(message) => {
                let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
                    .join(format!("mutation-{seed:x}-{i}.mdl"));
                let _ = std::fs::write(&out, &file.main);
                panic!("{message} (main file written to {})", out.display());
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{count} mutated files ({parsed} still parsed) in {secs:.2} s: {:.0} mutations per second",
        count as f64 / secs
    );
    // The run must exercise both outcomes, or the mutations are too weak or too strong.
    assert!(parsed > count / 20 && parsed < count - count / 20, "{parsed} of {count} parsed");
}
