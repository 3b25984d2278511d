//! `.vpk` archives, versions 1 and 2: the directory file (`*_dir.vpk`) lists every file by
//! extension, folder and name, each with its bytes preloaded in the directory, stored in a
//! numbered archive (`*_000.vpk`, …) or in the directory file after its tree (index 0x7FFF).
//!
//! Header: u32 signature 0x55AA1234, u32 version, u32 tree size; version 2 adds four u32 section
//! sizes (28 bytes in all). Tree: for each extension, each folder, each file (NUL-terminated
//! strings, an empty one ending each level): u32 CRC, u16 preload bytes, u16 archive index,
//! u32 offset, u32 length, u16 terminator 0xFFFF, then the preload bytes. A folder of " " is the
//! root; an extension of " " means none.
//!
//! Only the header and the tree are read when an archive is opened; a file's data is read from
//! its archive when the file is asked for.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::backing::Backing;
use crate::directory::Directory;
use crate::error::{Error, Result, slice, u16_at, u32_at};

/// The signature.
const SIGNATURE: u32 = 0x55AA_1234;
/// Archive index of files stored in the directory file.
const IN_DIRECTORY: u16 = 0x7FFF;
/// Longest single file read out of an archive.
pub const MAX_ENTRY: u32 = 256 << 20;

/// One file of the archive.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    /// Its path as the tree spells it (folder/name.extension).
    name: String,
    /// Where its preloaded bytes are in the tree.
    preload: (usize, usize),
    /// Its archive, or [`IN_DIRECTORY`].
    archive: u16,
    /// Offset in its archive (or after the tree).
    offset: u32,
    /// Bytes in its archive.
    length: u32,
}

/// A directory file, read: its tree in memory, its files' data where they are.
#[derive(Debug)]
pub struct Vpk {
    /// The directory file's path.
    pub path: PathBuf,
    /// The header and the tree.
    tree: Vec<u8>,
    /// The directory file.
    dir: Backing,
    /// Where data stored in the directory file starts.
    data_start: u64,
    entries: Vec<Entry>,
    /// The files, numbered as `entries`.
    directory: Directory,
    /// The numbered archives opened so far.
    archives: Mutex<HashMap<u16, Backing>>,
}

fn tree_error(offset: u64, problem: impl Into<String>) -> Error {
    Error::new("VPK tree", offset, problem)
}

/// A NUL-terminated string at `*at` inside `tree_end`, moving `*at` past it.
fn string(bytes: &[u8], at: &mut u64, tree_end: u64) -> Result<String> {
    let start = usize::try_from(*at).map_err(|_| tree_error(*at, "offset overflows"))?;
    let end = usize::try_from(tree_end).map_err(|_| tree_error(*at, "offset overflows"))?;
    let region = bytes.get(start..end).ok_or_else(|| tree_error(*at, "the tree runs past the file"))?;
    let len = region.iter().position(|&b| b == 0).ok_or_else(|| tree_error(*at, "a name has no NUL"))?;
    *at += len as u64 + 1;
    Ok(String::from_utf8_lossy(&region[..len]).into_owned())
}

/// The header's size and the tree's end, read from the first bytes of a directory file.
fn header(bytes: &[u8], file_len: u64) -> Result<(u64, u64)> {
    let signature = u32_at(bytes, "VPK header", 0)?;
    if signature != SIGNATURE {
        return Err(Error::new("VPK header", 0, format!("signature {signature:#x} is not 0x55aa1234")));
    }
    let version = u32_at(bytes, "VPK header", 4)?;
    let header = match version {
        1 => 12,
        2 => 28,
        _ => return Err(Error::new("VPK header", 4, format!("version {version} is not 1 or 2"))),
    };
    let tree_size = u64::from(u32_at(bytes, "VPK header", 8)?);
    slice(bytes, "VPK header", 0, header)?;
    let tree_end = header + tree_size;
    if tree_end > file_len {
        return Err(Error::new(
            "VPK header",
            8,
            format!("the tree of {tree_size} bytes runs past the file of {file_len}"),
        ));
    }
    Ok((header, tree_end))
}

/// Every file entry of the tree in `bytes` (header included), from `header` to `tree_end`.
fn entries(bytes: &[u8], header: u64, tree_end: u64) -> Result<Vec<Entry>> {
    let mut entries = Vec::new();
    let mut at = header;
    // Every name and entry consumes bytes of the tree, so these loops end within it.
    loop {
        let extension = string(bytes, &mut at, tree_end)?;
        if extension.is_empty() {
            break;
        }
        loop {
            let folder = string(bytes, &mut at, tree_end)?;
            if folder.is_empty() {
                break;
            }
            loop {
                let name = string(bytes, &mut at, tree_end)?;
                if name.is_empty() {
                    break;
                }
                let record = at;
                if record + 18 > tree_end {
                    return Err(tree_error(record, "a file's entry runs past the tree"));
                }
                let preload = u64::from(u16_at(bytes, "VPK tree", record + 4)?);
                let archive = u16_at(bytes, "VPK tree", record + 6)?;
                let offset = u32_at(bytes, "VPK tree", record + 8)?;
                let length = u32_at(bytes, "VPK tree", record + 12)?;
                let terminator = u16_at(bytes, "VPK tree", record + 16)?;
                if terminator != 0xFFFF {
                    return Err(tree_error(
                        record + 16,
                        format!("entry terminator {terminator:#x} is not 0xffff"),
                    ));
                }
                let preload_start = record + 18;
                if preload_start + preload > tree_end {
                    return Err(tree_error(record + 4, format!("{preload} preload bytes run past the tree")));
                }
                at = preload_start + preload;
                let mut full = String::new();
                if folder.trim() != "" {
                    full.push_str(folder.trim_matches('/'));
                    full.push('/');
                }
                full.push_str(&name);
                if extension.trim() != "" {
                    full.push('.');
                    full.push_str(&extension);
                }
                entries.push(Entry {
                    name: full.replace('\\', "/"),
                    preload: (preload_start as usize, (preload_start + preload) as usize),
                    archive,
                    offset,
                    length,
                });
            }
        }
    }
    Ok(entries)
}

impl Vpk {
    fn new(path: PathBuf, tree: Vec<u8>, dir: Backing) -> Result<Self> {
        let (header, tree_end) = header(&tree, dir.len())?;
        let entries = entries(&tree, header, tree_end)?;
        let directory = Directory::new(entries.iter().map(|e| (e.name.clone(), size(e))));
        Ok(Self { path, tree, dir, data_start: tree_end, entries, directory, archives: Mutex::default() })
    }

    /// Reads a directory file held in memory (`path` names it, for its numbered archives).
    pub fn parse(path: PathBuf, bytes: Vec<u8>) -> Result<Self> {
        let backing = Backing::Memory(bytes.as_slice().into());
        Self::new(path, bytes, backing)
    }

    /// Opens the directory file at `path`: its header and tree are read, nothing else.
    pub fn open(path: &Path) -> std::result::Result<Self, String> {
        let failed = |e: String| format!("{}: {e}", path.display());
        let dir = Backing::open(path).map_err(|e| failed(e.to_string()))?;
        let first = dir.read("VPK header", 0, dir.len().min(28)).map_err(|e| failed(e.to_string()))?;
        let (_, tree_end) = header(&first, dir.len()).map_err(|e| failed(e.to_string()))?;
        let tree = dir.read("VPK tree", 0, tree_end).map_err(|e| failed(e.to_string()))?;
        Self::new(path.to_path_buf(), tree, dir).map_err(|e| failed(e.to_string()))
    }

    /// The files it holds.
    pub fn directory(&self) -> &Directory {
        &self.directory
    }

    /// The archive file of index `index`: `name_dir.vpk` → `name_NNN.vpk`.
    pub fn archive_path(&self, index: u16) -> Option<PathBuf> {
        let name = self.path.file_name()?.to_str()?;
        let stem = name.strip_suffix("_dir.vpk").or_else(|| name.strip_suffix("_DIR.VPK"))?;
        Some(self.path.with_file_name(format!("{stem}_{index:03}.vpk")))
    }

    /// The bytes of `path`: its preload, then its data from the directory file or its archive.
    /// `None` when the archive does not hold it; `Err` when it cannot be read.
    pub fn read(&self, path: &str) -> Option<std::result::Result<Vec<u8>, String>> {
        let entry = &self.entries[self.directory.find(path)?];
        Some(self.read_range(entry, 0, size(entry)))
    }

    /// `len` bytes of `path` from `offset` (clamped to its end), as [`Self::read`].
    pub fn read_part(
        &self,
        path: &str,
        offset: u64,
        len: u64,
    ) -> Option<std::result::Result<Vec<u8>, String>> {
        let entry = &self.entries[self.directory.find(path)?];
        let offset = offset.min(size(entry));
        Some(self.read_range(entry, offset, len.min(size(entry) - offset)))
    }

    fn read_range(&self, entry: &Entry, offset: u64, len: u64) -> std::result::Result<Vec<u8>, String> {
        if entry.length > MAX_ENTRY {
            return Err(format!(
                "{}: {}: {} bytes is more than {MAX_ENTRY}",
                self.path.display(),
                entry.name,
                entry.length
            ));
        }
        let preload = self.tree.get(entry.preload.0..entry.preload.1).unwrap_or(&[]);
        let end = offset + len;
        // Nothing reserved ahead: the data is checked to lie in its file before it is read.
        let mut out = Vec::new();
        let preload_len = preload.len() as u64;
        if offset < preload_len {
            out.extend_from_slice(&preload[offset as usize..end.min(preload_len) as usize]);
        }
        if end <= preload_len {
            return Ok(out);
        }
        // The part of the data, past the preload, that is asked for.
        let from = offset.saturating_sub(preload_len);
        let count = end - preload_len - from;
        if entry.archive == IN_DIRECTORY {
            let at = self.data_start + u64::from(entry.offset) + from;
            self.dir
                .read_into("VPK data", at, count, &mut out)
                .map_err(|e| format!("{}: {}: {e}", self.path.display(), entry.name))?;
            return Ok(out);
        }
        let archive = self
            .archive_path(entry.archive)
            .ok_or_else(|| format!("{}: the directory file is not named *_dir.vpk", self.path.display()))?;
        let backing = {
            let mut archives = self.archives.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            match archives.get(&entry.archive) {
                Some(b) => b.clone(),
                None => {
                    let b = Backing::open(&archive).map_err(|e| format!("{}: {e}", archive.display()))?;
                    archives.insert(entry.archive, b.clone());
                    b
                }
            }
        };
        backing
            .read_into("VPK data", u64::from(entry.offset) + from, count, &mut out)
            .map_err(|e| format!("{}: {}: {e}", archive.display(), entry.name))?;
        Ok(out)
    }
}

/// A file's size: its preload and its data.
fn size(entry: &Entry) -> u64 {
    (entry.preload.1 - entry.preload.0) as u64 + u64::from(entry.length)
}
