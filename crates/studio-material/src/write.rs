//! Writing small `.vtf` files from the format description above the reader: what tests (here
//! and in the renderer and the app) build their game folders from (archives: studio-archive's
//! `write`).

/// One mip level's bytes, largest first, for [`vtf`].
pub type MipBytes = Vec<u8>;

/// A `.vtf` of version 7.`minor`: `mips` holds each mip level's bytes (every frame's, one after
/// the other) from the largest down; `thumbnail` is a DXT1 thumbnail of its size. The header is
/// 64 bytes before 7.2, 80 for 7.2 and 96 from 7.3 (two resource entries: thumbnail, image).
pub fn vtf(
    minor: u32,
    (width, height): (u16, u16),
    format_id: i32,
    frames: u16,
    mips: &[MipBytes],
    thumbnail: Option<(u8, u8, Vec<u8>)>,
) -> Vec<u8> {
    let header_size: u32 = match minor {
        0 | 1 => 64,
        2 => 80,
        _ => 96,
    };
    let mut out = vec![0u8; header_size as usize];
    out[0..4].copy_from_slice(b"VTF\0");
    out[4..8].copy_from_slice(&7u32.to_le_bytes());
    out[8..12].copy_from_slice(&minor.to_le_bytes());
    out[12..16].copy_from_slice(&header_size.to_le_bytes());
    out[16..18].copy_from_slice(&width.to_le_bytes());
    out[18..20].copy_from_slice(&height.to_le_bytes());
    out[24..26].copy_from_slice(&frames.to_le_bytes());
    out[48..52].copy_from_slice(&1.0f32.to_le_bytes());
    out[52..56].copy_from_slice(&format_id.to_le_bytes());
    out[56] = mips.len() as u8;
    let (thumb_format, tw, th, thumb_bytes) = match &thumbnail {
        Some((w, h, bytes)) => (13i32, *w, *h, bytes.clone()),
        None => (-1, 0, 0, Vec::new()),
    };
    out[57..61].copy_from_slice(&thumb_format.to_le_bytes());
    out[61] = tw;
    out[62] = th;
    if minor >= 2 {
        out[63..65].copy_from_slice(&1u16.to_le_bytes());
    }
    let image_start = header_size as usize + thumb_bytes.len();
    if minor >= 3 {
        out[68..72].copy_from_slice(&2u32.to_le_bytes());
        out[80..84].copy_from_slice(&[0x01, 0, 0, 0]);
        out[84..88].copy_from_slice(&header_size.to_le_bytes());
        out[88..92].copy_from_slice(&[0x30, 0, 0, 0]);
        out[92..96].copy_from_slice(&(image_start as u32).to_le_bytes());
    }
    out.extend_from_slice(&thumb_bytes);
    // Smallest mip first.
    for mip in mips.iter().rev() {
        out.extend_from_slice(mip);
    }
    out
}
