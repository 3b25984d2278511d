//! One bone of one animation at a frame (source-animdata.md, "Value streams", "Rotation of one
//! bone", "Position of one bone"): values read from the checked streams of a chain.

use glam::{Quat, Vec3};
use studio_source::{BoneRecord, Channel, STUDIO_ANIM_DELTA};

use crate::quaternion::{from_euler, nlerp};

/// Reads the 2-byte entry `index` of the stream at `start`; 0 outside the file (a checked
/// stream never is).
fn entry(bytes: &[u8], start: u64, index: u64) -> i16 {
    let at = start.saturating_add(index.saturating_mul(2));
    usize::try_from(at)
        .ok()
        .and_then(|at| bytes.get(at..at.checked_add(2)?))
        .map_or(0, |b| i16::from_le_bytes([b[0], b[1]]))
}

fn header(bytes: &[u8], at: u64) -> (u64, u64) {
    let raw = entry(bytes, at, 0).to_le_bytes();
    (u64::from(raw[0]), u64::from(raw[1]))
}

/// `ExtractAnimValue`: the stream's values at frame `frame` and `frame + 1` (the second from
/// the same run when it can be, else the next run's first value).
pub fn values(bytes: &[u8], start: u64, frame: u32) -> (f32, f32) {
    let (valid, total) = header(bytes, start);
    // A first run of one value for one frame: that value at both frames.
    if valid == 1 && total == 1 {
        let v = f32::from(entry(bytes, start, 1));
        return (v, v);
    }
    let mut k = u64::from(frame);
    let mut at = start;
    let (mut valid, mut total) = (valid, total);
    // Checked streams cover their frames with runs of at least one frame: this ends.
    while total <= k && total > 0 {
        k -= total;
        at += 2 * (valid + 1);
        (valid, total) = header(bytes, at);
    }
    if valid > k {
        let v1 = entry(bytes, at, k + 1);
        let v2 = if valid > k + 1 {
            entry(bytes, at, k + 2)
        } else if total > k + 1 {
            v1
        } else {
            entry(bytes, at, valid + 2)
        };
        (f32::from(v1), f32::from(v2))
    } else {
        let v1 = entry(bytes, at, valid);
        let v2 = if total > k + 1 { v1 } else { entry(bytes, at, valid + 2) };
        (f32::from(v1), f32::from(v2))
    }
}

/// The bone's default values a record is decoded against.
#[derive(Clone, Copy, Debug)]
pub struct BoneBase {
    /// Default position.
    pub position: Vec3,
    /// Default rotation.
    pub quaternion: Quat,
    /// Default rotation as Euler angles.
    pub rotation: Vec3,
    /// Position scale.
    pub position_scale: Vec3,
    /// Rotation scale.
    pub rotation_scale: Vec3,
}

impl BoneBase {
    /// A bone's defaults and scales.
    pub fn of(bone: &studio_source::Bone) -> Self {
        Self {
            position: bone.position,
            quaternion: bone.quaternion,
            rotation: bone.rotation,
            position_scale: bone.position_scale,
            rotation_scale: bone.rotation_scale,
        }
    }
}

/// `CalcBoneQuaternion`: the record's rotation at frame `frame` and fraction `s`.
pub fn rotation(bytes: &[u8], record: &BoneRecord, base: &BoneBase, frame: u32, s: f32) -> Quat {
    let delta = record.flags & STUDIO_ANIM_DELTA != 0;
    match record.rotation {
        Channel::Raw(q) => q,
        Channel::Default => {
            if delta {
                Quat::IDENTITY
            } else {
                base.quaternion
            }
        }
        Channel::Streams(streams) => {
            let (a1, a2) = angles(bytes, &streams, base, delta, frame);
            if s > 0.001 && a1 != a2 { nlerp(from_euler(a1), from_euler(a2), s) } else { from_euler(a1) }
        }
    }
}

/// The Euler angles of a rotation with streams at `frame` and `frame + 1`: scaled stream values,
/// plus the bone's default angles unless the record is a delta.
pub fn angles(
    bytes: &[u8],
    streams: &[Option<u64>; 3],
    base: &BoneBase,
    delta: bool,
    frame: u32,
) -> (Vec3, Vec3) {
    let mut a1 = Vec3::ZERO;
    let mut a2 = Vec3::ZERO;
    for axis in 0..3 {
        if let Some(start) = streams[axis] {
            let (v1, v2) = values(bytes, start, frame);
            a1[axis] = v1 * base.rotation_scale[axis];
            a2[axis] = v2 * base.rotation_scale[axis];
        }
    }
    if !delta {
        a1 += base.rotation;
        a2 += base.rotation;
    }
    (a1, a2)
}

/// `CalcBonePosition`: the record's position at frame `frame` and fraction `s`.
pub fn position(bytes: &[u8], record: &BoneRecord, base: &BoneBase, frame: u32, s: f32) -> Vec3 {
    let delta = record.flags & STUDIO_ANIM_DELTA != 0;
    match record.position {
        Channel::Raw(p) => p,
        Channel::Default => {
            if delta {
                Vec3::ZERO
            } else {
                base.position
            }
        }
        Channel::Streams(streams) => {
            let mut p = Vec3::ZERO;
            for axis in 0..3 {
                if let Some(start) = streams[axis] {
                    let (v1, v2) = values(bytes, start, frame);
                    let (v1, v2) = (v1 * base.position_scale[axis], v2 * base.position_scale[axis]);
                    p[axis] = if s > 0.001 { v1 * (1.0 - s) + v2 * s } else { v1 };
                }
            }
            if delta { p } else { p + base.position }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream: runs of (valid, total, values).
    fn stream(runs: &[(u8, u8, &[i16])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (valid, total, values) in runs {
            out.extend([*valid, *total]);
            for v in *values {
                out.extend(v.to_le_bytes());
            }
        }
        out
    }

    #[test]
    fn runs_with_fewer_values_than_frames_repeat_the_last() {
        // Frames 0-2: 10, 20, 20 (valid 2 < total 3); frames 3-4: 30, 40.
        let bytes = stream(&[(2, 3, &[10, 20]), (2, 2, &[30, 40])]);
        assert_eq!(values(&bytes, 0, 0), (10.0, 20.0));
        assert_eq!(values(&bytes, 0, 1), (20.0, 20.0), "the run repeats its last value");
        assert_eq!(values(&bytes, 0, 2), (20.0, 30.0), "the run's last frame looks into the next run");
        assert_eq!(values(&bytes, 0, 3), (30.0, 40.0));
    }

    #[test]
    fn a_single_value_first_run_holds_for_both_frames() {
        let bytes = stream(&[(1, 1, &[7]), (1, 1, &[9])]);
        assert_eq!(values(&bytes, 0, 0), (7.0, 7.0));
        assert_eq!(values(&bytes, 0, 1), (7.0, 7.0), "the shortcut looks no further, whatever the frame");
    }
}
