//! Four bones at a time: a sequence table's keys, stored lane by lane (one bone per lane of a
//! `Vec4`), and sampled with the same arithmetic in every lane: each lane's rotation is the float
//! that a one-bone slerp, as the table planned it, gives (checked in the tests).
//!
//! A key's motion (`Same`, `Lerp`, `Slerp`, `SlerpShort`) changes from bone to bone and frame to
//! frame. A one-bone slerp branches on it; here every lane takes one path, and the motion is
//! stored as factors of 0 and 1 that make that path give each motion's own result (products with
//! 0 and 1 and sums with 0 are exact).

use glam::{Vec3A, Vec4};

use crate::fast::{sin_lanes, sin_series_lanes, transposed};
use crate::table::{FLIP, Key, Motion};
use crate::turn::LaneControllers;

/// Bones per group.
pub const LANES: usize = 4;

/// Four bones' keys at one keyframe, lane by lane. 256 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeyLanes {
    /// x, y, z and w of each lane's quaternion.
    quaternion: [Vec4; 4],
    /// The slerp angle towards the next key; 0 for a key that does not slerp.
    omega: Vec4,
    /// 1 / sin ω; 0 for a key that does not slerp.
    inv_sin: Vec4,
    /// 1 for a key that does not slerp (`Same`, `Lerp`), else 0.
    unslerped: Vec4,
    /// 1 for a `Lerp` key, else 0.
    lerped: Vec4,
    /// 0 where the slerp's sines take the short series (`SlerpShort`), else 1: it scales the
    /// three highest coefficients of [`crate::fast::SIN_SERIES`].
    long_series: Vec4,
    /// −1 where the next key's quaternion is negated for the slerp, else 1.
    flip: Vec4,
    /// Raw x, y and z position values.
    position: [Vec4; 3],
    /// Per axis, the step to the next key's raw value, or 0 where the position holds (raw
    /// values are 16-bit integers: the difference is exact).
    step: [Vec4; 3],
}

impl KeyLanes {
    /// The keys of four bones at one keyframe, and at the next (no `Full` motion).
    pub fn new(keys: [&Key; LANES], next: [&Key; LANES]) -> Self {
        let lanes = |f: &dyn Fn(&Key) -> f32| Vec4::from_array(keys.map(f));
        let raw = |keys: [&Key; LANES], d: usize| Vec4::from_array(keys.map(|k| f32::from(k.position[d])));
        let flag = |on: bool| if on { 1.0 } else { 0.0 };
        let moving = |d: usize| lanes(&|k| flag(k.hold & (1 << d) == 0));
        Self {
            quaternion: std::array::from_fn(|c| lanes(&|k| k.rotation[c])),
            omega: lanes(&|k| k.omega()),
            inv_sin: lanes(&|k| k.inv_sin()),
            unslerped: lanes(&|k| flag(matches!(k.motion, Motion::Same | Motion::Lerp))),
            lerped: lanes(&|k| flag(k.motion == Motion::Lerp)),
            long_series: lanes(&|k| flag(k.motion != Motion::SlerpShort)),
            flip: lanes(&|k| if k.hold & FLIP != 0 { -1.0 } else { 1.0 }),
            position: std::array::from_fn(|d| raw(keys, d)),
            step: std::array::from_fn(|d| (raw(next, d) - raw(keys, d)) * moving(d)),
        }
    }
}

/// Four bones' rotations and positions, lane by lane: one blend's sampled group, as the blend
/// mixes it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LaneBones {
    /// x, y, z and w of each lane's quaternion.
    pub rotation: [Vec4; 4],
    /// x, y and z of each lane's position.
    pub position: [Vec4; 3],
}

impl LaneBones {
    /// Each lane's quaternion and position.
    #[inline]
    pub fn bones(&self) -> ([Vec4; LANES], [Vec3A; LANES]) {
        let [x, y, z] = self.position;
        (transposed(self.rotation), transposed([x, y, z, Vec4::ZERO]).map(Vec3A::from_vec4))
    }
}

/// Four bones sampled together, and the part of their setup the sampling reads. Lanes past the
/// group's bones repeat its last bone, and its results.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The bone of each lane.
    pub bones: [usize; LANES],
    /// Default position, per axis.
    value: [Vec4; 3],
    /// Position scale, per axis.
    scale: [Vec4; 3],
    /// The controllers that move its bones, if any do.
    pub controllers: Option<Box<LaneControllers>>,
}

impl Group {
    /// The group of `bones` (one to four), with their default positions and scales.
    pub fn new(
        bones: &[usize],
        value: impl Fn(usize, usize) -> f32,
        scale: impl Fn(usize, usize) -> f32,
    ) -> Self {
        let bones: [usize; LANES] = std::array::from_fn(|lane| bones[lane.min(bones.len() - 1)]);
        let per_axis = |f: &dyn Fn(usize, usize) -> f32| {
            std::array::from_fn(|d| Vec4::from_array(bones.map(|b| f(b, d))))
        };
        Self { bones, value: per_axis(&value), scale: per_axis(&scale), controllers: None }
    }

    /// Samples the group between keyframes `k0` and `k1` at fraction `s`: each lane's rotation
    /// (the slerp the table planned from key to key) and position.
    #[inline]
    pub fn sample(&self, k0: &KeyLanes, k1: &KeyLanes, s: f32) -> LaneBones {
        let [x0, y0, z0, w0] = k0.quaternion;
        let [x1, y1, z1, w1] = k1.quaternion.map(|c| c * k0.flip);
        // The slerp's sines, by the long or (its highest coefficients zeroed) the short series.
        let series = sin_series_lanes(k0.long_series);
        let sin_p = sin_lanes(k0.omega * (1.0 - s), &series) * k0.inv_sin;
        let sin_q = sin_lanes(k0.omega * s, &series) * k0.inv_sin;
        let sclp = (k0.unslerped - k0.lerped * s) + sin_p;
        let sclq = k0.lerped * s + sin_q;
        // The raw values mixed as r1 + (r2 − r1) s (Valve's r1 (1 − s) + r2 s but for rounding;
        // a held channel's step is 0, which gives r1 exactly), then scaled.
        let position = |d: usize| self.value[d] + (k0.position[d] + k0.step[d] * s) * self.scale[d];
        LaneBones {
            rotation: [
                x0 * sclp + x1 * sclq,
                y0 * sclp + y1 * sclq,
                z0 * sclp + z1 * sclq,
                w0 * sclp + w1 * sclq,
            ],
            position: [position(0), position(1), position(2)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fast;
    use crate::sample::{BoneSetup, key_position};
    use crate::table::plan_slerp;

    fn angle_quaternion(angles: [f32; 3]) -> Vec4 {
        Vec4::from_array(crate::math::angle_quaternion(angles))
    }

    /// The slerp from key `k0` to key `k1` at `s` as the table plans it, one bone at a time,
    /// branching on the motion: what each lane of [`Group::sample`] must give.
    fn keyframe_slerp(k0: &Key, k1: &Key, s: f32) -> Vec4 {
        let p = k0.quaternion();
        let q = k1.quaternion();
        let flipped = if k0.hold & FLIP != 0 { -q } else { q };
        match k0.motion {
            Motion::Same => p,
            Motion::Full => fast::quaternion_slerp(p, q, s),
            Motion::Lerp => p * (1.0 - s) + flipped * s,
            Motion::Slerp => {
                let sclp = fast::sin_small((1.0 - s) * k0.omega()) * k0.inv_sin();
                let sclq = fast::sin_small(s * k0.omega()) * k0.inv_sin();
                p * sclp + flipped * sclq
            }
            Motion::SlerpShort => {
                let sclp = fast::sin_short((1.0 - s) * k0.omega()) * k0.inv_sin();
                let sclq = fast::sin_short(s * k0.omega()) * k0.inv_sin();
                p * sclp + flipped * sclq
            }
        }
    }

    /// A key at `angles` that slerps towards `next` as the table plans it, with position channels
    /// holding per `hold`.
    fn key(angles: [f32; 3], next: [f32; 3], position: [i16; 3], hold: u8) -> (Key, Vec4) {
        let q = angle_quaternion(angles);
        let mut key = Key { rotation: [q.x, q.y, q.z, q.w, 0.0, 0.0], position, hold, ..Key::default() };
        let next_q = angle_quaternion(next);
        if angles != next {
            plan_slerp(&mut key, next_q);
        }
        (key, next_q)
    }

    #[test]
    fn four_lanes_sample_as_the_one_bone_path_does() {
        let mut motions = std::collections::HashSet::new();
        let mut rng = studio_testing::Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.unit();
        for trial in 0..3000 {
            let mut pairs = Vec::new();
            for lane in 0..LANES {
                let a = [next() * 6.0 - 3.0, next() * 3.0 - 1.5, next() * 6.0 - 3.0];
                // Same, lerp (a hair apart), short and long slerps, and the far way round (flip).
                let step = match (trial + lane) % 5 {
                    0 => 0.0,
                    1 => 1e-5,
                    2 => 0.3,
                    3 => 1.5,
                    _ => 3.0,
                };
                let b = [a[0] + step * (next() - 0.5), a[1] + step * (next() - 0.5), a[2] + step];
                let raw = |v: f32| (v * 2000.0 - 1000.0) as i16;
                let (k0, q1) = key(a, b, [raw(next()), raw(next()), raw(next())], (next() * 8.0) as u8);
                let k1 = Key {
                    rotation: [q1.x, q1.y, q1.z, q1.w, 0.0, 0.0],
                    position: [raw(next()), raw(next()), raw(next())],
                    ..Key::default()
                };
                motions.insert(format!("{:?} {}", k0.motion, k0.hold & FLIP != 0));
                pairs.push((k0, k1));
            }
            let bones: Vec<studio_model::Bone> = (0..LANES)
                .map(|i| studio_model::Bone {
                    name: format!("bone {i}"),
                    parent: None,
                    flags: 0,
                    controllers: [None; 6],
                    value: [i as f32, -2.5, 7.0, 0.0, 0.0, 0.0],
                    scale: [0.01, 0.02 * i as f32, 0.5, 1.0, 1.0, 1.0],
                })
                .collect();
            let setups: Vec<BoneSetup> = bones.iter().map(BoneSetup::new).collect();
            let group = Group::new(&[0, 1, 2, 3], |b, d| bones[b].value[d], |b, d| bones[b].scale[d]);
            let (keys0, keys1) = (std::array::from_fn(|l| &pairs[l].0), std::array::from_fn(|l| &pairs[l].1));
            let row0 = KeyLanes::new(keys0, keys1);
            let row1 = KeyLanes::new(keys1, keys1);
            let s = [0.0, 0.25, 0.5, 0.999, -0.01][trial % 5];
            let (rotations, positions) = group.sample(&row0, &row1, s).bones();
            for (lane, (k0, k1)) in pairs.iter().enumerate() {
                assert_eq!(
                    rotations[lane],
                    keyframe_slerp(k0, k1, s),
                    "trial {trial} lane {lane}: {:?}",
                    k0.motion
                );
                // Valve's position (its mix in double) but for float rounding of the terms.
                let bone = &bones[lane];
                for (d, got) in positions[lane].to_array().into_iter().enumerate() {
                    let (r1, r2) = (f64::from(k0.position[d]), f64::from(k1.position[d]));
                    let r2 = if k0.hold & (1 << d) != 0 { r1 } else { r2 };
                    let (value, scale, s64) =
                        (f64::from(bone.value[d]), f64::from(bone.scale[d]), f64::from(s));
                    let exact = value + (r1 * (1.0 - s64) + r2 * s64) * scale;
                    let size = value.abs() + (r1.abs() + r2.abs()) * scale.abs();
                    let error = (f64::from(got) - exact).abs();
                    assert!(
                        error <= 4.0 * f64::from(f32::EPSILON) * size,
                        "trial {trial} lane {lane} axis {d}"
                    );
                }
                if k0.hold & 7 == 7 || s == 0.0 {
                    let one = key_position(&setups[lane], k0, k1, s);
                    assert_eq!(positions[lane], one, "held or at the key: the one-bone path's float");
                }
            }
        }
        for motion in ["Same false", "Lerp false", "Slerp false", "SlerpShort false", "Slerp true"] {
            assert!(motions.contains(motion), "{motion} not exercised: {motions:?}");
        }
    }
}
