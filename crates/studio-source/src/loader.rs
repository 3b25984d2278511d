//! Loads a Source model with its companions: the `.vvd` and `.vtx` beside it (`.dx90.vtx`
//! preferred, then `.dx80.vtx`, `.sw.vtx`, `.vtx`), and the `.ani` and include models it names,
//! resolved from the game folder (the folder above the path's `models`), case-insensitively,
//! with `\` or `/` separators. The files come from a [`FileSet`]: from disk ([`load`]), or from
//! a game's folders and archives ([`load_from`]).

use std::path::{Path, PathBuf};

use studio_bytes::files::{FileSet, Found, LooseFiles};

use crate::error::{Error, FileRole};
use crate::model::{SourceModel, parse_file};
use crate::set::{SourceFiles, complete, missing, uses_ani};

/// The `.vtx` names tried, in order of preference.
const VTX_SUFFIXES: [&str; 4] = [".dx90.vtx", ".dx80.vtx", ".sw.vtx", ".vtx"];

/// A model loaded from disk.
#[derive(Debug)]
pub struct LoadedSource {
    /// The model and what its companions added.
    pub model: SourceModel,
    /// The companion files read (`.vvd`, `.vtx`, `.ani`, include models).
    pub companions: Vec<PathBuf>,
    /// Where each include model was found.
    pub include_paths: Vec<Option<PathBuf>>,
    /// Bytes read: the `.mdl` and its companions.
    pub bytes_read: u64,
}

/// Why a Source model could not be loaded.
pub type SourceLoadError = studio_bytes::files::LoadError<Error>;

/// Loads the Source model at `path` with whatever companions it has.
pub fn load(path: &Path) -> Result<LoadedSource, SourceLoadError> {
    load_from(&LooseFiles::new(path))
}

/// [`load`] for a `.mdl` already read from `path`.
pub fn load_read(path: &Path, mdl: &[u8]) -> Result<LoadedSource, SourceLoadError> {
    load_set(&LooseFiles::new(path), mdl)
}

/// Loads the Source model whose files `files` reads (on disk, or in a game's archives).
pub fn load_from(files: &dyn FileSet) -> Result<LoadedSource, SourceLoadError> {
    let mdl = files.main().map_err(|source| SourceLoadError::Io { path: files.path().to_owned(), source })?;
    load_set(files, &mdl)
}

/// [`load_from`] for a `.mdl` already read.
pub fn load_set(files: &dyn FileSet, mdl: &[u8]) -> Result<LoadedSource, SourceLoadError> {
    let path = files.path();
    let model = parse_file(mdl, FileRole::Mdl)
        .map_err(|error| SourceLoadError::Parse { path: path.to_owned(), error: Box::new(error) })?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("model");
    let mut companions = Vec::new();
    let mut warnings = Vec::new();
    let mut bytes_read = mdl.len() as u64;
    let mut read = |found: Option<Found>| -> Option<(PathBuf, Vec<u8>)> {
        let found = found?;
        companions.push(found.origin.clone());
        bytes_read += found.bytes.len() as u64;
        Some((found.origin, found.bytes))
    };
    let vvd_name = format!("{stem}.vvd");
    let vvd = read(files.beside(&vvd_name)).map(|(_, b)| b);
    let vtx =
        read(VTX_SUFFIXES.iter().find_map(|suffix| files.beside(&format!("{stem}{suffix}")))).map(|(_, b)| b);
    let has_mesh = model.body_parts.iter().any(|p| p.models.iter().any(|m| !m.meshes.is_empty()));
    if has_mesh && vvd.is_none() {
        warnings.push(missing(FileRole::Vvd, &vvd_name, &files.beside_place(&vvd_name)));
    }
    if has_mesh && vtx.is_none() {
        let name = format!("{stem}.dx90.vtx");
        warnings.push(missing(FileRole::Vtx, &name, &files.beside_place(&name)));
    }
    let ani = if uses_ani(&model) {
        let found = read(files.in_game(&model.header.ani_name)).map(|(_, b)| b);
        if found.is_none() {
            let name = &model.header.ani_name;
            warnings.push(missing(FileRole::Ani, name, &files.game_place(name)));
        }
        found
    } else {
        None
    };
    let mut include_paths = Vec::new();
    let mut includes = Vec::new();
    for (i, include) in model.include_models.iter().enumerate() {
        let found = read(files.in_game(&include.file));
        include_paths.push(found.as_ref().map(|(origin, _)| origin.clone()));
        if found.is_none() {
            warnings.push(missing(FileRole::Include(i), &include.file, &files.game_place(&include.file)));
        }
        includes.push(found.map(|(_, b)| b));
    }
    let files = SourceFiles {
        mdl,
        vvd: vvd.as_deref(),
        vtx: vtx.as_deref(),
        ani: ani.as_deref(),
        includes: includes.iter().map(|b| b.as_deref()).collect(),
    };
    let mut model = complete(model, &files);
    model.warnings.append(&mut warnings);
    Ok(LoadedSource { model, companions, include_paths, bytes_read })
}
