//! The table path (bones sampled four to a group or one at a time, blends mixed in the table's
//! layout, then put in bone order) against the runs path (Valve's algorithm straight from the
//! run-length data), on the demo model, which needs nothing from `../shared`: every sequence,
//! its blends, the controllers (a z turn on the neck, a looping z turn on the rotor, a y turn on
//! the jaw) and motion extraction on bones in every kind of place in the table.

use std::sync::Arc;

use studio_model::motion::{STUDIO_X, STUDIO_Y, STUDIO_Z};
use studio_model::{Animation, BoneAnimation, Channel, Model, SequenceGroup};
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

/// The demo model with one rule of Valve's that its own sequences do not exercise: `aim`, its
/// one two-blend sequence, cut to `frames` frames, and, when `moved`, each bone that `aim`
/// leaves at its default in both blends (no channels) moved along x in blend 0 by a channel
/// that holds one value, 0.5 units more for each such bone (0.5, 1, 1.5…), while it keeps its
/// default in blend 1. Written by the writer and read back, so it is a model file like any
/// other. Returns the model, `aim` and the bones moved with their offsets.
fn demo_with_aim(frames: u32, moved: bool) -> (Model, usize, Vec<(usize, f32)>) {
    let mut model = demo();
    let aim = model.sequences.iter().position(|s| s.label == "aim").expect("the demo has aim");
    let seq = &model.sequences[aim];
    assert!(frames <= seq.num_frames, "the runs cover the frames");
    let animation = seq.animation.clone().expect("aim is animated");
    assert_eq!(animation.num_blends(), 2);
    let (blend0, blend1) = (animation.blend(0).unwrap(), animation.blend(1).unwrap());
    let mut data = model.animation_data(seq).to_vec();
    let mut bones: Vec<BoneAnimation> = blend0.iter().chain(blend1).copied().collect();
    let mut offsets = Vec::new();
    for b in (0..model.bones.len()).filter(|_| moved) {
        if blend0[b] != BoneAnimation::default() || blend1[b] != BoneAnimation::default() {
            continue;
        }
        let raw = 50 * i16::try_from(offsets.len() + 1).unwrap();
        let offset = u32::try_from(data.len()).unwrap();
        data.extend(studio_model::encode_channel(&vec![raw; frames as usize]).unwrap());
        bones[b].channels[0] = Some(Channel { offset });
        offsets.push((b, f32::from(raw) * model.bones[b].scale[0]));
    }
    assert!(!moved || offsets.len() >= 8, "aim leaves {} bones alone", offsets.len());
    let group = seq.group;
    let old = &model.sequence_groups[group];
    model.sequence_groups[group] = SequenceGroup::with_data(&old.label.clone(), &old.name.clone(), data);
    model.sequences[aim].num_frames = frames;
    model.sequences[aim].animation = Some(Animation::new(model.bones.len(), bones));
    let written = studio_model::write(&model).expect("the writer writes it");
    assert!(written.groups.is_empty() && written.textures.is_none());
    (Model::parse(&written.main).expect("it reads back"), aim, offsets)
}

#[test]
fn bones_held_still_in_both_blends_at_other_values_follow_the_blend() {
    // One frame, where every key of a bone that holds still is alike (and an earlier table
    // builder took such a bone for one that never changes, sampled once from blend 0), and the
    // eleven of aim.
    for frames in [1, 11] {
        let (model, aim, moved) = demo_with_aim(frames, true);
        let model = Arc::new(model);
        let original = Arc::new(demo_with_aim(frames, false).0);
        let mut evaluator = PoseEvaluator::new(model.clone());
        let mut before = PoseEvaluator::new(original.clone());
        let (mut pose, mut runs, mut expected) = (Pose::new(&model), Pose::new(&model), Pose::new(&original));
        // A bone's local x: its offset from its parent, in the parent's frame.
        let local_x = |pose: &Pose, b: usize| match model.bones[b].parent {
            Some(parent) => (pose.bones[parent].inverse() * pose.bones[b]).translation.x,
            None => pose.bones[b].translation.x,
        };
        for frame in [0.0, 0.5 * (frames - 1) as f32 + 0.25, frames as f32 - 1.0] {
            for blending in [0u8, 128, 255] {
                let request =
                    PoseRequest { sequence: aim, frame, blend: [blending, 0], ..PoseRequest::default() };
                evaluator.evaluate(&request, &mut pose).unwrap();
                evaluator.evaluate_from_runs(&request, &mut runs).unwrap();
                before.evaluate(&request, &mut expected).unwrap();
                assert!(evaluator.is_tabled(aim));
                // Each moved bone's x goes from default + offset (blend 0) to its default
                // (blend 1), as Valve's mix pos1 (1 − s) + pos2 s gives it, s = blending / 255.
                let s = f32::from(blending) / 255.0;
                for &(b, offset) in &moved {
                    let default = model.bones[b].value[0];
                    let want = (default + offset) * (1.0 - s) + default * s;
                    for (path, p) in [("table", &pose), ("runs", &runs)] {
                        let x = local_x(p, b);
                        assert!(
                            (x - want).abs() < 1e-4,
                            "{frames} frames, {path}, bone {b} ({}), frame {frame}, blending {blending}: \
                             x {x}, want {want}",
                            model.bones[b].name
                        );
                    }
                }
                if blending == 255 {
                    // All of blend 1, which is the original's: the same pose, bit for bit.
                    assert_eq!(pose.bones, expected.bones, "{frames} frames, frame {frame}");
                }
            }
        }
        assert!(table_and_runs_agree(model) > 50);
    }
}
