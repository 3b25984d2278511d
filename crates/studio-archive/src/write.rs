//! Writing small `.vpk` and `.pak` archives from the format descriptions above the readers:
//! what tests (here, in studio-material and in the app) build their game folders from.

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

/// A `.pak` holding `files` (path with `/`, bytes), the directory after the data.
pub fn pak(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = vec![0u8; 12];
    out[..4].copy_from_slice(b"PACK");
    let mut directory = Vec::new();
    for (path, bytes) in files {
        let mut name = [0u8; 56];
        name[..path.len()].copy_from_slice(path.as_bytes());
        directory.extend_from_slice(&name);
        directory.extend_from_slice(&(out.len() as i32).to_le_bytes());
        directory.extend_from_slice(&(bytes.len() as i32).to_le_bytes());
        out.extend_from_slice(bytes);
    }
    let at = out.len() as i32;
    out[4..8].copy_from_slice(&at.to_le_bytes());
    out[8..12].copy_from_slice(&(directory.len() as i32).to_le_bytes());
    out.extend_from_slice(&directory);
    out
}
