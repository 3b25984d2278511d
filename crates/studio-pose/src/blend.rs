//! Which animations of a sequence a pose mixes, and how (goldsrc-sequences.md, "Blends";
//! `StudioSetupBones` and `StudioSlerpBones` in Valve's client).

use crate::sample::{LocalPose, TablePose};
use glam::Vec4;

use crate::fast::{SLERP_COS_MAX, quaternion_slerp_lanes, transposed};

/// The animations to sample and the weights to mix them with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BlendPlan {
    /// One animation.
    Single(usize),
    /// Two animations mixed by a weight.
    Two([usize; 2], f32),
    /// Four: the first two mixed by `weights[0]`, the last two by `weights[0]` too, then the two
    /// results by `weights[1]`.
    Four([usize; 4], [f32; 2]),
}

/// Valve's blend weight for a byte.
fn weight(byte: u8) -> f32 {
    (f64::from(byte) / 255.0) as f32
}

/// Counter-Strike's split of a byte over a 3-wide axis: ≤ 127 mixes cells 0 and 1 by 2b/255,
/// above mixes cells 1 and 2 by 2(b − 127)/255.
fn grid_axis(byte: u8) -> (usize, f32) {
    if byte <= 127 {
        (0, (2.0 * f64::from(byte) / 255.0) as f32)
    } else {
        (1, (2.0 * f64::from(byte - 127) / 255.0) as f32)
    }
}

/// The plan for a sequence of `num_blends` animations and the two blend bytes. Valve's code
/// mixes 2 and 4; Counter-Strike's player models carry 9, a 3×3 grid (index row × 3 + column,
/// `blend[0]` the column, `blend[1]` the row); any other count uses the first two, as Valve's
/// code does.
pub fn plan(num_blends: usize, blend: [u8; 2]) -> BlendPlan {
    match num_blends {
        0 | 1 => BlendPlan::Single(0),
        4 => BlendPlan::Four([0, 1, 2, 3], [weight(blend[0]), weight(blend[1])]),
        9 => {
            let (column, wx) = grid_axis(blend[0]);
            let (row, wy) = grid_axis(blend[1]);
            let cell = |r: usize, c: usize| r * 3 + c;
            BlendPlan::Four(
                [cell(row, column), cell(row, column + 1), cell(row + 1, column), cell(row + 1, column + 1)],
                [wx, wy],
            )
        }
        _ => BlendPlan::Two([0, 1], weight(blend[0])),
    }
}

/// `StudioSlerpBones`: mixes `b` into `a` by `s`, clamped to 0..1, with Valve's exact slerp
/// ([`crate::math::quaternion_slerp`]) or the fast one ([`crate::fast::quaternion_slerp`]).
pub fn slerp_bones(
    a: &mut LocalPose,
    b: &LocalPose,
    s: f32,
    quaternion_slerp: impl Fn(Vec4, Vec4, f32) -> Vec4,
) {
    let s = s.clamp(0.0, 1.0);
    let s1 = 1.0 - s;
    for (qa, qb) in a.rotations.iter_mut().zip(&b.rotations) {
        *qa = quaternion_slerp(*qa, *qb, s);
    }
    for (pa, pb) in a.positions.iter_mut().zip(&b.positions) {
        *pa = *pa * s1 + *pb * s;
    }
}

/// [`slerp_bones`] with [`crate::fast::quaternion_slerp`] on two blends sampled from a table, the
/// first `groups` groups four bones at a time ([`crate::fast::quaternion_slerp_lanes`]) and the
/// first `singles` single bones one at a time: the same results.
pub fn slerp_table_poses(a: &mut TablePose, b: &TablePose, groups: usize, singles: usize, s: f32) {
    let s = s.clamp(0.0, 1.0);
    let s1 = 1.0 - s;
    for (ga, gb) in a.groups[..groups].iter_mut().zip(&b.groups[..groups]) {
        ga.rotation = slerp_lanes(ga.rotation, gb.rotation, s);
        for (pa, pb) in ga.position.iter_mut().zip(&gb.position) {
            *pa = *pa * s1 + *pb * s;
        }
    }
    for (qa, qb) in a.rotations[..singles].iter_mut().zip(&b.rotations[..singles]) {
        *qa = crate::fast::quaternion_slerp(*qa, *qb, s);
    }
    for (pa, pb) in a.positions[..singles].iter_mut().zip(&b.positions[..singles]) {
        *pa = *pa * s1 + *pb * s;
    }
}

/// [`crate::fast::quaternion_slerp`] lane by lane.
#[inline]
fn slerp_lanes(p: [Vec4; 4], q: [Vec4; 4], t: f32) -> [Vec4; 4] {
    if p == q {
        // Bones the two blends share (legs in an aiming blend). Valve's flip test keeps q, and
        // cos ω = |p|² is within 1e-6 of 1 for unit quaternions, which Valve lerps.
        let [x, y, z, w] = p;
        let cosom = ((x * x + y * y) + z * z) + w * w;
        if cosom.cmpgt(Vec4::splat(SLERP_COS_MAX)).all() {
            return p.map(|c| c * (1.0 - t) + c * t);
        }
    }
    match quaternion_slerp_lanes(p, q, t) {
        Some(slerped) => slerped,
        None => {
            // Opposite quaternions (only degenerate input): Valve's own branch, one at a time.
            let (p, q) = (transposed(p), transposed(q));
            transposed(std::array::from_fn(|lane| crate::fast::quaternion_slerp(p[lane], q[lane], t)))
        }
    }
}

/// Valve's exact slerp on `Vec4`s.
pub fn exact_slerp(p: Vec4, q: Vec4, t: f32) -> Vec4 {
    Vec4::from_array(crate::math::quaternion_slerp(p.to_array(), q.to_array(), t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans() {
        assert_eq!(plan(1, [9, 9]), BlendPlan::Single(0));
        assert_eq!(plan(2, [255, 0]), BlendPlan::Two([0, 1], 1.0));
        assert_eq!(plan(3, [51, 0]), BlendPlan::Two([0, 1], 0.2));
        assert_eq!(plan(4, [0, 255]), BlendPlan::Four([0, 1, 2, 3], [0.0, 1.0]));
    }

    #[test]
    fn counter_strike_grid() {
        // Centre of the grid: column 1, row 1, reached from either side.
        assert_eq!(plan(9, [127, 127]), BlendPlan::Four([0, 1, 3, 4], [254.0 / 255.0, 254.0 / 255.0]));
        assert_eq!(plan(9, [128, 0]), BlendPlan::Four([1, 2, 4, 5], [2.0 / 255.0, 0.0]));
        // Far corner: column 2, row 2 (the weight 256/255 is clamped when mixing).
        let BlendPlan::Four(cells, [wx, wy]) = plan(9, [255, 255]) else { panic!() };
        assert_eq!(cells, [4, 5, 7, 8]);
        assert_eq!((wx, wy), ((256.0f64 / 255.0) as f32, (256.0f64 / 255.0) as f32));
        assert_eq!(plan(9, [0, 200]), BlendPlan::Four([3, 4, 6, 7], [0.0, (146.0f64 / 255.0) as f32]));
    }

    #[test]
    fn slerp_bones_clamps_and_mixes_positions() {
        use glam::Vec3A;
        let mut a = LocalPose { rotations: vec![Vec4::W], positions: vec![Vec3A::new(0.0, 2.0, 4.0)] };
        let b = LocalPose { rotations: vec![Vec4::Z], positions: vec![Vec3A::new(4.0, 2.0, 0.0)] };
        let mut c = a.clone();
        slerp_bones(&mut a, &b, 0.25, exact_slerp);
        assert_eq!(a.positions[0], Vec3A::new(1.0, 2.0, 3.0));
        slerp_bones(&mut c, &b, 7.0, exact_slerp);
        assert_eq!(c.positions[0], Vec3A::new(4.0, 2.0, 0.0));
        let half = std::f32::consts::FRAC_1_SQRT_2;
        assert!(
            a.rotations[0].abs_diff_eq(
                Vec4::new(
                    0.0,
                    0.0,
                    (0.25 * std::f32::consts::FRAC_PI_2).sin(),
                    (0.25 * std::f32::consts::FRAC_PI_2).cos()
                ),
                1e-6
            ),
            "{:?} {half}",
            a.rotations[0]
        );
    }
}
