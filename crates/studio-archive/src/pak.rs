//! Quake `.pak` archives, as GoldSrc games ship them (`valve/pak0.pak`): a 12-byte header
//! ("PACK", i32 directory offset, i32 directory length), file data, and a directory of 64-byte
//! entries (char[56] NUL-terminated path, i32 offset, i32 length).
//!
//! Opening one reads its header and directory; a file's data is read when it is asked for.

use std::path::{Path, PathBuf};

use crate::backing::Backing;
use crate::directory::Directory;
use crate::error::{Error, Result};
use crate::vpk::MAX_ENTRY;

/// Size of a directory entry.
const ENTRY: u64 = 64;

/// One file of the archive.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    name: String,
    offset: u32,
    length: u32,
}

/// A `.pak` archive, its directory read.
#[derive(Debug)]
pub struct Pak {
    /// The archive's path.
    pub path: PathBuf,
    file: Backing,
    entries: Vec<Entry>,
    /// The files, numbered as `entries`.
    directory: Directory,
}

/// A little-endian i32 from 4 bytes.
fn i32_of(bytes: &[u8]) -> i32 {
    i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

impl Pak {
    fn new(path: PathBuf, file: Backing) -> Result<Self> {
        let header = file.read("PAK header", 0, 12)?;
        if &header[..4] != b"PACK" {
            return Err(Error::new(
                "PAK header",
                0,
                format!("identifier {:?} is not \"PACK\"", String::from_utf8_lossy(&header[..4])),
            ));
        }
        let (offset, length) = (i32_of(&header[4..8]), i32_of(&header[8..12]));
        let offset = u64::try_from(offset)
            .map_err(|_| Error::new("PAK header", 4, format!("directory offset {offset} is negative")))?;
        let length = u64::try_from(length)
            .map_err(|_| Error::new("PAK header", 8, format!("directory length {length} is negative")))?;
        if length % ENTRY != 0 {
            return Err(Error::new(
                "PAK header",
                8,
                format!("directory length {length} is not a whole number of {ENTRY}-byte entries"),
            ));
        }
        // Read as one block, checked to lie in the file: the count is bounded by its size.
        let directory = file.read("PAK directory", offset, length)?;
        let mut entries = Vec::with_capacity(directory.len() / ENTRY as usize);
        for (i, raw) in directory.chunks_exact(ENTRY as usize).enumerate() {
            let at = offset + i as u64 * ENTRY;
            let name_len = raw[..56]
                .iter()
                .position(|&b| b == 0)
                .ok_or_else(|| Error::new("PAK directory", at, "a path of 56 bytes has no NUL"))?;
            let name = String::from_utf8_lossy(&raw[..name_len]).replace('\\', "/");
            let (data, len) = (i32_of(&raw[56..60]), i32_of(&raw[60..64]));
            let (Ok(data), Ok(len)) = (u32::try_from(data), u32::try_from(len)) else {
                return Err(Error::new(
                    "PAK directory",
                    at + 56,
                    format!("{name}: offset {data} or length {len} is negative"),
                ));
            };
            if u64::from(data) + u64::from(len) > file.len() {
                return Err(Error::new(
                    "PAK directory",
                    at + 56,
                    format!(
                        "{name}: {len} bytes at {data} run past the end of the file ({} bytes)",
                        file.len()
                    ),
                ));
            }
            entries.push(Entry { name, offset: data, length: len });
        }
        let directory = Directory::new(entries.iter().map(|e| (e.name.clone(), u64::from(e.length))));
        Ok(Self { path, file, entries, directory })
    }

    /// Reads an archive held in memory.
    pub fn parse(path: PathBuf, bytes: Vec<u8>) -> Result<Self> {
        Self::new(path, Backing::Memory(bytes.into()))
    }

    /// Opens the archive at `path`: its header and directory are read, nothing else.
    pub fn open(path: &Path) -> std::result::Result<Self, String> {
        let file = Backing::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Self::new(path.to_path_buf(), file).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The files it holds.
    pub fn directory(&self) -> &Directory {
        &self.directory
    }

    /// The bytes of `path`; `None` when the archive does not hold it.
    pub fn read(&self, path: &str) -> Option<std::result::Result<Vec<u8>, String>> {
        self.read_part(path, 0, u64::MAX)
    }

    /// `len` bytes of `path` from `offset` (clamped to its end), as [`Self::read`].
    pub fn read_part(
        &self,
        path: &str,
        offset: u64,
        len: u64,
    ) -> Option<std::result::Result<Vec<u8>, String>> {
        let entry = &self.entries[self.directory.find(path)?];
        if entry.length > MAX_ENTRY {
            return Some(Err(format!(
                "{}: {}: {} bytes is more than {MAX_ENTRY}",
                self.path.display(),
                entry.name,
                entry.length
            )));
        }
        let size = u64::from(entry.length);
        let offset = offset.min(size);
        let len = len.min(size - offset);
        Some(
            self.file
                .read("PAK data", u64::from(entry.offset) + offset, len)
                .map_err(|e| format!("{}: {}: {e}", self.path.display(), entry.name)),
        )
    }
}
