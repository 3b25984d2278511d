//! A sequence's IK locks (source-bonesetup.md, "IK locks"): each keeps an IK chain's end (a
//! foot) where it was before the sequence was added, with the engine's two-bone solver.

use glam::{Affine3A, Mat3A, Quat, Vec3A};
use studio_source::{IkLock, SourceModel};

use crate::pose::{LocalPose, Scratch, matrices_into};
use crate::quaternion::slerp;

/// `KNEEMAX_EPSILON`: about one degree short of a straight leg.
const KNEE_MAX: f32 = 0.9998;

/// What a lock remembers from the pose before its sequence.
#[derive(Clone, Copy, Debug)]
pub struct Recorded {
    lock: IkLock,
    rotation: Quat,
    position: Vec3A,
    knee_direction: Vec3A,
}

/// Records every lock of a sequence from the running pose (`AddSequenceLocks`), in a list
/// borrowed from `scratch`.
pub fn record(
    model: &SourceModel,
    locks: &[IkLock],
    pose: &LocalPose,
    scratch: &mut Scratch,
) -> Vec<Recorded> {
    let mut out = scratch.locks();
    if locks.is_empty() || model.ik_chains.is_empty() {
        return out;
    }
    let mut world = scratch.matrices();
    matrices_into(model, pose, &mut world);
    out.extend(locks.iter().filter_map(|lock| {
        let chain = model.ik_chains.get(lock.chain)?;
        let [thigh, _, foot] = [chain.links.first()?, chain.links.get(1)?, chain.links.get(2)?];
        let foot_world = world.get(foot.bone)?;
        let knee_direction = if thigh.knee_direction.length_squared() > 0.0 {
            world.get(thigh.bone)?.matrix3 * Vec3A::from(thigh.knee_direction)
        } else {
            Vec3A::ZERO
        };
        Some(Recorded {
            lock: *lock,
            rotation: Quat::from_mat3a(&foot_world.matrix3).normalize(),
            position: foot_world.translation,
            knee_direction,
        })
    }));
    scratch.give_matrices(world);
    out
}

/// Solves the recorded locks on the pose after the sequence (`SolveSequenceLocks`).
pub fn solve(model: &SourceModel, recorded: &[Recorded], pose: &mut LocalPose, scratch: &mut Scratch) {
    if recorded.is_empty() {
        return;
    }
    let mut world = scratch.matrices();
    for r in recorded {
        let Some(chain) = model.ik_chains.get(r.lock.chain) else { continue };
        let [Some(thigh), Some(knee), Some(foot)] =
            [chain.links.first(), chain.links.get(1), chain.links.get(2)]
        else {
            continue;
        };
        let (thigh, knee, foot) = (thigh.bone, knee.bone, foot.bone);
        matrices_into(model, pose, &mut world);
        let current = world[foot].translation;
        let target = current * (1.0 - r.lock.position_weight) + r.position * r.lock.position_weight;
        if r.knee_direction.length_squared() > 0.0 {
            // The 2013 code records no knee position with a sequence lock: the model origin.
            solve_with_direction(&mut world, [thigh, knee, foot], target, Vec3A::ZERO, r.knee_direction);
        } else {
            solve_chain(&mut world, [thigh, knee, foot], chain.links[0].knee_direction.into(), target);
        }
        // The foot keeps its recorded orientation at its solved position.
        world[foot] = Affine3A::from_rotation_translation(r.rotation, world[foot].translation.into());
        let before = pose.rotations[foot];
        solve_bone(model, &world, foot, pose);
        pose.rotations[foot] = slerp(pose.rotations[foot], before, r.lock.local_rotation_weight);
        solve_bone(model, &world, knee, pose);
        solve_bone(model, &world, thigh, pose);
    }
    scratch.give_matrices(world);
}

/// `SolveBone`: a bone's local position and rotation from its and its parent's matrices.
fn solve_bone(model: &SourceModel, world: &[Affine3A], bone: usize, pose: &mut LocalPose) {
    let parent = model.bones[bone].parent.map_or(Affine3A::IDENTITY, |p| world[p]);
    let local = parent.inverse() * world[bone];
    let (_, rotation, translation) = local.to_scale_rotation_translation();
    pose.rotations[bone] = rotation;
    pose.positions[bone] = translation;
}

/// `Studio_SolveIK` for a chain: with its knee direction when it has one, else one found from
/// the bent knee.
fn solve_chain(world: &mut [Affine3A], [t, k, f]: [usize; 3], knee_dir: Vec3A, target: Vec3A) -> bool {
    if knee_dir.length_squared() > 0.0 {
        let direction = world[t].matrix3 * knee_dir;
        let knee_position = world[k].translation;
        return solve_with_direction(world, [t, k, f], target, knee_position, direction);
    }
    let (thigh, knee, foot) = (world[t].translation, world[k].translation, world[f].translation);
    let (l1, l2, l3) = ((knee - thigh).length(), (foot - knee).length(), (foot - thigh).length());
    // A leg too straight to tell where the knee points.
    if l3 > (l1 + l2) * KNEE_MAX {
        return false;
    }
    let half = (foot - thigh) * (l1 / l3);
    let direction = ((knee - thigh) - half).normalize_or_zero();
    solve_with_direction(world, [t, k, f], target, knee, direction)
}

/// `Studio_SolveIK` with a knee aim: moves the knee and foot and turns thigh and knee.
fn solve_with_direction(
    world: &mut [Affine3A],
    [t, k, f]: [usize; 3],
    target: Vec3A,
    knee_position: Vec3A,
    knee_direction: Vec3A,
) -> bool {
    let (thigh, knee, foot) = (world[t].translation, world[k].translation, world[f].translation);
    let mut ik_foot = target - thigh;
    let ik_knee_reference = knee_position - thigh;
    let (l1, l2) = ((knee - thigh).length(), (foot - knee).length());
    let d = ((target - thigh).length() - l1.min(l2)).max(l1 + l2) * 100.0;
    let ik_target_knee = ik_knee_reference + knee_direction * d;
    if ik_foot.length() > (l1 + l2) * KNEE_MAX {
        ik_foot = ik_foot.normalize_or_zero() * ((l1 + l2) * KNEE_MAX);
    }
    let min_distance = ((l1 - l2).abs() * 1.15).max(l1.min(l2) * 0.15);
    if ik_foot.length() < min_distance {
        ik_foot = (foot - thigh).normalize_or_zero() * min_distance;
    }
    let Some(ik_knee) = two_link(l1, l2, ik_foot, ik_target_knee) else { return false };
    align_x(&mut world[t], ik_knee);
    align_x(&mut world[k], ik_foot - ik_knee);
    world[k].translation = ik_knee + thigh;
    world[f].translation = ik_foot + thigh;
    true
}

/// Ken Perlin's two-link solve (`CIKSolver::solve`): the knee `Q` with |Q| = `a` and
/// |P − Q| = `b`, on the side of `aim`; `None` when no such knee is inside the reach.
fn two_link(a: f32, b: f32, p: Vec3A, aim: Vec3A) -> Option<Vec3A> {
    let x = p.normalize_or_zero();
    let y = (aim - x * aim.dot(x)).normalize_or_zero();
    let r = p.length();
    let d = (r + (a * a - b * b) / r) / 2.0;
    let e = (a * a - d * d).sqrt();
    // (d, e, 0) in the frame whose x is along P and whose y leans towards the aim.
    let q = x * d + y * e;
    (d > r - b && d < a).then_some(q)
}

/// `Studio_AlignIKMatrix`: the matrix's X axis along `direction`, Y = normalise(Z × X),
/// Z = X × Y.
fn align_x(matrix: &mut Affine3A, direction: Vec3A) {
    let x = direction.normalize_or_zero();
    let y = matrix.matrix3.z_axis.cross(x).normalize_or_zero();
    let z = x.cross(y);
    matrix.matrix3 = Mat3A::from_cols(x, y, z);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_link_knee_is_at_both_lengths_on_the_aim_side() {
        let foot = Vec3A::new(3.0, 0.0, 0.0);
        let knee = two_link(2.0, 2.0, foot, Vec3A::new(0.0, 5.0, 0.0)).unwrap();
        assert!((knee.length() - 2.0).abs() < 1e-5);
        assert!(((foot - knee).length() - 2.0).abs() < 1e-5);
        assert!(knee.y > 0.0, "towards the aim point");
        // Out of reach: no knee.
        assert!(two_link(1.0, 1.0, Vec3A::new(3.0, 0.0, 0.0), Vec3A::Y).is_none());
    }

    #[test]
    fn aligning_keeps_the_z_axis_close() {
        let mut m = Affine3A::IDENTITY;
        align_x(&mut m, Vec3A::new(1.0, 1.0, 0.0));
        assert!(m.matrix3.z_axis.abs_diff_eq(Vec3A::Z, 1e-6));
        assert!(m.matrix3.x_axis.abs_diff_eq(Vec3A::new(1.0, 1.0, 0.0).normalize(), 1e-6));
    }
}
