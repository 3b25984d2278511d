//! Poses mixed over a pose (layers, and the Half-Life client's sequence transition) against
//! Valve's `StudioSlerpBones`: no overlay changes nothing, an overlay of weight 1 is its own
//! pose, half of one puts a root bone half way, and mixing allocates nothing.

use std::sync::Arc;

use glam::{Quat, Vec3};
use studio_pose::{Overlay, Pose, PoseEvaluator, PoseRequest, transition_weight};

fn demo() -> Arc<studio_model::Model> {
    Arc::new(studio_demo::demo_model())
}

fn sequence(model: &studio_model::Model, label: &str) -> usize {
    model.sequences.iter().position(|s| s.label == label).unwrap()
}

#[test]
fn overlays_mix_by_weight_as_studio_slerp_bones_does() {
    let model = demo();
    let mut evaluator = PoseEvaluator::new(model.clone());
    let (walk, attack) = (sequence(&model, "walk"), sequence(&model, "attack"));
    let main = PoseRequest { sequence: walk, frame: 3.5, ..PoseRequest::default() };
    let other = PoseRequest { sequence: attack, frame: 2.0, ..PoseRequest::default() };
    let (mut alone, mut other_alone, mut mixed) = (Pose::new(&model), Pose::new(&model), Pose::new(&model));
    evaluator.evaluate(&main, &mut alone).unwrap();
    evaluator.evaluate(&other, &mut other_alone).unwrap();
    // No overlay, or one of weight 0: the pose itself.
    evaluator.evaluate_overlaid(&main, &[], &mut mixed).unwrap();
    assert_eq!(mixed.bones, alone.bones);
    evaluator.evaluate_overlaid(&main, &[Overlay { request: other, weight: 0.0 }], &mut mixed).unwrap();
    assert_eq!(mixed.bones, alone.bones);
    // Weight 1: the overlay's pose.
    evaluator.evaluate_overlaid(&main, &[Overlay { request: other, weight: 1.0 }], &mut mixed).unwrap();
    for (a, b) in mixed.bones.iter().zip(&other_alone.bones) {
        assert!(a.abs_diff_eq(*b, 1e-4), "{a:?} vs {b:?}");
    }
    assert_eq!(mixed.hitboxes.len(), model.hitboxes.len());
    // Half: a root bone's position half way, its rotation half way along the slerp.
    evaluator.evaluate_overlaid(&main, &[Overlay { request: other, weight: 0.5 }], &mut mixed).unwrap();
    let root = model.bones.iter().position(|b| b.parent.is_none()).unwrap();
    let (a, b, m) = (alone.bones[root], other_alone.bones[root], mixed.bones[root]);
    let half = (Vec3::from(a.translation) + Vec3::from(b.translation)) / 2.0;
    assert!((Vec3::from(m.translation) - half).length() < 1e-4, "{} vs {half}", m.translation);
    let (qa, qb, qm) =
        (Quat::from_mat3a(&a.matrix3), Quat::from_mat3a(&b.matrix3), Quat::from_mat3a(&m.matrix3));
    assert!(qa.slerp(qb, 0.5).dot(qm).abs() > 1.0 - 1e-5);
    // Two overlays mix in order: the second over the first's result.
    let look = PoseRequest { sequence: sequence(&model, "look"), ..PoseRequest::default() };
    let overlays = [Overlay { request: other, weight: 1.0 }, Overlay { request: look, weight: 1.0 }];
    evaluator.evaluate_overlaid(&main, &overlays, &mut mixed).unwrap();
    let mut look_alone = Pose::new(&model);
    evaluator.evaluate(&look, &mut look_alone).unwrap();
    for (a, b) in mixed.bones.iter().zip(&look_alone.bones) {
        assert!(a.abs_diff_eq(*b, 1e-4));
    }
    // Mixing allocates nothing once the sequences' tables are built.
    let info = allocation_counter::measure(|| {
        for k in 0..20 {
            let weight = k as f32 / 20.0;
            evaluator.evaluate_overlaid(&main, &[Overlay { request: other, weight }], &mut mixed).unwrap();
        }
    });
    assert_eq!(info.count_total, 0);
    // A sequence that does not exist is an error, as for one pose.
    let missing = PoseRequest { sequence: 999, ..PoseRequest::default() };
    assert!(
        evaluator.evaluate_overlaid(&main, &[Overlay { request: missing, weight: 0.5 }], &mut mixed).is_err()
    );
}

#[test]
fn a_transition_fades_the_sequence_left_over_a_fifth_of_a_second() {
    assert_eq!(transition_weight(0.0), 1.0);
    assert!((transition_weight(0.05) - 0.75).abs() < 1e-6);
    assert!((transition_weight(0.1) - 0.5).abs() < 1e-6);
    assert_eq!(transition_weight(0.2), 0.0);
    assert_eq!(transition_weight(3.0), 0.0);
    assert_eq!(transition_weight(f32::NAN), 0.0);
    assert_eq!(transition_weight(-1.0), 1.0);
}
