//! Finds a model's companion files (on disk, or through a [`FileSet`] in a game's archives) and
//! parses the set.
//!
//! Companions are named after the main file (`nameT.mdl`, `name01.mdl`…) and matched
//! case-insensitively, as real installs need (`hivet.mdl` beside `hive.mdl`).

use std::path::{Path, PathBuf};

use studio_bytes::files::{FileSet, LooseFiles};

use crate::error::Error;
use crate::model::{Model, ModelFiles, companions_needed, parse};

/// A model loaded from disk, with the companion files that were used.
#[derive(Debug)]
pub struct Loaded {
    /// The parsed model.
    pub model: Model,
    /// The companion files read besides the main file (`archive:path` for one in an archive).
    pub companions: Vec<PathBuf>,
    /// Bytes read: the main file and its companions.
    pub bytes_read: u64,
}

/// Why a model could not be loaded from disk.
pub type LoadError = studio_bytes::files::LoadError<Error>;

pub use studio_bytes::files::companion_path;

/// Loads the model at `path` with whatever companion files it needs and has.
pub fn load(path: &Path) -> Result<Loaded, LoadError> {
    load_from(&LooseFiles::new(path))
}

/// [`load`] for a main file already read from `path`.
pub fn load_read(path: &Path, main: &[u8]) -> Result<Loaded, LoadError> {
    load_set(&LooseFiles::new(path), main)
}

/// Loads the model whose files `files` reads (on disk, or in a game's archives).
pub fn load_from(files: &dyn FileSet) -> Result<Loaded, LoadError> {
    let main = files.main().map_err(|source| LoadError::Io { path: files.path().to_owned(), source })?;
    load_set(files, &main)
}

/// [`load_from`] for a main file already read.
pub fn load_set(files: &dyn FileSet, main: &[u8]) -> Result<Loaded, LoadError> {
    let path = files.path();
    let parse_error = |error| LoadError::Parse { path: path.to_owned(), error: Box::new(error) };
    let needed = companions_needed(main).map_err(parse_error)?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("model");
    let mut companions = Vec::new();
    let mut bytes_read = main.len() as u64;
    let mut read = |name: String| -> Option<Vec<u8>> {
        let found = files.beside(&name)?;
        companions.push(found.origin);
        bytes_read += found.bytes.len() as u64;
        Some(found.bytes)
    };
    let textures = if needed.texture_file { read(format!("{stem}T.mdl")) } else { None };
    // A group count from a damaged header may be huge: only look for files that exist.
    let groups: Vec<Option<Vec<u8>>> =
        (1..=needed.group_files.min(99)).map(|g| read(format!("{stem}{g:02}.mdl"))).collect();
    let files = ModelFiles {
        stem,
        main,
        textures: textures.as_deref(),
        groups: groups.iter().map(|g| g.as_deref()).collect(),
    };
    let model = parse(&files).map_err(parse_error)?;
    Ok(Loaded { model, companions, bytes_read })
}
