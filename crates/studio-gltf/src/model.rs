//! What an export holds, in no file format's terms: the skeleton with its rest pose and bind
//! matrices, meshes whose vertices are in the model's bind pose with up to 4 joints, materials
//! with their images, animations as per-key local transforms of every bone, attachments and
//! hit boxes. Each format's adapter (in the app) fills one from its model and pose evaluator.

use glam::{Affine3A, Quat, Vec3};

/// A model to export.
#[derive(Clone, Debug, Default)]
pub struct ExportModel {
    /// The model's name (the root node's).
    pub name: String,
    /// Bones, parents before children.
    pub bones: Vec<ExportBone>,
    /// Meshes (one per body part choice).
    pub meshes: Vec<ExportMesh>,
    /// Materials.
    pub materials: Vec<ExportMaterial>,
    /// Animations.
    pub animations: Vec<ExportAnimation>,
    /// Attachments.
    pub attachments: Vec<ExportAttachment>,
    /// Hit boxes.
    pub hitboxes: Vec<ExportHitbox>,
    /// Model units per glTF unit are divided by this: 1 keeps model units.
    pub scale: f32,
}

/// One bone.
#[derive(Clone, Debug)]
pub struct ExportBone {
    /// Its name.
    pub name: String,
    /// Its parent.
    pub parent: Option<usize>,
    /// Rest translation relative to the parent.
    pub translation: Vec3,
    /// Rest rotation relative to the parent.
    pub rotation: Quat,
    /// The bone's model-space transform in the pose the mesh's vertices are in (the inverse
    /// bind matrix is its inverse).
    pub bind: Affine3A,
}

/// One mesh: its primitives, one per material.
#[derive(Clone, Debug, Default)]
pub struct ExportMesh {
    /// Its name.
    pub name: String,
    /// Primitives.
    pub primitives: Vec<ExportPrimitive>,
}

/// A vertex in the model's bind pose.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ExportVertex {
    /// Position.
    pub position: Vec3,
    /// Normal (unit length).
    pub normal: Vec3,
    /// Texture coordinates, 0..1 across the texture, v down.
    pub uv: [f32; 2],
    /// Joints (bone indices).
    pub joints: [u16; 4],
    /// Their weights, summing to 1.
    pub weights: [f32; 4],
}

/// Triangles of one material.
#[derive(Clone, Debug, Default)]
pub struct ExportPrimitive {
    /// The material, if any.
    pub material: Option<usize>,
    /// Three vertices per triangle, counter-clockwise seen from the front (glTF's winding).
    /// Equal vertices are shared when written.
    pub triangles: Vec<[ExportVertex; 3]>,
}

/// How a material's alpha is used.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum AlphaMode {
    /// Ignored.
    #[default]
    Opaque,
    /// Texels below the cutoff dropped.
    Mask(f32),
    /// Blended.
    Blend,
}

/// A material.
#[derive(Clone, Debug, Default)]
pub struct ExportMaterial {
    /// Its name.
    pub name: String,
    /// Its texture as RGBA8 (width, height, bytes), if any.
    pub image: Option<(u32, u32, Vec<u8>)>,
    /// Alpha.
    pub alpha: AlphaMode,
    /// Drawn from both sides.
    pub double_sided: bool,
}

/// One animation: per key, every bone's local transform.
#[derive(Clone, Debug, Default)]
pub struct ExportAnimation {
    /// Its name.
    pub name: String,
    /// Key times in seconds, increasing.
    pub times: Vec<f32>,
    /// Per bone, per key, translation relative to the parent.
    pub translations: Vec<Vec<Vec3>>,
    /// Per bone, per key, rotation relative to the parent.
    pub rotations: Vec<Vec<Quat>>,
}

impl ExportAnimation {
    /// An animation of `bones` bones at `times`, whose key k has bone-to-model matrices
    /// `pose(k)`: each bone's transform relative to its parent (`parents`), with each rotation
    /// on the same side as the key before it, so linear interpolation takes the short way.
    pub fn from_model_space(
        name: String,
        times: Vec<f32>,
        parents: &[Option<usize>],
        mut pose: impl FnMut(usize) -> Vec<Affine3A>,
    ) -> Self {
        let bones = parents.len();
        let mut translations = vec![Vec::with_capacity(times.len()); bones];
        let mut rotations: Vec<Vec<Quat>> = vec![Vec::with_capacity(times.len()); bones];
        for k in 0..times.len() {
            let world = pose(k);
            for (b, parent) in parents.iter().enumerate() {
                let own = world.get(b).copied().unwrap_or(Affine3A::IDENTITY);
                let local = match parent.and_then(|p| world.get(p)) {
                    Some(p) => p.inverse() * own,
                    None => own,
                };
                let (_, mut rotation, translation) = local.to_scale_rotation_translation();
                rotation = rotation.normalize();
                if let Some(previous) = rotations[b].last()
                    && previous.dot(rotation) < 0.0
                {
                    rotation = -rotation;
                }
                translations[b].push(translation);
                rotations[b].push(rotation);
            }
        }
        Self { name, times, translations, rotations }
    }
}

/// An attachment: a named point on a bone.
#[derive(Clone, Debug)]
pub struct ExportAttachment {
    /// Its name.
    pub name: String,
    /// Its bone, if any.
    pub bone: Option<usize>,
    /// Its transform relative to the bone.
    pub local: Affine3A,
}

/// A hit box.
#[derive(Clone, Debug)]
pub struct ExportHitbox {
    /// Its name (may be empty).
    pub name: String,
    /// Its bone.
    pub bone: usize,
    /// Its hit group.
    pub group: i32,
    /// Box corners in the bone's space.
    pub bbmin: Vec3,
    /// See `bbmin`.
    pub bbmax: Vec3,
    /// The name of its set.
    pub set: String,
}
