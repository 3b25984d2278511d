//! Merging a sequence's private pose into the running pose with the sequence's weight per bone
//! (source-bonesetup.md, "Accumulating a sequence into the pose"): `SlerpBones` in the bones'
//! own space (with the delta and post rules), `WorldSpaceSlerp` in model space.

use glam::{Affine3A, Quat, Vec4};
use studio_source::STUDIO_DELTA;

use crate::local_pose::{LocalPose, Scratch};
use crate::pose::matrices_into;
use crate::quaternion::{mult, normalize, scale, slerp};
use crate::rig::{Rig, SeqRef};

/// `STUDIO_POST`.
const STUDIO_POST: i32 = 0x10;

/// `SlerpBones`: merges the private pose `q2`/`p2` into `pose` with weight `w` per bone.
pub(crate) fn merge(rig: &Rig<'_>, seq: SeqRef<'_>, pose: &mut LocalPose, private: &LocalPose, w: f32) {
    let delta = seq.seq.flags & STUDIO_DELTA != 0;
    let post = seq.seq.flags & STUDIO_POST != 0;
    for i in 0..rig.render().bones.len() {
        let s = (w * rig.weight(seq, i)).min(1.0);
        if s <= 0.0 {
            continue;
        }
        let (q1, q2) = (pose.rotations[i], private.rotations[i]);
        let (p1, p2) = (pose.positions[i], private.positions[i]);
        if delta {
            let scaled = scale(q2, s);
            let q = if post { mult(q1, scaled) } else { mult(scaled, q1) };
            pose.rotations[i] = normalize(Vec4::from(q));
            pose.positions[i] = p1 + p2 * s;
        } else if s >= 1.0 {
            // The engine slerps from q2 by 0 here, which gives q2 within a rounding: a copy,
            // without the arc cosine and three sines (the references agree to 1e-7).
            pose.rotations[i] = q2;
            pose.positions[i] = p2;
        } else {
            pose.rotations[i] = slerp(q2, q1, 1.0 - s);
            pose.positions[i] = p1 * (1.0 - s) + p2 * s;
        }
    }
}

/// `WorldSpaceSlerp` (source-bonesetup.md, "World-space blending"): merges the private pose
/// into `pose` in model space. Each bone with weight s2 > 0 (its parent's s1) takes pose 2's
/// local values when s1 = s2 = 1; otherwise its model-space rotation is slerped from pose 1's to
/// pose 2's by s2 at pose 1's model-space position and brought back relative to its parent's
/// blended matrix, with the local position lerped (a root keeps pose 1's). No fixture has such
/// a sequence: the unit test below pins the rule on a hand-made chain.
pub(crate) fn merge_world(
    rig: &Rig<'_>,
    seq: SeqRef<'_>,
    pose: &mut LocalPose,
    private: &LocalPose,
    w: f32,
    scratch: &mut Scratch,
) {
    let model = rig.render();
    let mut src = scratch.matrices();
    matrices_into(model, pose, &mut src);
    let mut target = scratch.matrices();
    matrices_into(model, private, &mut target);
    // The blended model-space matrices, parents first (a bone not blended follows its parent).
    let mut dest = scratch.matrices();
    for (i, bone) in model.bones.iter().enumerate() {
        let parent = bone.parent.and_then(|p| dest.get(p).copied());
        let weight = |b: usize| (w * rig.weight(seq, b)).min(1.0);
        let s2 = weight(i);
        let s1 = bone.parent.map_or(s2, weight);
        let local =
            |pose: &LocalPose| Affine3A::from_rotation_translation(pose.rotations[i], pose.positions[i]);
        let blended = if s2 <= 0.0 {
            None
        } else if s1 >= 1.0 && s2 >= 1.0 {
            pose.rotations[i] = private.rotations[i];
            pose.positions[i] = private.positions[i];
            None
        } else {
            let q1 = Quat::from_mat3a(&src[i].matrix3).normalize();
            let q2 = Quat::from_mat3a(&target[i].matrix3).normalize();
            let world = Affine3A::from_rotation_translation(slerp(q1, q2, s2), src[i].translation.into());
            match parent {
                Some(parent) => {
                    let back = parent.inverse() * world;
                    pose.rotations[i] = Quat::from_mat3a(&back.matrix3).normalize();
                    pose.positions[i] = pose.positions[i] * (1.0 - s2) + private.positions[i] * s2;
                }
                None => pose.rotations[i] = Quat::from_mat3a(&world.matrix3).normalize(),
            }
            Some(world)
        };
        let matrix = blended.unwrap_or_else(|| match parent {
            Some(parent) => parent * local(pose),
            None => local(pose),
        });
        dest.push(matrix);
    }
    scratch.give_matrices(src);
    scratch.give_matrices(target);
    scratch.give_matrices(dest);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accumulate::STUDIO_WORLD;
    use crate::testing::bone;
    use glam::Vec3;

    #[test]
    fn world_space_merging_slerps_model_space_rotations() {
        let Some(shared) = studio_testing::shared() else { return };
        let bytes = studio_testing::read(&shared, "fixtures/source/models/fixture/skeleton48.mdl");
        let mut model = studio_source::parse_mdl(&bytes).unwrap();
        // A root and its child, one unit up.
        let mut child = bone("child");
        child.parent = Some(0);
        child.position = Vec3::new(0.0, 0.0, 1.0);
        model.bones = vec![bone("root"), child];
        let mut sequence = model.sequences[0].clone();
        sequence.flags |= STUDIO_WORLD;
        sequence.weights = vec![1.0, 1.0];
        let rig = Rig::new(&model);
        let seq = SeqRef { group: 0, seq: &sequence };
        let mut scratch = Scratch::default();
        // Pose 1: the root turned 90° about z; pose 2: everything at rest, the child moved.
        let base = || {
            let mut pose = LocalPose::defaults(&model);
            pose.rotations[0] = Quat::from_rotation_z(90f32.to_radians());
            pose
        };
        let mut other = LocalPose::defaults(&model);
        other.positions[1] = Vec3::new(0.0, 0.0, 3.0);

        // Full weight: every bone takes pose 2's local values.
        let mut pose = base();
        merge_world(&rig, seq, &mut pose, &other, 1.0, &mut scratch);
        assert!(
            pose.rotations[0].abs_diff_eq(Quat::IDENTITY, 1e-6)
                && pose.rotations[1].abs_diff_eq(Quat::IDENTITY, 1e-6)
        );
        assert_eq!(pose.positions[1], Vec3::new(0.0, 0.0, 3.0));

        // Half weight: in model space the root turns half way back (45°); the child's
        // model-space rotation, also 90° in pose 1 and 0° in pose 2, lands on 45° too, so its
        // local rotation relative to the blended root is the identity; its local position is
        // lerped, the root's stays pose 1's.
        let mut pose = base();
        merge_world(&rig, seq, &mut pose, &other, 0.5, &mut scratch);
        let half = Quat::from_rotation_z(45f32.to_radians());
        assert!(pose.rotations[0].abs_diff_eq(half, 1e-6), "{}", pose.rotations[0]);
        assert!(pose.rotations[1].abs_diff_eq(Quat::IDENTITY, 1e-6), "{}", pose.rotations[1]);
        assert_eq!(pose.positions[0], Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(pose.positions[1], Vec3::new(0.0, 0.0, 2.0));
        // A plain slerp of the local rotations would have left the child as it was and given the
        // same root: the difference shows with a child that turns on its own.
        let mut pose = base();
        pose.rotations[1] = Quat::from_rotation_x(90f32.to_radians());
        merge_world(&rig, seq, &mut pose, &other, 0.5, &mut scratch);
        let world1 = Quat::from_rotation_z(90f32.to_radians()) * Quat::from_rotation_x(90f32.to_radians());
        let expected_world = slerp(world1, Quat::IDENTITY, 0.5);
        let world = pose.rotations[0] * pose.rotations[1];
        assert!(
            world.abs_diff_eq(expected_world, 1e-5) || world.abs_diff_eq(-expected_world, 1e-5),
            "{world} {expected_world}"
        );
    }
}
