//! Moving, rotating and scaling a whole version 10 model, and flipping its normals, as HLAM's
//! Transform panel does, but with its animations: every point of every pose of the model goes
//! to `R(s · p) + offset`, where `s` scales, `R` turns about the model's z axis (the game's up)
//! and `offset` moves.
//!
//! Where each thing lives decides how it follows (`goldsrc-geometry.md`, `goldsrc-sequences.md`):
//! - Bone positions, stored as `value + frame value × scale` in their parent's space, scale by
//!   scaling both `value` and `scale`, so no animation is re-encoded for a scale.
//! - Vertices, hit boxes and attachments are in their bone's space: they scale, and follow the
//!   bones for the rest.
//! - Root bones (no parent) are in model space: their position turns and moves, their z angle
//!   gains the turn (`AngleQuaternion` composes z, then y, then x, so a turn about z adds to the
//!   z angle exactly). A root bone whose x or y position is animated has its x and y channels
//!   decoded, turned and encoded again (studiomdl's runs), at one new scale for both.
//! - The eye position, the hull and view boxes, sequence boxes, linear movement and pivots are in
//!   model space; a turned box becomes the box round its turned corners.
//!
//! What the game does after reading a pose can defeat a transform: motion extraction zeroes the
//! motion bone's x, y or z position (`STUDIO_X`, `STUDIO_Y`, `STUDIO_Z`). Such axes swap for
//! turns by quarter turns; other turns, and moves along a zeroed axis, are reported.

use glam::{Quat, Vec3};
use studio_model::motion::{STUDIO_X, STUDIO_Y, STUDIO_Z};
use studio_model::{BoneAnimation, Channel, Model, decode_channel, encode_channel};

/// A transform of the whole model: scale, then turn about z, then move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelTransform {
    /// Uniform scale (positive).
    pub scale: f32,
    /// Turn about the model's z axis, degrees (counter-clockwise seen from above).
    pub rotate_z: f32,
    /// Move.
    pub offset: Vec3,
}

impl Default for ModelTransform {
    fn default() -> Self {
        Self { scale: 1.0, rotate_z: 0.0, offset: Vec3::ZERO }
    }
}

impl ModelTransform {
    fn rotation(&self) -> Quat {
        Quat::from_rotation_z(self.rotate_z.to_radians())
    }

    /// Where a model-space point goes.
    pub fn point(&self, p: Vec3) -> Vec3 {
        self.rotation() * (p * self.scale) + self.offset
    }

    /// Whether it changes nothing.
    pub fn is_identity(&self) -> bool {
        *self == Self::default()
    }

    /// A turn by a whole number of quarter turns, 0 to 3, if it is one.
    fn quarter_turns(&self) -> Option<u32> {
        let quarters = self.rotate_z / 90.0;
        (quarters.fract() == 0.0).then(|| quarters.rem_euclid(4.0) as u32)
    }

    /// A box of model space as the box round its transformed corners; an empty box (both
    /// corners at the origin: none given) stays empty.
    fn model_box(&self, (min, max): (Vec3, Vec3)) -> (Vec3, Vec3) {
        if min == Vec3::ZERO && max == Vec3::ZERO {
            return (min, max);
        }
        let mut out = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
        for i in 0..8 {
            let corner = Vec3::new(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            );
            let p = self.point(corner);
            out = (out.0.min(p), out.1.max(p));
        }
        out
    }
}

/// Why a model cannot be transformed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TransformError {
    /// A value is not a finite number, or the scale is not positive.
    #[error("the scale must be a positive number, and the turn and move finite numbers")]
    Invalid,
    /// A root bone's animation must be encoded again, and its sequence's group is not loaded.
    #[error(
        "sequence {0}'s animation is not loaded (its group file is missing), so its root motion cannot be turned"
    )]
    Unavailable(usize),
}

/// `model` transformed, with notes of what the game will not follow.
pub fn transform(model: &Model, t: &ModelTransform) -> Result<(Model, Vec<String>), TransformError> {
    let finite = t.scale.is_finite() && t.rotate_z.is_finite() && t.offset.is_finite();
    if !finite || t.scale <= 0.0 {
        return Err(TransformError::Invalid);
    }
    let mut out = model.clone();
    let mut notes = Vec::new();
    scale_bone_space(&mut out, t.scale);
    let h = &mut out.header;
    h.eye_position = t.point(h.eye_position);
    (h.min, h.max) = t.model_box((h.min, h.max));
    (h.bbmin, h.bbmax) = t.model_box((h.bbmin, h.bbmax));
    let quarter_turns = t.quarter_turns();
    for (i, sequence) in out.sequences.iter_mut().enumerate() {
        (sequence.bbmin, sequence.bbmax) = t.model_box((sequence.bbmin, sequence.bbmax));
        sequence.linear_movement = t.rotation() * (sequence.linear_movement * t.scale);
        for pivot in &mut sequence.pivots {
            pivot.org = t.point(pivot.org);
        }
        let root_motion =
            sequence.motion_bone.is_some_and(|b| model.bones.get(b).is_some_and(|b| b.parent.is_none()));
        if !root_motion {
            continue;
        }
        let (x, y) = (sequence.motion_type & STUDIO_X != 0, sequence.motion_type & STUDIO_Y != 0);
        match quarter_turns {
            Some(q) if q % 2 == 1 && x != y => sequence.motion_type ^= STUDIO_X | STUDIO_Y,
            Some(_) => {}
            None if x != y => notes.push(format!(
                "sequence {} ({}): the game zeroes its motion bone's {} position, which a turn of {}° cannot follow",
                i,
                sequence.label,
                if x { "x" } else { "y" },
                t.rotate_z
            )),
            None => {}
        }
        let zeroed = [STUDIO_X, STUDIO_Y, STUDIO_Z].map(|flag| sequence.motion_type & flag != 0);
        let moved = t.offset.to_array();
        if (0..3).any(|axis| zeroed[axis] && moved[axis] != 0.0) {
            notes.push(format!(
                "sequence {} ({}): the game zeroes its motion bone's position along an axis the move goes along",
                i, sequence.label
            ));
        }
    }
    let turn = t.rotate_z.to_radians();
    let roots: Vec<usize> = (0..out.bones.len()).filter(|&b| out.bones[b].parent.is_none()).collect();
    for &b in &roots {
        let bone = &mut out.bones[b];
        let position = t.rotation() * Vec3::from_slice(&bone.value[..3]) + t.offset;
        bone.value[..3].copy_from_slice(&position.to_array());
        bone.value[5] += turn;
        if t.rotate_z != 0.0 {
            turn_root_channels(&mut out, b, t.rotation())?;
        }
    }
    for controller in &out.bone_controllers {
        if roots.contains(&controller.bone)
            && matches!(controller.degree_of_freedom(), Some(0 | 1))
            && t.rotate_z != 0.0
        {
            notes.push(format!(
                "bone controller on {} moves it along x or y, which the turn does not follow",
                out.bones[controller.bone].name
            ));
        }
    }
    Ok((out, notes))
}

/// Scales every position stored in a bone's space, and the bone positions themselves.
fn scale_bone_space(model: &mut Model, s: f32) {
    for bone in &mut model.bones {
        for axis in 0..3 {
            bone.value[axis] *= s;
            bone.scale[axis] *= s;
        }
    }
    for controller in &mut model.bone_controllers {
        if matches!(controller.degree_of_freedom(), Some(0..=2)) {
            controller.start *= s;
            controller.end *= s;
        }
    }
    for part in &mut model.body_parts {
        for submodel in &mut part.submodels {
            for vertex in &mut submodel.vertices {
                *vertex *= s;
            }
            submodel.bounding_radius *= s;
        }
    }
    for hitbox in &mut model.hitboxes {
        hitbox.bbmin *= s;
        hitbox.bbmax *= s;
    }
    for attachment in &mut model.attachments {
        attachment.org *= s;
    }
}

/// The x and y position channels of root bone `bone` in every sequence and blend turned by
/// `rotation`: decoded to offsets from the rest position, turned, and encoded again at one
/// scale for both axes.
fn turn_root_channels(model: &mut Model, bone: usize, rotation: Quat) -> Result<(), TransformError> {
    let (scale_x, scale_y) = (model.bones[bone].scale[0], model.bones[bone].scale[1]);
    // Each animated (sequence, blend): its frames' turned offsets.
    let mut turned: Vec<(usize, usize, Vec<[f32; 2]>)> = Vec::new();
    let mut largest = 0f32;
    for (s, sequence) in model.sequences.iter().enumerate() {
        let Some(animation) = &sequence.animation else { continue };
        for blend in 0..animation.num_blends() {
            let Some(channels) = animation.blend(blend).and_then(|b| b.get(bone)).map(|b| b.channels) else {
                continue;
            };
            if channels[0].is_none() && channels[1].is_none() {
                continue;
            }
            if model.group_of(sequence).is_some_and(|g| !g.is_available()) {
                return Err(TransformError::Unavailable(s));
            }
            let frames = sequence.frames() as usize;
            let decode = |channel: Option<Channel>| {
                channel.map_or_else(|| vec![0; frames], |c| decode_channel(model.runs(sequence, c), frames))
            };
            let (xs, ys) = (decode(channels[0]), decode(channels[1]));
            let offsets: Vec<[f32; 2]> = xs
                .iter()
                .zip(&ys)
                .map(|(&x, &y)| {
                    let d = rotation * Vec3::new(f32::from(x) * scale_x, f32::from(y) * scale_y, 0.0);
                    largest = largest.max(d.x.abs()).max(d.y.abs());
                    [d.x, d.y]
                })
                .collect();
            turned.push((s, blend, offsets));
        }
    }
    if turned.is_empty() {
        return Ok(());
    }
    let step = scale_x.abs().max(scale_y.abs()).max(largest / f32::from(i16::MAX)).max(f32::MIN_POSITIVE);
    model.bones[bone].scale[0] = step;
    model.bones[bone].scale[1] = step;
    for (s, blend, offsets) in turned {
        let mut channels = [None, None];
        for (axis, channel) in channels.iter_mut().enumerate() {
            let values: Vec<i16> = offsets
                .iter()
                .map(|d| (d[axis] / step).round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16)
                .collect();
            if let Some(bytes) = encode_channel(&values) {
                *channel = Some(model.append_channel(s, &bytes).ok_or(TransformError::Unavailable(s))?);
            }
        }
        if let Some(animation) = model.sequences[s].animation.as_mut()
            && let Some(slot) = animation.blend_mut(blend).and_then(|b| b.get_mut(bone))
        {
            let BoneAnimation { channels: old } = *slot;
            *slot = BoneAnimation { channels: [channels[0], channels[1], old[2], old[3], old[4], old[5]] };
        }
    }
    Ok(())
}

/// `model` with every normal turned round (each mesh lit from its other side).
pub fn flip_normals(model: &Model) -> Model {
    let mut out = model.clone();
    for part in &mut out.body_parts {
        for submodel in &mut part.submodels {
            for normal in &mut submodel.normals {
                *normal = -*normal;
            }
        }
    }
    out
}
