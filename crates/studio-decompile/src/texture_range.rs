//! Textures Valve's Half-Life studiomdl would crop, kept whole by the means it allows.
//!
//! `TextureCoordRanges` (`utils/studiomdl/studiomdl.c`) makes each texture only as large as
//! the texels its triangles reach: `ResizeTexture` keeps columns `min_s..=max_s` (the width
//! rounded up to a multiple of 4) and rows `min_t..=max_t` and drops the rest. Its
//! `$cliptotextures` would keep the whole texture, but the command sets `clip_texcoords` to 0,
//! which it already is, so no QC can ask for it. A model whose triangles leave a border of its
//! texture unused (NS's `v_mg`: `hands.bmp`, 256 × 256, would come back 252 × 250) would lose
//! those texels, and a painter's template its size. So a texture whose triangles do not reach
//! all four edges gets one triangle of zero area (its three corners at one vertex of a mesh that
//! uses it) whose texture coordinates are the texture's corners: studiomdl then keeps it whole,
//! and every other coordinate keeps its texel. Chrome textures are left alone: studiomdl makes
//! them 64 × 64 whatever they are (their coordinates come from the normals in the game).

use studio_model::{Model, STUDIO_NF_CHROME};

use crate::goldsrc::is_blank;

/// Per texture, the texels its triangles reach, `[min_s, max_s, min_t, max_t]` (`None` for a
/// texture no mesh shows, a skin family's replacement), and the first submodel (body part,
/// submodel) with a mesh on it.
type Reach = (Option<[i32; 4]>, Option<(usize, usize)>);

fn reach(model: &Model) -> Vec<Reach> {
    let mut out: Vec<Reach> = vec![(None, None); model.textures.len()];
    for (p, part) in model.body_parts.iter().enumerate() {
        for (s, sub) in part.submodels.iter().enumerate().filter(|(_, sub)| !is_blank(sub)) {
            for mesh in &sub.meshes {
                let texture = model.skins.texture(0, mesh.skin_ref).or(usize::try_from(mesh.skin_ref).ok());
                let Some((range, first)) = texture.and_then(|t| out.get_mut(t)) else { continue };
                if mesh.triangles.is_empty() {
                    continue;
                }
                first.get_or_insert((p, s));
                for v in &mesh.vertices {
                    let (vs, vt) = (i32::from(v.s), i32::from(v.t));
                    let r = range.get_or_insert([vs, vs, vt, vt]);
                    *r = [r[0].min(vs), r[1].max(vs), r[2].min(vt), r[3].max(vt)];
                }
            }
        }
    }
    out
}

/// Whether `range` covers the whole of a `w × h` texture.
fn whole(range: Option<[i32; 4]>, w: i32, h: i32) -> bool {
    range.is_some_and(|[s0, s1, t0, t1]| s0 <= 0 && s1 >= w - 1 && t0 <= 0 && t1 >= h - 1)
}

/// Per texture, the submodel (body part, submodel) whose first mesh on it gets the triangle
/// that keeps it whole, or `None` when it needs none.
pub fn plan(model: &Model) -> Vec<Option<(usize, usize)>> {
    model
        .textures
        .iter()
        .zip(reach(model))
        .map(|(texture, (range, first))| {
            let (w, h) = (texture.width as i32, texture.height as i32);
            (texture.flags & STUDIO_NF_CHROME == 0 && !whole(range, w, h)).then_some(first).flatten()
        })
        .collect()
}

/// Each texture's size as studiomdl makes it from the decompile: chrome 64 × 64
/// (`TextureCoordRanges`); else the texels reached, with the keeping triangle's corners where
/// `plan` (the layout's [`plan`]) adds one, the width rounded up to a multiple of 4 (`GetSkinWidth`); a texture no
/// mesh shows takes the range of the family 0 texture in its slot (its "parent").
pub fn rebuilt_sizes(model: &Model, plan: &[Option<(usize, usize)>]) -> Vec<(u32, u32)> {
    let reached = reach(model);
    let size = |t: usize, range: Option<[i32; 4]>| -> Option<(u32, u32)> {
        let texture = model.textures.get(t)?;
        if texture.flags & STUDIO_NF_CHROME != 0 {
            return Some((64, 64));
        }
        let (w, h) = (texture.width as i32, texture.height as i32);
        let [mut s0, mut s1, mut t0, mut t1] = range?;
        if plan.get(t).copied().flatten().is_some() {
            (s0, s1, t0, t1) = (s0.min(0), s1.max(w - 1), t0.min(0), t1.max(h - 1));
        }
        let width = (s1 - s0 + 1 + 3) & !3;
        Some((u32::try_from(width).ok()?, u32::try_from(t1 - t0 + 1).ok()?))
    };
    let own: Vec<Option<(u32, u32)>> = (0..model.textures.len()).map(|t| size(t, reached[t].0)).collect();
    let skins = &model.skins;
    let parent = |t: usize| {
        (1..skins.num_families())
            .flat_map(|f| (0..skins.num_refs()).map(move |r| (f, r)))
            .find(|&(f, r)| skins.texture(f, r as i32) == Some(t))
            .and_then(|(_, r)| skins.texture(0, r as i32))
    };
    (0..model.textures.len())
        .map(|t| {
            let texture = &model.textures[t];
            if texture.flags & STUDIO_NF_CHROME != 0 {
                return (64, 64);
            }
            own[t]
                .or_else(|| parent(t).and_then(|p| own.get(p).copied().flatten()))
                .unwrap_or((texture.width, texture.height))
        })
        .collect()
}

/// The texture coordinates (as written: `u = s / (w − 1)`, `v = 1 − t / (h − 1)`) of the
/// triangle that keeps a texture whole: its four edges.
pub const CORNERS: [[f64; 2]; 3] = [[0.0, 0.0], [1.0, 1.0], [1.0, 0.0]];
