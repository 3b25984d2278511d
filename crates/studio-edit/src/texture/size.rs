//! The sizes a version 10 texture may have, and resampling a picture to one.
//!
//! studiomdl's `ResizeTexture` (Half-Life SDK, `studiomdl.c`) makes every texture's width a
//! multiple of 4 ("some hardware requires this, and it ensures dword alignment for each scan"),
//! keeps any height, and refuses a texture whose pixels and palette pass 640 × 480 bytes
//! ("texture too large"). An imported picture is brought to such a size: its width rounded up
//! to a multiple of 4, and a picture too large scaled down, keeping its shape.

use super::picture::Picture;

/// The most bytes a texture's pixels and palette may take (studiomdl: `640 * 480`).
pub const MAX_TEXTURE_BYTES: u64 = 640 * 480;
/// The palette's bytes, counted in that limit.
const PALETTE_BYTES: u64 = 256 * 3;

/// Whether a texture of `width × height` is one studiomdl writes.
pub fn is_accepted(width: u32, height: u32) -> bool {
    width > 0
        && height > 0
        && width.is_multiple_of(4)
        && u64::from(width) * u64::from(height) + PALETTE_BYTES <= MAX_TEXTURE_BYTES
}

/// The accepted size nearest `width × height`: the width rounded up to a multiple of 4, and
/// both scaled down by one factor when the texture would pass the limit.
pub fn accepted_size(width: u32, height: u32) -> (u32, u32) {
    let (mut w, mut h) = (u64::from(width.max(1)), u64::from(height.max(1)));
    let fits = |w: u64, h: u64| w.div_ceil(4) * 4 * h + PALETTE_BYTES <= MAX_TEXTURE_BYTES;
    if !fits(w, h) {
        let scale = ((MAX_TEXTURE_BYTES - PALETTE_BYTES) as f64 / (w * h) as f64).sqrt();
        let (w0, h0) = (w, h);
        w = ((w0 as f64 * scale).floor() as u64).max(1);
        h = ((h0 as f64 * scale).floor() as u64).max(1);
        while !fits(w, h) {
            if w * h0 > h * w0 { w -= 1 } else { h -= 1 }
        }
    }
    ((w.div_ceil(4) * 4) as u32, h as u32)
}

/// `picture` resampled to `width × height`. Indexed pictures keep their palette: each pixel
/// takes its nearest source pixel, as studiomdl resamples. True-colour pictures are filtered
/// (a triangle filter: bilinear when enlarging, averaging when shrinking).
pub fn resample(picture: Picture, width: u32, height: u32) -> Picture {
    if picture.size() == (width, height) {
        return picture;
    }
    match picture {
        Picture::Indexed { width: w0, height: h0, pixels, palette } => {
            let mut out = Vec::with_capacity(width as usize * height as usize);
            for y in 0..u64::from(height) {
                let sy = (y * u64::from(h0) / u64::from(height)) as usize;
                for x in 0..u64::from(width) {
                    let sx = (x * u64::from(w0) / u64::from(width)) as usize;
                    out.push(pixels.get(sy * w0 as usize + sx).copied().unwrap_or_default());
                }
            }
            Picture::Indexed { width, height, pixels: out, palette }
        }
        Picture::Rgba { width: w0, height: h0, pixels } => {
            let Some(image) = image::RgbaImage::from_raw(w0, h0, pixels) else {
                return Picture::Rgba {
                    width,
                    height,
                    pixels: vec![0; width as usize * height as usize * 4],
                };
            };
            let resized =
                image::imageops::resize(&image, width, height, image::imageops::FilterType::Triangle);
            Picture::Rgba { width, height, pixels: resized.into_raw() }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_follow_studiomdl() {
        assert_eq!(accepted_size(64, 64), (64, 64));
        assert_eq!(accepted_size(61, 33), (64, 33));
        assert_eq!(accepted_size(1, 1), (4, 1));
        // 512 × 512 fits (262,144 + 768 bytes); 640 × 480 does not (the palette tips it).
        assert_eq!(accepted_size(512, 512), (512, 512));
        let (w, h) = accepted_size(640, 480);
        assert!(is_accepted(w, h) && w <= 640 && h <= 480 && w * h > 600 * 450, "{w} × {h}");
        for (w0, h0) in [(4096, 4096), (8192, 3), (3, 8192), (1000, 999), (641, 480)] {
            let (w, h) = accepted_size(w0, h0);
            assert!(is_accepted(w, h), "{w0} × {h0} -> {w} × {h}");
            // The shape is kept to within a pixel and the rounding of the width.
            let ratio = |a: u32, b: u32| f64::from(a) / f64::from(b);
            if w0 > 8 && h0 > 8 {
                assert!(
                    (ratio(w, h) - ratio(w0, h0)).abs() / ratio(w0, h0) < 0.05,
                    "{w0} × {h0} -> {w} × {h}"
                );
            }
        }
        assert!(!is_accepted(62, 10) && !is_accepted(0, 4) && !is_accepted(640, 480));
    }

    #[test]
    fn indexed_pictures_resample_to_their_nearest_pixel() {
        let picture = Picture::Indexed { width: 2, height: 1, pixels: vec![1, 2], palette: vec![[0; 3]; 3] };
        let Picture::Indexed { pixels, .. } = resample(picture, 4, 2) else { panic!() };
        assert_eq!(pixels, [1, 1, 2, 2, 1, 1, 2, 2]);
    }
}
