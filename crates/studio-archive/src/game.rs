//! A game's folders and their archives, searched as the engine searches them: loose files in
//! each folder first (any case), then each folder's archives: its `*_dir.vpk` files in name
//! order, then its `pak0.pak`, `pak1.pak`, … the highest number first (GoldSrc loads from the
//! highest pak and stops looking at the first missing number). Every place tried is kept, so a
//! viewer can say where it looked.

use std::path::{Path, PathBuf};

use studio_bytes::files::Found;

use crate::archive::Archive;

/// Largest loose file read.
const MAX_FILE: u64 = 256 << 20;
/// Most numbered `.pak` files a folder is looked at for.
const MAX_PAKS: usize = 100;

/// Game folders and their archives.
#[derive(Debug, Default)]
pub struct GameFolders {
    /// The folders, searched in order.
    pub roots: Vec<PathBuf>,
    /// Their archives that could be read, in search order.
    pub archives: Vec<Archive>,
    /// Archives that could not be read, with why.
    pub broken_archives: Vec<String>,
}

/// The archives of `root`, in search order: `*_dir.vpk` by name, then `pakN.pak` from the
/// highest of an unbroken run from `pak0.pak` down.
pub fn archive_paths(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root) else { return Vec::new() };
    let names: Vec<(String, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| Some((e.file_name().to_str()?.to_ascii_lowercase(), e.path())))
        .collect();
    let mut vpks: Vec<&(String, PathBuf)> = names.iter().filter(|(n, _)| n.ends_with("_dir.vpk")).collect();
    vpks.sort();
    let mut out: Vec<PathBuf> = vpks.into_iter().map(|(_, p)| p.clone()).collect();
    let paks: Vec<PathBuf> = (0..MAX_PAKS)
        .map_while(|n| {
            let name = format!("pak{n}.pak");
            names.iter().find(|(l, _)| *l == name).map(|(_, p)| p.clone())
        })
        .collect();
    out.extend(paks.into_iter().rev());
    out
}

impl GameFolders {
    /// The folders `roots` (missing ones are skipped) with their archives opened (header and
    /// directory only).
    pub fn open(roots: &[PathBuf]) -> Self {
        let mut folders = Self::default();
        for root in roots {
            if !root.is_dir() || folders.roots.contains(root) {
                continue;
            }
            folders.roots.push(root.clone());
            for path in archive_paths(root) {
                match Archive::open(&path) {
                    Ok(archive) => folders.archives.push(archive),
                    Err(e) => folders.broken_archives.push(e),
                }
            }
        }
        folders
    }

    /// The archive at `path`, if one of these.
    pub fn archive(&self, path: &Path) -> Option<usize> {
        self.archives.iter().position(|a| a.path() == path)
    }

    /// The loose file at `relative` below a game folder, if there is one.
    pub fn loose(&self, relative: &str) -> Option<PathBuf> {
        self.roots.iter().find_map(|root| studio_bytes::files::resolve(root, relative))
    }

    /// The file at `relative` (below a game folder), loose first, then in the archives;
    /// every place tried is added to `tried`. A file found but unreadable is an error.
    pub fn find(&self, relative: &str, tried: &mut Vec<String>) -> Result<Option<Found>, String> {
        for root in &self.roots {
            tried.push(root.join(relative).display().to_string());
            if let Some(path) = studio_bytes::files::resolve(root, relative) {
                let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                if size > MAX_FILE {
                    return Err(format!("{}: {size} bytes is more than {MAX_FILE}", path.display()));
                }
                let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                return Ok(Some(Found { bytes, origin: path }));
            }
        }
        for archive in &self.archives {
            tried.push(format!("{}:{relative}", archive.path().display()));
            if let Some(read) = archive.read(relative) {
                // Named as the archive spells it, as a loose file is by its own name.
                let name = archive.name_of(relative).unwrap_or(relative);
                let origin = format!("{}:{name}", archive.path().display());
                return read.map(|bytes| Some(Found { bytes, origin: origin.into() }));
            }
        }
        Ok(None)
    }
}
