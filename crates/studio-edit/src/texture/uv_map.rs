//! A texture's UV layout as a picture: the edges of every triangle drawn with the texture,
//! at their texel coordinates, over the texture or over nothing, at a chosen scale, with
//! anti-aliased lines (tiny-skia strokes them). A painter paints under it.

use studio_model::Model;
use tiny_skia::{Paint, PathBuilder, Pixmap, Stroke, Transform};

use super::import::meshes_using;

/// The largest side of a UV map, in pixels.
pub const MAX_SIDE: u32 = 16384;

/// How a UV map is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UvMapOptions {
    /// Pixels a texel (0.25 to 16).
    pub scale: f32,
    /// Draw the lines over the texture (else over a transparent background).
    pub over_texture: bool,
    /// Line width in pixels.
    pub line_width: f32,
    /// Line colour (red, green, blue, alpha).
    pub colour: [u8; 4],
    /// Smooth the lines' edges.
    pub anti_alias: bool,
}

impl Default for UvMapOptions {
    fn default() -> Self {
        Self {
            scale: 1.0,
            over_texture: false,
            line_width: 1.0,
            colour: [255, 255, 255, 255],
            anti_alias: true,
        }
    }
}

/// Why a UV map could not be drawn.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum UvMapError {
    /// No texture has that number.
    #[error("the model has no texture {0}")]
    NoTexture(usize),
    /// The scale makes no picture, or one too large.
    #[error("a scale of {0} gives no picture of at most {MAX_SIDE} pixels a side")]
    Scale(f32),
}

/// The UV map of texture `index`: `(width, height, RGBA pixels)`, not premultiplied.
pub fn uv_map(
    model: &Model,
    index: usize,
    options: &UvMapOptions,
) -> Result<(u32, u32, Vec<u8>), UvMapError> {
    let texture = model.textures.get(index).ok_or(UvMapError::NoTexture(index))?;
    let mut edges = Vec::new();
    for place in meshes_using(model, index) {
        let mesh = &model.body_parts[place.body_part].submodels[place.submodel].meshes[place.mesh];
        let point = |i: u32| mesh.vertices.get(i as usize).map(|v| [f32::from(v.s), f32::from(v.t)]);
        for triangle in &mesh.triangles {
            for (a, b) in [(0, 1), (1, 2), (2, 0)] {
                if let (Some(p), Some(q)) = (point(triangle[a]), point(triangle[b])) {
                    edges.push([p, q]);
                }
            }
        }
    }
    let background = options.over_texture.then(|| texture.rgba());
    draw(texture.width, texture.height, background.as_deref(), edges, options)
}

/// Draws `edges` (in texels: `[s, t]` ends) over a picture of `width × height` texels: over
/// `background` (RGBA, that size) or transparency.
pub fn draw(
    width: u32,
    height: u32,
    background: Option<&[u8]>,
    mut edges: Vec<[[f32; 2]; 2]>,
    options: &UvMapOptions,
) -> Result<(u32, u32, Vec<u8>), UvMapError> {
    let scale = options.scale;
    let side = |texels: u32| {
        let pixels = (texels as f32 * scale).ceil();
        (scale.is_finite() && scale > 0.0 && (1.0..=MAX_SIDE as f32).contains(&pixels))
            .then_some(pixels as u32)
    };
    let (Some(out_width), Some(out_height)) = (side(width), side(height)) else {
        return Err(UvMapError::Scale(scale));
    };
    let mut pixmap = Pixmap::new(out_width, out_height).ok_or(UvMapError::Scale(scale))?;
    if let Some(rgba) =
        background.filter(|b| width > 0 && height > 0 && b.len() == width as usize * height as usize * 4)
    {
        for (i, pixel) in pixmap.data_mut().chunks_exact_mut(4).enumerate() {
            let (x, y) = ((i as u32 % out_width) as f32 / scale, (i as u32 / out_width) as f32 / scale);
            let (x, y) = ((x as u32).min(width - 1), (y as u32).min(height - 1));
            let at = (y as usize * width as usize + x as usize) * 4;
            let [r, g, b, a] = [rgba[at], rgba[at + 1], rgba[at + 2], rgba[at + 3]];
            // Premultiplied, as tiny-skia keeps its pixels.
            let premultiply = |c: u8| ((u16::from(c) * u16::from(a) + 127) / 255) as u8;
            pixel.copy_from_slice(&[premultiply(r), premultiply(g), premultiply(b), a]);
        }
    }
    // Each edge once, whichever way round: a shared edge drawn twice would look heavier.
    for edge in &mut edges {
        if edge[1] < edge[0] {
            edge.swap(0, 1);
        }
    }
    edges.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    edges.dedup();
    let mut path = PathBuilder::new();
    for [[s0, t0], [s1, t1]] in edges {
        if [s0, t0, s1, t1].iter().all(|v| v.is_finite()) {
            path.move_to(s0 * scale, t0 * scale);
            path.line_to(s1 * scale, t1 * scale);
        }
    }
    if let Some(path) = path.finish() {
        let mut paint = Paint::default();
        let [r, g, b, a] = options.colour;
        paint.set_color_rgba8(r, g, b, a);
        paint.anti_alias = options.anti_alias;
        let stroke = Stroke { width: options.line_width.clamp(0.0, 64.0), ..Stroke::default() };
        pixmap.stroke_path(&path, &paint, &stroke, Transform::identity(), None);
    }
    let pixels = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect();
    Ok((out_width, out_height, pixels))
}
