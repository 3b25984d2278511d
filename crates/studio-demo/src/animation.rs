//! The critter's sequences, sampled from small motion functions into per-frame raw values and
//! run-length encoded as studiomdl does.

use glam::Vec3;
use studio_model::motion::{STUDIO_LX, STUDIO_X, STUDIO_XR, STUDIO_ZR};
use studio_model::{
    Animation, BoneAnimation, Channel, Event, Model, STUDIO_LOOPING, Sequence, SequenceGroup, encode_channel,
};

use crate::sin_turns as sin;
use crate::skeleton::{BONES, POSITION_SCALE, ROTATION_SCALE, bone};

/// Per bone: x, y, z offsets (units) and x, y, z rotations (radians) from the default pose.
type Offsets = [[f32; 6]; BONES.len()];

/// One sequence's description and its motion: offsets at a phase (0 at the first frame, 1 at
/// the last) for a blend.
struct SequenceDef {
    label: &'static str,
    frames: u32,
    fps: f32,
    looping: bool,
    activity: i32,
    blends: usize,
    blend_type: [i32; 2],
    blend_start: [f32; 2],
    blend_end: [f32; 2],
    motion_type: i32,
    linear_movement: Vec3,
    events: Vec<Event>,
    motion: fn(f32, usize) -> Offsets,
}

const X: usize = 0;
const Z: usize = 2;
const XR: usize = 3;
const YR: usize = 4;
const ZR: usize = 5;

fn idle(p: f32, _: usize) -> Offsets {
    let mut o = [[0.0; 6]; BONES.len()];
    o[bone::CHEST][YR] = 0.04 * sin(p);
    o[bone::HEAD][YR] = -0.03 * sin(p);
    o[bone::TAIL][ZR] = 0.35 * sin(p);
    o[bone::TAIL_TIP][ZR] = 0.5 * sin(p - 0.15);
    o[bone::L_ARM][XR] = 0.1 * sin(p);
    o[bone::R_ARM][XR] = -0.1 * sin(p);
    o
}

fn walk(p: f32, _: usize) -> Offsets {
    let mut o = [[0.0; 6]; BONES.len()];
    // The pelvis walks 64 units forward; motion extraction keeps it in place (STUDIO_X).
    o[bone::PELVIS][X] = 64.0 * p;
    o[bone::PELVIS][Z] = 0.8 * sin(2.0 * p);
    o[bone::L_THIGH][YR] = 0.55 * sin(p);
    o[bone::R_THIGH][YR] = -0.55 * sin(p);
    o[bone::L_SHIN][YR] = 0.45 * sin(p + 0.25).max(0.0);
    o[bone::R_SHIN][YR] = 0.45 * sin(p - 0.25).max(0.0);
    o[bone::L_FOOT][YR] = -0.3 * sin(p + 0.25).max(0.0);
    o[bone::R_FOOT][YR] = -0.3 * sin(p - 0.25).max(0.0);
    o[bone::L_ARM][ZR] = -0.4 * sin(p);
    o[bone::R_ARM][ZR] = -0.4 * sin(p);
    o[bone::TAIL][ZR] = 0.3 * sin(p);
    o
}

fn attack(p: f32, _: usize) -> Offsets {
    let mut o = [[0.0; 6]; BONES.len()];
    // Wind back until frame 8 of 20, strike by frame 10, recover.
    let swing = if p < 0.4 {
        -0.6 * p / 0.4
    } else if p < 0.5 {
        -0.6 + 2.0 * (p - 0.4) / 0.1
    } else {
        1.4 * (1.0 - (p - 0.5) / 0.5)
    };
    o[bone::R_ARM][ZR] = swing;
    o[bone::R_FOREARM][ZR] = 0.4 * swing;
    o[bone::CHEST][ZR] = 0.25 * swing;
    o[bone::JAW][YR] = if (0.35..0.6).contains(&p) { 0.5 } else { 0.0 };
    o
}

fn aim(p: f32, blend: usize) -> Offsets {
    let mut o = idle(p, 0);
    // Blend 0 looks 45° down, blend 1 45° up.
    let pitch = if blend == 0 { 1.0 } else { -1.0 };
    o[bone::CHEST][YR] += 0.35 * pitch;
    o[bone::NECK][YR] = 0.25 * pitch;
    o[bone::L_ARM][YR] = 0.5 * pitch;
    o[bone::R_ARM][YR] = 0.5 * pitch;
    o
}

fn look(p: f32, blend: usize) -> Offsets {
    let mut o = idle(p, 0);
    // Blends 0 and 2 look left, 1 and 3 right; 0 and 1 down, 2 and 3 up.
    let yaw = if blend.is_multiple_of(2) { 0.9 } else { -0.9 };
    let pitch = if blend < 2 { 0.45 } else { -0.45 };
    o[bone::HEAD][ZR] = yaw;
    o[bone::HEAD][YR] = pitch;
    o[bone::NECK][ZR] = 0.2 * yaw;
    o
}

fn definitions() -> Vec<SequenceDef> {
    let basic = |label, frames, fps, looping, activity, motion| SequenceDef {
        label,
        frames,
        fps,
        looping,
        activity,
        blends: 1,
        blend_type: [0; 2],
        blend_start: [0.0; 2],
        blend_end: [0.0; 2],
        motion_type: 0,
        linear_movement: Vec3::ZERO,
        events: Vec::new(),
        motion,
    };
    let event = |frame, event, options: &str| Event { frame, event, kind: 0, options: options.into() };
    vec![
        basic("idle", 31, 15.0, true, 1, idle),
        SequenceDef {
            motion_type: STUDIO_X | STUDIO_LX,
            linear_movement: Vec3::new(64.0, 0.0, 0.0),
            ..basic("walk", 25, 25.0, true, 3, walk)
        },
        SequenceDef {
            // Client event 5004 plays a sound.
            events: vec![event(8, 5004, "critter/bite.wav"), event(14, 5004, "critter/growl.wav")],
            ..basic("attack", 21, 20.0, false, 30, attack)
        },
        SequenceDef {
            blends: 2,
            blend_type: [STUDIO_XR, 0],
            blend_start: [-45.0, 0.0],
            blend_end: [45.0, 0.0],
            ..basic("aim", 11, 10.0, true, 1, aim)
        },
        SequenceDef {
            blends: 4,
            blend_type: [STUDIO_ZR, STUDIO_XR],
            blend_start: [60.0, 30.0],
            blend_end: [-60.0, -30.0],
            ..basic("look", 11, 10.0, true, 1, look)
        },
    ]
}

/// A raw animation value for an offset.
fn raw(offset: f32, scale: f32) -> i16 {
    (offset / scale).round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

/// The sequences, with their channels encoded into group 0's data.
pub fn sequences(model: &Model) -> (Vec<SequenceGroup>, Vec<Sequence>) {
    let mut data = Vec::new();
    let sequences = definitions()
        .into_iter()
        .map(|def| {
            let mut bones = Vec::new();
            for blend in 0..def.blends {
                let samples: Vec<Offsets> = (0..def.frames)
                    .map(|f| {
                        (def.motion)(
                            if def.frames > 1 { f as f32 / (def.frames - 1) as f32 } else { 0.0 },
                            blend,
                        )
                    })
                    .collect();
                for b in 0..model.bones.len() {
                    let mut animation = BoneAnimation::default();
                    for (dof, slot) in animation.channels.iter_mut().enumerate() {
                        let scale = if dof < 3 { POSITION_SCALE } else { ROTATION_SCALE };
                        let values: Vec<i16> = samples.iter().map(|s| raw(s[b][dof], scale)).collect();
                        *slot = encode_channel(&values).map(|bytes| {
                            let offset = data.len() as u32;
                            data.extend_from_slice(&bytes);
                            Channel { offset }
                        });
                    }
                    bones.push(animation);
                }
            }
            Sequence {
                label: def.label.into(),
                fps: def.fps,
                flags: if def.looping { STUDIO_LOOPING } else { 0 },
                activity: def.activity,
                activity_weight: 1,
                events: def.events,
                num_frames: def.frames,
                pivots: Vec::new(),
                motion_type: def.motion_type,
                motion_bone: Some(bone::PELVIS),
                linear_movement: def.linear_movement,
                bbmin: model.header.bbmin,
                bbmax: model.header.bbmax,
                num_blends: def.blends,
                anim_index: 0,
                blend_type: def.blend_type,
                blend_start: def.blend_start,
                blend_end: def.blend_end,
                group: 0,
                entry_node: 0,
                exit_node: 0,
                node_flags: 0,
                animation: Some(Animation::new(model.bones.len(), bones)),
            }
        })
        .collect();
    (vec![SequenceGroup::with_data("default", "", data)], sequences)
}
