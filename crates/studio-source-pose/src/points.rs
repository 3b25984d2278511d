//! Hit box corners and attachment points on a pose's bone matrices (the references' `hitboxes`
//! and `attachments`).

use glam::{Affine3A, Vec3, Vec3A};
use studio_source::SourceModel;

/// The 8 corners of each hit box of set `set`, in model space: corner k takes `bbmax` on axis i
/// when bit i of k is set, else `bbmin`, transformed by its bone's matrix.
pub fn hitbox_corners(model: &SourceModel, set: usize, bones: &[Affine3A]) -> Vec<[Vec3; 8]> {
    let mut out = Vec::new();
    hitbox_corners_into(model, set, bones, &mut out);
    out.iter().map(|corners| corners.map(Vec3::from)).collect()
}

/// [`hitbox_corners`] into a reused list (the viewer's per-frame path).
pub fn hitbox_corners_into(model: &SourceModel, set: usize, bones: &[Affine3A], out: &mut Vec<[Vec3A; 8]>) {
    out.clear();
    let Some(set) = model.hitbox_sets.get(set) else { return };
    out.extend(set.hitboxes.iter().map(|b| {
        let matrix = bones.get(b.bone).copied().unwrap_or(Affine3A::IDENTITY);
        std::array::from_fn(|k| {
            let pick = |axis: usize| if k & (1 << axis) != 0 { b.bbmax[axis] } else { b.bbmin[axis] };
            matrix.transform_point3a(Vec3A::new(pick(0), pick(1), pick(2)))
        })
    }));
}

/// The skinning matrix of every bone: bone-to-model × pose-to-bone (source-bonesetup.md,
/// "Skinning and poseToBone"): it takes a `.vvd` vertex from pose space to the posed model.
pub fn skinning_matrices(model: &SourceModel, bones: &[Affine3A], out: &mut Vec<Affine3A>) {
    out.clear();
    out.extend(model.bones.iter().zip(bones).map(|(bone, matrix)| *matrix * affine_3x4(&bone.pose_to_bone)));
}

/// A file's 3×4 row-major matrix (`matrix3x4_t`: pose-to-bone, an attachment's local) as an
/// affine transform.
pub fn affine_3x4(rows: &[[f32; 4]; 3]) -> Affine3A {
    let [r0, r1, r2] = rows;
    Affine3A::from_cols_array(&[
        r0[0], r1[0], r2[0], r0[1], r1[1], r2[1], r0[2], r1[2], r2[2], r0[3], r1[3], r2[3],
    ])
}

/// Each attachment's point: the translation of its local matrix, transformed by its bone's.
pub fn attachment_points(model: &SourceModel, bones: &[Affine3A]) -> Vec<Vec3> {
    let mut out = Vec::new();
    attachment_points_into(model, bones, &mut out);
    out.into_iter().map(Vec3::from).collect()
}

/// [`attachment_points`] into a reused list (the viewer's per-frame path).
pub fn attachment_points_into(model: &SourceModel, bones: &[Affine3A], out: &mut Vec<Vec3A>) {
    out.clear();
    out.extend(model.attachments.iter().map(|a| {
        let local = Vec3A::new(a.local[0][3], a.local[1][3], a.local[2][3]);
        match a.bone.and_then(|b| bones.get(b)) {
            Some(matrix) => matrix.transform_point3a(local),
            None => local,
        }
    }));
}
