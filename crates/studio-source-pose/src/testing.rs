//! What the unit tests of the bone setup share.

use glam::{Quat, Vec3};
use studio_source::Bone;

/// A bone named `name` at (1, 2, 3), unrotated, with no parent, flags or controllers.
pub(crate) fn bone(name: &str) -> Bone {
    Bone {
        name: name.to_owned(),
        parent: None,
        controllers: [None; 6],
        position: Vec3::new(1.0, 2.0, 3.0),
        quaternion: Quat::IDENTITY,
        rotation: Vec3::ZERO,
        position_scale: Vec3::ONE,
        rotation_scale: Vec3::ONE,
        pose_to_bone: [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]],
        alignment: Quat::IDENTITY,
        flags: 0,
        procedural: None,
        surface_prop: String::new(),
        contents: 0,
    }
}
