//! The `.vtf` image formats a viewer reads, their sizes, and decoding to RGBA8: the block
//! compressed DXT1 (with or without its one-bit alpha), DXT3 and DXT5 (BC1–BC3), and the plain
//! 8-bit, 16-bit, 24-bit and 32-bit layouts.

/// A `.vtf` image format (`IMAGE_FORMAT_*`, by its number in the file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// 0.
    Rgba8888,
    /// 1.
    Abgr8888,
    /// 2.
    Rgb888,
    /// 3.
    Bgr888,
    /// 4.
    Rgb565,
    /// 5: luminance.
    I8,
    /// 6: luminance and alpha.
    Ia88,
    /// 8: alpha only (drawn white).
    A8,
    /// 11.
    Argb8888,
    /// 12.
    Bgra8888,
    /// 13.
    Dxt1,
    /// 14.
    Dxt3,
    /// 15.
    Dxt5,
    /// 16: the fourth byte unused.
    Bgrx8888,
    /// 17.
    Bgr565,
    /// 18: the top bit unused.
    Bgrx5551,
    /// 19.
    Bgra4444,
    /// 20: DXT1 whose transparent texels count.
    Dxt1OneBitAlpha,
    /// 21.
    Bgra5551,
    /// 22: a two-channel (du, dv) map, shown as a normal map's colour.
    Uv88,
}

impl Format {
    /// The format of number `id`, if it is one this reader decodes.
    pub fn from_id(id: i32) -> Option<Self> {
        Some(match id {
            0 => Self::Rgba8888,
            1 => Self::Abgr8888,
            2 => Self::Rgb888,
            3 => Self::Bgr888,
            4 => Self::Rgb565,
            5 => Self::I8,
            6 => Self::Ia88,
            8 => Self::A8,
            11 => Self::Argb8888,
            12 => Self::Bgra8888,
            13 => Self::Dxt1,
            14 => Self::Dxt3,
            15 => Self::Dxt5,
            16 => Self::Bgrx8888,
            17 => Self::Bgr565,
            18 => Self::Bgrx5551,
            19 => Self::Bgra4444,
            20 => Self::Dxt1OneBitAlpha,
            21 => Self::Bgra5551,
            22 => Self::Uv88,
            _ => return None,
        })
    }

    /// Bytes per 4×4 block of a block-compressed format.
    fn block_bytes(self) -> Option<u64> {
        match self {
            Self::Dxt1 | Self::Dxt1OneBitAlpha => Some(8),
            Self::Dxt3 | Self::Dxt5 => Some(16),
            _ => None,
        }
    }

    /// Bytes per texel of a plain format.
    fn texel_bytes(self) -> u64 {
        match self {
            Self::I8 | Self::A8 => 1,
            Self::Ia88
            | Self::Rgb565
            | Self::Bgr565
            | Self::Bgrx5551
            | Self::Bgra4444
            | Self::Bgra5551
            | Self::Uv88 => 2,
            Self::Rgb888 | Self::Bgr888 => 3,
            _ => 4,
        }
    }

    /// Bytes of one `width × height` image (block formats round up to whole 4×4 blocks).
    pub fn size(self, width: u32, height: u32) -> u64 {
        let (w, h) = (u64::from(width), u64::from(height));
        match self.block_bytes() {
            Some(block) => w.div_ceil(4).max(1) * h.div_ceil(4).max(1) * block,
            None => w * h * self.texel_bytes(),
        }
    }
}

/// Expands 5, 6 or 4 bits to 8.
fn expand(value: u16, bits: u32) -> u8 {
    let max = (1u32 << bits) - 1;
    ((u32::from(value) * 255 + max / 2) / max) as u8
}

fn rgb565(v: u16) -> [u8; 3] {
    [expand(v >> 11, 5), expand((v >> 5) & 0x3f, 6), expand(v & 0x1f, 5)]
}

/// Decodes `data` (at least [`Format::size`] bytes) to RGBA8; `None` when it is short.
pub fn decode(format: Format, width: u32, height: u32, data: &[u8]) -> Option<Vec<u8>> {
    if (data.len() as u64) < format.size(width, height) {
        return None;
    }
    let texels = usize::try_from(u64::from(width) * u64::from(height)).ok()?;
    let mut out = vec![0u8; texels.checked_mul(4)?];
    if format.block_bytes().is_some() {
        decode_blocks(format, width, height, data, &mut out);
        return Some(out);
    }
    let n = format.texel_bytes() as usize;
    for (texel, src) in out.chunks_exact_mut(4).zip(data.chunks_exact(n)) {
        let u16le = || u16::from_le_bytes([src[0], src[1]]);
        let rgba: [u8; 4] = match format {
            Format::Rgba8888 => [src[0], src[1], src[2], src[3]],
            Format::Abgr8888 => [src[3], src[2], src[1], src[0]],
            Format::Argb8888 => [src[1], src[2], src[3], src[0]],
            Format::Bgra8888 => [src[2], src[1], src[0], src[3]],
            Format::Bgrx8888 => [src[2], src[1], src[0], 255],
            Format::Rgb888 => [src[0], src[1], src[2], 255],
            Format::Bgr888 => [src[2], src[1], src[0], 255],
            Format::I8 => [src[0], src[0], src[0], 255],
            Format::Ia88 => [src[0], src[0], src[0], src[1]],
            Format::A8 => [255, 255, 255, src[0]],
            Format::Rgb565 => {
                let [r, g, b] = rgb565(u16le());
                [r, g, b, 255]
            }
            Format::Bgr565 => {
                let [b, g, r] = rgb565(u16le());
                [r, g, b, 255]
            }
            Format::Bgra4444 => {
                let v = u16le();
                [expand((v >> 8) & 0xf, 4), expand((v >> 4) & 0xf, 4), expand(v & 0xf, 4), expand(v >> 12, 4)]
            }
            Format::Bgra5551 | Format::Bgrx5551 => {
                let v = u16le();
                let alpha = if format == Format::Bgrx5551 || v & 0x8000 != 0 { 255 } else { 0 };
                [expand((v >> 10) & 0x1f, 5), expand((v >> 5) & 0x1f, 5), expand(v & 0x1f, 5), alpha]
            }
            // Signed du, dv: 0 is the middle; blue as a flat normal's.
            Format::Uv88 => [src[0].wrapping_add(128), src[1].wrapping_add(128), 255, 255],
            Format::Dxt1 | Format::Dxt1OneBitAlpha | Format::Dxt3 | Format::Dxt5 => [0; 4],
        };
        texel.copy_from_slice(&rgba);
    }
    Some(out)
}

/// BC1–BC3: each 4×4 block's colours from two RGB565 end points (and, for DXT3, explicit 4-bit
/// alphas; for DXT5, two alpha end points with 3-bit indices).
fn decode_blocks(format: Format, width: u32, height: u32, data: &[u8], out: &mut [u8]) {
    let block_bytes = format.block_bytes().unwrap_or(8) as usize;
    let (bw, bh) = (width.div_ceil(4).max(1), height.div_ceil(4).max(1));
    for (b, block) in data.chunks_exact(block_bytes).take((bw * bh) as usize).enumerate() {
        let (bx, by) = (b as u32 % bw, b as u32 / bw);
        let (alpha, colour) = if block_bytes == 16 { block.split_at(8) } else { (&[][..], block) };
        let c0 = u16::from_le_bytes([colour[0], colour[1]]);
        let c1 = u16::from_le_bytes([colour[2], colour[3]]);
        let (p0, p1) = (rgb565(c0), rgb565(c1));
        let mix =
            |a: u8, b: u8, wa: u16, wb: u16| ((u16::from(a) * wa + u16::from(b) * wb) / (wa + wb)) as u8;
        let four = c0 > c1 || block_bytes == 16;
        let palette: [[u8; 4]; 4] = [
            [p0[0], p0[1], p0[2], 255],
            [p1[0], p1[1], p1[2], 255],
            if four {
                [mix(p0[0], p1[0], 2, 1), mix(p0[1], p1[1], 2, 1), mix(p0[2], p1[2], 2, 1), 255]
            } else {
                [mix(p0[0], p1[0], 1, 1), mix(p0[1], p1[1], 1, 1), mix(p0[2], p1[2], 1, 1), 255]
            },
            if four {
                [mix(p0[0], p1[0], 1, 2), mix(p0[1], p1[1], 1, 2), mix(p0[2], p1[2], 1, 2), 255]
            } else {
                // Transparent black: only DXT1 with one-bit alpha keeps the transparency.
                [0, 0, 0, if format == Format::Dxt1OneBitAlpha { 0 } else { 255 }]
            },
        ];
        let indices = u32::from_le_bytes([colour[4], colour[5], colour[6], colour[7]]);
        let alphas: [u8; 16] = match format {
            Format::Dxt3 => std::array::from_fn(|i| {
                let byte = alpha[i / 2];
                expand(u16::from(if i % 2 == 0 { byte & 0xf } else { byte >> 4 }), 4)
            }),
            Format::Dxt5 => {
                let (a0, a1) = (u16::from(alpha[0]), u16::from(alpha[1]));
                let table: [u8; 8] = std::array::from_fn(|k| {
                    let k = k as u16;
                    match k {
                        0 => a0 as u8,
                        1 => a1 as u8,
                        _ if a0 > a1 => ((a0 * (8 - k) + a1 * (k - 1)) / 7) as u8,
                        6 => 0,
                        7 => 255,
                        _ => ((a0 * (6 - k) + a1 * (k - 1)) / 5) as u8,
                    }
                });
                let bits = alpha[2..8].iter().rev().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
                std::array::from_fn(|i| table[((bits >> (3 * i)) & 7) as usize])
            }
            _ => [255; 16],
        };
        for i in 0..16u32 {
            let (x, y) = (bx * 4 + i % 4, by * 4 + i / 4);
            if x >= width || y >= height {
                continue;
            }
            let mut texel = palette[((indices >> (2 * i)) & 3) as usize];
            if block_bytes == 16 {
                texel[3] = alphas[i as usize];
            }
            let at = ((y * width + x) * 4) as usize;
            out[at..at + 4].copy_from_slice(&texel);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_blocks_up() {
        assert_eq!(Format::Dxt1.size(4, 4), 8);
        assert_eq!(Format::Dxt1.size(1, 1), 8);
        assert_eq!(Format::Dxt5.size(8, 4), 32);
        assert_eq!(Format::Bgr888.size(3, 2), 18);
        assert_eq!(Format::I8.size(5, 5), 25);
    }

    #[test]
    fn plain_formats_decode_to_rgba() {
        let one = |format, bytes: &[u8]| decode(format, 1, 1, bytes).unwrap();
        assert_eq!(one(Format::Bgra8888, &[1, 2, 3, 4]), [3, 2, 1, 4]);
        assert_eq!(one(Format::Abgr8888, &[1, 2, 3, 4]), [4, 3, 2, 1]);
        assert_eq!(one(Format::Bgrx8888, &[1, 2, 3, 4]), [3, 2, 1, 255]);
        assert_eq!(one(Format::Rgb888, &[1, 2, 3]), [1, 2, 3, 255]);
        assert_eq!(one(Format::Bgr888, &[1, 2, 3]), [3, 2, 1, 255]);
        assert_eq!(one(Format::I8, &[9]), [9, 9, 9, 255]);
        assert_eq!(one(Format::Ia88, &[9, 7]), [9, 9, 9, 7]);
        assert_eq!(one(Format::A8, &[7]), [255, 255, 255, 7]);
        // BGR565: blue in the top 5 bits.
        assert_eq!(one(Format::Bgr565, &0xF800u16.to_le_bytes()), [0, 0, 255, 255]);
        assert_eq!(one(Format::Bgra4444, &0xF00Fu16.to_le_bytes()), [0, 0, 255, 255]);
        assert_eq!(one(Format::Bgra4444, &0x0F00u16.to_le_bytes()), [255, 0, 0, 0]);
        assert_eq!(one(Format::Uv88, &[0, 0]), [128, 128, 255, 255]);
        assert!(decode(Format::Rgba8888, 2, 1, &[0; 7]).is_none(), "short data");
    }

    #[test]
    fn dxt_blocks_decode() {
        // DXT1: colour 0 red, colour 1 blue; texel 0 uses index 0, texel 1 index 1, texel 2
        // index 2 (2/3 red), texel 3 index 3 (1/3 red).
        let red = 0xF800u16.to_le_bytes();
        let blue = 0x001Fu16.to_le_bytes();
        let block = [red[0], red[1], blue[0], blue[1], 0b1110_0100, 0, 0, 0];
        let rgba = decode(Format::Dxt1, 4, 4, &block).unwrap();
        assert_eq!(&rgba[0..4], [255, 0, 0, 255]);
        assert_eq!(&rgba[4..8], [0, 0, 255, 255]);
        assert_eq!(&rgba[8..12], [170, 0, 85, 255]);
        assert_eq!(&rgba[12..16], [85, 0, 170, 255]);
        // With c0 <= c1, index 3 is transparent black in the one-bit alpha variant.
        let block = [blue[0], blue[1], red[0], red[1], 0b1100_0000, 0, 0, 0];
        assert_eq!(&decode(Format::Dxt1OneBitAlpha, 4, 4, &block).unwrap()[12..16], [0, 0, 0, 0]);
        assert_eq!(&decode(Format::Dxt1, 4, 4, &block).unwrap()[12..16], [0, 0, 0, 255]);
        // DXT5: alpha end points 255 and 0, texel 0 index 0 (255), texel 1 index 1 (0).
        let mut block = [0u8; 16];
        block[0] = 255;
        block[2] = 0b0000_1000;
        block[8..10].copy_from_slice(&red);
        let rgba = decode(Format::Dxt5, 4, 4, &block).unwrap();
        assert_eq!((rgba[3], rgba[7]), (255, 0));
        assert_eq!(&rgba[0..3], [255, 0, 0]);
        // DXT3: explicit 4-bit alphas.
        let mut block = [0u8; 16];
        block[0] = 0xF0;
        let rgba = decode(Format::Dxt3, 4, 4, &block).unwrap();
        assert_eq!((rgba[3], rgba[7]), (0, 255));
        // A 2×2 image takes the top-left of its block.
        assert_eq!(decode(Format::Dxt1, 2, 2, &[0; 8]).unwrap().len(), 16);
    }
}
