//! Writing small `.vtf` and `.vpk` files from the format descriptions above the readers: what
//! tests (here and in the renderer and the app) build their game folders from.

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

/// A file of a [`vpk`] archive: its path, bytes, and how many of them are preloaded in the
/// directory.
pub struct VpkFile<'a> {
    /// Path with `/`, extension included.
    pub path: &'a str,
    /// Bytes.
    pub bytes: &'a [u8],
    /// Bytes kept in the directory file's tree.
    pub preload: usize,
}

/// A `.vpk` directory file of `version` (1 or 2) and, when `separate` is set, its archive 000:
/// the bytes past each file's preload go to the archive, or after the tree (index 0x7FFF).
pub fn vpk(version: u32, files: &[VpkFile<'_>], separate: bool) -> (Vec<u8>, Vec<u8>) {
    let mut tree = Vec::new();
    let mut data = Vec::new();
    // Extension, folder, name; one of each level per file keeps the writer simple (the format
    // allows it: names of a level need not be unique).
    for file in files {
        let (folder, name) = file.path.rsplit_once('/').unwrap_or((" ", file.path));
        let (stem, extension) = name.rsplit_once('.').unwrap_or((name, " "));
        for s in [extension, folder, stem] {
            tree.extend_from_slice(s.as_bytes());
            tree.push(0);
        }
        let preload = file.preload.min(file.bytes.len());
        let rest = &file.bytes[preload..];
        tree.extend_from_slice(&0u32.to_le_bytes());
        tree.extend_from_slice(&(preload as u16).to_le_bytes());
        tree.extend_from_slice(&(if separate { 0u16 } else { 0x7FFF }).to_le_bytes());
        tree.extend_from_slice(&(data.len() as u32).to_le_bytes());
        tree.extend_from_slice(&(rest.len() as u32).to_le_bytes());
        tree.extend_from_slice(&0xFFFFu16.to_le_bytes());
        tree.extend_from_slice(&file.bytes[..preload]);
        data.extend_from_slice(rest);
        // End of this folder's names, and of this extension's folders.
        tree.extend_from_slice(&[0, 0]);
    }
    // End of the extensions.
    tree.push(0);
    let mut dir = Vec::new();
    dir.extend_from_slice(&0x55AA_1234u32.to_le_bytes());
    dir.extend_from_slice(&version.to_le_bytes());
    dir.extend_from_slice(&(tree.len() as u32).to_le_bytes());
    if version == 2 {
        let embedded = if separate { 0 } else { data.len() as u32 };
        for v in [embedded, 0, 0, 0] {
            dir.extend_from_slice(&v.to_le_bytes());
        }
    }
    dir.extend_from_slice(&tree);
    if separate {
        (dir, data)
    } else {
        dir.extend_from_slice(&data);
        (dir, Vec::new())
    }
}
