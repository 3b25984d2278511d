//! Four bones at a time: a sequence table's keys stored lane by lane (one bone per lane of a
//! `Vec4`), and sampled with the arithmetic of the one-bone path in [`crate::sample`], lane by
//! lane, so the results are the same floats.
//!
//! A key's motion (`Same`, `Lerp`, `Slerp`, `SlerpShort`) changes from bone to bone and frame to
//! frame. The one-bone path branches on it; here every lane takes one path, and the motion is
//! stored as factors of 0 and 1 that make that path give each motion's own result (products with
//! 0 and 1 and sums with 0 are exact). Bones a controller turns ([`TurnedGroup`]) keep their
//! keys' half-angle sines and cosines, and are turned and slerped four at a time too.

use glam::{Mat4, Vec3A, Vec4};

use crate::fast::{SIN_SERIES, quaternion_slerp_each, sin_lanes};
use crate::table::{FLIP, Key, Motion};

/// Bones per group.
pub const LANES: usize = 4;

/// Four bones' raw positions at one keyframe, lane by lane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PositionLanes {
    /// Raw x, y and z position values.
    position: [Vec4; 3],
    /// Per axis, 1 where the position moves towards the next key, 0 where it holds.
    moving: [Vec4; 3],
}

/// A `Vec4` of one value per key.
fn per_key(keys: &[&Key; LANES], f: impl Fn(&Key) -> f32) -> Vec4 {
    Vec4::from_array(keys.map(f))
}

/// 1.0 or 0.0.
fn flag(on: bool) -> f32 {
    if on { 1.0 } else { 0.0 }
}

impl PositionLanes {
    fn new(keys: &[&Key; LANES]) -> Self {
        Self {
            position: std::array::from_fn(|d| per_key(keys, |k| f32::from(k.position[d]))),
            moving: std::array::from_fn(|d| per_key(keys, |k| flag(k.hold & (1 << d) == 0))),
        }
    }
}

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
    /// three highest coefficients of [`SIN_SERIES`].
    long_series: Vec4,
    /// −1 where the next key's quaternion is negated for the slerp, else 1.
    flip: Vec4,
    positions: PositionLanes,
}

impl KeyLanes {
    /// The keys of four bones at one keyframe (of bones without rotation controllers, and with
    /// no `Full` motion).
    pub fn new(keys: [&Key; LANES]) -> Self {
        Self {
            quaternion: std::array::from_fn(|c| per_key(&keys, |k| k.rotation[c])),
            omega: per_key(&keys, |k| k.omega()),
            inv_sin: per_key(&keys, |k| k.inv_sin()),
            unslerped: per_key(&keys, |k| flag(matches!(k.motion, Motion::Same | Motion::Lerp))),
            lerped: per_key(&keys, |k| flag(k.motion == Motion::Lerp)),
            long_series: per_key(&keys, |k| flag(k.motion != Motion::SlerpShort)),
            flip: per_key(&keys, |k| if k.hold & FLIP != 0 { -1.0 } else { 1.0 }),
            positions: PositionLanes::new(&keys),
        }
    }
}

/// Four turned bones' keys at one keyframe, lane by lane: the sine and cosine of half of each
/// Euler angle before the controllers' adjustment (as [`Key::rotation`] holds them for such
/// bones), and the positions. 192 bytes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnedLanes {
    /// sin and cos of half the x angle, then of y, then of z.
    half: [Vec4; 6],
    positions: PositionLanes,
}

impl TurnedLanes {
    /// The keys of four bones with rotation controllers at one keyframe.
    pub fn new(keys: [&Key; LANES]) -> Self {
        Self {
            half: std::array::from_fn(|c| per_key(&keys, |k| k.rotation[c])),
            positions: PositionLanes::new(&keys),
        }
    }
}

/// Four bones sampled together, and the part of their setup the sampling reads. Lanes past the
/// group's bones repeat its last bone, and its results.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Group {
    /// The bone of each lane.
    pub bones: [usize; LANES],
    /// Default position, per axis.
    value: [Vec4; 3],
    /// Position scale, per axis.
    scale: [Vec4; 3],
}

/// Four rotations from their x, y, z and w lanes.
#[inline]
fn quaternions([x, y, z, w]: [Vec4; 4]) -> [Vec4; LANES] {
    let m = Mat4::from_cols(x, y, z, w).transpose();
    [m.x_axis, m.y_axis, m.z_axis, m.w_axis]
}

/// Four positions from their x, y and z lanes.
#[inline]
fn points([x, y, z]: [Vec4; 3]) -> [Vec3A; LANES] {
    let m = Mat4::from_cols(x, y, z, Vec4::ZERO).transpose();
    [m.x_axis, m.y_axis, m.z_axis, m.w_axis].map(Vec3A::from_vec4)
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
        Self { bones, value: per_axis(&value), scale: per_axis(&scale) }
    }

    /// The positions between keyframes `k0` and `k1` at `s`, per axis (as [`crate::sample`]'s
    /// `key_position`).
    #[inline]
    fn positions(&self, k0: &PositionLanes, k1: &PositionLanes, s: f32) -> [Vec4; 3] {
        std::array::from_fn(|d| {
            // A held channel mixes with weight 0, which gives the first value exactly.
            let weight = k0.moving[d] * s;
            let mixed = k0.position[d] * (Vec4::ONE - weight) + k1.position[d] * weight;
            self.value[d] + mixed * self.scale[d]
        })
    }

    /// Samples the group between keyframes `k0` and `k1` at fraction `s`: each lane's rotation
    /// (as [`crate::sample`]'s `keyframe_slerp`) and position.
    #[inline]
    pub fn sample(&self, k0: &KeyLanes, k1: &KeyLanes, s: f32) -> ([Vec4; LANES], [Vec3A; LANES]) {
        let [x0, y0, z0, w0] = k0.quaternion;
        let [x1, y1, z1, w1] = k1.quaternion.map(|c| c * k0.flip);
        // The slerp's sines, by the long or (its highest coefficients zeroed) the short series.
        let mut series = [Vec4::ZERO; 6];
        for (i, (out, &c)) in series.iter_mut().zip(&SIN_SERIES).enumerate() {
            *out = if i < 3 { k0.long_series * c } else { Vec4::splat(c) };
        }
        let sin_p = sin_lanes(k0.omega * (1.0 - s), &series) * k0.inv_sin;
        let sin_q = sin_lanes(k0.omega * s, &series) * k0.inv_sin;
        let sclp = (k0.unslerped - k0.lerped * s) + sin_p;
        let sclq = k0.lerped * s + sin_q;
        let rotations =
            [x0 * sclp + x1 * sclq, y0 * sclp + y1 * sclq, z0 * sclp + z1 * sclq, w0 * sclp + w1 * sclq];
        (quaternions(rotations), points(self.positions(&k0.positions, &k1.positions, s)))
    }
}

/// Four bones that controllers turn (and perhaps move), sampled together.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurnedGroup {
    /// The bones and their positions' setup.
    pub group: Group,
    /// Per lane, the controller of each degree of freedom (x, y, z, then the rotations).
    controllers: [[Option<usize>; 6]; LANES],
}

impl TurnedGroup {
    /// The group of `group`'s bones, whose controllers are `controllers(bone)`.
    pub fn new(group: Group, controllers: impl Fn(usize) -> [Option<usize>; 6]) -> Self {
        Self { controllers: group.bones.map(controllers), group }
    }

    /// Samples the group between keyframes `k0` and `k1` at fraction `s`, with each controller's
    /// value and sine and cosine of half of it (a pose's [`crate::sample::Adjustments`]): what
    /// [`crate::sample`]'s one-bone path does for a turned bone, lane by lane. An axis no
    /// controller turns is turned by (sin, cos) = (0, 1), and an axis no controller moves moved
    /// by 0, which leave each value as it is.
    #[inline]
    pub fn sample(
        &self,
        k0: &TurnedLanes,
        k1: &TurnedLanes,
        s: f32,
        values: &[f32],
        half_sin_cos: &[(f32, f32)],
    ) -> ([Vec4; LANES], [Vec3A; LANES]) {
        let turns: [(Vec4, Vec4); 3] = std::array::from_fn(|d| {
            let sc = self.controllers.map(|c| c[d + 3].map_or((0.0, 1.0), |c| half_sin_cos[c]));
            (Vec4::from_array(sc.map(|(sin, _)| sin)), Vec4::from_array(sc.map(|(_, cos)| cos)))
        });
        // `quaternion_from_half_angles` of the turned half angles.
        let turned = |key: &TurnedLanes| {
            let [(sr, cr), (sp, cp), (sy, cy)]: [(Vec4, Vec4); 3] = std::array::from_fn(|d| {
                let (sin, cos) = (key.half[2 * d], key.half[2 * d + 1]);
                let (sb, cb) = turns[d];
                (sin * cb + cos * sb, cos * cb - sin * sb)
            });
            [
                sr * cp * cy - cr * sp * sy,
                cr * sp * cy + sr * cp * sy,
                cr * cp * sy - sr * sp * cy,
                cr * cp * cy + sr * sp * sy,
            ]
        };
        let (p, q) = (turned(k0), turned(k1));
        // Where a key's angles equal the next key's, Valve makes no slerp.
        let same = (0..6).fold(glam::BVec4A::splat(true), |all, c| all & k0.half[c].cmpeq(k1.half[c]));
        let slerped = quaternion_slerp_each(p, q, s);
        let rotations: [Vec4; 4] = std::array::from_fn(|c| Vec4::select(same, p[c], slerped[c]));
        let mut positions = self.group.positions(&k0.positions, &k1.positions, s);
        for (d, axis) in positions.iter_mut().enumerate() {
            *axis += Vec4::from_array(self.controllers.map(|c| c[d].map_or(0.0, |c| values[c])));
        }
        (quaternions(rotations), points(positions))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fast::angle_quaternion;
    use crate::sample::{BoneSetup, key_position, keyframe_slerp};
    use crate::table::plan_slerp;

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
            let row0 = KeyLanes::new(std::array::from_fn(|l| &pairs[l].0));
            let row1 = KeyLanes::new(std::array::from_fn(|l| &pairs[l].1));
            let s = [0.0, 0.25, 0.5, 0.999, -0.01][trial % 5];
            let (rotations, positions) = group.sample(&row0, &row1, s);
            for (lane, (k0, k1)) in pairs.iter().enumerate() {
                assert_eq!(
                    rotations[lane],
                    keyframe_slerp(k0, k1, s),
                    "trial {trial} lane {lane}: {:?}",
                    k0.motion
                );
                assert_eq!(
                    positions[lane],
                    key_position(&setups[lane], k0, k1, s),
                    "trial {trial} lane {lane}"
                );
            }
        }
        for motion in ["Same false", "Lerp false", "Slerp false", "SlerpShort false", "Slerp true"] {
            assert!(motions.contains(motion), "{motion} not exercised: {motions:?}");
        }
    }

    /// The one-bone path for a turned bone, as `sample_table` had it: each half angle turned by its
    /// controller's, the quaternion formed, and slerped unless the keys' angles are the same.
    fn one_turned_bone(
        controllers: &[Option<usize>; 6],
        k0: &Key,
        k1: &Key,
        s: f32,
        half_sin_cos: &[(f32, f32)],
    ) -> Vec4 {
        let turned = |key: &Key| {
            let sc: [(f32, f32); 3] = std::array::from_fn(|d| {
                let (sin, cos) = (key.rotation[2 * d], key.rotation[2 * d + 1]);
                match controllers[d + 3] {
                    Some(c) => {
                        let (sb, cb) = half_sin_cos[c];
                        (sin * cb + cos * sb, cos * cb - sin * sb)
                    }
                    None => (sin, cos),
                }
            });
            crate::fast::quaternion_from_half_angles(sc)
        };
        if k0.rotation == k1.rotation {
            turned(k0)
        } else {
            crate::fast::quaternion_slerp(turned(k0), turned(k1), s)
        }
    }

    #[test]
    fn turned_lanes_sample_as_the_one_bone_path_does() {
        let mut rng = studio_testing::Rng::new(29);
        let mut next = move || rng.unit();
        let values = [0.3, -0.2, 1.5, 4.0];
        let half_sin_cos = values.map(|v: f32| ((v * 0.5).sin(), (v * 0.5).cos()));
        for trial in 0..3000 {
            let mut keys = Vec::new();
            let mut controllers = [[None; 6]; LANES];
            for (lane, lane_controllers) in controllers.iter_mut().enumerate() {
                let half = |a: f32| ((a * 0.5).sin(), (a * 0.5).cos());
                let angles = [next() * 6.0 - 3.0, next() * 3.0 - 1.5, next() * 6.0 - 3.0];
                // The same angles, a hair apart, and far apart.
                let step = [0.0, 1e-5, 0.4, 2.5][(trial + lane) % 4];
                let next_angles = angles.map(|a| a + step * (next() - 0.3));
                let key = |a: [f32; 3]| {
                    let [(sx, cx), (sy, cy), (sz, cz)] = a.map(half);
                    Key {
                        rotation: [sx, cx, sy, cy, sz, cz],
                        position: [7, -3, 100],
                        hold: 0b010,
                        ..Key::default()
                    }
                };
                for (d, c) in lane_controllers.iter_mut().enumerate() {
                    *c = (next() < 0.5).then(|| (trial + lane + d) % 4);
                }
                keys.push((key(angles), key(next_angles)));
            }
            let bones: Vec<studio_model::Bone> = (0..LANES)
                .map(|i| studio_model::Bone {
                    name: format!("bone {i}"),
                    parent: None,
                    flags: 0,
                    controllers: controllers[i],
                    value: [1.0, 2.0, i as f32, 0.0, 0.0, 0.0],
                    scale: [0.5, 0.25, 0.125, 1.0, 1.0, 1.0],
                })
                .collect();
            let group = TurnedGroup::new(
                Group::new(&[0, 1, 2, 3], |b, d| bones[b].value[d], |b, d| bones[b].scale[d]),
                |b| bones[b].controllers,
            );
            let row0 = TurnedLanes::new(std::array::from_fn(|l| &keys[l].0));
            let row1 = TurnedLanes::new(std::array::from_fn(|l| &keys[l].1));
            let s = [0.0, 0.3, 0.5, 0.999, -0.01][trial % 5];
            let (rotations, positions) = group.sample(&row0, &row1, s, &values, &half_sin_cos);
            for (lane, (k0, k1)) in keys.iter().enumerate() {
                let one = one_turned_bone(&controllers[lane], k0, k1, s, &half_sin_cos);
                assert_eq!(rotations[lane], one, "trial {trial} lane {lane}");
                let mut position = key_position(&BoneSetup::new(&bones[lane]), k0, k1, s);
                for d in 0..3 {
                    if let Some(c) = controllers[lane][d] {
                        position[d] += values[c];
                    }
                }
                assert_eq!(positions[lane], position, "trial {trial} lane {lane}");
            }
        }
    }
}
