//! Per-sequence keyframe tables: a sequence's run-length channels decoded once into one row per
//! keyframe and bone, so a pose costs two row lookups per bone instead of walking runs and
//! computing Euler-to-quaternion trigonometry.
//!
//! Row `k` of a bone holds what Valve's lookups give for keyframe `k`: the rotation as a
//! quaternion (or, for a bone a controller turns, the raw angles, since the controller's
//! adjustment is added before the quaternion is formed), the raw position values, and which
//! position channels hold over the interval to `k + 1`. Valve's second keyframe is then row
//! `k + 1`, which the builder checks for every frame; one extra row holds the lookahead of the
//! last frame. A sequence where the check fails (only malformed run data can do that) gets no
//! table and is evaluated from its runs directly, as is one whose table would be too large.

use studio_model::{Model, Sequence};

use crate::channel::{PositionKey, position_key, rotation_pair};
use crate::math::{Quaternion, angle_quaternion};

/// Largest table built for one sequence; larger ones are evaluated from their runs.
pub const MAX_TABLE_BYTES: usize = 32 << 20;

/// One bone at one keyframe. 24 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Key {
    /// The rotation quaternion, or for a bone with rotation controllers the raw x, y, z angle
    /// values (before value and scale).
    pub rotation: Quaternion,
    /// Raw x, y, z position values (before value and scale).
    pub position: [i16; 3],
    /// Bit `d` set: position channel `d` holds its value to the next keyframe.
    pub hold: u8,
}

const _: () = assert!(size_of::<Key>() == 24);

/// A sequence's keyframes, `blends × (frames + 1) × bones` rows.
#[derive(Clone, Debug)]
pub struct SequenceTable {
    frames: usize,
    bones: usize,
    keys: Vec<Key>,
}

impl SequenceTable {
    /// The rows of one blend at keyframe `frame` (`frame ≤ frames`).
    pub fn row(&self, blend: usize, frame: usize) -> &[Key] {
        let start = (blend * (self.frames + 1) + frame) * self.bones;
        &self.keys[start..start + self.bones]
    }

    /// Bytes the table takes.
    pub fn bytes(&self) -> usize {
        self.keys.len() * size_of::<Key>()
    }
}

/// Whether a bone's rotation is adjusted by a controller (so its table stores raw angles).
pub fn has_rotation_controller(bone: &studio_model::Bone) -> bool {
    bone.controllers[3..].iter().any(Option::is_some)
}

/// Builds the table for a sequence, or `None` if it cannot be tabled exactly or would be too
/// large.
pub fn build(model: &Model, sequence: &Sequence) -> Option<SequenceTable> {
    let animation = sequence.animation.as_ref()?;
    let frames = sequence.frames() as usize;
    let bones = model.bones.len();
    let blends = animation.num_blends();
    let rows = blends.checked_mul(frames.checked_add(1)?)?.checked_mul(bones)?;
    if rows.checked_mul(size_of::<Key>())? > MAX_TABLE_BYTES {
        return None;
    }
    let data = model.animation_data(sequence);
    let mut keys = vec![Key::default(); rows];
    for blend in 0..blends {
        for (b, (bone, anim)) in model.bones.iter().zip(animation.blend(blend)?).enumerate() {
            let at = |frame: usize| (blend * (frames + 1) + frame) * bones + b;
            // Raw lookahead of the previous frame, which must equal this frame's keyframe.
            let mut expected_rotation = [0i16; 3];
            let mut expected_position: [Option<i16>; 3] = [None; 3];
            for frame in 0..frames {
                let k = i32::try_from(frame).ok()?;
                let mut key = Key::default();
                let mut next = [0i16; 3];
                let mut next_position = [0i16; 3];
                for d in 0..3 {
                    let (r1, r2) = match anim.channels[d + 3] {
                        Some(channel) => rotation_pair(data, channel.offset as usize, k),
                        None => (0, 0),
                    };
                    let (p1, p2, hold) = match anim.channels[d] {
                        Some(channel) => match position_key(data, channel.offset as usize, k) {
                            PositionKey::Lerp(a, b) => (a, b, false),
                            PositionKey::Hold(a) => (a, a, true),
                        },
                        None => (0, 0, true),
                    };
                    if frame > 0 && (expected_rotation[d] != r1 || expected_position[d].is_some_and(|e| e != p1)) {
                        return None;
                    }
                    key.rotation[d] = f32::from(r1);
                    key.position[d] = p1;
                    key.hold |= u8::from(hold) << d;
                    next[d] = r2;
                    next_position[d] = p2;
                    expected_rotation[d] = r2;
                    expected_position[d] = (!hold).then_some(p2);
                }
                keys[at(frame)] = key;
                if frame + 1 == frames {
                    keys[at(frames)] = Key {
                        rotation: [f32::from(next[0]), f32::from(next[1]), f32::from(next[2]), 0.0],
                        position: next_position,
                        hold: 0b111,
                    };
                }
            }
            if !has_rotation_controller(bone) {
                for frame in 0..=frames {
                    let key = &mut keys[at(frame)];
                    let angle = |d: usize| bone.value[d + 3] + key.rotation[d] * bone.scale[d + 3];
                    key.rotation = angle_quaternion([angle(0), angle(1), angle(2)]);
                }
            }
        }
    }
    Some(SequenceTable { frames, bones, keys })
}
