//! Saving an edited model. Version 10: the whole set through the writer (main file, texture
//! file and sequence group files as the model keeps them). Source: the edited fields written
//! into the `.mdl` (in place, or after its end for tables that changed size: see
//! [`studio_source::write_edits`]), with its companions copied beside it when saved under a
//! new name.
//! Before the first save over a file, each file about to be replaced is kept as `NAME.bak`.

use std::path::{Path, PathBuf};

use studio_model::Model;
use studio_source::SourceModel;

/// Why a save failed; nothing on disk is left half-written (each file is written beside its
/// target and renamed over it).
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// A file could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The version 10 writer refused the model.
    #[error(transparent)]
    Write(#[from] studio_model::WriteError),
    /// The Source edits cannot be written into the file.
    #[error(transparent)]
    Source(#[from] studio_source::EditWriteError),
}

/// Writes `bytes` to `path` through a temporary file beside it; with `backup`, an existing
/// file is first copied to `path.bak`.
fn put(path: &Path, bytes: &[u8], backup: bool) -> Result<(), SaveError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SaveError::Io { path, source }
    };
    if backup && path.is_file() {
        let mut bak = path.as_os_str().to_owned();
        bak.push(".bak");
        let bak = PathBuf::from(bak);
        // An older backup (read-only, perhaps, copied from a read-only original) gives way.
        match std::fs::remove_file(&bak) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io(&bak)(e)),
            _ => {}
        }
        std::fs::copy(path, &bak).map_err(io(&bak))?;
    }
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".saving");
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, bytes).map_err(io(&temporary))?;
    std::fs::rename(&temporary, path).map_err(io(path))
}

/// The file a companion named `name` (`soldierT.mdl`) is written to: the one read, when one
/// with that name (in any case) was, else `name` beside the main file.
fn companion_target(main: &Path, name: &str, read: &[PathBuf]) -> PathBuf {
    let found = read
        .iter()
        .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case(name)));
    match found {
        Some(path) if path.parent() == main.parent() => path.clone(),
        _ => main.with_file_name(name),
    }
}

/// Saves a version 10 model to `path` (and its texture and group files beside it). `read`:
/// the companion files it was read with, whose spelling is kept when saving over them.
/// Returns the files written.
pub fn save_goldsrc(
    model: &Model,
    path: &Path,
    read: &[PathBuf],
    backup: bool,
) -> Result<Vec<PathBuf>, SaveError> {
    let files = studio_model::write(model)?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("model");
    let mut written = Vec::new();
    put(path, &files.main, backup)?;
    written.push(path.to_path_buf());
    if let Some(textures) = &files.textures {
        let target = companion_target(path, &format!("{stem}T.mdl"), read);
        put(&target, textures, backup)?;
        written.push(target);
    }
    for (g, group) in files.groups.iter().enumerate() {
        let target = companion_target(path, &format!("{stem}{:02}.mdl", g + 1), read);
        put(&target, group, backup)?;
        written.push(target);
    }
    Ok(written)
}

/// Saves a Source model's edits to `path`: `original` (read from `from`, whose bytes its
/// `data.mdl` holds) with the fields `edited` changed. Under a new name, the `.vvd`, `.vtx`
/// and `.ani` companions in `companions` are copied beside it with the new name. Returns the
/// bytes written and the companions beside it (the copies, or `companions` when saved over the
/// file it was read from).
pub fn save_source(
    original: &SourceModel,
    edited: &SourceModel,
    from: &Path,
    companions: &[PathBuf],
    path: &Path,
    backup: bool,
) -> Result<(Vec<u8>, Vec<PathBuf>), SaveError> {
    let bytes = studio_source::write_edits(&original.data.mdl, original, edited)?;
    let mut copies = Vec::new();
    put(path, &bytes, backup)?;
    let old_stem = from.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_ascii_lowercase();
    let new_stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    if from != path {
        for companion in companions {
            let Some(name) = companion.file_name().and_then(|n| n.to_str()) else { continue };
            // Only this model's own files (`anim48.vvd`, `anim48.dx90.vtx`), not include models.
            let Some(rest) =
                name.get(old_stem.len()..).filter(|_| name.to_ascii_lowercase().starts_with(&old_stem))
            else {
                continue;
            };
            if !rest.starts_with('.') || rest.eq_ignore_ascii_case(".mdl") {
                continue;
            }
            let target = path.with_file_name(format!("{new_stem}{rest}"));
            let data = std::fs::read(companion)
                .map_err(|source| SaveError::Io { path: companion.clone(), source })?;
            put(&target, &data, backup)?;
            copies.push(target);
        }
    } else {
        copies = companions.to_vec();
    }
    Ok((bytes, copies))
}
