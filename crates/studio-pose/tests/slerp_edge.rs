//! Valve's slerp negates `q` when |p − q|² > |p + q|² (each sum formed in float, in index
//! order), not when p · q < 0. For nearly perpendicular quaternions the two disagree, and the
//! slerp then goes the other way round: on a real model that made poses differ from the game's
//! by up to 1.6 in a rotation element. These tests find such pairs with a seeded search and
//! check that the fast path takes Valve's decision everywhere: in the slerp itself, in a
//! sequence's keyframe table, and in a written model evaluated by both of the evaluator's paths.

use std::sync::Arc;

use glam::{Vec3, Vec4};
use studio_model::motion::{STUDIO_XR, STUDIO_ZR};
use studio_model::{
    Animation, Bone, BoneAnimation, BoneController, Channel, Header, Model, STUDIO_LOOPING, Sequence,
    SequenceGroup, encode_channel,
};
use studio_pose::{ControllerBytes, Pose, PoseEvaluator, PoseRequest, fast, math};
use studio_testing::Rng;

/// A bone's rest rotation (x, y, z) and the z-rotation scale of a two-frame animation whose
/// second key turns z by that scale: the keys' angles, as Valve forms them.
#[derive(Clone, Copy, Debug)]
struct EdgeCase {
    rest: [f32; 3],
    scale: f32,
}

impl EdgeCase {
    fn angles(&self, raw_z: i16) -> [f32; 3] {
        let [x, y, z] = self.rest;
        [x, y, z + f32::from(raw_z) * self.scale]
    }

    fn quaternions(&self) -> (Vec4, Vec4) {
        let p = Vec4::from_array(math::angle_quaternion(self.angles(0)));
        let q = Vec4::from_array(math::angle_quaternion(self.angles(1)));
        (p, q)
    }
}

/// Whether the sign of the dot product and Valve's rule disagree for the pair.
fn disagrees(p: Vec4, q: Vec4) -> bool {
    (p.dot(q) < 0.0) != fast::valve_flips(p, q)
}

/// Seeded search: turning z by about π makes the two rotations' quaternions nearly
/// perpendicular (q = Rz(π + ε) p, so p · q = −sin(ε/2)).
fn edge_cases(seed: u64, wanted: usize) -> Vec<EdgeCase> {
    let mut rng = Rng::new(seed);
    let mut unit = || (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    let mut found = Vec::new();
    for _ in 0..2_000_000 {
        let rest = [unit() * 6.0 - 3.0, unit() * 3.0 - 1.5, unit() * 6.0 - 3.0];
        let scale = std::f32::consts::PI + (unit() - 0.5) * 2e-6;
        let case = EdgeCase { rest, scale };
        let (p, q) = case.quaternions();
        if disagrees(p, q) {
            found.push(case);
            if found.len() == wanted {
                break;
            }
        }
    }
    found
}

#[test]
fn the_search_finds_pairs_where_the_dot_sign_and_valves_rule_disagree() {
    let cases = edge_cases(9, 50);
    assert_eq!(cases.len(), 50, "the search should find 50 disagreeing pairs");
}

#[test]
fn fast_slerp_follows_valves_rule_on_the_edge() {
    for case in edge_cases(11, 200) {
        let (p, q) = case.quaternions();
        for t in [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0] {
            let fast = fast::quaternion_slerp(p, q, t).to_array();
            let valve = math::quaternion_slerp(p.to_array(), q.to_array(), t);
            for c in 0..4 {
                assert!((fast[c] - valve[c]).abs() < 1e-6, "{case:?} at {t}: {fast:?} vs Valve's {valve:?}");
            }
        }
    }
}

/// A one-bone model whose only sequence has two frames: the rest rotation, then z turned by
/// the case's scale; with `turn`, a controller (user input 0, −30° to 30°) turns that degree of
/// freedom (3 for x, 5 for z). Written and read back, so it is a file the game could load.
fn edge_model(case: &EdgeCase, turn: Option<usize>) -> Model {
    let mut model = Model::new(Header {
        name: "slerp_edge.mdl".into(),
        length: 0,
        eye_position: Vec3::ZERO,
        min: Vec3::splat(-1.0),
        max: Vec3::splat(1.0),
        bbmin: Vec3::splat(-1.0),
        bbmax: Vec3::splat(1.0),
        flags: 0,
    });
    let [x, y, z] = case.rest;
    let mut controllers = [None; 6];
    if let Some(dof) = turn {
        controllers[dof] = Some(0);
        let kind = if dof == 3 { STUDIO_XR } else { STUDIO_ZR };
        model.bone_controllers =
            vec![BoneController { bone: 0, kind, start: -30.0, end: 30.0, rest: 0, index: 0 }];
    }
    model.bones = vec![Bone {
        name: "edge".into(),
        parent: None,
        flags: 0,
        controllers,
        value: [1.0, 2.0, 3.0, x, y, z],
        scale: [1.0, 1.0, 1.0, 1.0, 1.0, case.scale],
    }];
    let mut data = Vec::new();
    let mut animation = BoneAnimation::default();
    animation.channels[5] = encode_channel(&[0, 1]).map(|bytes| {
        let offset = data.len() as u32;
        data.extend_from_slice(&bytes);
        Channel { offset }
    });
    model.sequence_groups = vec![SequenceGroup::with_data("default", "", data)];
    model.sequences = vec![Sequence {
        label: "edge".into(),
        fps: 10.0,
        flags: STUDIO_LOOPING,
        activity: 0,
        activity_weight: 0,
        events: Vec::new(),
        num_frames: 2,
        pivots: Vec::new(),
        motion_type: 0,
        motion_bone: None,
        linear_movement: Vec3::ZERO,
        bbmin: Vec3::splat(-1.0),
        bbmax: Vec3::splat(1.0),
        num_blends: 1,
        anim_index: 0,
        blend_type: [0; 2],
        blend_start: [0.0; 2],
        blend_end: [0.0; 2],
        group: 0,
        entry_node: 0,
        exit_node: 0,
        node_flags: 0,
        animation: Some(Animation::new(1, vec![animation])),
    }];
    let written = studio_model::write(&model).expect("the edge model writes");
    Model::parse(&written.main).expect("the written edge model parses")
}

#[test]
fn a_written_model_on_the_edge_poses_the_same_from_its_table_and_its_runs() {
    for case in edge_cases(13, 20) {
        let model = Arc::new(edge_model(&case, None));
        let mut evaluator = PoseEvaluator::new(model.clone());
        let (mut tabled, mut runs) = (Pose::new(&model), Pose::new(&model));
        for frame in [0.0, 0.2, 0.5, 0.8, 0.99] {
            let request =
                PoseRequest { sequence: 0, frame, blend: [0, 0], controllers: ControllerBytes::default() };
            evaluator.evaluate(&request, &mut tabled).unwrap();
            evaluator.evaluate_from_runs(&request, &mut runs).unwrap();
            assert!(evaluator.is_tabled(0), "the sequence is sampled from its table");
            let (a, b) = (tabled.bones[0], runs.bones[0]);
            assert!(a.abs_diff_eq(b, 1e-5), "{case:?} frame {frame}: table {a:?} vs runs {b:?}");
        }
    }
}

/// A controller's turn is composed with the keyframe slerp's result for bones sampled in groups
/// (`studio_pose::turn`), which decides the flip on the unturned keys. On the edge, rounding of
/// the turned keys could tip Valve's flip the other way, so such a bone is sampled one at a time
/// with the turn added to its angles; away from it, in a group. Either way the table agrees with
/// the runs at every turn.
#[test]
fn a_turned_bone_on_the_edge_is_sampled_alone_and_agrees_with_its_runs() {
    let ordinary = EdgeCase { rest: [0.3, -0.2, 0.5], scale: 0.25 };
    let cases = edge_cases(17, 10).into_iter().map(|case| (case, true)).chain([(ordinary, false)]);
    for (case, on_edge) in cases {
        for dof in [3, 5] {
            let model = Arc::new(edge_model(&case, Some(dof)));
            let table = studio_pose::table::build(&model, &model.sequences[0]).expect("a table");
            let alone = table.singles() == [0];
            assert_eq!(alone, on_edge, "{case:?} dof {dof}: sampled alone");
            let mut evaluator = PoseEvaluator::new(model.clone());
            let (mut tabled, mut runs) = (Pose::new(&model), Pose::new(&model));
            for frame in [0.0, 0.3, 0.7] {
                for byte in [0, 40, 128, 255] {
                    let controllers = ControllerBytes { user: [byte, 0, 0, 0], mouth: 0 };
                    let request = PoseRequest { sequence: 0, frame, blend: [0, 0], controllers };
                    evaluator.evaluate(&request, &mut tabled).unwrap();
                    evaluator.evaluate_from_runs(&request, &mut runs).unwrap();
                    let (a, b) = (tabled.bones[0], runs.bones[0]);
                    assert!(
                        a.abs_diff_eq(b, 1e-5),
                        "{case:?} dof {dof} {request:?}: table {a:?} vs runs {b:?}"
                    );
                }
            }
        }
    }
}
