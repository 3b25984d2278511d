//! The critter's bones, controllers, hit boxes and attachments. Z is up; it faces +X.

use glam::Vec3;
use studio_model::motion::{STUDIO_RLOOP, STUDIO_YR, STUDIO_ZR};
use studio_model::{Attachment, Bone, BoneController, Hitbox};

/// Position scale of every bone: units per raw animation step.
pub const POSITION_SCALE: f32 = 0.01;
/// Rotation scale of every bone: radians per raw animation step.
pub const ROTATION_SCALE: f32 = 0.0005;

/// Bone numbers, for the other modules.
pub mod bone {
    pub const PELVIS: usize = 0;
    pub const SPINE: usize = 1;
    pub const CHEST: usize = 2;
    pub const NECK: usize = 3;
    pub const HEAD: usize = 4;
    pub const JAW: usize = 5;
    pub const ROTOR: usize = 6;
    pub const L_ARM: usize = 7;
    pub const L_FOREARM: usize = 8;
    pub const L_HAND: usize = 9;
    pub const R_ARM: usize = 10;
    pub const R_FOREARM: usize = 11;
    pub const R_HAND: usize = 12;
    pub const L_THIGH: usize = 13;
    pub const L_SHIN: usize = 14;
    pub const L_FOOT: usize = 15;
    pub const R_THIGH: usize = 16;
    pub const R_SHIN: usize = 17;
    pub const R_FOOT: usize = 18;
    pub const TAIL: usize = 19;
    pub const TAIL_TIP: usize = 20;
}

/// A bone: name, parent, position relative to the parent, and the box round it (in its own
/// space, minimum and maximum corners) that the mesh and hit box use.
pub type BoneDef = (&'static str, Option<usize>, [f32; 3], [f32; 3], [f32; 3]);

/// The critter's bones.
pub const BONES: [BoneDef; 21] = [
    ("pelvis", None, [0.0, 0.0, 30.0], [-5.0, -6.0, -4.0], [5.0, 6.0, 4.0]),
    ("spine", Some(0), [0.0, 0.0, 4.0], [-4.0, -5.0, 0.0], [4.0, 5.0, 9.0]),
    ("chest", Some(1), [0.0, 0.0, 9.0], [-5.0, -8.0, 0.0], [6.0, 8.0, 10.0]),
    ("neck", Some(2), [0.0, 0.0, 10.0], [-2.0, -2.0, 0.0], [2.0, 2.0, 4.0]),
    ("head", Some(3), [0.0, 0.0, 4.0], [-5.0, -5.0, 0.0], [6.0, 5.0, 9.0]),
    ("jaw", Some(4), [5.0, 0.0, 1.0], [0.0, -3.5, -2.0], [6.0, 3.5, 0.0]),
    ("rotor", Some(4), [0.0, 0.0, 9.0], [-8.0, -1.0, 0.0], [8.0, 1.0, 0.6]),
    ("l_arm", Some(2), [0.0, 8.0, 7.0], [-2.0, 0.0, -2.0], [2.0, 9.0, 2.0]),
    ("l_forearm", Some(7), [0.0, 9.0, 0.0], [-1.8, 0.0, -1.8], [1.8, 8.0, 1.8]),
    ("l_hand", Some(8), [0.0, 8.0, 0.0], [-2.0, 0.0, -2.0], [3.5, 4.0, 2.0]),
    ("r_arm", Some(2), [0.0, -8.0, 7.0], [-2.0, -9.0, -2.0], [2.0, 0.0, 2.0]),
    ("r_forearm", Some(10), [0.0, -9.0, 0.0], [-1.8, -8.0, -1.8], [1.8, 0.0, 1.8]),
    ("r_hand", Some(11), [0.0, -8.0, 0.0], [-2.0, -4.0, -2.0], [3.5, 0.0, 2.0]),
    ("l_thigh", Some(0), [0.0, 4.5, -3.0], [-2.5, -2.5, -13.0], [2.5, 2.5, 0.0]),
    ("l_shin", Some(13), [0.0, 0.0, -13.0], [-2.0, -2.0, -12.0], [2.0, 2.0, 0.0]),
    ("l_foot", Some(14), [0.0, 0.0, -12.0], [-2.0, -2.2, -2.0], [7.0, 2.2, 0.0]),
    ("r_thigh", Some(0), [0.0, -4.5, -3.0], [-2.5, -2.5, -13.0], [2.5, 2.5, 0.0]),
    ("r_shin", Some(16), [0.0, 0.0, -13.0], [-2.0, -2.0, -12.0], [2.0, 2.0, 0.0]),
    ("r_foot", Some(17), [0.0, 0.0, -12.0], [-2.0, -2.2, -2.0], [7.0, 2.2, 0.0]),
    ("tail", Some(0), [-5.0, 0.0, 0.0], [-8.0, -1.5, -1.5], [0.0, 1.5, 1.5]),
    ("tail_tip", Some(19), [-8.0, 0.0, 1.0], [-7.0, -1.0, -1.0], [0.0, 1.0, 1.0]),
];

/// The skeleton, with the controllers' degrees of freedom marked.
pub fn bones() -> Vec<Bone> {
    let mut bones: Vec<Bone> = BONES
        .iter()
        .map(|&(name, parent, position, _, _)| Bone {
            name: name.into(),
            parent,
            flags: 0,
            controllers: [None; 6],
            value: [position[0], position[1], position[2], 0.0, 0.0, 0.0],
            scale: [
                POSITION_SCALE,
                POSITION_SCALE,
                POSITION_SCALE,
                ROTATION_SCALE,
                ROTATION_SCALE,
                ROTATION_SCALE,
            ],
        })
        .collect();
    bones[bone::NECK].controllers[5] = Some(0);
    bones[bone::ROTOR].controllers[5] = Some(1);
    bones[bone::JAW].controllers[4] = Some(2);
    bones
}

/// A head turn (user controller 0), a rotor that spins all the way round (user controller 1,
/// RLOOP) and the mouth (index 4).
pub fn controllers() -> Vec<BoneController> {
    vec![
        BoneController { bone: bone::NECK, kind: STUDIO_ZR, start: -60.0, end: 60.0, rest: 128, index: 0 },
        BoneController {
            bone: bone::ROTOR,
            kind: STUDIO_ZR | STUDIO_RLOOP,
            start: 0.0,
            end: 360.0,
            rest: 0,
            index: 1,
        },
        BoneController { bone: bone::JAW, kind: STUDIO_YR, start: 0.0, end: 35.0, rest: 0, index: 4 },
    ]
}

/// Hit boxes on the bones' boxes, in every one of Half-Life's hit groups 0–7.
pub fn hitboxes() -> Vec<Hitbox> {
    [
        (bone::TAIL, 0),
        (bone::TAIL_TIP, 0),
        (bone::HEAD, 1),
        (bone::JAW, 1),
        (bone::CHEST, 2),
        (bone::PELVIS, 3),
        (bone::SPINE, 3),
        (bone::L_ARM, 4),
        (bone::L_FOREARM, 4),
        (bone::R_ARM, 5),
        (bone::R_FOREARM, 5),
        (bone::L_THIGH, 6),
        (bone::L_SHIN, 6),
        (bone::R_THIGH, 7),
        (bone::R_SHIN, 7),
    ]
    .into_iter()
    .map(|(b, group)| {
        let (_, _, _, min, max) = BONES[b];
        Hitbox { bone: b, group, bbmin: Vec3::from_array(min), bbmax: Vec3::from_array(max) }
    })
    .collect()
}

/// The mouth and both hands.
pub fn attachments() -> Vec<Attachment> {
    [
        (bone::JAW, "mouth", [6.5, 0.0, -1.0]),
        (bone::L_HAND, "left_hand", [1.0, 4.5, 0.0]),
        (bone::R_HAND, "right_hand", [1.0, -4.5, 0.0]),
    ]
    .into_iter()
    .map(|(b, name, org)| Attachment {
        name: name.into(),
        kind: 0,
        bone: b,
        org: Vec3::from_array(org),
        vectors: [Vec3::ZERO; 3],
    })
    .collect()
}
