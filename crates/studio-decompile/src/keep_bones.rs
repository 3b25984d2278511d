//! Bones Valve's Half-Life studiomdl would drop, kept by the means it allows.
//!
//! `SimplifyModel` (`utils/studiomdl/studiomdl.c`) keeps only the bones some vertex of a
//! reference SMD is bound to, and their parents, and builds the bone table in the order the
//! kept bones first appear: the first reference SMD's nodes in their order, then each later
//! SMD's new ones. A bone no vertex uses (a knife's tip, a wheel, every bone of a model without
//! meshes) would be gone, and an attachment, controller or hit box on it fails to compile
//! ("unknown attachment link"). So the first reference SMD gets one triangle of zero area, its
//! three corners at the bone's origin, bound to each bone that SMD's vertices do not already
//! keep: every bone is then kept, in the model's order. A model without a mesh gets a body part
//! of its own for them, with a one-colour texture.

use studio_model::Model;

use crate::goldsrc::is_blank;

/// The name of the body part, reference SMD and texture made for a model without meshes.
pub const OWN_PART: &str = "studioview_bones";

/// Where the triangles that keep bones go, and for which bones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeepBones {
    /// The first written submodel (body part, submodel), or `None`: a body part of its own.
    pub submodel: Option<(usize, usize)>,
    /// The bones given a triangle, in order.
    pub bones: Vec<usize>,
}

impl KeepBones {
    /// Whether the model's own body part is added for the triangles.
    pub fn own_part(&self) -> bool {
        self.submodel.is_none() && !self.bones.is_empty()
    }
}

/// Which bones of `model` need a triangle, and in which submodel.
pub fn plan(model: &Model) -> KeepBones {
    let first = model.body_parts.iter().enumerate().find_map(|(p, part)| {
        let s = part
            .submodels
            .iter()
            .position(|sub| !is_blank(sub) && sub.meshes.iter().any(|m| !m.triangles.is_empty()))?;
        Some((p, s))
    });
    let mut kept = vec![false; model.bones.len()];
    if let Some((p, s)) = first {
        for &bone in &model.body_parts[p].submodels[s].vertex_bones {
            // Parents are marked by walking up from each used bone (SimplifyModel's rule).
            let mut at = Some(usize::from(bone));
            while let Some(b) = at.filter(|&b| b < kept.len() && !kept[b]) {
                kept[b] = true;
                at = model.bones[b].parent;
            }
        }
    }
    let bones = (0..model.bones.len()).filter(|&b| !kept[b]).collect();
    KeepBones { submodel: first, bones }
}
