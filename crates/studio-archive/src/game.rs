//! A game's folders and their archives, searched as the engine searches them: loose files in
//! each folder first (any case), then each folder's archives: its `*_dir.vpk` files in name
//! order, then its `pak0.pak`, `pak1.pak`, … the highest number first (GoldSrc loads from the
//! highest pak and stops looking at the first missing number). Every place tried is kept, so a
//! viewer can say where it looked.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use studio_bytes::files::Found;

use crate::archive::Archive;

/// Largest loose file read.
const MAX_FILE: u64 = 256 << 20;
/// Most numbered `.pak` files a folder is looked at for.
const MAX_PAKS: usize = 100;

/// Game folders and their archives. A clone shares the opened archives (their directories are
/// read once).
#[derive(Clone, Debug, Default)]
pub struct GameFolders {
    /// The folders.
    pub roots: Vec<PathBuf>,
    /// Their archives that could be read.
    pub archives: Vec<Arc<Archive>>,
    /// Archives that could not be read, with why.
    pub broken_archives: Vec<String>,
    /// The folders and archives in search order, each with the search path entry that put it
    /// there.
    pub places: Vec<Place>,
}

/// A folder or an archive of a search path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Where {
    /// Loose files below `roots[i]`.
    Folder(usize),
    /// `archives[i]`.
    Archive(usize),
}

/// One place searched, and the entry of the search path that put it there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// What is searched.
    pub at: Where,
    /// The search path entry as the game names it (`game+mod  |gameinfo_path|.`), or the folder's
    /// path for a plain game folder.
    pub entry: String,
}

/// A folder or an archive to search, and the entry that names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchEntry {
    /// The folder, or the archive (a `.vpk` directory file or a `.pak`).
    pub path: PathBuf,
    /// Whether it is an archive.
    pub archive: bool,
    /// The entry as the game names it.
    pub entry: String,
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
                    Ok(archive) => folders.archives.push(Arc::new(archive)),
                    Err(e) => folders.broken_archives.push(e),
                }
            }
        }
        folders.places = (0..folders.roots.len())
            .map(|i| Place { at: Where::Folder(i), entry: folders.roots[i].display().to_string() })
            .chain((0..folders.archives.len()).map(|i| Place {
                at: Where::Archive(i),
                entry: folders.archives[i].path().display().to_string(),
            }))
            .collect();
        folders
    }

    /// The places of a game's search path, in its order: each folder that is there, each archive
    /// opened (header and directory only; one that cannot be read goes to `broken_archives`).
    /// A place already searched is not searched again, as the engine adds a path once.
    pub fn search(entries: &[SearchEntry]) -> Self {
        let mut folders = Self::default();
        for entry in entries {
            let at = if entry.archive {
                if let Some(i) = folders.archive(&entry.path) {
                    Where::Archive(i)
                } else {
                    match Archive::open(&entry.path) {
                        Ok(archive) => {
                            folders.archives.push(Arc::new(archive));
                            Where::Archive(folders.archives.len() - 1)
                        }
                        Err(e) => {
                            folders.broken_archives.push(e);
                            continue;
                        }
                    }
                }
            } else {
                if !entry.path.is_dir() {
                    continue;
                }
                match folders.roots.iter().position(|r| *r == entry.path) {
                    Some(i) => Where::Folder(i),
                    None => {
                        folders.roots.push(entry.path.clone());
                        Where::Folder(folders.roots.len() - 1)
                    }
                }
            };
            if !folders.places.iter().any(|p| p.at == at) {
                folders.places.push(Place { at, entry: entry.entry.clone() });
            }
        }
        folders
    }

    /// These places, then those of `more` that are not among them.
    pub fn then(mut self, more: GameFolders) -> Self {
        let roots = self.roots.len();
        let archives = self.archives.len();
        for place in more.places {
            let at = match place.at {
                Where::Folder(i) if self.roots.contains(&more.roots[i]) => continue,
                Where::Archive(i) if self.archive(more.archives[i].path()).is_some() => continue,
                Where::Folder(i) => Where::Folder(roots + i),
                Where::Archive(i) => Where::Archive(archives + i),
            };
            self.places.push(Place { at, entry: place.entry });
        }
        self.roots.extend(more.roots);
        self.archives.extend(more.archives);
        self.broken_archives.extend(more.broken_archives);
        self
    }

    /// Puts `archive` first in the search (an archive a model's path names).
    pub fn put_first(&mut self, archive: Archive) {
        let entry = archive.path().display().to_string();
        self.archives.push(Arc::new(archive));
        self.places.insert(0, Place { at: Where::Archive(self.archives.len() - 1), entry });
    }

    /// What place `i` searches: a folder or an archive's path.
    pub fn place_path(&self, place: &Place) -> &Path {
        match place.at {
            Where::Folder(i) => &self.roots[i],
            Where::Archive(i) => self.archives[i].path(),
        }
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
        Ok(self.find_place(relative, tried)?.map(|(found, _)| found))
    }

    /// [`GameFolders::find`], with the number of the place (in `places`) that supplied it.
    pub fn find_place(
        &self,
        relative: &str,
        tried: &mut Vec<String>,
    ) -> Result<Option<(Found, usize)>, String> {
        for (n, place) in self.places.iter().enumerate() {
            match place.at {
                Where::Folder(i) => {
                    let root = &self.roots[i];
                    tried.push(root.join(relative).display().to_string());
                    if let Some(path) = studio_bytes::files::resolve(root, relative) {
                        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                        if size > MAX_FILE {
                            return Err(format!("{}: {size} bytes is more than {MAX_FILE}", path.display()));
                        }
                        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
                        return Ok(Some((Found { bytes, origin: path }, n)));
                    }
                }
                Where::Archive(i) => {
                    let archive = &self.archives[i];
                    tried.push(format!("{}:{relative}", archive.path().display()));
                    if let Some(read) = archive.read(relative) {
                        // Named as the archive spells it, as a loose file is by its own name.
                        let name = archive.name_of(relative).unwrap_or(relative);
                        let origin = format!("{}:{name}", archive.path().display());
                        return read.map(|bytes| Some((Found { bytes, origin: origin.into() }, n)));
                    }
                }
            }
        }
        Ok(None)
    }
}
