//! A scene drawn over transparency: drawn twice, over black and over white, its alpha is how
//! much of the background shows through (the difference of the two, in linear light, where
//! the target blends) and its colour what covers it (the image over black, divided by alpha).
//! Exact for every way the renderer blends (opaque, alpha tested, translucent, additive, MSAA
//! edges), with no shader of its own.

use crate::offscreen::RgbaImage;
use crate::overlay::srgb_to_linear;

fn linear_to_srgb(c: f32) -> f32 {
    if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 }
}

/// The image with alpha from the same scene over black and over white (same size).
pub fn matte(over_black: &RgbaImage, over_white: &RgbaImage) -> RgbaImage {
    let mut lut = [0f32; 256];
    for (i, slot) in lut.iter_mut().enumerate() {
        *slot = srgb_to_linear(i as f32 / 255.0);
    }
    let pixels = over_black
        .pixels
        .chunks_exact(4)
        .zip(over_white.pixels.chunks_exact(4))
        .flat_map(|(k, w)| {
            let k = [k[0], k[1], k[2]].map(|c| lut[usize::from(c)]);
            let w = [w[0], w[1], w[2]].map(|c| lut[usize::from(c)]);
            // Over white each channel is over black plus (1 - alpha).
            let through = (0..3).map(|i| (w[i] - k[i]).clamp(0.0, 1.0)).sum::<f32>() / 3.0;
            let alpha = 1.0 - through;
            if alpha <= 1.0 / 512.0 {
                return [0, 0, 0, 0];
            }
            let rgb = k.map(|c| (linear_to_srgb((c / alpha).min(1.0)) * 255.0).round() as u8);
            [rgb[0], rgb[1], rgb[2], (alpha * 255.0).round() as u8]
        })
        .collect();
    RgbaImage { width: over_black.width, height: over_black.height, pixels }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(pixels: &[[u8; 4]]) -> RgbaImage {
        RgbaImage { width: pixels.len() as u32, height: 1, pixels: pixels.concat() }
    }

    #[test]
    fn opaque_clear_and_half_covered_pixels() {
        // Opaque red; nothing; a grey of linear 0.2 covering half, over black and over white.
        let half = |b: f32| (linear_to_srgb(0.5 * 0.2 + 0.5 * b) * 255.0).round() as u8;
        let (k, w) = (half(0.0), half(1.0));
        let black = image(&[[200, 0, 0, 255], [0, 0, 0, 255], [k, k, k, 255]]);
        let white = image(&[[200, 0, 0, 255], [255, 255, 255, 255], [w, w, w, 255]]);
        let m = matte(&black, &white);
        assert_eq!(&m.pixels[0..4], &[200, 0, 0, 255]);
        assert_eq!(&m.pixels[4..8], &[0, 0, 0, 0]);
        let grey = (linear_to_srgb(0.2) * 255.0).round() as i32;
        assert!((i32::from(m.pixels[11]) - 128).abs() <= 2, "alpha {}", m.pixels[11]);
        assert!((i32::from(m.pixels[8]) - grey).abs() <= 3, "{} vs {grey}", m.pixels[8]);
    }
}
