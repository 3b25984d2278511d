//! Bone controllers (source-bonesetup.md, "Bone controllers"): `CalcBoneAdj`.

use glam::{Quat, Vec3, Vec4};
use studio_source::SourceModel;

use crate::local_pose::LocalPose;
use crate::quaternion::{mult, normalize};

/// `CalcBoneAdj` (source-bonesetup.md, "Bone controllers"): each controller's value
/// v = (1 − n)·start + n·end for its input's normalised n; X, Y, Z add v to the bone's local
/// position, XR, YR, ZR turn its rotation by v degrees about that axis first.
pub fn controllers(model: &SourceModel, inputs: &[f32; 5], pose: &mut LocalPose) {
    for c in &model.bone_controllers {
        let (Ok(bone), Some(&n)) =
            (usize::try_from(c.bone), usize::try_from(c.input).ok().and_then(|i| inputs.get(i)))
        else {
            continue;
        };
        if bone >= pose.positions.len() {
            continue;
        }
        let v = (1.0 - n) * c.start + n * c.end;
        let turn = |axis: Vec3| Quat::from_axis_angle(axis, v.to_radians());
        match c.kind & 0x3F {
            0x01 => pose.positions[bone].x += v,
            0x02 => pose.positions[bone].y += v,
            0x04 => pose.positions[bone].z += v,
            0x08 => pose.rotations[bone] = normalize(Vec4::from(mult(turn(Vec3::X), pose.rotations[bone]))),
            0x10 => pose.rotations[bone] = normalize(Vec4::from(mult(turn(Vec3::Y), pose.rotations[bone]))),
            0x20 => pose.rotations[bone] = normalize(Vec4::from(mult(turn(Vec3::Z), pose.rotations[bone]))),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::bone;
    use studio_source::BoneController;

    #[test]
    fn controllers_move_and_turn_their_bones() {
        let shared = studio_testing::shared();
        let Some(shared) = shared else { return };
        let bytes = studio_testing::read(&shared, "fixtures/source/models/fixture/skeleton48.mdl");
        let mut model = studio_source::parse_mdl(&bytes).unwrap();
        model.bones = vec![bone("a"), bone("b")];
        model.bone_controllers = vec![
            BoneController { bone: 0, kind: 0x01, start: -2.0, end: 2.0, rest: 0, input: 1 },
            BoneController { bone: 1, kind: 0x20, start: -90.0, end: 90.0, rest: 0, input: 0 },
        ];
        let mut pose = LocalPose::defaults(&model);
        // Input 1 at 1: +2 on x; input 0 at 0.75: 45 degrees about z.
        controllers(&model, &[0.75, 1.0, 0.0, 0.0, 0.0], &mut pose);
        assert_eq!(pose.positions[0], Vec3::new(3.0, 2.0, 3.0));
        assert!(pose.rotations[1].abs_diff_eq(Quat::from_rotation_z(45f32.to_radians()), 1e-6));
    }
}
