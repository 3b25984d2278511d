//! `animation_frame`, one animation on its own at a keyframe (what a decompiled animation file
//! holds), agrees with the sequence evaluator: a sequence of that one animation, weighting
//! every bone, with no layers or locks, its cycle its own, evaluated at that keyframe's cycle, gives the same
//! bone matrices.

use studio_source_pose::{LocalPose, SourceEvaluator, SourceRequest, animation_frame, matrices_into};

#[test]
fn one_animation_at_a_keyframe_poses_as_its_sequence() {
    let Some(shared) = studio_testing::shared() else { return };
    let path = shared.join("fixtures/source/models/fixture/anim48.mdl");
    let model = studio_source::load(&path).expect("anim48 loads").model;
    let mut evaluator = SourceEvaluator::new(&model);
    let params: Vec<f32> =
        evaluator.rig().pose_parameters.iter().map(studio_source_pose::params::default_value).collect();
    let mut compared = 0;
    // Sequences of one animation that weight every bone fully and add nothing.
    let plain: Vec<(usize, usize)> = model
        .sequences
        .iter()
        .enumerate()
        .filter(|(_, s)| s.animations.len() == 1 && s.layers.is_empty() && s.ik_locks.is_empty())
        .filter(|(_, s)| s.weights.iter().all(|&w| w == 1.0))
        // Not a delta (applied over the rest), nor one whose cycle comes from a pose parameter.
        .filter(|(_, s)| s.flags & (studio_source::STUDIO_DELTA | studio_source::STUDIO_CYCLEPOSE) == 0)
        .map(|(i, s)| (i, s.animations[0]))
        .collect();
    assert!(plain.len() >= 4, "the fixture has such sequences ({})", plain.len());
    let (mut pose, mut from_frame, mut from_sequence) = (LocalPose::defaults(&model), Vec::new(), Vec::new());
    for (sequence, animation) in plain {
        let frames = model.animations[animation].frames.max(1);
        for k in 0..frames {
            let cycle = if frames > 1 { k as f32 / (frames - 1) as f32 } else { 0.0 };
            // Only cycles that land on the keyframe exactly in float.
            if cycle * (frames - 1) as f32 != k as f32 {
                continue;
            }
            animation_frame(evaluator.rig(), 0, animation, k, &mut pose);
            matrices_into(&model, &pose, &mut from_frame);
            let request = SourceRequest {
                sequence,
                cycle,
                params: &params,
                controllers: None,
                time: 0.0,
                autoplay: false,
                layers: &[],
            };
            evaluator.evaluate(&request, &mut from_sequence);
            for (b, (a, e)) in from_frame.iter().zip(&from_sequence).enumerate() {
                assert!(a.abs_diff_eq(*e, 1e-4), "sequence {sequence} frame {k} bone {b}: {a:?} vs {e:?}");
            }
            compared += 1;
        }
    }
    assert!(compared > 50, "{compared} keyframes compared");
}
