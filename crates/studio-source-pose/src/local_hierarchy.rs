//! Local hierarchies (source-animdata.md, "Local hierarchy"): bones an animation re-parents for
//! part of its cycle.

use glam::{Affine3A, Quat, Vec3};

use crate::local_pose::{LocalPose, Scratch};
use crate::pose::{Ctx, matrices_into};
use crate::quaternion::{nlerp, slerp};
use crate::rig::AnimRef;

/// The weight of a local hierarchy at `cycle` (source-animdata.md, "Local hierarchy"): 1, or,
/// when its ramp is shorter than the whole cycle (tail − peak < 1), 0 outside [start, end) and
/// the ramp in and out with the ease curve 3t² − 2t³.
fn hierarchy_weight([start, peak, tail, end]: [f32; 4], cycle: f32) -> f32 {
    let ramped = tail - peak < 1.0;
    if !ramped {
        return 1.0;
    }
    if cycle < start || cycle >= end {
        return 0.0;
    }
    let f = if cycle < peak && start != peak {
        (cycle - start) / (peak - start)
    } else if cycle > tail && end != tail {
        (end - cycle) / (end - tail)
    } else {
        1.0
    };
    3.0 * f * f - 2.0 * f * f * f
}

/// `CalcLocalHierarchyAnimation` (source-animdata.md, "Local hierarchy"): each re-parented bone
/// takes the transform its compressed streams give at frame − iStart (positions lerped, angles
/// blended by the fraction) relative to its new parent, brought back into its own parent's
/// space, slerped in by the hierarchy's weight. No fixture has one (the spec's one sample was
/// not checked either): the unit tests pin these rules on hand-made data.
pub(crate) fn local_hierarchy_into(
    ctx: Ctx<'_, '_>,
    scratch: &mut Scratch,
    anim: AnimRef<'_>,
    (frame, s): (u32, f32),
    cycle: f32,
    pose: &mut LocalPose,
) {
    let rig = ctx.rig;
    let model = rig.render();
    let group_model = rig.group(anim.group);
    let mut world = scratch.matrices();
    for h in &anim.animation.local_hierarchy {
        let Some(compressed) = h.compressed else { continue };
        let Some(bone) = rig.render_bone(anim.group, h.bone) else { continue };
        let new_parent = match h.new_parent {
            Some(p) => match rig.render_bone(anim.group, p) {
                Some(p) => Some(p),
                None => continue,
            },
            None => None,
        };
        let weight = hierarchy_weight(h.ramp, cycle);
        let Ok(at) = u32::try_from(i64::from(frame) - i64::from(h.first_frame)) else { continue };
        if weight <= 0.0 {
            continue;
        }
        let bytes = group_model.file_bytes(compressed.file);
        let value = |k: usize| {
            compressed.streams[k].map_or((0.0, 0.0), |start| {
                let (v1, v2) = crate::decode::values(bytes, start, at);
                (v1 * compressed.scale[k], v2 * compressed.scale[k])
            })
        };
        let [x, y, z, rx, ry, rz] = std::array::from_fn(value);
        let (p1, p2) = (Vec3::new(x.0, y.0, z.0), Vec3::new(x.1, y.1, z.1));
        let (a1, a2) = (Vec3::new(rx.0, ry.0, rz.0), Vec3::new(rx.1, ry.1, rz.1));
        let interpolate = s > 0.0001;
        let position = if interpolate { p1 * (1.0 - s) + p2 * s } else { p1 };
        let rotation = if interpolate && a1 != a2 {
            nlerp(crate::quaternion::from_euler(a1), crate::quaternion::from_euler(a2), s)
        } else {
            crate::quaternion::from_euler(a1)
        };
        matrices_into(model, pose, &mut world);
        let local = Affine3A::from_rotation_translation(rotation, position);
        let target = match new_parent.and_then(|p| world.get(p)) {
            Some(parent) => *parent * local,
            None => local,
        };
        let back = match model.bones.get(bone).and_then(|b| b.parent).and_then(|p| world.get(p)) {
            Some(parent) => parent.inverse() * target,
            None => target,
        };
        let (q, p) = (Quat::from_mat3a(&back.matrix3).normalize(), Vec3::from(back.translation));
        if weight >= 1.0 {
            (pose.rotations[bone], pose.positions[bone]) = (q, p);
        } else {
            pose.rotations[bone] = slerp(pose.rotations[bone], q, weight);
            pose.positions[bone] = pose.positions[bone].lerp(p, weight);
        }
    }
    scratch.give_matrices(world);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rig::Rig;
    use crate::testing::bone;

    #[test]
    fn a_local_hierarchys_weight_ramps_only_within_the_cycle() {
        assert_eq!(hierarchy_weight([0.0, 0.0, 1.0, 1.0], 0.3), 1.0, "tail − peak = 1: always full");
        let ramp = [0.2, 0.4, 0.6, 0.8];
        assert_eq!(hierarchy_weight(ramp, 0.1), 0.0);
        assert_eq!(hierarchy_weight(ramp, 0.8), 0.0);
        assert_eq!(hierarchy_weight(ramp, 0.5), 1.0);
        // Half way up the ramp: 3·0.25 − 2·0.125 = 0.5; a quarter: 3/16 − 2/64.
        assert!((hierarchy_weight(ramp, 0.3) - 0.5).abs() < 1e-6);
        assert!((hierarchy_weight(ramp, 0.75) - (3.0 / 16.0 - 2.0 / 64.0)).abs() < 1e-6);
    }

    /// A value stream holding `value` for every frame: one run of one value.
    fn constant_stream(value: i16) -> Vec<u8> {
        let mut bytes = vec![1, 255];
        bytes.extend_from_slice(&value.to_le_bytes());
        bytes
    }

    #[test]
    fn a_local_hierarchy_reparents_its_bone_for_the_animation() {
        let Some(shared) = studio_testing::shared() else { return };
        let bytes = studio_testing::read(&shared, "fixtures/source/models/fixture/skeleton48.mdl");
        let mut model = studio_source::parse_mdl(&bytes).unwrap();
        // root → arm → hand, each one unit along x from its parent.
        let mut arm = bone("arm");
        arm.parent = Some(0);
        arm.position = Vec3::X;
        let mut hand = bone("hand");
        hand.parent = Some(1);
        hand.position = Vec3::X;
        model.bones = vec![bone("root"), arm, hand];
        // The hand's transform from the root: 5 units along y (stream 1, scale 1) and a quarter
        // turn about z (stream 5: 100 × scale π/200).
        let mut data = Vec::new();
        let mut stream = |values: Vec<u8>| {
            let at = data.len() as u64;
            data.extend(values);
            Some(at)
        };
        let streams = [None, stream(constant_stream(5)), None, None, None, stream(constant_stream(100))];
        model.data.mdl = std::sync::Arc::from(data);
        let scale = [1.0, 1.0, 1.0, 1.0, 1.0, std::f32::consts::PI / 200.0];
        let compressed =
            studio_source::CompressedError { file: studio_source::FileRole::Mdl, scale, streams };
        let mut animation = model.animations[0].clone();
        animation.local_hierarchy = vec![studio_source::LocalHierarchy {
            bone: 2,
            new_parent: Some(0),
            ramp: [0.0, 0.0, 1.0, 1.0],
            first_frame: 0,
            compressed: Some(compressed),
        }];
        let rig = Rig::new(&model);
        let anim = AnimRef { group: 0, index: 0, animation: &animation };
        let ctx = Ctx { rig: &rig, params: &[], tables: None, time: 0.0 };
        let mut scratch = Scratch::default();
        let mut pose = LocalPose::defaults(&model);
        // The arm bent a quarter turn about z: without the hierarchy the hand would follow it.
        pose.rotations[1] = Quat::from_rotation_z(90f32.to_radians());
        local_hierarchy_into(ctx, &mut scratch, anim, (0, 0.0), 0.0, &mut pose);
        let mut world = Vec::new();
        matrices_into(&model, &pose, &mut world);
        let expected = world[0]
            * Affine3A::from_rotation_translation(
                Quat::from_rotation_z(90f32.to_radians()),
                Vec3::new(0.0, 5.0, 0.0),
            );
        assert!(world[2].abs_diff_eq(expected, 1e-5), "{:?} vs {expected:?}", world[2]);

        // Half weight: half way from the hand's own local transform to the re-parented one.
        animation.local_hierarchy[0].ramp = [0.0, 0.5, 0.5, 1.0];
        let anim = AnimRef { group: 0, index: 0, animation: &animation };
        let mut half = LocalPose::defaults(&model);
        half.rotations[1] = Quat::from_rotation_z(90f32.to_radians());
        let before = (half.rotations[2], half.positions[2]);
        local_hierarchy_into(ctx, &mut scratch, anim, (0, 0.0), 0.25, &mut half);
        let full = (pose.rotations[2], pose.positions[2]);
        assert!(half.rotations[2].abs_diff_eq(slerp(before.0, full.0, 0.5), 1e-6));
        assert!(half.positions[2].abs_diff_eq(before.1.lerp(full.1, 0.5), 1e-5));
        // Before its first frame it does nothing.
        animation.local_hierarchy[0].first_frame = 3;
        let anim = AnimRef { group: 0, index: 0, animation: &animation };
        let mut early = LocalPose::defaults(&model);
        local_hierarchy_into(ctx, &mut scratch, anim, (1, 0.0), 0.25, &mut early);
        assert_eq!(early.positions[2], Vec3::X);
    }
}
