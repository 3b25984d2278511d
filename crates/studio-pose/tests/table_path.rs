//! The table path (bones sampled four to a group or one at a time, blends mixed in the table's
//! layout, then put in bone order) against the runs path (Valve's algorithm straight from the
//! run-length data), on the demo model, which needs nothing from `../shared`: every sequence,
//! its blends, the controllers (a z turn on the neck, a looping z turn on the rotor, a y turn on
//! the jaw) and motion extraction on bones in every kind of place in the table.

use std::sync::Arc;

use studio_model::Model;
use studio_model::motion::{STUDIO_X, STUDIO_Y, STUDIO_Z};
use studio_pose::{ControllerBytes, Pose, PoseEvaluator, PoseRequest};

fn demo() -> Model {
    let bytes = studio_demo::demo_bytes().expect("the demo model writes");
    Model::parse(&bytes).expect("the demo model parses")
}

const CONTROLLERS: [ControllerBytes; 3] = [
    ControllerBytes { user: [0; 4], mouth: 0 },
    ControllerBytes { user: [10, 100, 200, 250], mouth: 20 },
    ControllerBytes { user: [255; 4], mouth: 64 },
];

/// Evaluates every sequence at a spread of frames, blends and controllers from the tables and
/// from the runs, and returns how many poses were compared; panics where a value of the two
/// differs by more than the reference tolerance (`|a − r| ≤ 1e-4 × max(1, |r|)`).
fn table_and_runs_agree(model: Arc<Model>) -> usize {
    let mut evaluator = PoseEvaluator::new(model.clone());
    let (mut tabled, mut runs) = (Pose::new(&model), Pose::new(&model));
    let mut compared = 0;
    for (sequence, seq) in model.sequences.iter().enumerate() {
        let last = seq.frames() as f32 - 1.0;
        for frame in [0.0, 0.37, 1.5, (last - 0.001).max(0.0)] {
            for blend in [[0, 0], [90, 170], [255, 255]] {
                for controllers in CONTROLLERS {
                    let request = PoseRequest { sequence, frame, blend, controllers };
                    evaluator.evaluate(&request, &mut tabled).unwrap();
                    evaluator.evaluate_from_runs(&request, &mut runs).unwrap();
                    assert!(evaluator.is_tabled(sequence), "sequence {sequence} has a table");
                    for (b, (t, r)) in tabled.bones.iter().zip(&runs.bones).enumerate() {
                        let (t, r) = (t.to_cols_array(), r.to_cols_array());
                        for (i, (&a, &e)) in t.iter().zip(&r).enumerate() {
                            assert!(
                                (a - e).abs() <= 1e-4 * e.abs().max(1.0),
                                "{request:?} bone {b} element {i}: table {a} runs {e}"
                            );
                        }
                    }
                    compared += 1;
                }
            }
        }
    }
    compared
}

#[test]
fn the_demo_model_poses_the_same_from_its_tables_and_its_runs() {
    let model = demo();
    assert!(model.sequences.iter().any(|s| s.animation.as_ref().is_some_and(|a| a.num_blends() == 4)));
    // The jaw's y turn cannot follow the slerp: it is sampled alone. The neck's and the rotor's
    // z turns can: they are sampled in a group, which carries their controllers.
    let mut settled = 0;
    for sequence in &model.sequences {
        let table = studio_pose::table::build(&model, sequence).expect("a table");
        settled += table.settled().len();
        assert_eq!(table.singles(), [5], "{}", sequence.label);
        let turned: Vec<usize> =
            table.groups().iter().filter(|g| g.controllers.is_some()).flat_map(|g| g.bones).collect();
        assert!(turned.contains(&3) && turned.contains(&6), "{}: {turned:?}", sequence.label);
    }
    assert!(settled > 0, "some groups never change, and are sampled once");
    assert!(table_and_runs_agree(Arc::new(model)) > 100);
}

#[test]
fn motion_extraction_holds_the_motion_bone_wherever_the_table_samples_it() {
    // The root, a bone in a group, the turned neck, the looping rotor and the jaw (a y turn).
    for bone in [0, 1, 3, 6, 5, 15, 20] {
        let mut model = demo();
        for sequence in &mut model.sequences {
            sequence.motion_type |= STUDIO_X | STUDIO_Y | STUDIO_Z;
            sequence.motion_bone = Some(bone);
        }
        let model = Arc::new(model);
        table_and_runs_agree(model.clone());
        if bone == 0 {
            // The root's model-space translation is its local position: held at the origin.
            let mut evaluator = PoseEvaluator::new(model.clone());
            let mut pose = Pose::new(&model);
            for sequence in 0..model.sequences.len() {
                let request = PoseRequest { sequence, frame: 1.5, ..PoseRequest::default() };
                evaluator.evaluate(&request, &mut pose).unwrap();
                assert_eq!(pose.bones[0].translation, glam::Vec3A::ZERO, "sequence {sequence}");
            }
        }
    }
}
