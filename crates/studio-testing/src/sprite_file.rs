//! Sprites for tests, laid out as `sprgen` writes version 2 (`dsprite_t`, palette, frames).

/// A sprite of one `size` × `size` frame of colour `rgb` (palette index 1), centred on its
/// origin, of type `orientation` (`SPR_VP_PARALLEL` is 2) and render format `format`
/// (`SPR_ADDITIVE` is 1).
pub fn solid(orientation: i32, format: i32, size: i32, rgb: [u8; 3]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"IDSP");
    for v in [2i32, orientation, format] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&(size as f32).to_le_bytes());
    for v in [size, size, 1] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&0.0f32.to_le_bytes());
    out.extend_from_slice(&0i32.to_le_bytes());
    out.extend_from_slice(&256i16.to_le_bytes());
    for i in 0..256usize {
        out.extend_from_slice(&if i == 1 { rgb } else { [0, 0, 0] });
    }
    out.extend_from_slice(&0i32.to_le_bytes());
    for v in [-size / 2, size / 2, size, size] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend(std::iter::repeat_n(1u8, (size * size).max(0) as usize));
    out
}
