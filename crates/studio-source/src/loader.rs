//! Loads a Source model from disk with its companions: the `.vvd` and `.vtx` beside it
//! (`.dx90.vtx` preferred, then `.dx80.vtx`, `.sw.vtx`, `.vtx`), and the `.ani` and include
//! models it names, resolved from the game folder (the folder above the path's `models`),
//! case-insensitively, with `\` or `/` separators.

use std::path::{Path, PathBuf};

use studio_bytes::files::{companion_path, game_folder, resolve};

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
    let mdl = std::fs::read(path).map_err(|source| SourceLoadError::Io { path: path.to_owned(), source })?;
    load_read(path, &mdl)
}

/// [`load`] for a `.mdl` already read from `path`.
pub fn load_read(path: &Path, mdl: &[u8]) -> Result<LoadedSource, SourceLoadError> {
    let model = parse_file(mdl, FileRole::Mdl)
        .map_err(|error| SourceLoadError::Parse { path: path.to_owned(), error: Box::new(error) })?;
    let dir = path.parent().unwrap_or(Path::new(""));
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("model");
    let game = game_folder(path);
    let mut companions = Vec::new();
    let mut warnings = Vec::new();
    let mut bytes_read = mdl.len() as u64;
    let mut read = |found: Option<PathBuf>| -> Option<Vec<u8>> {
        let found = found?;
        let bytes = std::fs::read(&found).ok()?;
        companions.push(found);
        bytes_read += bytes.len() as u64;
        Some(bytes)
    };
    let vvd_name = format!("{stem}.vvd");
    let vvd = read(companion_path(dir, &vvd_name));
    let vtx_path = VTX_SUFFIXES.iter().find_map(|suffix| companion_path(dir, &format!("{stem}{suffix}")));
    let vtx = read(vtx_path);
    let has_mesh = model.body_parts.iter().any(|p| p.models.iter().any(|m| !m.meshes.is_empty()));
    if has_mesh && vvd.is_none() {
        warnings.push(missing(FileRole::Vvd, &vvd_name, &dir.join(&vvd_name).display().to_string()));
    }
    if has_mesh && vtx.is_none() {
        let tried = dir.join(format!("{stem}.dx90.vtx"));
        warnings.push(missing(FileRole::Vtx, &format!("{stem}.dx90.vtx"), &tried.display().to_string()));
    }
    // A name relative to the game folder: where it was looked for, for the warning.
    let tried = |name: &str| match &game {
        Some(game) => game.join(name.replace('\\', "/")).display().to_string(),
        None => format!("{name} (no models folder above {})", path.display()),
    };
    let ani = if uses_ani(&model) {
        let found = read(game.as_deref().and_then(|g| resolve(g, &model.header.ani_name)));
        if found.is_none() {
            warnings.push(missing(FileRole::Ani, &model.header.ani_name, &tried(&model.header.ani_name)));
        }
        found
    } else {
        None
    };
    let mut include_paths = Vec::new();
    let mut includes = Vec::new();
    for (i, include) in model.include_models.iter().enumerate() {
        let found = game.as_deref().and_then(|g| resolve(g, &include.file));
        include_paths.push(found.clone());
        let bytes = read(found);
        if bytes.is_none() {
            warnings.push(missing(FileRole::Include(i), &include.file, &tried(&include.file)));
        }
        includes.push(bytes);
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
