//! No input can make the Source reader panic, hang or allocate out of proportion: every
//! truncation of every Source fixture `.mdl`, and a seeded mutation run over them.
//!
//! `STUDIO_SOURCE_MUTATIONS` sets the number of mutated files (default 100,000) and
//! `STUDIO_MUTATION_SEED` the seed; a failing file is written to the target directory.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use studio_testing::Rng;

/// Allocation allowed per byte of input, plus a fixed allowance.
const ALLOC_PER_INPUT_BYTE: u64 = 40;
const ALLOC_BASE: u64 = 1 << 20;

/// `studiohdr_t`'s counts and offsets: 62 int32 fields from byte 156 (source-header.md).
const HEADER_FIELDS: (usize, usize) = (156, 62);

const MODELS: [&str; 5] =
    ["skeleton48.mdl", "anim48.mdl", "anim48_noani.mdl", "include48.mdl", "include48_anims.mdl"];

fn models() -> Option<Vec<(&'static str, Vec<u8>)>> {
    let shared = studio_testing::shared()?;
    Some(
        MODELS
            .iter()
            .map(|name| {
                (*name, studio_testing::read(&shared, &format!("fixtures/source/models/fixture/{name}")))
            })
            .collect(),
    )
}

/// Reads `bytes`, checking that it neither panics nor allocates out of proportion, and that an
/// error names its place; returns whether it was read.
fn check(bytes: &[u8], what: &str) -> Result<bool, String> {
    let mut result = None;
    let run = catch_unwind(AssertUnwindSafe(|| {
        allocation_counter::measure(|| {
            result = Some(studio_source::parse_mdl(bytes).map(|_| ()).map_err(|e| e.to_string()));
        })
        .bytes_max
    }));
    let peak = run.map_err(|_| format!("{what}: the reader panicked"))?;
    let limit = ALLOC_PER_INPUT_BYTE * bytes.len() as u64 + ALLOC_BASE;
    if peak > limit {
        return Err(format!("{what}: peak allocation {peak} bytes for {} input bytes", bytes.len()));
    }
    match result {
        Some(Ok(())) => Ok(true),
        Some(Err(message)) if message.contains("at byte") => Ok(false),
        Some(Err(message)) => Err(format!("{what}: error without a place: {message}")),
        None => Err(format!("{what}: no result")),
    }
}

#[test]
fn every_truncation_of_every_fixture() {
    let Some(models) = models() else { return };
    let mut cases = 0;
    for (name, bytes) in &models {
        assert_eq!(check(bytes, name), Ok(true));
        for len in 0..bytes.len() {
            let parsed = check(&bytes[..len], &format!("{name} cut to {len} bytes")).unwrap();
            if len < 408 {
                assert!(!parsed, "{name}: a {len}-byte file has no complete header");
            }
            cases += 1;
        }
    }
    assert!(cases > 50_000, "{cases} truncations");
}

#[test]
fn seeded_mutations_never_panic_or_run_away() {
    let Some(models) = models() else { return };
    let count: usize =
        std::env::var("STUDIO_SOURCE_MUTATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    let seed: u64 =
        std::env::var("STUDIO_MUTATION_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x5EED_0048);
    let mut rng = Rng::new(seed);
    let started = Instant::now();
    let mut parsed = 0usize;
    for i in 0..count {
        let (name, original) = &models[rng.below(models.len())];
        let mut bytes = original.clone();
        studio_testing::mutate(&mut rng, &mut bytes, HEADER_FIELDS);
        match check(&bytes, &format!("{name}, mutation {i} of seed {seed:#x}")) {
            Ok(ok) => parsed += usize::from(ok),
            Err(message) => {
                let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
                    .join(format!("source-mutation-{seed:x}-{i}.mdl"));
                let _ = std::fs::write(&out, &bytes);
                panic!("{message} (file written to {})", out.display());
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{count} mutated files ({parsed} still read) in {secs:.2} s: {:.0} per second",
        count as f64 / secs
    );
    assert!(parsed > count / 20 && parsed < count - count / 20, "{parsed} of {count} read");
}

/// Found by the mutation run: a skin table of 2³¹ − 1 slots in no families reserved room for
/// one family of that many slots before anything was read.
#[test]
fn a_huge_skin_row_with_no_families_allocates_nothing_large() {
    let Some(models) = models() else { return };
    let mut bytes = models[0].1.clone();
    bytes[220..224].copy_from_slice(&i32::MAX.to_le_bytes());
    bytes[224..228].copy_from_slice(&0i32.to_le_bytes());
    assert_eq!(check(&bytes, "numskinref 2147483647, numskinfamilies 0"), Ok(true));
}
