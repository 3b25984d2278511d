//! Which animations of a sequence a pose mixes, and how (goldsrc-sequences.md, "Blends";
//! `StudioSetupBones` and `StudioSlerpBones` in Valve's client).

use crate::sample::LocalPose;
use glam::Vec4;

use crate::fast::transposed;

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

/// [`slerp_bones`] with [`crate::fast::quaternion_slerp`], four bones at a time
/// ([`crate::fast::quaternion_slerp_lanes`]): the same results.
pub fn slerp_bones_fast(a: &mut LocalPose, b: &LocalPose, s: f32) {
    let s = s.clamp(0.0, 1.0);
    let mut quads = a.rotations.chunks_exact_mut(4);
    let mut others = b.rotations.chunks_exact(4);
    for (qa, qb) in (&mut quads).zip(&mut others) {
        if qa == qb {
            // Bones the two blends share (legs in an aiming blend): the one-bone slerp's shortcut.
            for (pa, pb) in qa.iter_mut().zip(qb) {
                *pa = crate::fast::quaternion_slerp(*pa, *pb, s);
            }
            continue;
        }
        let lanes = |r: &[Vec4]| transposed([r[0], r[1], r[2], r[3]]);
        match crate::fast::quaternion_slerp_lanes(lanes(qa), lanes(qb), s) {
            Some(slerped) => qa.copy_from_slice(&transposed(slerped)),
            None => {
                for (pa, pb) in qa.iter_mut().zip(qb) {
                    *pa = crate::fast::quaternion_slerp(*pa, *pb, s);
                }
            }
        }
    }
    for (pa, pb) in quads.into_remainder().iter_mut().zip(others.remainder()) {
        *pa = crate::fast::quaternion_slerp(*pa, *pb, s);
    }
    let s1 = 1.0 - s;
    for (pa, pb) in a.positions.iter_mut().zip(&b.positions) {
        *pa = *pa * s1 + *pb * s;
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
