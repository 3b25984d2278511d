//! Bone controllers on bones sampled four at a time ([`crate::lanes`]): the controller's turn
//! composed with the keyframe slerp's result, and its move added to the position.
//!
//! Valve adds a rotation controller's angle to a bone's Euler angle before `AngleQuaternion`
//! (goldsrc-skeleton.md, "Bone controllers"; `StudioCalcBoneQuaterion`), in both keyframes, and
//! slerps the two. `AngleQuaternion` forms `Rz · Ry · Rx`, so a turn `t` added to the x angle is
//! `q(a) ⊗ Rx(t)` and one added to the z angle `Rz(t) ⊗ q(a)`. Turning both keyframes by the same
//! rotation leaves the angle between them, and so the slerp, as it was: the slerp of the turned
//! keys is the turned slerp. The table can then plan the slerp ahead, as for any other bone, and
//! a pose turns the result. A turn of the y angle sits between the other two and cannot be
//! composed this way; [`crate::table`] samples such bones one at a time, and it keeps in lanes
//! only bones whose Valve branches (the flip, the lerp and `VectorCompare` of the angles) decide
//! the same with the turn added, with a margin ([`crate::table`]'s `turns_after_slerp`).

use glam::Vec4;

use crate::lanes::{LANES, LaneBones};

/// The controllers that move a group's bones, lane by lane.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LaneControllers {
    /// Per lane, the controller adding to the x angle (`XR`), if any.
    pub turn_x: [Option<usize>; LANES],
    /// Per lane, the controller adding to the z angle (`ZR`), if any.
    pub turn_z: [Option<usize>; LANES],
    /// Per axis and lane, the controller adding to the position (`X`, `Y`, `Z`), if any.
    pub moves: [[Option<usize>; LANES]; 3],
}

impl LaneControllers {
    /// The controllers of bones whose `controllers` (per bone, Valve's six degrees of freedom)
    /// are given lane by lane; `None` when none of them has one.
    pub fn new(controllers: [[Option<usize>; 6]; LANES]) -> Option<Self> {
        controllers.iter().flatten().any(Option::is_some).then(|| Self {
            turn_x: controllers.map(|c| c[3]),
            turn_z: controllers.map(|c| c[5]),
            moves: std::array::from_fn(|d| controllers.map(|c| c[d])),
        })
    }

    /// Applies the controllers to a sampled group: `values` holds each controller's value and
    /// `half_sin_cos` the sine and cosine of half of it ([`crate::sample::Adjustments`]).
    #[inline]
    pub fn apply(&self, bones: &mut LaneBones, values: &[f32], half_sin_cos: &[(f32, f32)]) {
        // Per lane, sin and cos of half the turn; 0 and 1 (no turn) in a lane without one.
        let half = |lanes: &[Option<usize>; LANES]| {
            lanes.iter().any(Option::is_some).then(|| {
                let sc = lanes.map(|c| c.and_then(|c| half_sin_cos.get(c).copied()).unwrap_or((0.0, 1.0)));
                (Vec4::from_array(sc.map(|(s, _)| s)), Vec4::from_array(sc.map(|(_, c)| c)))
            })
        };
        if let Some((s, c)) = half(&self.turn_x) {
            // q ⊗ (s, 0, 0, c).
            let [x, y, z, w] = bones.rotation;
            bones.rotation = [w * s + x * c, y * c + z * s, z * c - y * s, w * c - x * s];
        }
        if let Some((s, c)) = half(&self.turn_z) {
            // (0, 0, s, c) ⊗ q.
            let [x, y, z, w] = bones.rotation;
            bones.rotation = [c * x - s * y, c * y + s * x, c * z + s * w, c * w - s * z];
        }
        for (position, moves) in bones.position.iter_mut().zip(&self.moves) {
            if moves.iter().any(Option::is_some) {
                // −0 in a lane without a move: adding it leaves every float as it was.
                let add = moves.map(|c| c.and_then(|c| values.get(c).copied()).unwrap_or(-0.0));
                *position += Vec4::from_array(add);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fast::sin_cos;
    use crate::math::angle_quaternion;

    #[test]
    fn a_turn_composed_with_the_quaternion_is_the_turn_added_to_its_angle() {
        let mut rng = studio_testing::Rng::new(0x5eed_7a11);
        let mut next = move || rng.unit() * 6.0 - 3.0;
        for _ in 0..2000 {
            let angles = [next(), next() * 0.5, next()];
            let (tx, tz, move_y) = (next(), next(), next());
            let values = [tx, tz, move_y];
            let half_sin_cos = values.map(|v| sin_cos(v * 0.5));
            // Lane 0 turned on x, lane 1 on z, lane 2 on both and moved on y, lane 3 untouched.
            let mut controllers = [[None; 6]; LANES];
            controllers[0][3] = Some(0);
            controllers[1][5] = Some(1);
            (controllers[2][3], controllers[2][5], controllers[2][1]) = (Some(0), Some(1), Some(2));
            let lane = LaneControllers::new(controllers).expect("lanes with controllers");
            let q = Vec4::from_array(angle_quaternion(angles));
            let position = [Vec4::splat(1.5), Vec4::splat(-2.0), Vec4::splat(0.25)];
            let mut bones = LaneBones {
                rotation: [Vec4::splat(q.x), Vec4::splat(q.y), Vec4::splat(q.z), Vec4::splat(q.w)],
                position,
            };
            lane.apply(&mut bones, &values, &half_sin_cos);
            let (rotations, positions) = bones.bones();
            let expected = [
                [angles[0] + tx, angles[1], angles[2]],
                [angles[0], angles[1], angles[2] + tz],
                [angles[0] + tx, angles[1], angles[2] + tz],
                angles,
            ];
            for (lane, turned) in expected.into_iter().enumerate() {
                let want = Vec4::from_array(angle_quaternion(turned));
                assert!(
                    rotations[lane].abs_diff_eq(want, 2e-6),
                    "lane {lane} {angles:?} {values:?}: {:?} vs {want:?}",
                    rotations[lane]
                );
            }
            assert_eq!(rotations[3], q, "a lane without controllers keeps its quaternion exactly");
            assert_eq!(positions[2].y, -2.0 + move_y);
            assert_eq!(positions[3].to_array(), [1.5, -2.0, 0.25], "and its position");
        }
        assert_eq!(LaneControllers::new([[None; 6]; LANES]), None);
    }
}
