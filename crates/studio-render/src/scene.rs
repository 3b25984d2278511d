//! What the renderer draws, in no file format's terms: a [`RenderModel`] (meshes by body part,
//! submodel and LOD; materials; skin families; the skeleton's shape) built once per model, and a
//! [`FramePose`] (skinning matrices, bones, hit boxes, attachments) each frame. The format
//! adapters ([`crate::goldsrc`], [`crate::source`]) build both; nothing past them knows which
//! format a model came from.

use glam::{Affine3A, Vec3, Vec3A};

use crate::gpu_types::MeshVertex;

/// A model as the renderer sees it.
#[derive(Clone, Debug, Default)]
pub struct RenderModel {
    /// Each bone's parent, parents before children.
    pub parents: Vec<Option<usize>>,
    /// The model's box (`bbmin`, `bbmax` of the header), for the bounding box overlay and the
    /// size of markers.
    pub bounds: (Vec3, Vec3),
    /// Body parts: the entity's body number chooses one submodel of each.
    pub body_parts: Vec<RenderBodyPart>,
    /// Materials (textures), indexed by the skin families.
    pub materials: Vec<RenderMaterial>,
    /// Skin families: per family, per material slot (a mesh's `slot`), the material drawn.
    pub skins: Vec<Vec<Option<usize>>>,
    /// Hit box sets (GoldSrc has one): each box's hit group, which gives its colour.
    pub hitbox_sets: Vec<Vec<i32>>,
    /// Attachments.
    pub attachments: usize,
    /// The engine whose rules it follows: how it is lit, the player's hull beside it.
    pub engine: crate::light::Engine,
}

/// One body part.
#[derive(Clone, Debug, Default)]
pub struct RenderBodyPart {
    /// The divisor of the body number for this part (goldsrc-geometry.md, source-header.md).
    pub base: i32,
    /// Its submodels (Source: models).
    pub submodels: Vec<RenderSubmodel>,
}

impl RenderBodyPart {
    /// The submodel body number `body` chooses: (body / base) mod count, as both engines do.
    pub fn submodel_index(&self, body: i32) -> Option<usize> {
        submodel_for_body(self.base, self.submodels.len(), body)
    }
}

/// The submodel body number `body` chooses among `count` in a part of divisor `base`:
/// (body / base) mod count.
pub fn submodel_for_body(base: i32, count: usize, body: i32) -> Option<usize> {
    let n = i32::try_from(count).ok().filter(|&n| n > 0)?;
    usize::try_from(body.checked_div(base)?.rem_euclid(n)).ok()
}

/// One submodel: its meshes per level of detail (GoldSrc models have one).
#[derive(Clone, Debug, Default)]
pub struct RenderSubmodel {
    /// Per LOD, the meshes.
    pub lods: Vec<Vec<RenderMesh>>,
}

/// One mesh: vertices, triangles and the material slot it draws with.
#[derive(Clone, Debug, Default)]
pub struct RenderMesh {
    /// Vertices, each with its bones and weights.
    pub vertices: Vec<MeshVertex>,
    /// Triangles, as indices into `vertices`, clockwise seen from the front.
    pub triangles: Vec<[u32; 3]>,
    /// The column of the skin table that gives the material.
    pub slot: usize,
    /// Its index among the model's moving meshes (Source flexed and eyeball meshes), whose
    /// vertices each frame may rewrite: [`FramePose::moving`]. `None` for a mesh that never
    /// changes.
    pub moving: Option<usize>,
}

/// How a material's texels combine with what is behind them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Blend {
    /// Opaque (alpha-tested when `alpha_test` is set).
    #[default]
    Opaque,
    /// Alpha-blended (`$translucent`).
    Translucent,
    /// Added (`$additive`, GoldSrc's `STUDIO_NF_ADDITIVE`).
    Additive,
}

/// An RGBA8 image in sRGB, rows top to bottom.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba: Vec<u8>,
}

impl Image {
    /// A magenta and black checkerboard of 8 × 8 squares: what a material that cannot be
    /// found or read shows, as in the Source engine.
    pub fn checkerboard() -> Self {
        let size = 64u32;
        let mut rgba = Vec::with_capacity((size * size * 4) as usize);
        for y in 0..size {
            for x in 0..size {
                let magenta = ((x / 8) + (y / 8)) % 2 == 0;
                rgba.extend(if magenta { [255, 0, 255, 255] } else { [0, 0, 0, 255] });
            }
        }
        Self { width: size, height: size, rgba }
    }
}

/// A material: its texture and how it is drawn.
#[derive(Clone, Debug)]
pub struct RenderMaterial {
    /// Name, for labels.
    pub name: String,
    /// The texture; `None` draws white.
    pub image: Option<Image>,
    /// Whether a mip chain is made.
    pub mipmaps: bool,
    /// What the vertices' texel coordinates are multiplied by: 1 / size for GoldSrc's texel
    /// units, 1 for Source's 0..1 coordinates.
    pub texel_scale: [f32; 2],
    /// Texture coordinates from the view-space normal (GoldSrc chrome, Source `$envmap`).
    pub chrome: bool,
    /// Texels whose alpha is below this are dropped (0: none).
    pub alpha_test: f32,
    /// Blending.
    pub blend: Blend,
    /// Drawn from both sides (`$nocull`).
    pub double_sided: bool,
    /// Not lit (`$selfillum`, GoldSrc's `STUDIO_NF_FULLBRIGHT`).
    pub fullbright: bool,
    /// Half-Life's `STUDIO_NF_FLATSHADE`: lit at one level whatever the normal.
    pub flat_shade: bool,
    /// A simple reflective look (`$envmap`): a bright rim where the surface turns away from
    /// the eye, in place of the cube map.
    pub reflective: bool,
    /// Colour the texels are multiplied by, linear (`$color`, `$color2`).
    pub tint: [f32; 3],
    /// Self-lit where the texture's alpha says, as Source's `$selfillum` is: the lit colour
    /// blends to the unlit texel by the base texture's alpha (game shading; plain shading
    /// draws the whole material unlit, as `fullbright`).
    pub self_illum: bool,
    /// A tangent-space normal map (`$bumpmap`), RGBA8 not in sRGB; its alpha masks phong.
    pub normal_map: Option<Image>,
    /// `$phong`: a specular highlight.
    pub phong: Option<PhongParams>,
    /// `$lightwarptexture`: the diffuse term's lookup, read along u at the half-Lambert term.
    pub light_warp: Option<Image>,
    /// `$iris`: drawn over the texture by its alpha at the vertices' second texture
    /// coordinates (an eyeball mesh's iris projection).
    pub iris: Option<Image>,
}

/// `$phong`'s parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhongParams {
    /// `$phongexponent`.
    pub exponent: f32,
    /// `$phongboost`.
    pub boost: f32,
    /// `$phongfresnelranges`: the Fresnel term facing, at 60° and grazing.
    pub fresnel_ranges: [f32; 3],
}

impl RenderMaterial {
    /// Whether game shading draws it differently from plain shading.
    pub fn game_shaded(&self) -> bool {
        self.self_illum
            || self.normal_map.is_some()
            || self.phong.is_some()
            || self.light_warp.is_some()
            || self.iris.is_some()
    }
}

impl Default for RenderMaterial {
    fn default() -> Self {
        Self {
            name: String::new(),
            image: None,
            mipmaps: true,
            texel_scale: [1.0, 1.0],
            chrome: false,
            alpha_test: 0.0,
            blend: Blend::Opaque,
            double_sided: false,
            fullbright: false,
            flat_shade: false,
            reflective: false,
            tint: [1.0; 3],
            self_illum: false,
            normal_map: None,
            phong: None,
            light_warp: None,
            iris: None,
        }
    }
}

/// One frame's pose as the renderer takes it. Every slice may be shorter than the model asks
/// for; what is missing is not drawn (or, for skinning, stays where the bone's last matrix put
/// it).
#[derive(Clone, Copy, Debug, Default)]
pub struct FramePose<'a> {
    /// Per bone, the matrix taking a vertex from the mesh's space to the posed model: the bone
    /// itself for GoldSrc (vertices are stored in bone space), bone × pose-to-bone for Source.
    pub skinning: &'a [Affine3A],
    /// Per bone, its model-space transform (the skeleton overlay).
    pub bones: &'a [Affine3A],
    /// Each hit box's 8 corners: corner k takes the maximum on axis i when bit i of k is set.
    pub hitboxes: &'a [[Vec3A; 8]],
    /// The hit box set `hitboxes` are of.
    pub hitbox_set: usize,
    /// Each attachment's point.
    pub attachments: &'a [Vec3A],
    /// The sequence's box, for the sequence box overlay.
    pub sequence_box: Option<(Vec3, Vec3)>,
    /// The vertices of each moving mesh ([`RenderMesh::moving`]) as this frame draws them, in
    /// the mesh's space like the uploaded ones. Empty: every mesh as uploaded.
    pub moving: &'a [Vec<MeshVertex>],
    /// Changes whenever any list of `moving` does: the renderer writes them to the GPU only
    /// when it differs from the last one it wrote.
    pub moving_revision: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn body_numbers_choose_submodels_as_the_engines_do() {
        let part = |base, n| RenderBodyPart { base, submodels: vec![RenderSubmodel::default(); n] };
        assert_eq!(part(1, 2).submodel_index(3), Some(1));
        assert_eq!(part(2, 3).submodel_index(5), Some(2));
        assert_eq!(part(0, 2).submodel_index(1), None);
        assert_eq!(part(1, 0).submodel_index(0), None);
        assert_eq!(part(1, 2).submodel_index(-1), Some(1));
    }

    #[test]
    fn the_checkerboard_alternates_magenta_and_black() {
        let image = Image::checkerboard();
        let at = |x: u32, y: u32| &image.rgba[((y * image.width + x) * 4) as usize..][..4];
        assert_eq!(at(0, 0), [255, 0, 255, 255]);
        assert_eq!(at(8, 0), [0, 0, 0, 255]);
        assert_eq!(at(8, 8), [255, 0, 255, 255]);
        assert_eq!(image.rgba.len(), 64 * 64 * 4);
    }
}
