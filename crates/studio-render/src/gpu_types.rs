//! Data laid out for the GPU. Keep in sync with `shaders/mesh.wgsl` and `shaders/overlay.wgsl`.

use bytemuck::{Pod, Zeroable};

/// Most bones the shaders take; later bones draw at their first bone's place. Half-Life's limit
/// is 128.
pub const MAX_BONES: usize = 256;

/// `Frame` in both shaders: per-frame camera, light and options.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct FrameUniform {
    /// Model space to clip space.
    pub clip_from_model: [[f32; 4]; 4],
    /// Model space to view space (for chrome).
    pub view_from_model: [[f32; 4]; 4],
    /// xyz: direction the light travels, in model space; w: ambient level.
    pub light: [f32; 4],
    /// x: 1 for flat shading; y: mesh opacity; z: 1 to light the mesh; w: unused.
    pub options: [f32; 4],
    /// Colour of wireframe lines.
    pub wire_color: [f32; 4],
}

/// `Bones` in `mesh.wgsl`: every bone's model-space transform.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct BonesUniform {
    /// Column-major 4×4 matrices.
    pub model_from_bone: [[[f32; 4]; 4]; MAX_BONES],
}

/// Marks a [`MeshVertex`] whose normal follows the position's bones and weights.
pub const NORMAL_FOLLOWS_WEIGHTS: u32 = u32::MAX;

/// `VertexIn` in `mesh.wgsl`: one vertex, skinned by up to 4 weighted bones (GoldSrc: one
/// bone of weight 1; Source: the `.vvd`'s up to 3).
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
#[repr(C)]
pub struct MeshVertex {
    /// Position in the mesh's space (each skinning matrix takes it to the posed model).
    pub position: [f32; 3],
    /// Normal in the same space.
    pub normal: [f32; 3],
    /// Texture coordinates, multiplied by the material's `texel_scale` in the shader.
    pub texel: [f32; 2],
    /// Bone indices; a weight of 0 makes its bone irrelevant.
    pub bones: [u8; 4],
    /// Bone weights, summing to 1.
    pub weights: [f32; 4],
    /// The bone the normal follows alone (GoldSrc stores normals with their own bone), or
    /// [`NORMAL_FOLLOWS_WEIGHTS`].
    pub normal_bone: u32,
}

impl MeshVertex {
    /// A vertex following one bone rigidly, its normal following `normal_bone`.
    pub fn rigid(position: [f32; 3], normal: [f32; 3], texel: [f32; 2], bone: u8, normal_bone: u8) -> Self {
        Self {
            position,
            normal,
            texel,
            bones: [bone, 0, 0, 0],
            weights: [1.0, 0.0, 0.0, 0.0],
            normal_bone: u32::from(normal_bone),
        }
    }
}

/// `TextureParams` in `mesh.wgsl`: one material's drawing parameters.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct TextureParams {
    /// xy: texel scale; z: 1 for chrome; w: alpha below which texels are dropped.
    pub params: [f32; 4],
    /// rgb: tint (linear); w: unused.
    pub tint: [f32; 4],
    /// x: 1 for fullbright; y: 1 for blended; z: 1 for reflective; w: unused.
    pub flags: [f32; 4],
}

/// `VertexIn` in `overlay.wgsl`: a coloured point of a line or triangle.
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
#[repr(C)]
pub struct OverlayVertex {
    /// Model-space position.
    pub position: [f32; 3],
    /// Linear RGBA colour.
    pub color: [f32; 4],
}

const _: () = assert!(size_of::<FrameUniform>() == 176);
const _: () = assert!(size_of::<MeshVertex>() == 56);
const _: () = assert!(size_of::<OverlayVertex>() == 28);
