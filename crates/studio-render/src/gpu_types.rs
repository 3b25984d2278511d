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
    /// xyz: direction the light travels, in model space; w: the lighting rule (0 Half-Life's,
    /// 1 Source's: `Engine`).
    pub light: [f32; 4],
    /// x: 1 for flat shading; y: mesh opacity; z: 1 to light the mesh; w: unused (game shading
    /// is a pipeline of its own).
    pub options: [f32; 4],
    /// Colour of wireframe lines.
    pub wire_color: [f32; 4],
    /// rgb: the light's colour; w: the ambient level.
    pub light_color: [f32; 4],
    /// Overlays drawn by the mesh shader: x the bone weights view (0 off, 1 a colour per bone,
    /// 2 one bone's weight), y that bone, z the length of normals' lines; w unused.
    pub debug: [f32; 4],
}

/// `Bones` in `mesh.wgsl`, a read-only storage buffer: every bone's skinning transform.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
pub struct BonesBuffer {
    /// Column-major 4×4 matrices.
    pub model_from_bone: [[[f32; 4]; 4]; MAX_BONES],
}

/// How many of [`MeshVertex`]'s bone slots a model's vertices weigh in: the mesh shader's
/// `BONE_SLOTS`, set per pipeline. GoldSrc vertices weigh in two (the position's bone and the
/// normal's); Source vertices up to three. Two read one skinning matrix less per vertex, and
/// lavapipe compiles with 7% fewer instructions (callgrind, the warm-up helper drawing the
/// soldier's mesh and grid: 1,235 M → 1,148 M), the same images: a slot with weight 0 adds 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoneSlots {
    /// The first two.
    Two,
    /// All three.
    Three,
}

impl BoneSlots {
    /// The fewest slots that draw all of `vertices`.
    pub fn of<'a>(vertices: impl IntoIterator<Item = &'a MeshVertex>) -> Self {
        if vertices.into_iter().any(MeshVertex::uses_third_slot) { Self::Three } else { Self::Two }
    }

    /// The value of the shader's `BONE_SLOTS`.
    pub fn count(self) -> u32 {
        match self {
            Self::Two => 2,
            Self::Three => 3,
        }
    }
}

/// `VertexIn` in `mesh.wgsl`: one vertex, skinned by up to 3 weighted bones: GoldSrc vertices
/// follow one bone with weight 1 and their normal its own bone, which may differ
/// (goldsrc-geometry.md, "Submodels"); Source vertices carry the `.vvd`'s up to 3 weights, which
/// their normal follows too (source-bonesetup.md, "Skinning and poseToBone").
///
/// The position and the normal have their own weights over the same three bones, so the vertex
/// shader reads three skinning matrices whichever the format (two where no vertex of the model
/// weighs the third: [`BoneSlots`]). Each matrix element a vertex shader reads through a
/// per-vertex index is a gather that Mesa's software renderer compiles lane by lane: three bones
/// rather than four plus the normal's own cost half the code, and 50 ms less compiling before
/// the first frame.
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
#[repr(C)]
pub struct MeshVertex {
    /// Position in the mesh's space (each skinning matrix takes it to the posed model).
    pub position: [f32; 3],
    /// Normal in the same space.
    pub normal: [f32; 3],
    /// Texture coordinates, multiplied by the material's `texel_scale` in the shader.
    pub texel: [f32; 2],
    /// The bone of each of the three slots; the fourth byte is padding (0). A slot whose
    /// weights are both 0 is irrelevant.
    pub bones: [u8; 4],
    /// The position's weight on each slot's bone, summing to 1.
    pub weights: [f32; 3],
    /// The normal's weight on each slot's bone, summing to 1.
    pub normal_weights: [f32; 3],
    /// The tangent (xyz: the direction of increasing u, in the same space; w: ±1, the side
    /// the bitangent is on: bitangent = cross(normal, tangent) · w), turned like the normal.
    /// Zero where the model has none: normal maps are then not applied.
    pub tangent: [f32; 4],
    /// Second texture coordinates: an eyeball's iris projection (0 elsewhere).
    pub texel2: [f32; 2],
}

impl MeshVertex {
    /// A vertex following one bone rigidly, its normal following `normal_bone`.
    pub fn rigid(position: [f32; 3], normal: [f32; 3], texel: [f32; 2], bone: u8, normal_bone: u8) -> Self {
        Self {
            position,
            normal,
            texel,
            bones: [bone, normal_bone, 0, 0],
            weights: [1.0, 0.0, 0.0],
            normal_weights: [0.0, 1.0, 0.0],
            tangent: [0.0; 4],
            texel2: [0.0; 2],
        }
    }

    /// A vertex and its normal following the same weighted bones.
    pub fn weighted(
        position: [f32; 3],
        normal: [f32; 3],
        texel: [f32; 2],
        bones: [u8; 3],
        weights: [f32; 3],
    ) -> Self {
        Self {
            position,
            normal,
            texel,
            bones: [bones[0], bones[1], bones[2], 0],
            weights,
            normal_weights: weights,
            tangent: [0.0; 4],
            texel2: [0.0; 2],
        }
    }

    /// Whether the third slot weighs in the position or the normal.
    pub fn uses_third_slot(&self) -> bool {
        self.weights[2] != 0.0 || self.normal_weights[2] != 0.0
    }

    /// The slots whose bone moves the position: (bone, weight).
    pub fn position_bones(&self) -> impl Iterator<Item = (u8, f32)> + '_ {
        self.bones.iter().zip(self.weights).filter(|(_, w)| *w != 0.0).map(|(&b, w)| (b, w))
    }

    /// The slots whose bone turns the normal: (bone, weight).
    pub fn normal_bones(&self) -> impl Iterator<Item = (u8, f32)> + '_ {
        self.bones.iter().zip(self.normal_weights).filter(|(_, w)| *w != 0.0).map(|(&b, w)| (b, w))
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
    /// x: 1 for fullbright; y: 1 for blended; z: 1 for reflective; w: 1 for self-lit by the
    /// texture's alpha (`$selfillum`).
    pub flags: [f32; 4],
    /// Game shading: x 1 with a normal map; y 1 with phong; z 1 with a light warp; w 1 with an
    /// iris.
    pub maps: [f32; 4],
    /// Phong: x exponent; y boost; zw unused.
    pub phong: [f32; 4],
    /// Phong's Fresnel ranges (xyz); w unused.
    pub fresnel: [f32; 4],
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

const _: () = assert!(size_of::<FrameUniform>() == 208);
const _: () = assert!(size_of::<MeshVertex>() == 84);
const _: () = assert!(size_of::<OverlayVertex>() == 28);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_needs_the_third_slot_only_where_a_vertex_weighs_it() {
        let rigid = MeshVertex::rigid([0.0; 3], [0.0, 0.0, 1.0], [0.0; 2], 3, 4);
        let two = MeshVertex::weighted([0.0; 3], [0.0, 0.0, 1.0], [0.0; 2], [1, 2, 7], [0.25, 0.75, 0.0]);
        let three = MeshVertex::weighted([0.0; 3], [0.0, 0.0, 1.0], [0.0; 2], [1, 2, 7], [0.25, 0.5, 0.25]);
        assert_eq!(BoneSlots::of(&[rigid, two]), BoneSlots::Two, "GoldSrc vertices and two weights");
        assert_eq!(BoneSlots::of(&[rigid, two, three]), BoneSlots::Three);
        let mut normal_only = two;
        normal_only.normal_weights = [0.0, 0.5, 0.5];
        assert_eq!(BoneSlots::of(&[normal_only]), BoneSlots::Three, "a normal weighing in the third slot");
        assert_eq!(BoneSlots::of(&[]), BoneSlots::Two);
        assert_eq!((BoneSlots::Two.count(), BoneSlots::Three.count()), (2, 3));
    }
}
