//! The decompilers on damaged models: whatever a reader accepts of a mutated file decompiles
//! or gives an error, and never panics (Half-Life fixtures and Source sets, mutated one file
//! at a time; a seeded run, so every run checks the same files).

mod common;

use studio_decompile::{goldsrc, source};
use studio_testing::{Rng, mutate};

/// Runs `decompile` on `cases` mutations of `file`, counting the models that were read.
fn mutations(
    name: &str,
    file: &[u8],
    cases: usize,
    fields: (usize, usize),
    mut decompile: impl FnMut(&[u8]) -> bool,
) -> usize {
    let mut rng = Rng::new(name.len() as u64 * 7919);
    let mut read = 0;
    for case in 0..cases {
        let mut bytes = file.to_vec();
        mutate(&mut rng, &mut bytes, fields);
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| decompile(&bytes)));
        match outcome {
            Ok(was_read) => read += usize::from(was_read),
            Err(_) => {
                let path =
                    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-{case}.bin"));
                let _ = std::fs::write(&path, &bytes);
                panic!("{name} mutation {case}: the decompiler panicked (file in {})", path.display());
            }
        }
    }
    read
}

/// Bone lines above which a mutated model is passed over here.
const SMALL: u64 = 200_000;

#[test]
fn a_frame_count_past_any_real_model_is_refused_before_anything_is_made() {
    let mut model = common::demo_model();
    model.sequences[0].num_frames = 10_000_000;
    match goldsrc::decompile(&model, "demo", &mut |_| {}) {
        Err(studio_decompile::DecompileError::TooLarge { lines, limit }) => assert!(lines > limit),
        other => panic!("{:?}", other.map(|d| d.files.len())),
    }
}

#[test]
fn mutated_models_decompile_or_give_an_error() {
    let Some(shared) = studio_testing::shared() else { return };
    for name in ["blends.mdl", "controllers.mdl", "rle.mdl"] {
        let file = studio_testing::read(&shared, &format!("fixtures/{name}"));
        // studiohdr_t's counts and offsets: 36 int32 from byte 140 (goldsrc-header.md).
        let read = mutations(name, &file, 3000, (140, 36), |bytes| {
            let Ok(model) = studio_model::Model::parse(bytes) else { return false };
            // A frame count the mutation made huge but still under the limit would only run
            // the same loops longer (and take a gigabyte): those are refused by size below.
            let lines: u64 =
                model.sequences.iter().map(|s| u64::from(s.frames()) * s.num_blends.max(1) as u64).sum();
            if lines * model.bones.len() as u64 > SMALL {
                return false;
            }
            let _ = goldsrc::decompile(&model, "model", &mut |_| {});
            true
        });
        assert!(read > 100, "{name}: {read} mutated files were read");
    }
    let dir = "fixtures/source/models/fixture";
    let mdl = studio_testing::read(&shared, &format!("{dir}/skeleton48.mdl"));
    let vvd = studio_testing::read(&shared, &format!("{dir}/skeleton48.vvd"));
    let vtx = studio_testing::read(&shared, &format!("{dir}/skeleton48.dx90.vtx"));
    let set = |mdl: &[u8], vvd: &[u8], vtx: &[u8]| {
        let files =
            studio_source::SourceFiles { mdl, vvd: Some(vvd), vtx: Some(vtx), ani: None, includes: vec![] };
        let Ok(model) = studio_source::parse_set(&files) else { return false };
        let lines: u64 = model.animations.iter().map(|a| u64::from(a.frames.max(1))).sum();
        if lines * model.bones.len() as u64 > SMALL {
            return false;
        }
        let _ = source::decompile(&model, None, "model", &mut |_| {});
        true
    };
    // studiohdr_t's 62 counts and offsets from byte 156; the .vvd's 13 from 12; the .vtx's 9.
    let read = mutations("skeleton48.mdl", &mdl, 1500, (156, 62), |b| set(b, &vvd, &vtx))
        + mutations("skeleton48.vvd", &vvd, 1500, (12, 13), |b| set(&mdl, b, &vtx))
        + mutations("skeleton48.dx90.vtx", &vtx, 1500, (0, 9), |b| set(&mdl, &vvd, b));
    assert!(read > 300, "{read} mutated Source sets were read");
}
