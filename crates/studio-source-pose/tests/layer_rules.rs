//! Three rules of `CBoneSetup::AccumulatePose` and its layers (source-sdk-2013,
//! `src/public/bone_setup.cpp`, `studio.cpp`) that no shared fixture exercises, each on a
//! fixture made here from a shared one by changing a few fields, with the expected pose worked
//! from the engine's rule rather than read from the evaluator's own path:
//!
//! 1. a sequence at weight 0 still records its IK locks, runs its layers and solves the locks
//!    (only `SlerpBones` does nothing at weight 0);
//! 2. a `STUDIO_REALTIME` sequence plays at `fract(time × cycles per second)` whatever cycle it
//!    is given (`CalcPoseSingle`), shown or layered;
//! 3. a `STUDIO_AL_POSE` layer finds its pose parameter through the layer sequence's own group
//!    (`GetSharedPoseParameter(iRelativeSeq(sequence, iSequence), iPose)`).

mod common;

use glam::{Affine3A, Vec3A};
use serde_json::Value;
use studio_source::{SourceFiles, SourceModel, parse_set};
use studio_source_pose::{LocalPose, Rig, Scratch, SourceRequest, evaluate, ik_lock, matrices_into, params};
use studio_testing::source_mdl::{
    AUTOLAYER_SIZE, POSE_PARAM_COUNT, POSE_PARAM_INDEX, POSE_PARAM_SIZE, SEQ_AUTOLAYERS, SEQ_FLAGS,
    SEQ_INDEX, SEQDESC_SIZE, append, i32_at, name, record, set_f32, set_i32,
};

const FIXTURE: &str = "fixtures/source/models/fixture";

/// `STUDIO_REALTIME`.
const STUDIO_REALTIME: i32 = 0x100;
/// `STUDIO_AL_POSE`.
const STUDIO_AL_POSE: i32 = 0x4000;

/// anim48's sequences used here.
const WALK: usize = 2;
const WAVE_DELTA: usize = 8;
const IDLE_WAVE: usize = 9;
const AIM_DELTA3: usize = 10;
const WALK_AIM: usize = 11;
const CROUCH_LOCK: usize = 12;

/// anim48 with its companions, its `.mdl` changed by `change`; and its reference.
fn anim48(change: impl FnOnce(&mut Vec<u8>)) -> Option<(SourceModel, Value)> {
    common::anim48_changed(change)
}

/// Sequence `i`'s record, checked by its label.
fn sequence(mdl: &[u8], i: usize, label: &str) -> usize {
    let at = record(mdl, SEQ_INDEX, SEQDESC_SIZE, i);
    assert_eq!(name(mdl, at, 4).1, label, "sequence {i}");
    at
}

/// Sequence `seq`'s first autolayer record.
fn first_layer(mdl: &[u8], seq: usize) -> usize {
    assert!(i32_at(mdl, seq + SEQ_AUTOLAYERS) >= 1, "the sequence has a layer");
    seq + usize::try_from(i32_at(mdl, seq + SEQ_AUTOLAYERS + 4)).unwrap()
}

/// An `mstudioautolayer_t`.
fn layer_bytes(sequence: i16, pose: i16, flags: i32, [start, peak, tail, end]: [f32; 4]) -> Vec<u8> {
    let mut out = Vec::with_capacity(AUTOLAYER_SIZE);
    out.extend(sequence.to_le_bytes());
    out.extend(pose.to_le_bytes());
    out.extend(flags.to_le_bytes());
    for v in [start, peak, tail, end] {
        out.extend(v.to_le_bytes());
    }
    out
}

/// The default pose parameters of `rig`, normalised, with `changes` (name, value in units).
fn normalised(rig: &Rig<'_>, changes: &[(&str, f32)]) -> Vec<f32> {
    rig.pose_parameters
        .iter()
        .map(|p| match changes.iter().find(|(n, _)| *n == p.name) {
            Some(&(_, value)) => params::normalise(p, value),
            None => params::default_value(p),
        })
        .collect()
}

/// The pose of `sequence` at `cycle` and clock `time`.
fn pose(
    model: &SourceModel,
    sequence: usize,
    cycle: f32,
    time: f32,
    changes: &[(&str, f32)],
) -> Vec<Affine3A> {
    let rig = Rig::new(model);
    let params = normalised(&rig, changes);
    evaluate(
        &rig,
        &SourceRequest {
            sequence,
            cycle,
            params: &params,
            controllers: None,
            time,
            autoplay: false,
            layers: &[],
        },
    )
}

/// The largest difference between two poses' matrices, element by element.
fn difference(a: &[Affine3A], b: &[Affine3A]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .flat_map(|(a, b)| a.to_cols_array().into_iter().zip(b.to_cols_array()).map(|(x, y)| (x - y).abs()))
        .fold(0.0, f32::max)
}

/// A reference pose's bone matrices: `label` at `cycle` with aim_yaw at `aim_yaw` (the other
/// pose parameters as the reference has them there).
fn reference_pose(reference: &Value, label: &str, cycle: f64, aim_yaw: f64) -> Vec<Affine3A> {
    let pose = reference["poses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["label"] == label && p["cycle"] == cycle && p["params"]["aim_yaw"] == aim_yaw)
        .unwrap_or_else(|| panic!("the reference has {label} at cycle {cycle}, aim_yaw {aim_yaw}"));
    pose["bones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rows| {
            let r: Vec<f32> = rows.as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
            Affine3A::from_cols(
                Vec3A::new(r[0], r[4], r[8]),
                Vec3A::new(r[1], r[5], r[9]),
                Vec3A::new(r[2], r[6], r[10]),
                Vec3A::new(r[3], r[7], r[11]),
            )
        })
        .collect()
}

/// The local pose whose bone-to-model matrices are `world`: each bone relative to its parent.
fn local_pose(model: &SourceModel, world: &[Affine3A]) -> LocalPose {
    let mut pose = LocalPose::defaults(model);
    for (i, bone) in model.bones.iter().enumerate() {
        let parent = bone.parent.map_or(Affine3A::IDENTITY, |p| world[p]);
        let (_, rotation, translation) = (parent.inverse() * world[i]).to_scale_rotation_translation();
        pose.rotations[i] = rotation.normalize();
        pose.positions[i] = translation;
    }
    pose
}

/// Rule 1. walk_aim layers aim_delta3 on aim_yaw from −45 (start) to −15 (peak): at aim_yaw
/// −45 the ramp gives s = 0 and aim_delta3 is accumulated at weight 0, as in the HL2
/// case. aim_delta3 is given a layer of its own, always on (start = end), on crouch_lock, whose
/// two leg locks it then runs at weight 0 × 1 = 0. crouch_lock adds nothing to the pose, but its
/// locks are recorded on the pose before it and solved after: a sequence lock records no knee
/// position, so the solve still turns the legs. Expected, at each cycle: walk_aim's reference
/// pose there (aim_yaw −45, move_x 1, spin 0: the layer adds nothing) with crouch_lock's locks
/// solved on it.
#[test]
fn a_sequence_at_weight_zero_still_runs_its_layers_and_locks() {
    let changed = anim48(|mdl| {
        let walk_aim = sequence(mdl, WALK_AIM, "walk_aim");
        let aim_delta3 = sequence(mdl, AIM_DELTA3, "aim_delta3");
        sequence(mdl, CROUCH_LOCK, "crouch_lock");
        let layer = first_layer(mdl, walk_aim);
        assert_eq!(i16::from_le_bytes([mdl[layer], mdl[layer + 1]]), AIM_DELTA3 as i16);
        assert_eq!(i32_at(mdl, aim_delta3 + SEQ_AUTOLAYERS), 0);
        let inner = append(mdl, &layer_bytes(CROUCH_LOCK as i16, 0, 0, [0.0; 4]));
        set_i32(mdl, aim_delta3 + SEQ_AUTOLAYERS, 1);
        set_i32(mdl, aim_delta3 + SEQ_AUTOLAYERS + 4, i32::try_from(inner - aim_delta3).unwrap());
    });
    let Some((model, reference)) = changed else { return };
    let seq = &model.sequences;
    assert_eq!((seq[WALK_AIM].layers[0].start, seq[WALK_AIM].layers[0].peak), (-45.0, -15.0));
    assert_eq!(seq[AIM_DELTA3].layers.len(), 1);
    let locks = &seq[CROUCH_LOCK].ik_locks;
    assert_eq!(locks.len(), 2, "crouch_lock locks both legs");
    let at = [("move_x", 1.0), ("aim_yaw", -45.0), ("spin", 0.0)];
    let (mut moved, mut off) = (0.0f32, 0.0f32);
    for cycle in [0.0, 0.1, 0.25, 0.37, 0.5, 0.63, 0.75, 0.9] {
        // The engine's order on the pose without the layer: AddSequenceLocks, SlerpBones
        // (nothing at weight 0), SolveSequenceLocks.
        let without = reference_pose(&reference, "walk_aim", cycle, -45.0);
        let mut expected_local = local_pose(&model, &without);
        let mut scratch = Scratch::default();
        let recorded = ik_lock::record(&model, locks, &expected_local, &mut scratch);
        ik_lock::solve(&model, &recorded, &mut expected_local, &mut scratch);
        let mut expected = Vec::new();
        matrices_into(&model, &expected_local, &mut expected);
        moved = moved.max(difference(&expected, &without));
        let got = pose(&model, WALK_AIM, cycle as f32, 0.0, &at);
        off = off.max(difference(&got, &expected));
    }
    eprintln!("rule 1: the locks move the legs by up to {moved}; the evaluator is off by up to {off}");
    assert!(moved > 0.01, "the lock solve moves the legs ({moved})");
    assert!(off < 1e-3, "walk_aim at aim_yaw −45 is off by {off} from the locks solved at weight 0");
}

/// Rule 2, shown: walk marked `STUDIO_REALTIME` plays at the clock's cycle, whatever cycle it is
/// given: at time 0 its reference pose at cycle 0, at time (k + c) / rate its pose at cycle c.
#[test]
fn a_realtime_sequence_plays_on_the_clock() {
    let changed = anim48(|mdl| {
        let walk = sequence(mdl, WALK, "walk");
        let flags = i32_at(mdl, walk + SEQ_FLAGS);
        set_i32(mdl, walk + SEQ_FLAGS, flags | STUDIO_REALTIME);
    });
    let Some((model, reference)) = changed else { return };
    let walk = &model.animations[2];
    assert_eq!(walk.name, "@walk");
    // `Studio_CPS` of a one-animation sequence: fps / (frames − 1).
    let rate = f64::from(walk.fps) / f64::from(walk.frames - 1);
    let mut worst = 0.0f32;
    for (given, time, played) in
        [(0.25, 0.0, 0.0), (0.9, (1.0 + 0.25) / rate, 0.25), (0.1, 0.63 / rate, 0.63)]
    {
        let got = pose(&model, WALK, given as f32, time as f32, &[]);
        let expected = reference_pose(&reference, "walk", played, 0.0);
        let at_given = reference_pose(&reference, "walk", given, 0.0);
        assert!(difference(&at_given, &expected) > 1.0, "the cycle given would give another pose");
        let off = difference(&got, &expected);
        worst = worst.max(off);
        assert!(off < 2e-3, "walk given cycle {given} at time {time}: off by {off} from cycle {played}");
    }
    eprintln!("rule 2 (shown): worst difference from the clock's cycle {worst}");
}

/// Rule 2, layered: wave_delta (idle_wave's layer) marked `STUDIO_REALTIME`. At idle_wave's
/// cycle 0.45 the layer is on its plateau (weight 1) and would play at (0.45 − 0.1) / 0.8 =
/// 0.4375; on the clock it plays at L = fract(time × rate). Expected: the same model without
/// `STUDIO_REALTIME` and with a layer range that maps cycle 0.45 to L at weight 1 (start = peak
/// = 0.45 − L / 2, tail = end = start + 0.5).
#[test]
fn a_realtime_layer_plays_on_the_clock() {
    let realtime = anim48(|mdl| {
        let wave = sequence(mdl, WAVE_DELTA, "wave_delta");
        let flags = i32_at(mdl, wave + SEQ_FLAGS);
        set_i32(mdl, wave + SEQ_FLAGS, flags | STUDIO_REALTIME);
    });
    let Some((model, _)) = realtime else { return };
    let wave = &model.animations[18];
    assert_eq!(wave.name, "@wave_delta");
    let rate = wave.fps / (wave.frames - 1) as f32;
    let (parent_cycle, played) = (0.45f32, 0.2f32);
    let time = (3.0 + played) / rate;
    let start = parent_cycle - played / 2.0;
    let (equivalent, _) = anim48(|mdl| {
        let idle_wave = sequence(mdl, IDLE_WAVE, "idle_wave");
        let layer = first_layer(mdl, idle_wave);
        let flags = i32_at(mdl, layer + 4);
        mdl[layer..layer + AUTOLAYER_SIZE].copy_from_slice(&layer_bytes(
            WAVE_DELTA as i16,
            0,
            flags,
            [start, start, start + 0.5, start + 0.5],
        ));
    })
    .unwrap();
    let (plain, _) = anim48(|_| {}).unwrap();
    let got = pose(&model, IDLE_WAVE, parent_cycle, time, &[]);
    let expected = pose(&equivalent, IDLE_WAVE, parent_cycle, 0.0, &[]);
    let at_parent_cycle = pose(&plain, IDLE_WAVE, parent_cycle, 0.0, &[]);
    let apart = difference(&expected, &at_parent_cycle);
    assert!(apart > 0.01, "the layer at cycle {played} and at 0.4375 differ ({apart})");
    let off = difference(&got, &expected);
    eprintln!(
        "rule 2 (layered): the layer's two cycles give poses {apart} apart; the evaluator is off by {off}"
    );
    assert!(off < 1e-4, "the realtime layer is off by {off} from its clock's cycle");
}

/// Rule 3. include48.mdl (group 0) gets a second pose parameter, `aim` (−90 to 90);
/// include48_anims.mdl (group 1) has only `move_x`. Its inc_layered's layer is made a
/// `STUDIO_AL_POSE` layer on local pose parameter 1 (ramp 10, 20, 40, 60) of its local sequence
/// 0, `ref`, which the render model supplies (group 0). The engine reads the parameter in
/// group 0's list: `aim`. In group 1's list there is no parameter 1. Expected: with aim at 30
/// (on the plateau) the layer is on at weight 1 and the parent's cycle, as a layer with
/// start = end is; with aim at 5 it is off.
#[test]
fn a_pose_layer_reads_its_parameter_through_the_layer_sequences_group() {
    let Some(shared) = studio_testing::shared() else { return };
    let read = |file: &str| studio_testing::read(&shared, &format!("{FIXTURE}/{file}"));
    let mut render = read("include48.mdl");
    // The pose parameter table moved to the end, with `aim` after `move_x`.
    assert_eq!(i32_at(&render, POSE_PARAM_COUNT), 1);
    let old = record(&render, POSE_PARAM_INDEX, POSE_PARAM_SIZE, 0);
    let (move_x_name, move_x) = name(&render, old, 0);
    assert_eq!(move_x, "move_x");
    let aim_name = append(&mut render, b"aim\0");
    let mut table = render[old..old + POSE_PARAM_SIZE].to_vec();
    let mut aim = vec![0u8; POSE_PARAM_SIZE];
    set_f32(&mut aim, 8, -90.0);
    set_f32(&mut aim, 12, 90.0);
    table.extend(aim);
    let at = append(&mut render, &table);
    let relative = |to: usize, from: usize| i32::try_from(to as i64 - from as i64).unwrap();
    set_i32(&mut render, at, relative(move_x_name, at));
    set_i32(&mut render, at + POSE_PARAM_SIZE, relative(aim_name, at + POSE_PARAM_SIZE));
    set_i32(&mut render, POSE_PARAM_COUNT, 2);
    set_i32(&mut render, POSE_PARAM_INDEX, i32::try_from(at).unwrap());

    let anims = read("include48_anims.mdl");
    let layered = |layer: Vec<u8>| {
        let mut anims = anims.clone();
        let inc_layered = sequence(&anims, 4, "inc_layered");
        let at = first_layer(&anims, inc_layered);
        anims[at..at + AUTOLAYER_SIZE].copy_from_slice(&layer);
        let (vvd, vtx) = (read("include48.vvd"), read("include48.dx90.vtx"));
        let files = SourceFiles {
            mdl: &render,
            vvd: Some(&vvd),
            vtx: Some(&vtx),
            ani: None,
            includes: vec![Some(&anims)],
        };
        parse_set(&files).unwrap()
    };
    let pose_layer = layered(layer_bytes(0, 1, STUDIO_AL_POSE, [10.0, 20.0, 40.0, 60.0]));
    assert!(pose_layer.warnings.is_empty(), "{:?}", pose_layer.warnings);
    let always = layered(layer_bytes(0, 0, 0, [0.0; 4]));
    let mut without = layered(layer_bytes(0, 0, 0, [0.0; 4]));
    without.includes[0].as_mut().unwrap().sequences[4].layers.clear();

    let rig = Rig::new(&pose_layer);
    let names: Vec<&str> = rig.pose_parameters.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["move_x", "aim"]);
    let inc_layered = (0..rig.num_sequences()).find(|&i| rig.label(i) == Some("inc_layered")).unwrap();
    let target = rig.local_sequence(rig.sequence(inc_layered).unwrap().group, 0).unwrap();
    assert_eq!(rig.sequence(inc_layered).unwrap().group, 1, "inc_layered is the include model's");
    assert_eq!(rig.sequence(target).unwrap().group, 0, "its layer's ref is the render model's");

    let cycle = 0.4;
    let on = pose(&pose_layer, inc_layered, cycle, 0.0, &[("aim", 30.0)]);
    let expected_on = pose(&always, inc_layered, cycle, 0.0, &[("aim", 30.0)]);
    let off = pose(&pose_layer, inc_layered, cycle, 0.0, &[("aim", 5.0)]);
    let expected_off = pose(&without, inc_layered, cycle, 0.0, &[("aim", 5.0)]);
    let apart = difference(&expected_on, &expected_off);
    assert!(apart > 0.01, "the layer changes the pose ({apart})");
    let (d_on, d_off) = (difference(&on, &expected_on), difference(&off, &expected_off));
    eprintln!("rule 3: the layer moves bones by up to {apart}; off by {d_on} (aim 30) and {d_off} (aim 5)");
    assert!(d_on < 1e-5, "aim 30: the layer should be on ({d_on})");
    assert!(d_off < 1e-5, "aim 5: the layer should be off ({d_off})");
}

/// A fourth rule found with the three: a sequence's layers are given the cycle it was given,
/// not the one its animations are read at (`CalcPoseSingle` takes the cycle by value, and
/// `AddSequenceLayers` gets `AccumulatePose`'s own). spin_pose (`STUDIO_CYCLEPOSE`, its cycle
/// from `spin`) is given a layer on wave_delta with a range of 0 to 1 and no ramp, so the layer
/// plays at the cycle it is given, at weight 1. At cycle 0.45 and spin 288° (the animation read
/// at 0.8) the layer plays at 0.45. Expected: a copy whose layer maps 0.8 to 0.45 (start = peak
/// = 0.35, tail = end = 1.35), given cycle 0.8, where both rules agree.
#[test]
fn a_sequences_layers_get_the_cycle_it_was_given() {
    const SPIN_POSE: usize = 14;
    let with_layer = |range: [f32; 4]| {
        anim48(|mdl| {
            let spin_pose = sequence(mdl, SPIN_POSE, "spin_pose");
            assert_eq!(i32_at(mdl, spin_pose + SEQ_AUTOLAYERS), 0);
            let layer = append(mdl, &layer_bytes(WAVE_DELTA as i16, 0, 0, range));
            set_i32(mdl, spin_pose + SEQ_AUTOLAYERS, 1);
            set_i32(mdl, spin_pose + SEQ_AUTOLAYERS + 4, i32::try_from(layer - spin_pose).unwrap());
        })
    };
    let Some((given, _)) = with_layer([0.0, 0.0, 1.0, 1.0]) else { return };
    let (mapped, _) = with_layer([0.35, 0.35, 1.35, 1.35]).unwrap();
    let rig = Rig::new(&given);
    let spin = rig.pose_parameters.iter().find(|p| p.name == "spin").unwrap();
    let read_at = params::normalise(spin, 288.0);
    assert!((read_at - 0.8).abs() < 1e-6, "spin 288 reads the animation at {read_at}");
    let got = pose(&given, SPIN_POSE, 0.45, 0.0, &[("spin", 288.0)]);
    let expected = pose(&mapped, SPIN_POSE, read_at, 0.0, &[("spin", 288.0)]);
    let at_read_cycle = pose(&given, SPIN_POSE, read_at, 0.0, &[("spin", 288.0)]);
    let apart = difference(&expected, &at_read_cycle);
    assert!(apart > 0.01, "the layer at 0.45 and at 0.8 differ ({apart})");
    let off = difference(&got, &expected);
    eprintln!(
        "layers' cycle: the layer's two cycles give poses {apart} apart; the evaluator is off by {off}"
    );
    assert!(off < 1e-5, "spin_pose's layer is off by {off} from the cycle it was given");
}
