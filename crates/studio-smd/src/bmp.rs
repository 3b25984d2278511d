//! 8-bit paletted Windows bitmaps, the texture format Half-Life's studiomdl reads: a
//! `BITMAPFILEHEADER`, a `BITMAPINFOHEADER`, 256 palette entries (blue, green, red, 0) and
//! the rows bottom-up, each padded to 4 bytes.

/// An indexed image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indexed {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Palette indices, rows top-down.
    pub pixels: Vec<u8>,
    /// Up to 256 colours (red, green, blue).
    pub palette: Vec<[u8; 3]>,
}

const FILE_HEADER: usize = 14;
const INFO_HEADER: usize = 40;
const PALETTE: usize = 256 * 4;

fn row_size(width: u32) -> usize {
    (width as usize).div_ceil(4) * 4
}

/// The bitmap file of `image` (`None` when its pixels are not width × height, or it is too
/// large for the format's 32-bit sizes).
pub fn write(image: &Indexed) -> Option<Vec<u8>> {
    let (width, height) = (image.width as usize, image.height as usize);
    if width.checked_mul(height)? != image.pixels.len() || image.palette.len() > 256 {
        return None;
    }
    let stride = row_size(image.width);
    let image_size = stride.checked_mul(height)?;
    let offset = FILE_HEADER + INFO_HEADER + PALETTE;
    let file_size = u32::try_from(offset.checked_add(image_size)?).ok()?;
    let mut out = Vec::with_capacity(file_size as usize);
    out.extend_from_slice(b"BM");
    out.extend_from_slice(&file_size.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(offset as u32).to_le_bytes());
    out.extend_from_slice(&(INFO_HEADER as u32).to_le_bytes());
    out.extend_from_slice(&i32::try_from(image.width).ok()?.to_le_bytes());
    out.extend_from_slice(&i32::try_from(image.height).ok()?.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // planes
    out.extend_from_slice(&8u16.to_le_bytes()); // bits per pixel
    out.extend_from_slice(&0u32.to_le_bytes()); // BI_RGB
    out.extend_from_slice(&(image_size as u32).to_le_bytes());
    out.extend_from_slice(&2835u32.to_le_bytes()); // 72 dpi
    out.extend_from_slice(&2835u32.to_le_bytes());
    out.extend_from_slice(&256u32.to_le_bytes()); // colours used
    out.extend_from_slice(&0u32.to_le_bytes()); // colours important: all
    for i in 0..256 {
        let [r, g, b] = image.palette.get(i).copied().unwrap_or_default();
        out.extend_from_slice(&[b, g, r, 0]);
    }
    for row in (0..height).rev() {
        out.extend_from_slice(&image.pixels[row * width..(row + 1) * width]);
        out.resize(out.len() + stride - width, 0);
    }
    Some(out)
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at.checked_add(2)?)?.try_into().ok()?))
}

/// Reads an uncompressed 8-bit bitmap (bottom-up or top-down); `None` for anything else or a
/// file too short for what its header says.
pub fn read(bytes: &[u8]) -> Option<Indexed> {
    if bytes.get(..2)? != b"BM" {
        return None;
    }
    let offset = u32_at(bytes, 10)? as usize;
    let info = u32_at(bytes, 14)? as usize;
    let width = i32::from_le_bytes(u32_at(bytes, 18)?.to_le_bytes());
    let height = i32::from_le_bytes(u32_at(bytes, 22)?.to_le_bytes());
    if u16_at(bytes, 28)? != 8 || u32_at(bytes, 30)? != 0 || info < INFO_HEADER || width <= 0 || height == 0 {
        return None;
    }
    let colours = match u32_at(bytes, 46)? {
        0 => 256,
        n => (n as usize).min(256),
    };
    let palette_at = FILE_HEADER.checked_add(info)?;
    let palette = bytes.get(palette_at..palette_at.checked_add(colours * 4)?)?;
    let palette = palette.chunks_exact(4).map(|c| [c[2], c[1], c[0]]).collect();
    let (width, rows) = (width as u32, height.unsigned_abs());
    let stride = row_size(width);
    let data = bytes.get(offset..offset.checked_add(stride.checked_mul(rows as usize)?)?)?;
    let mut pixels = Vec::with_capacity(width as usize * rows as usize);
    for row in 0..rows as usize {
        let source = if height > 0 { rows as usize - 1 - row } else { row };
        pixels.extend_from_slice(&data[source * stride..source * stride + width as usize]);
    }
    Some(Indexed { width, height: rows, pixels, palette })
}
