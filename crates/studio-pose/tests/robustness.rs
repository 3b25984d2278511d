//! Whatever a parsed model holds, evaluating its poses neither panics nor allocates per pose:
//! seeded mutations of the fixtures and models, then poses of every sequence at awkward frames,
//! blends and controllers, from tables and from runs. `STUDIO_POSE_MUTATIONS` sets the count.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;

use studio_pose::{ControllerBytes, Pose, PoseEvaluator, PoseRequest};
use studio_testing::Rng;

/// Overwrites a few aligned int32s or int16s with edge values, or flips bits.
fn mutate(rng: &mut Rng, bytes: &mut [u8]) {
    for _ in 0..1 + rng.below(3) {
        let len = bytes.len();
        match rng.below(3) {
            0 => {
                let at = rng.below(len);
                bytes[at] ^= 1 << rng.below(8);
            }
            1 => {
                let at = 4 * rng.below(len / 4);
                let value = [0, -1, 1, 2, 255, 300, i32::MAX, i32::MIN, rng.next_u64() as i32][rng.below(9)];
                bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
            }
            _ => {
                let at = 2 * rng.below(len / 2);
                let value = [0i16, -1, 1, 255, i16::MAX, i16::MIN, rng.next_u64() as i16][rng.below(7)];
                bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
            }
        }
    }
}

fn evaluate_everything(model: Arc<studio_model::Model>, rng: &mut Rng) {
    let mut evaluator = PoseEvaluator::new(model.clone());
    let mut pose = Pose::new(&model);
    for sequence in 0..model.sequences.len().min(64) {
        let last = model.sequences[sequence].frames() as f32 - 1.0;
        for frame in [0.0, 0.5, last, last - 0.25, -0.005, -7.0, 1e9, f32::NAN, f32::INFINITY] {
            let request = PoseRequest {
                sequence,
                frame,
                blend: [rng.next_u64() as u8, rng.next_u64() as u8],
                controllers: ControllerBytes {
                    user: (rng.next_u64() as u32).to_le_bytes(),
                    mouth: rng.next_u64() as u8,
                },
            };
            let _ = evaluator.evaluate(&request, &mut pose);
            let _ = evaluator.evaluate_from_runs(&request, &mut pose);
        }
    }
    // A sequence number past the end is an error, not a panic.
    let request = PoseRequest { sequence: model.sequences.len(), ..PoseRequest::default() };
    assert!(evaluator.evaluate(&request, &mut pose).is_err());
}

#[test]
fn mutated_models_evaluate_without_panicking() {
    let Some(dir) = studio_testing::shared() else { return };
    let files: Vec<Vec<u8>> =
        ["fixtures/rle.mdl", "fixtures/blends.mdl", "fixtures/controllers.mdl", "models/ns/v_mg.mdl"]
            .iter()
            .map(|p| std::fs::read(dir.join(p)).unwrap())
            .collect();
    let count: usize =
        std::env::var("STUDIO_POSE_MUTATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let mut rng = Rng::new(0x0BAD_5EED);
    let mut evaluated = 0;
    for i in 0..count {
        let which = if i % 50 == 49 { 3 } else { rng.below(3) };
        let mut bytes = files[which].clone();
        mutate(&mut rng, &mut bytes);
        let Ok(model) = studio_model::Model::parse(&bytes) else { continue };
        let result = catch_unwind(AssertUnwindSafe(|| evaluate_everything(Arc::new(model), &mut rng)));
        if result.is_err() {
            let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pose-mutation-{i}.mdl"));
            let _ = std::fs::write(&out, &bytes);
            panic!("mutation {i} of file {which} made pose evaluation panic; written to {}", out.display());
        }
        evaluated += 1;
    }
    assert!(evaluated > count / 4, "only {evaluated} of {count} mutated models parsed");
}
