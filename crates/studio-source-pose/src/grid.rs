//! A sequence's blend grid (source-bonesetup.md, "Blend grid: which animations and weights"):
//! the cell and fractions its pose parameters pick, the animations evaluated there, and how they
//! are blended: two at a time, scaled toward identity beside an ALLZEROS animation, or the
//! triangle blend inside a two-dimensional cell.

use glam::Vec4;

use crate::animation::animation_into;
use crate::local_pose::{LocalPose, Scratch};
use crate::pose::Ctx;
use crate::quaternion::{nlerp, normalize};
use crate::rig::{AnimRef, Rig, SeqRef};

/// `STUDIO_ALLZEROS`.
const STUDIO_ALLZEROS: i32 = 0x20;

/// The cell index and fraction of grid axis `axis` (source-bonesetup.md, "Blend grid").
pub(crate) fn grid_axis(rig: &Rig<'_>, seq: SeqRef<'_>, params: &[f32], axis: usize) -> (usize, f32) {
    let (group, seq) = (seq.group, seq.seq);
    let size = seq.grid[axis];
    let Some(p) = seq.params[axis].and_then(|p| rig.param(group, p)) else { return (0, 0.0) };
    let Some(desc) = rig.pose_parameters.get(p) else { return (0, 0.0) };
    if size < 2 {
        return (0, 0.0);
    }
    let value = params.get(p).copied().unwrap_or(0.0);
    if seq.pose_keys.is_empty() {
        let ls = (seq.param_start[axis] - desc.start) / (desc.end - desc.start);
        let le = (seq.param_end[axis] - desc.start) / (desc.end - desc.start);
        let mut f = ((value - ls) / (le - ls)).clamp(0.0, 1.0);
        if f.is_nan() {
            f = 0.0;
        }
        if size > 2 {
            let scaled = f * (size - 1) as f32;
            let index = (scaled.floor() as usize).min(size - 2);
            (index, scaled - index as f32)
        } else {
            (0, f)
        }
    } else {
        let r = crate::params::real(desc, value);
        let stride = seq.grid[0];
        let keys = seq.pose_keys.get(axis * stride..).unwrap_or_default();
        key_cell(keys, size, r)
    }
}

/// The cell and fraction of real value `r` between an axis' pose keys (at least 2 of `size`):
/// the first pair whose fraction is not past 1, clamped to [0, 1].
fn key_cell(keys: &[f32], size: usize, r: f32) -> (usize, f32) {
    let key = |k: usize| keys.get(k).copied().unwrap_or(0.0);
    let mut index = 0;
    let mut f = (r - key(0)) / (key(1) - key(0));
    while index < size - 2 && f > 1.0 {
        index += 1;
        f = (r - key(index)) / (key(index + 1) - key(index));
    }
    (index, if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) })
}

/// Evaluates the blend grid into `out`; false when the sequence contributes nothing (an
/// ALLZEROS animation alone).
pub(crate) fn grid(
    ctx: Ctx<'_, '_>,
    scratch: &mut Scratch,
    seq: SeqRef<'_>,
    cycle: f32,
    out: &mut LocalPose,
) -> bool {
    let (rig, params) = (ctx.rig, ctx.params);
    let [g0, g1] = seq.seq.grid;
    if g0 == 0 || g1 == 0 {
        return false;
    }
    // Grid entries are local to the sequence's group.
    let cell = |x: usize, y: usize| rig.grid_cell(seq, x, y);
    let all_zeros = |a: Option<AnimRef<'_>>| a.is_some_and(|a| a.animation.flags & STUDIO_ALLZEROS != 0);
    let (i0, s0) = grid_axis(rig, seq, params, 0);
    let (i1, s1) = grid_axis(rig, seq, params, 1);
    let calc = |a: Option<AnimRef<'_>>, pose: &mut LocalPose, scratch: &mut Scratch| {
        if let Some(a) = a {
            animation_into(ctx, scratch, seq, a, cycle, pose);
        }
    };
    // The second animation goes into a borrowed copy of the first.
    let blend_two = |a: Option<AnimRef<'_>>,
                     b: Option<AnimRef<'_>>,
                     s: f32,
                     pose: &mut LocalPose,
                     scratch: &mut Scratch| {
        calc(a, pose, scratch);
        let mut second = scratch.pose(rig.render());
        second.copy_from(pose);
        calc(b, &mut second, scratch);
        blend(rig, seq, pose, &second, s);
        scratch.give(second);
    };
    if !(0.001..=0.999).contains(&s0) {
        let x = if s0 > 0.999 { i0 + 1 } else { i0 };
        if s1 < 0.001 {
            if all_zeros(cell(x, i1)) {
                return false;
            }
            calc(cell(x, i1), out, scratch);
        } else if s1 > 0.999 {
            calc(cell(x, i1 + 1), out, scratch);
        } else {
            blend_two(cell(x, i1), cell(x, i1 + 1), s1, out, scratch);
        }
    } else if s1 < 0.001 {
        let (a, b) = (cell(i0, i1), cell(i0 + 1, i1));
        if all_zeros(b) {
            calc(a, out, scratch);
            scale_toward_identity(rig, seq, out, 1.0 - s0);
        } else if all_zeros(a) {
            calc(b, out, scratch);
            scale_toward_identity(rig, seq, out, s0);
        } else {
            blend_two(a, b, s0, out, scratch);
        }
    } else if s1 > 0.999 {
        blend_two(cell(i0, i1 + 1), cell(i0 + 1, i1 + 1), s0, out, scratch);
    } else {
        // The triangle blend: the cell cut along a checkerboard diagonal.
        let ((c0, c1, c2), [w0, w1, w2]) = triangle(i0, i1, s0, s1);
        let corner = |(dx, dy): (usize, usize)| cell(i0 + dx, i1 + dy);
        if w1 == 0.0 {
            blend_two(corner(c0), corner(c2), w2 / (w0 + w2), out, scratch);
        } else {
            blend_two(corner(c0), corner(c1), w1 / (w0 + w1), out, scratch);
            let mut third = scratch.pose(rig.render());
            third.copy_from(out);
            calc(corner(c2), &mut third, scratch);
            blend(rig, seq, out, &third, w2);
            scratch.give(third);
        }
    }
    true
}

/// A cell corner as (dx, dy).
type Corner = (usize, usize);

/// The triangle of cell (`i0`, `i1`) that (`s0`, `s1`) lies in, cut along a diagonal that
/// alternates like a checkerboard, and the corners' weights (w1 below 0.001 is 0).
fn triangle(i0: usize, i1: usize, s0: f32, s1: f32) -> ((Corner, Corner, Corner), [f32; 3]) {
    let (corners, w0, w1) = if (i0 + i1).is_multiple_of(2) {
        if s0 > s1 {
            (((0, 0), (1, 0), (1, 1)), 1.0 - s0, s0 - s1)
        } else {
            (((1, 1), (0, 1), (0, 0)), s0, s1 - s0)
        }
    } else if s0 + s1 > 1.0 {
        (((1, 0), (1, 1), (0, 1)), 1.0 - s1, s0 + s1 - 1.0)
    } else {
        (((0, 1), (0, 0), (1, 0)), s1, 1.0 - s0 - s1)
    };
    let w1 = if w1 < 0.001 { 0.0 } else { w1 };
    (corners, [w0, w1, 1.0 - w0 - w1])
}

/// "Blending two poses (inside one sequence)": `pose` toward `other` by `s`, for the bones the
/// sequence weights.
fn blend(rig: &Rig<'_>, seq: SeqRef<'_>, pose: &mut LocalPose, other: &LocalPose, s: f32) {
    if s <= 0.0 {
        return;
    }
    for i in 0..rig.render().bones.len() {
        if rig.weight(seq, i) <= 0.0 {
            continue;
        }
        if s >= 1.0 {
            pose.rotations[i] = other.rotations[i];
            pose.positions[i] = other.positions[i];
        } else {
            pose.positions[i] = pose.positions[i] * (1.0 - s) + other.positions[i] * s;
            pose.rotations[i] = nlerp(other.rotations[i], pose.rotations[i], 1.0 - s);
        }
    }
}

/// "Scaled by t": every weighted bone toward identity.
fn scale_toward_identity(rig: &Rig<'_>, seq: SeqRef<'_>, pose: &mut LocalPose, t: f32) {
    for i in 0..rig.render().bones.len() {
        if rig.weight(seq, i) <= 0.0 {
            continue;
        }
        pose.positions[i] *= t;
        let q = pose.rotations[i];
        let w = if q.w < 0.0 { q.w * t - (1.0 - t) } else { q.w * t + (1.0 - t) };
        pose.rotations[i] = normalize(Vec4::new(q.x * t, q.y * t, q.z * t, w));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_triangle_blend_in_both_halves_of_a_cell() {
        // Even cell (0, 0): below the diagonal s0 > s1 the corners are (0,0), (1,0), (1,1).
        let (corners, w) = triangle(0, 0, 0.75, 0.25);
        assert_eq!(corners, ((0, 0), (1, 0), (1, 1)));
        assert_eq!(w, [0.25, 0.5, 0.25]);
        // Above it: (1,1), (0,1), (0,0).
        let (corners, w) = triangle(0, 0, 0.25, 0.75);
        assert_eq!(corners, ((1, 1), (0, 1), (0, 0)));
        assert_eq!(w, [0.25, 0.5, 0.25]);
        // Odd cell (1, 0): the other diagonal.
        assert_eq!(triangle(1, 0, 0.75, 0.5).0, ((1, 0), (1, 1), (0, 1)));
        assert_eq!(triangle(1, 0, 0.25, 0.5).0, ((0, 1), (0, 0), (1, 0)));
        // On the diagonal the middle corner has no weight.
        assert_eq!(triangle(0, 0, 0.5, 0.5).1, [0.5, 0.0, 0.5]);
    }

    #[test]
    fn pose_keys_pick_their_cell() {
        // blend9's aim_yaw keys: -45, 0, 30.
        let keys = [-45.0, 0.0, 30.0];
        assert_eq!(key_cell(&keys, 3, -22.5), (0, 0.5));
        assert_eq!(key_cell(&keys, 3, 15.0), (1, 0.5));
        assert_eq!(key_cell(&keys, 3, 0.0), (0, 1.0), "a key exactly: the end of the first cell");
        assert_eq!(key_cell(&keys, 3, 45.0), (1, 1.0), "past the last key: clamped");
        assert_eq!(key_cell(&keys, 3, -90.0), (0, 0.0));
    }
}
