//! Sampling one blend of a sequence at a fractional frame into bone-local rotations and
//! positions: `StudioCalcRotations` without the blending. Two paths give the same result: from
//! a [`SequenceTable`] (the fast one) and straight from the runs (for sequences without a table,
//! and as the reference the table is tested against).

use studio_model::{Bone, Model, Sequence};

use crate::channel::{PositionKey, position_key, rotation_pair};
use crate::fast;
use crate::lanes::LaneBones;
use glam::{Vec3A, Vec4};

use crate::math::{angle_quaternion, quaternion_slerp};
use crate::table::{Key, SequenceTable};

/// Bone-local rotations and positions of every bone, for one blend.
#[derive(Clone, Debug, Default)]
pub struct LocalPose {
    /// Rotation of each bone relative to its parent, as Valve's (x, y, z, w).
    pub rotations: Vec<Vec4>,
    /// Position of each bone relative to its parent.
    pub positions: Vec<Vec3A>,
}

impl LocalPose {
    /// A pose of `bones` bones, all zero.
    pub fn new(bones: usize) -> Self {
        Self { rotations: vec![Vec4::ZERO; bones], positions: vec![Vec3A::ZERO; bones] }
    }
}

/// One blend sampled from a [`SequenceTable`], laid out as the table lays out its bones: each
/// group of four lane by lane, then the bones sampled one at a time. The blends are mixed in
/// this layout, and the result is put in bone order once ([`TablePose::scatter`]).
#[derive(Clone, Debug, Default)]
pub struct TablePose {
    /// Each group's bones.
    pub groups: Vec<LaneBones>,
    /// Each single bone's rotation.
    pub rotations: Vec<Vec4>,
    /// Each single bone's position.
    pub positions: Vec<Vec3A>,
}

impl TablePose {
    /// Makes room for `table`'s groups and single bones (allocating only to grow).
    pub fn fit(&mut self, table: &SequenceTable) {
        let (groups, singles) = (table.groups().len(), table.singles().len());
        if self.groups.len() < groups {
            self.groups.resize(groups, LaneBones::default());
        }
        if self.rotations.len() < singles {
            self.rotations.resize(singles, Vec4::ZERO);
            self.positions.resize(singles, Vec3A::ZERO);
        }
    }

    /// Puts `table`'s bones into `out` in bone order.
    pub fn scatter(&self, table: &SequenceTable, out: &mut LocalPose) {
        for (group, lanes) in table.groups().iter().zip(&self.groups) {
            let (rotations, positions) = lanes.bones();
            for (lane, &b) in group.bones.iter().enumerate() {
                (out.rotations[b], out.positions[b]) = (rotations[lane], positions[lane]);
            }
        }
        for ((&b, &rotation), &position) in table.singles().iter().zip(&self.rotations).zip(&self.positions) {
            (out.rotations[b], out.positions[b]) = (rotation, position);
        }
    }
}

/// A bone's fields as the per-pose path reads them, gathered once per model.
#[derive(Clone, Copy, Debug)]
pub struct BoneSetup {
    /// Default position.
    pub position_value: Vec3A,
    /// Position scale.
    pub position_scale: Vec3A,
    /// The controller of each degree of freedom.
    pub controllers: [Option<usize>; 6],
    /// Whether a controller moves one of its positions.
    pub position_controlled: bool,
}

impl BoneSetup {
    /// The setup of `bone`.
    pub fn new(bone: &Bone) -> Self {
        let v = bone.value;
        let c = bone.scale;
        Self {
            position_value: Vec3A::new(v[0], v[1], v[2]),
            position_scale: Vec3A::new(c[0], c[1], c[2]),
            controllers: bone.controllers,
            position_controlled: bone.controllers[..3].iter().any(Option::is_some),
        }
    }
}

/// The keyframe and fraction Valve samples for a requested frame: frames past the last one
/// read as 0 and frames below −0.01 as −0.01, as `StudioCalcRotations` guards them.
pub fn keyframe(sequence: &Sequence, frame: f32) -> (usize, f32) {
    let last = sequence.frames() as f32 - 1.0;
    let f = if !frame.is_finite() || frame > last {
        0.0
    } else if frame < -0.01 {
        -0.01
    } else {
        frame
    };
    let k = f as i32;
    let s = f - k as f32;
    // f ≤ frames − 1 makes k < frames; the clamp only guards float rounding of huge counts.
    (usize::try_from(k).unwrap_or(0).min(sequence.frames() as usize - 1), s)
}

/// A position as Valve computes it: `value + (r1 (1 − s) + s r2) · scale`, in C's mix of float
/// and double.
fn position(value: f32, scale: f32, r1: f32, r2: f32, s: f32, hold: bool) -> f32 {
    if hold {
        return value + r1 * scale;
    }
    let mixed = f64::from(r1) * (1.0 - f64::from(s)) + f64::from(s * r2);
    (f64::from(value) + mixed * f64::from(scale)) as f32
}

fn rotation_from_angles(a1: [f32; 3], a2: [f32; 3], s: f32) -> Vec4 {
    let q = if a1 == a2 {
        angle_quaternion(a1)
    } else {
        quaternion_slerp(angle_quaternion(a1), angle_quaternion(a2), s)
    };
    Vec4::from_array(q)
}

fn add_controller(controllers: &[Option<usize>; 6], dof: usize, adj: &[f32], value: &mut f32) {
    if let Some(c) = controllers[dof] {
        *value += adj[c];
    }
}

/// A pose's controller adjustments: per controller, its value and, for the table path, the sine
/// and cosine of half of it.
#[derive(Clone, Debug, Default)]
pub struct Adjustments {
    /// Radians or units per controller ([`crate::controllers::adjustments`]).
    pub values: Vec<f32>,
    /// Sine and cosine of half of each value.
    pub half_sin_cos: Vec<(f32, f32)>,
    /// The bytes they were computed for.
    bytes: Option<crate::ControllerBytes>,
}

impl Adjustments {
    /// Room for `controllers` controllers.
    pub fn new(controllers: usize) -> Self {
        Self { values: vec![0.0; controllers], half_sin_cos: vec![(0.0, 1.0); controllers], bytes: None }
    }

    /// Computes them for `bytes`, unless they are the bytes of the last call.
    pub fn set(&mut self, controllers: &[studio_model::BoneController], bytes: crate::ControllerBytes) {
        if self.bytes == Some(bytes) {
            return;
        }
        self.bytes = Some(bytes);
        crate::controllers::adjustments(controllers, bytes, &mut self.values);
        for (sc, &value) in self.half_sin_cos.iter_mut().zip(&self.values) {
            *sc = fast::sin_cos(value * 0.5);
        }
    }
}

/// Per `hold` bits: 1 for each position channel that moves, 0 for each that holds.
const MOVING: [Vec3A; 8] = [
    Vec3A::new(1.0, 1.0, 1.0),
    Vec3A::new(0.0, 1.0, 1.0),
    Vec3A::new(1.0, 0.0, 1.0),
    Vec3A::new(0.0, 0.0, 1.0),
    Vec3A::new(1.0, 1.0, 0.0),
    Vec3A::new(0.0, 1.0, 0.0),
    Vec3A::new(1.0, 0.0, 0.0),
    Vec3A::new(0.0, 0.0, 0.0),
];

/// Samples blend `blend` at keyframe `k` and fraction `s` from a table, with the fast
/// trigonometry of [`crate::fast`] (the keyframe slerps were set up ahead in the table) and
/// positions mixed in single precision, into `out` (fitted to the table by [`TablePose::fit`]).
/// `earlier`, when given, is another blend already sampled at the same frame: bones and groups
/// that share their keys with it are copied from it.
#[allow(clippy::too_many_arguments)]
pub fn sample_table(
    bones: &[BoneSetup],
    table: &SequenceTable,
    blend: usize,
    k: usize,
    s: f32,
    adj: &Adjustments,
    earlier: Option<(usize, &TablePose)>,
    out: &mut TablePose,
) {
    let group_spans = table.group_spans(blend);
    let earlier_groups = earlier.map(|(b, pose)| (table.group_spans(b), pose));
    // A pose fitted to the table ([`TablePose::fit`]) has room for every group.
    let sampled_groups = table.sampled().min(out.groups.len());
    let (sampled, settled) = out.groups.split_at_mut(sampled_groups);
    for (lanes, bones) in settled.iter_mut().zip(table.settled()) {
        *lanes = *bones;
    }
    for (g, ((group, span), lanes)) in table.groups().iter().zip(group_spans).zip(sampled).enumerate() {
        *lanes = match earlier_groups {
            Some((other_spans, other)) if other_spans[g] == *span => other.groups[g],
            _ => {
                let (k0, k1) = table.rows(*span, k);
                let mut lanes = group.sample(k0, k1, s);
                if let Some(controllers) = &group.controllers {
                    controllers.apply(&mut lanes, &adj.values, &adj.half_sin_cos);
                }
                lanes
            }
        };
    }
    let spans = table.spans(blend);
    let earlier_spans = earlier.map(|(b, pose)| (table.spans(b), pose));
    let outputs = out.rotations.iter_mut().zip(out.positions.iter_mut());
    for (i, ((&b, span), (rotation, position))) in table.singles().iter().zip(spans).zip(outputs).enumerate()
    {
        if let Some((other_spans, other)) = earlier_spans
            && other_spans[i] == *span
        {
            (*rotation, *position) = (other.rotations[i], other.positions[i]);
            continue;
        }
        let bone = &bones[b];
        let (k0, k1) = table.keys(*span, k);
        // Valve's own arithmetic, as on the runs path: the turns added to the angles, then
        // `AngleQuaternion` and `QuaternionSlerp` in double precision where C promotes.
        let turned = |key: &Key| {
            let mut angles = [key.rotation[0], key.rotation[1], key.rotation[2]];
            for (d, angle) in angles.iter_mut().enumerate() {
                add_controller(&bone.controllers, d + 3, &adj.values, angle);
            }
            angles
        };
        *rotation = rotation_from_angles(turned(k0), turned(k1), s);
        *position = key_position(bone, k0, k1, s);
        if bone.position_controlled {
            for d in 0..3 {
                add_controller(&bone.controllers, d, &adj.values, &mut position[d]);
            }
        }
    }
}

/// A bone's position between keys `k0` and `k1` at `s`, before controllers.
#[inline]
pub(crate) fn key_position(bone: &BoneSetup, k0: &Key, k1: &Key, s: f32) -> Vec3A {
    let raw = |key: &Key| Vec3A::new(key.position[0].into(), key.position[1].into(), key.position[2].into());
    let (r1, r2) = (raw(k0), raw(k1));
    // A held channel mixes with weight 0, which gives r1 exactly.
    let weight = MOVING[usize::from(k0.hold & 7)] * s;
    let mixed = r1 * (Vec3A::ONE - weight) + r2 * weight;
    bone.position_value + mixed * bone.position_scale
}

/// Samples blend `blend` of `sequence` at keyframe `k` and fraction `s` straight from its runs,
/// as Valve's code does.
pub fn sample_runs(
    model: &Model,
    sequence: &Sequence,
    blend: usize,
    k: usize,
    s: f32,
    adj: &[f32],
    out: &mut LocalPose,
) {
    let data = model.animation_data(sequence);
    let anims = sequence.animation.as_ref().and_then(|a| a.blend(blend)).unwrap_or_default();
    let frame = i32::try_from(k).unwrap_or(i32::MAX);
    let outputs = out.rotations.iter_mut().zip(out.positions.iter_mut());
    for ((bone, anim), (rotation, position_out)) in model.bones.iter().zip(anims).zip(outputs) {
        let mut a1 = [0.0f32; 3];
        let mut a2 = [0.0f32; 3];
        let controllers = &bone.controllers;
        for d in 0..3 {
            match anim.channels[d + 3] {
                Some(channel) => {
                    let (r1, r2) = rotation_pair(data, channel.offset as usize, frame);
                    a1[d] = bone.value[d + 3] + f32::from(r1) * bone.scale[d + 3];
                    a2[d] = bone.value[d + 3] + f32::from(r2) * bone.scale[d + 3];
                }
                None => (a1[d], a2[d]) = (bone.value[d + 3], bone.value[d + 3]),
            }
            add_controller(controllers, d + 3, adj, &mut a1[d]);
            add_controller(controllers, d + 3, adj, &mut a2[d]);
        }
        *rotation = rotation_from_angles(a1, a2, s);
        for d in 0..3 {
            position_out[d] = match anim.channels[d] {
                Some(channel) => match position_key(data, channel.offset as usize, frame) {
                    PositionKey::Lerp(r1, r2) => {
                        position(bone.value[d], bone.scale[d], f32::from(r1), f32::from(r2), s, false)
                    }
                    PositionKey::Hold(r1) => {
                        position(bone.value[d], bone.scale[d], f32::from(r1), 0.0, s, true)
                    }
                },
                None => bone.value[d],
            };
            add_controller(controllers, d, adj, &mut position_out[d]);
        }
    }
}
