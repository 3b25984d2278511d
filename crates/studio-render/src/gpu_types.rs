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

/// `VertexIn` in `mesh.wgsl`: one vertex of a triangle command.
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
#[repr(C)]
pub struct MeshVertex {
    /// Position in its bone's space.
    pub position: [f32; 3],
    /// Normal in its normal bone's space.
    pub normal: [f32; 3],
    /// Texel coordinates s, t (divided by the texture's size in the shader).
    pub texel: [f32; 2],
    /// The vertex's bone and the normal's bone.
    pub bone: [u32; 2],
}

/// `TextureParams` in `mesh.wgsl`.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct TextureParams {
    /// xy: 1 / texture size; z: 1 for chrome; w: 1 for masked.
    pub params: [f32; 4],
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
const _: () = assert!(size_of::<MeshVertex>() == 40);
const _: () = assert!(size_of::<OverlayVertex>() == 28);
