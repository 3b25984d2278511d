//! The box round a pose, which framing cameras and thumbnails fit.

use studio_model::Model;
use studio_pose::Pose;

/// The box round a pose: its bones, hit boxes and the skinned vertices of the submodels body
/// number `body` shows, falling back to the header's bounding box when there is nothing to
/// measure.
pub fn pose_bounds(model: &Model, pose: &Pose, body: i32) -> (glam::Vec3, glam::Vec3) {
    let mut min = glam::Vec3::splat(f32::INFINITY);
    let mut max = glam::Vec3::splat(f32::NEG_INFINITY);
    let mut add = |p: glam::Vec3| {
        if p.is_finite() {
            min = min.min(p);
            max = max.max(p);
        }
    };
    for bone in &pose.bones {
        add(bone.translation.into());
    }
    for corners in &pose.hitboxes {
        corners.iter().for_each(|c| add((*c).into()));
    }
    let shown =
        model.body_parts.iter().filter_map(|p| p.submodel_index(body).and_then(|i| p.submodels.get(i)));
    for submodel in shown {
        for (v, &bone) in submodel.vertices.iter().zip(&submodel.vertex_bones) {
            if let Some(m) = pose.bones.get(usize::from(bone)) {
                add(m.transform_point3(*v));
            }
        }
    }
    if min.cmple(max).all() { (min, max) } else { (model.header.bbmin, model.header.bbmax) }
}
