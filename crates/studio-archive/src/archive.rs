//! An archive of either kind, as a game folder holds them.

use std::path::Path;

use crate::directory::Directory;
use crate::pak::Pak;
use crate::vpk::Vpk;

/// A `.vpk` directory or a `.pak`, opened.
#[derive(Debug)]
pub enum Archive {
    /// A Source archive.
    Vpk(Vpk),
    /// A Quake/GoldSrc archive.
    Pak(Pak),
}

impl Archive {
    /// Opens the archive at `path`, by its extension: `.pak`, or a `.vpk` directory file.
    pub fn open(path: &Path) -> Result<Self, String> {
        if is_pak(path) { Pak::open(path).map(Archive::Pak) } else { Vpk::open(path).map(Archive::Vpk) }
    }

    /// Its path (the directory file of a `.vpk`).
    pub fn path(&self) -> &Path {
        match self {
            Archive::Vpk(v) => &v.path,
            Archive::Pak(p) => &p.path,
        }
    }

    /// The files it holds.
    pub fn directory(&self) -> &Directory {
        match self {
            Archive::Vpk(v) => v.directory(),
            Archive::Pak(p) => p.directory(),
        }
    }

    /// Files in it.
    pub fn len(&self) -> usize {
        self.directory().len()
    }

    /// Whether it holds no file.
    pub fn is_empty(&self) -> bool {
        self.directory().is_empty()
    }

    /// Whether it holds `path` (any case, `/` or `\`).
    pub fn contains(&self, path: &str) -> bool {
        self.directory().contains(path)
    }

    /// The path of the file at `path` (any case, `/` or `\`) as the archive spells it.
    pub fn name_of(&self, path: &str) -> Option<&str> {
        self.directory().name_of(path)
    }

    /// Every file: its path and size.
    pub fn files(&self) -> impl ExactSizeIterator<Item = (&str, u64)> + '_ {
        self.directory().files()
    }

    /// The bytes of `path`; `None` when it is not in the archive, `Err` when it cannot be read.
    pub fn read(&self, path: &str) -> Option<Result<Vec<u8>, String>> {
        match self {
            Archive::Vpk(v) => v.read(path),
            Archive::Pak(p) => p.read(path),
        }
    }

    /// `len` bytes of `path` from `offset`, clamped to its end.
    pub fn read_part(&self, path: &str, offset: u64, len: u64) -> Option<Result<Vec<u8>, String>> {
        match self {
            Archive::Vpk(v) => v.read_part(path, offset, len),
            Archive::Pak(p) => p.read_part(path, offset, len),
        }
    }
}

/// Whether `path` names a `.pak` (any case).
pub fn is_pak(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("pak"))
}
