//! The Source (versions 44–49) adapter: a [`SourceModel`]'s `.vvd` vertices and `.vtx` strips
//! as the renderer takes them (source-mesh.md, "Drawing LOD 0", for every LOD the `.vtx` has),
//! and a frame's skinning matrices, bones, hit boxes and attachments. Vertices are in the
//! model's bind pose and carry up to 3 bone weights; the skinning matrices are bone ×
//! pose-to-bone (source-bonesetup.md, "Skinning and poseToBone").

use glam::{Affine3A, Vec3A};
use studio_source::SourceModel;
use studio_source::{Vertex, VtxMesh};

use crate::gpu_types::MeshVertex;
use crate::scene::{
    FramePose, Image, RenderBodyPart, RenderMaterial, RenderMesh, RenderModel, RenderSubmodel,
};
use crate::source_face::{MeshKey, SourceFace, mesh_vertices, moving_meshes};

/// What a material that cannot be found or read draws: the checkerboard.
pub fn missing_material(name: &str) -> RenderMaterial {
    RenderMaterial { name: name.to_owned(), image: Some(Image::checkerboard()), ..RenderMaterial::default() }
}

/// A `.vvd` vertex with its tangent (zero where the `.vvd` has none) for the mesh shader: its
/// weights past `numbones` are 0.
pub(crate) fn mesh_vertex((v, tangent): (&Vertex, Option<&glam::Vec4>)) -> MeshVertex {
    let mut bones = [0u8; 3];
    let mut weights = [0.0f32; 3];
    let used = usize::from(v.num_bones).min(3);
    bones[..used].copy_from_slice(&v.bones[..used]);
    weights[..used].copy_from_slice(&v.weights[..used]);
    let mut vertex =
        MeshVertex::weighted(v.position.to_array(), v.normal.to_array(), v.uv.to_array(), bones, weights);
    if let Some(t) = tangent.filter(|t| t.is_finite()) {
        vertex.tangent = t.to_array();
    }
    vertex
}

/// The meshes of one `.mdl` model at each LOD of its `.vtx` model; `moving` lists the model's
/// moving meshes ([`moving_meshes`]).
fn submodel(model: &SourceModel, part: usize, index: usize, moving: &[MeshKey]) -> RenderSubmodel {
    let Some(mdl) = model.body_parts.get(part).and_then(|p| p.models.get(index)) else {
        return RenderSubmodel::default();
    };
    let Some(vtx) = model.vtx.as_ref().and_then(|v| v.body_parts.get(part)?.get(index)) else {
        return RenderSubmodel::default();
    };
    // Each mesh's vertices, shared by its LODs.
    let key = |mesh| MeshKey { part, model: index, mesh };
    let mesh_vertices: Vec<Vec<MeshVertex>> = (0..mdl.meshes.len())
        .map(|mesh| mesh_vertices(model, key(mesh)).map_or_else(Vec::new, |r| r.map(mesh_vertex).collect()))
        .collect();
    let lods = vtx
        .lods
        .iter()
        .map(|lod| {
            lod.meshes
                .iter()
                .zip(mdl.meshes.iter().zip(&mesh_vertices))
                .enumerate()
                .map(|(m, (vtx_mesh, (mesh, vertices))): (usize, (&VtxMesh, _))| {
                    let mut triangles = Vec::new();
                    for group in &vtx_mesh.strip_groups {
                        group.triangles(vertices.len(), &mut triangles);
                    }
                    RenderMesh {
                        vertices: vertices.clone(),
                        triangles,
                        slot: usize::try_from(mesh.material).unwrap_or(usize::MAX),
                        moving: moving.iter().position(|&k| k == key(m)),
                    }
                })
                .collect()
        })
        .collect();
    RenderSubmodel { lods }
}

/// `model` as the renderer draws it, with `materials` (one per texture of the model, in order;
/// see [`missing_material`]). Without a `.vvd` or `.vtx` it has a skeleton and no mesh.
pub fn render_model(model: &SourceModel, materials: Vec<RenderMaterial>) -> RenderModel {
    let moving = moving_meshes(model);
    let body_parts = model
        .body_parts
        .iter()
        .enumerate()
        .map(|(p, part)| RenderBodyPart {
            base: part.base,
            submodels: (0..part.models.len()).map(|m| submodel(model, p, m, &moving)).collect(),
        })
        .collect();
    let skins = model
        .skins
        .families
        .iter()
        .map(|family| family.iter().map(|&t| (t < materials.len()).then_some(t)).collect())
        .collect();
    RenderModel {
        parents: model.bones.iter().map(|b| b.parent).collect(),
        bounds: model.header.hull,
        body_parts,
        materials,
        skins,
        hitbox_sets: model.hitbox_sets.iter().map(|s| s.hitboxes.iter().map(|h| h.group).collect()).collect(),
        attachments: model.attachments.len(),
        engine: crate::light::Engine::Source,
    }
}

/// Number of LODs the `.vtx` has (1 without one).
pub fn lod_count(model: &SourceModel) -> usize {
    model.vtx.as_ref().map_or(1, |v| usize::try_from(v.num_lods).unwrap_or(1).clamp(1, 8))
}

/// What a Source frame needs beyond the bones: the lists are reused from frame to frame.
#[derive(Debug, Default)]
pub struct SourceFrame {
    /// Each bone's model-space transform.
    pub bones: Vec<Affine3A>,
    /// Each bone's skinning matrix.
    pub skinning: Vec<Affine3A>,
    /// The chosen set's hit box corners.
    pub hitboxes: Vec<[Vec3A; 8]>,
    /// The chosen hit box set.
    pub hitbox_set: usize,
    /// Each attachment's point.
    pub attachments: Vec<Vec3A>,
    /// The sequence's box.
    pub sequence_box: Option<(glam::Vec3, glam::Vec3)>,
    /// The moving meshes: flexed faces and eyes. Empty until [`SourceFace::new`] is given the
    /// model; then [`SourceFace::update`] poses them after [`Self::place`].
    pub face: SourceFace,
}

impl SourceFrame {
    /// Places everything that follows from `self.bones` (set by the pose evaluator) for
    /// `model`, hit box set `hitbox_set` and sequence box `sequence_box`. Allocates nothing
    /// once the lists have grown to the model's size.
    pub fn place(
        &mut self,
        model: &SourceModel,
        hitbox_set: usize,
        sequence_box: Option<(glam::Vec3, glam::Vec3)>,
    ) {
        studio_source_pose::skinning_matrices(model, &self.bones, &mut self.skinning);
        studio_source_pose::hitbox_corners_into(model, hitbox_set, &self.bones, &mut self.hitboxes);
        studio_source_pose::attachment_points_into(model, &self.bones, &mut self.attachments);
        self.hitbox_set = hitbox_set;
        self.sequence_box = sequence_box;
    }

    /// This frame as the renderer takes it.
    pub fn frame_pose(&self) -> FramePose<'_> {
        FramePose {
            skinning: &self.skinning,
            bones: &self.bones,
            hitboxes: &self.hitboxes,
            hitbox_set: self.hitbox_set,
            attachments: &self.attachments,
            sequence_box: self.sequence_box,
            moving: &self.face.vertices,
            moving_revision: self.face.revision,
        }
    }
}
