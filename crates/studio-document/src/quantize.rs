//! True-colour pixels to a palette of at most 256 colours: a version 10 texture's, a GIF
//! frame's.
//!
//! A picture of few enough colours keeps them exactly. Otherwise quantette's k-means quantizer
//! (in Oklab, seeded, so the same image gives the same palette) chooses the palette, without
//! dithering: a texture is magnified in the game, where dither patterns show. Compared on real
//! textures with NeuQuant (`color_quant`) and libimagequant, it gave the quality of
//! libimagequant (whose GPL licence rules it out here) at a tenth of NeuQuant's time.
//!
//! A masked texture (`STUDIO_NF_MASKED`) draws palette index 255 transparent: its transparent
//! pixels (alpha below half) take index 255, coloured blue as studiomdl's artists paint it, and
//! the others share the first 255 colours.

use quantette::deps::palette::Srgb;
use quantette::{ImageBuf, PaletteSize, Pipeline, QuantizeMethod};

/// The colour index 255 gets in a masked texture.
pub const MASK_COLOUR: [u8; 3] = [0, 0, 255];

/// Whether a pixel of alpha `alpha` is transparent in a masked texture.
pub fn is_transparent(alpha: u8) -> bool {
    alpha < 128
}

/// An indexed image: one palette index a pixel and a palette of 256 colours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quantized {
    /// Palette indices, rows top-down.
    pub pixels: Vec<u8>,
    /// 256 colours.
    pub palette: Vec<[u8; 3]>,
    /// How many different colours the picture had (counted up to 257).
    pub colours_in: usize,
    /// Whether colours were merged (more than the palette holds).
    pub reduced: bool,
}

/// Quantizes `rgba` (`width × height` pixels); with `masked`, transparent pixels take index 255.
pub fn quantize(width: u32, height: u32, rgba: &[u8], masked: bool) -> Quantized {
    quantize_with(width, height, rgba, masked, Method::KMeans)
}

/// How colours are chosen when there are too many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// quantette's k-means: the best palette (textures).
    KMeans,
    /// Wu's quantizer: a few times faster, a little worse (animation frames).
    Wu,
}

/// [`quantize`] with the method chosen.
pub fn quantize_with(width: u32, height: u32, rgba: &[u8], masked: bool, method: Method) -> Quantized {
    let limit = if masked { 255 } else { 256 };
    let opaque = |p: &[u8]| !masked || !is_transparent(p[3]);
    // The colours, in order of first appearance, while there are few enough.
    let mut colours: Vec<[u8; 3]> = Vec::new();
    let mut index_of = std::collections::HashMap::new();
    for p in rgba.chunks_exact(4).filter(|p| opaque(p)) {
        let rgb = [p[0], p[1], p[2]];
        if let std::collections::hash_map::Entry::Vacant(slot) = index_of.entry(rgb) {
            if colours.len() == limit {
                colours.push(rgb);
                break;
            }
            slot.insert(colours.len() as u8);
            colours.push(rgb);
        }
    }
    let colours_in = colours.len();
    let (mut pixels, mut palette, reduced) = if colours.len() <= limit {
        let pixels = rgba
            .chunks_exact(4)
            .map(|p| if opaque(p) { index_of[&[p[0], p[1], p[2]]] } else { 255 })
            .collect();
        (pixels, colours, false)
    } else {
        let (pixels, palette) = reduce(width, height, rgba, limit, &opaque, method);
        (pixels, palette, true)
    };
    palette.resize(256, [0; 3]);
    if masked {
        palette[255] = MASK_COLOUR;
        for (index, p) in pixels.iter_mut().zip(rgba.chunks_exact(4)) {
            if !opaque(p) {
                *index = 255;
            }
        }
    }
    Quantized { pixels, palette, colours_in, reduced }
}

/// quantette's palette of at most `limit` colours over the opaque pixels, and every pixel's
/// nearest entry (transparent ones get 255, set by the caller).
fn reduce(
    width: u32,
    height: u32,
    rgba: &[u8],
    limit: usize,
    opaque: &impl Fn(&[u8]) -> bool,
    method: Method,
) -> (Vec<u8>, Vec<[u8; 3]>) {
    // Transparent pixels take the colour of the first opaque one, so that they do not pull
    // the palette towards a colour nobody sees.
    let fill = rgba.chunks_exact(4).find(|p| opaque(p)).map_or([0; 3], |p| [p[0], p[1], p[2]]);
    let colours: Vec<Srgb<u8>> = rgba
        .chunks_exact(4)
        .map(|p| {
            let [r, g, b] = if opaque(p) { [p[0], p[1], p[2]] } else { fill };
            Srgb::new(r, g, b)
        })
        .collect();
    let size = PaletteSize::try_from(limit as u16).unwrap_or(PaletteSize::MAX);
    let Ok(image) = ImageBuf::new(width, height, colours) else {
        return (vec![0; rgba.len() / 4], vec![fill]);
    };
    let indexed = Pipeline::new()
        .palette_size(size)
        .ditherer(None)
        .quantize_method(match method {
            Method::KMeans => QuantizeMethod::kmeans(),
            Method::Wu => QuantizeMethod::Wu,
        })
        .input_image(image.as_ref())
        .output_srgb8_indexed_image();
    let palette = indexed.palette().iter().map(|c| [c.red, c.green, c.blue]).collect();
    (indexed.indices().to_vec(), palette)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgba(colours: &[[u8; 4]]) -> Vec<u8> {
        colours.iter().flatten().copied().collect()
    }

    #[test]
    fn few_colours_are_kept_exactly_in_order_of_appearance() {
        let pixels = rgba(&[[9, 8, 7, 255], [1, 2, 3, 255], [9, 8, 7, 255], [4, 5, 6, 0]]);
        let q = quantize(2, 2, &pixels, false);
        assert_eq!(q.pixels, [0, 1, 0, 2]);
        assert_eq!(&q.palette[..3], &[[9, 8, 7], [1, 2, 3], [4, 5, 6]]);
        assert_eq!(q.palette.len(), 256);
        assert!(!q.reduced);
    }

    #[test]
    fn a_masked_texture_gives_transparent_pixels_index_255() {
        let pixels = rgba(&[[9, 8, 7, 255], [1, 2, 3, 0], [9, 8, 7, 200], [4, 5, 6, 127]]);
        let q = quantize(2, 2, &pixels, true);
        assert_eq!(q.pixels, [0, 255, 0, 255]);
        assert_eq!(q.palette[255], MASK_COLOUR);
    }

    #[test]
    fn many_colours_are_reduced_to_the_palette_and_stay_close() {
        // 64 × 64 pixels of 4096 colours: a smooth gradient.
        let mut pixels = Vec::new();
        for y in 0..64u32 {
            for x in 0..64u32 {
                pixels.extend_from_slice(&[(x * 4) as u8, (y * 4) as u8, ((x + y) * 2) as u8, 255]);
            }
        }
        for masked in [false, true] {
            let q = quantize(64, 64, &pixels, masked);
            assert!(q.reduced);
            assert!(q.pixels.iter().all(|&i| !masked || i < 255));
            let errors: Vec<i32> = q
                .pixels
                .iter()
                .zip(pixels.chunks_exact(4))
                .map(|(&i, p)| {
                    let entry = q.palette[usize::from(i)];
                    (0..3).map(|c| (i32::from(entry[c]) - i32::from(p[c])).abs()).max().unwrap_or(0)
                })
                .collect();
            let worst = errors.iter().copied().max().unwrap_or(0);
            let mean = errors.iter().sum::<i32>() as f32 / errors.len() as f32;
            assert!(mean <= 8.0, "colours moved by {mean} on average");
            assert!(worst <= 40, "a colour moved by {worst}");
        }
    }
}
