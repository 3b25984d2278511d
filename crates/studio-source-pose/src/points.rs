//! Hit box corners and attachment points on a pose's bone matrices (the references' `hitboxes`
//! and `attachments`).

use glam::{Affine3A, Vec3};
use studio_source::SourceModel;

/// The 8 corners of each hit box of set `set`, in model space: corner k takes `bbmax` on axis i
/// when bit i of k is set, else `bbmin`, transformed by its bone's matrix.
pub fn hitbox_corners(model: &SourceModel, set: usize, bones: &[Affine3A]) -> Vec<[Vec3; 8]> {
    let Some(set) = model.hitbox_sets.get(set) else { return Vec::new() };
    set.hitboxes
        .iter()
        .map(|b| {
            let matrix = bones.get(b.bone).copied().unwrap_or(Affine3A::IDENTITY);
            std::array::from_fn(|k| {
                let pick = |axis: usize| if k & (1 << axis) != 0 { b.bbmax[axis] } else { b.bbmin[axis] };
                matrix.transform_point3(Vec3::new(pick(0), pick(1), pick(2)))
            })
        })
        .collect()
}

/// Each attachment's point: the translation of its local matrix, transformed by its bone's.
pub fn attachment_points(model: &SourceModel, bones: &[Affine3A]) -> Vec<Vec3> {
    model
        .attachments
        .iter()
        .map(|a| {
            let local = Vec3::new(a.local[0][3], a.local[1][3], a.local[2][3]);
            match a.bone.and_then(|b| bones.get(b)) {
                Some(matrix) => matrix.transform_point3(local),
                None => local,
            }
        })
        .collect()
}
