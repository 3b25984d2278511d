//! `.vpk` archives, versions 1 and 2: the directory file (`*_dir.vpk`) lists every file by
//! extension, folder and name, each with its bytes preloaded in the directory, stored in a
//! numbered archive (`*_000.vpk`, …) or in the directory file after its tree (index 0x7FFF).
//!
//! Header: u32 signature 0x55AA1234, u32 version, u32 tree size; version 2 adds four u32 section
//! sizes (28 bytes in all). Tree: for each extension, each folder, each file (NUL-terminated
//! strings, an empty one ending each level): u32 CRC, u16 preload bytes, u16 archive index,
//! u32 offset, u32 length, u16 terminator 0xFFFF, then the preload bytes. A folder of " " is the
//! root; an extension of " " means none.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result, slice, u16_at, u32_at};

/// The signature.
const SIGNATURE: u32 = 0x55AA_1234;
/// Archive index of files stored in the directory file.
const IN_DIRECTORY: u16 = 0x7FFF;
/// Longest single file read out of an archive.
pub const MAX_ENTRY: u32 = 256 << 20;

/// One file of the archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Where its preloaded bytes are in the directory file.
    preload: (usize, usize),
    /// Its archive, or [`IN_DIRECTORY`].
    archive: u16,
    /// Offset in its archive (or after the tree).
    offset: u32,
    /// Bytes in its archive.
    length: u32,
}

/// A directory file, read.
#[derive(Clone, Debug)]
pub struct Vpk {
    /// The directory file's path.
    pub path: PathBuf,
    bytes: Vec<u8>,
    /// Where data stored in the directory file starts.
    data_start: u64,
    /// Files by lower-case path with `/`.
    entries: HashMap<String, Entry>,
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

impl Vpk {
    /// Reads a directory file's bytes (`path` names it, for its archives).
    pub fn parse(path: PathBuf, bytes: Vec<u8>) -> Result<Self> {
        let signature = u32_at(&bytes, "VPK header", 0)?;
        if signature != SIGNATURE {
            return Err(Error::new("VPK header", 0, format!("signature {signature:#x} is not 0x55aa1234")));
        }
        let version = u32_at(&bytes, "VPK header", 4)?;
        let header = match version {
            1 => 12,
            2 => 28,
            _ => return Err(Error::new("VPK header", 4, format!("version {version} is not 1 or 2"))),
        };
        let tree_size = u64::from(u32_at(&bytes, "VPK header", 8)?);
        slice(&bytes, "VPK header", 0, header)?;
        let tree_end = header + tree_size;
        if tree_end > bytes.len() as u64 {
            return Err(Error::new(
                "VPK header",
                8,
                format!("the tree of {tree_size} bytes runs past the file of {}", bytes.len()),
            ));
        }
        let mut entries = HashMap::new();
        let mut at = header;
        // Every name and entry consumes bytes of the tree, so these loops end within it.
        loop {
            let extension = string(&bytes, &mut at, tree_end)?;
            if extension.is_empty() {
                break;
            }
            loop {
                let folder = string(&bytes, &mut at, tree_end)?;
                if folder.is_empty() {
                    break;
                }
                loop {
                    let name = string(&bytes, &mut at, tree_end)?;
                    if name.is_empty() {
                        break;
                    }
                    let record = at;
                    if record + 18 > tree_end {
                        return Err(tree_error(record, "a file's entry runs past the tree"));
                    }
                    let preload = u64::from(u16_at(&bytes, "VPK tree", record + 4)?);
                    let archive = u16_at(&bytes, "VPK tree", record + 6)?;
                    let offset = u32_at(&bytes, "VPK tree", record + 8)?;
                    let length = u32_at(&bytes, "VPK tree", record + 12)?;
                    let terminator = u16_at(&bytes, "VPK tree", record + 16)?;
                    if terminator != 0xFFFF {
                        return Err(tree_error(
                            record + 16,
                            format!("entry terminator {terminator:#x} is not 0xffff"),
                        ));
                    }
                    let preload_start = record + 18;
                    if preload_start + preload > tree_end {
                        return Err(tree_error(
                            record + 4,
                            format!("{preload} preload bytes run past the tree"),
                        ));
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
                    let entry = Entry {
                        preload: (preload_start as usize, (preload_start + preload) as usize),
                        archive,
                        offset,
                        length,
                    };
                    entries.insert(full.replace('\\', "/").to_ascii_lowercase(), entry);
                }
            }
        }
        Ok(Self { path, bytes, data_start: tree_end, entries })
    }

    /// Reads the directory file at `path`.
    pub fn open(path: &Path) -> std::result::Result<Self, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::parse(path.to_path_buf(), bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Files in the archive.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds no file.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether it holds `path` (any case, `/` or `\`).
    pub fn contains(&self, path: &str) -> bool {
        self.entries.contains_key(&key(path))
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
        let entry = self.entries.get(&key(path))?;
        Some(self.read_entry(entry))
    }

    fn read_entry(&self, entry: &Entry) -> std::result::Result<Vec<u8>, String> {
        let mut out = self.bytes.get(entry.preload.0..entry.preload.1).unwrap_or(&[]).to_vec();
        if entry.length == 0 {
            return Ok(out);
        }
        if entry.length > MAX_ENTRY {
            return Err(format!("an entry of {} bytes is more than {MAX_ENTRY}", entry.length));
        }
        if entry.archive == IN_DIRECTORY {
            let start = self.data_start + u64::from(entry.offset);
            let data = slice(&self.bytes, "VPK data", start, u64::from(entry.length))
                .map_err(|e| format!("{}: {e}", self.path.display()))?;
            out.extend_from_slice(data);
            return Ok(out);
        }
        let archive = self
            .archive_path(entry.archive)
            .ok_or_else(|| "the directory file is not named *_dir.vpk".to_owned())?;
        use std::io::{Read, Seek, SeekFrom};
        let mut file = std::fs::File::open(&archive).map_err(|e| format!("{}: {e}", archive.display()))?;
        file.seek(SeekFrom::Start(u64::from(entry.offset)))
            .map_err(|e| format!("{}: {e}", archive.display()))?;
        let mut data = Vec::new();
        file.take(u64::from(entry.length))
            .read_to_end(&mut data)
            .map_err(|e| format!("{}: {e}", archive.display()))?;
        if data.len() != entry.length as usize {
            return Err(format!(
                "{}: {} bytes at {} are past its end",
                archive.display(),
                entry.length,
                entry.offset
            ));
        }
        out.extend_from_slice(&data);
        Ok(out)
    }
}

fn key(path: &str) -> String {
    path.replace('\\', "/").trim_start_matches('/').to_ascii_lowercase()
}
