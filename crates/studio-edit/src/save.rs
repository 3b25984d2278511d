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
    /// The target is a file inside an archive, which is never written into.
    #[error(
        "{0}: a model inside an archive is not written into the archive; save it with Save As to a folder"
    )]
    InArchive(PathBuf),
}

/// Clears the read-only attribute (Windows) or gives the owner write permission of `path`.
fn writable(path: &Path) -> std::io::Result<()> {
    let mut permissions = std::fs::metadata(path)?.permissions();
    if permissions.readonly() {
        #[allow(clippy::permissions_set_readonly_false)] // The owner's write bit on our own backup.
        permissions.set_readonly(false);
        std::fs::set_permissions(path, permissions)?;
    }
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file beside it; with `backup`, an existing
/// file is first copied to `path.bak`.
fn put(path: &Path, bytes: &[u8], backup: bool) -> Result<(), SaveError> {
    if studio_document::model_files::is_archived(path) {
        return Err(SaveError::InArchive(path.to_path_buf()));
    }
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SaveError::Io { path, source }
    };
    if backup && path.is_file() {
        let mut bak = path.as_os_str().to_owned();
        bak.push(".bak");
        let bak = PathBuf::from(bak);
        // An older backup gives way, even a read-only one (copied from a read-only original
        // by an older version; Windows refuses to delete a read-only file).
        match std::fs::remove_file(&bak) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                writable(&bak).map_err(|_| io(&bak)(e))?;
                std::fs::remove_file(&bak).map_err(io(&bak))?;
            }
            Ok(()) => {}
        }
        std::fs::copy(path, &bak).map_err(io(&bak))?;
        // The backup is ours to replace next time: not read-only, whatever the original was.
        writable(&bak).map_err(io(&bak))?;
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

/// The model with its sequence group files' names following the main file's new name: under a
/// new stem, `models/soldier01.mdl` becomes `models/new01.mdl` (the folder kept), so the game
/// finds the group files written beside it. Names that do not follow the old stem stay.
fn renamed_groups(model: &Model, old_stem: &str, new_stem: &str) -> Option<Model> {
    if old_stem.eq_ignore_ascii_case(new_stem) || model.sequence_groups.len() < 2 {
        return None;
    }
    let mut renamed = model.clone();
    for (g, group) in renamed.sequence_groups.iter_mut().enumerate().skip(1) {
        let expected = format!("{old_stem}{g:02}.mdl");
        let split = group.name.rfind(['/', '\\']).map_or(0, |i| i + 1);
        if group.name[split..].eq_ignore_ascii_case(&expected) {
            group.name = format!("{}{new_stem}{g:02}.mdl", &group.name[..split]);
        }
    }
    Some(renamed)
}

/// Saves a version 10 model to `path` (and its texture and group files beside it). `read`:
/// the companion files it was read with, whose spelling is kept when saving over them; `from`:
/// the file it was read from: under a new name the group files' names in the main file follow.
/// Returns the files written, and the model as written when it differs from `model` (its group
/// names renamed): the caller's model from then on.
pub fn save_goldsrc(
    model: &Model,
    path: &Path,
    read: &[PathBuf],
    from: Option<&Path>,
    backup: bool,
) -> Result<(Vec<PathBuf>, Option<Model>), SaveError> {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("model");
    let old_stem = from.and_then(|f| f.file_stem()).and_then(|s| s.to_str()).unwrap_or(stem);
    let renamed = renamed_groups(model, old_stem, stem);
    let files = studio_model::write(renamed.as_ref().unwrap_or(model))?;
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
    Ok((written, renamed))
}

/// The companions of a Source model read from `from` that are its own (`anim48.vvd`,
/// `anim48.dx90.vtx`, `anim48.ani`; not include models'), each with the file it is copied to
/// beside `path`.
fn own_companions(from: &Path, companions: &[PathBuf], path: &Path) -> Vec<(PathBuf, PathBuf)> {
    let old_stem = from.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_ascii_lowercase();
    let new_stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let mut out = Vec::new();
    for companion in companions {
        let Some(name) = companion.file_name().and_then(|n| n.to_str()) else { continue };
        let Some(rest) =
            name.get(old_stem.len()..).filter(|_| name.to_ascii_lowercase().starts_with(&old_stem))
        else {
            continue;
        };
        if rest.starts_with('.') && !rest.eq_ignore_ascii_case(".mdl") {
            out.push((companion.clone(), path.with_file_name(format!("{new_stem}{rest}"))));
        }
    }
    out
}

/// The `.ani` name a model saved as `path` gives its copy `ani`: its path from the game folder
/// above `path`'s `models/` (as studiomdl writes it), or, outside any game folder, the old name
/// with only its file name changed.
fn ani_name(old: &str, ani: &Path, path: &Path) -> String {
    if let Some(relative) =
        studio_document::model_files::game_root(path).and_then(|game| ani.strip_prefix(game).ok())
    {
        let parts: Vec<String> =
            relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        return parts.join("/");
    }
    let file = ani.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    match old.rfind(['/', '\\']) {
        Some(split) => format!("{}{file}", &old[..=split]),
        None => file,
    }
}

/// What saving a Source model wrote.
pub struct SourceSaved {
    /// The `.mdl`'s bytes.
    pub bytes: Vec<u8>,
    /// The companions beside it: the copies, or those read when saved over the file read.
    pub companions: Vec<PathBuf>,
    /// The model as written, when it differs from the edited one (its `.ani` renamed).
    pub model: Option<SourceModel>,
}

/// Saves a Source model's edits to `path`: `original` (read from `from`, whose bytes its
/// `data.mdl` holds) with the fields `edited` changed. Under a new name, its own `.vvd`, `.vtx`
/// and `.ani` (from `companions`) are copied beside it with the new name, and the `.mdl` names
/// its `.ani` copy.
pub fn save_source(
    original: &SourceModel,
    edited: &SourceModel,
    from: &Path,
    companions: &[PathBuf],
    path: &Path,
    backup: bool,
) -> Result<SourceSaved, SaveError> {
    if from == path {
        let bytes = studio_source::write_edits(&original.data.mdl, original, edited)?;
        put(path, &bytes, backup)?;
        return Ok(SourceSaved { bytes, companions: companions.to_vec(), model: None });
    }
    let copies = own_companions(from, companions, path);
    let ani = copies.iter().find(|(_, to)| to.extension().is_some_and(|e| e.eq_ignore_ascii_case("ani")));
    let renamed = ani.map(|(_, to)| {
        let mut model = edited.clone();
        model.header.ani_name = ani_name(&edited.header.ani_name, to, path);
        model
    });
    let bytes = studio_source::write_edits(&original.data.mdl, original, renamed.as_ref().unwrap_or(edited))?;
    put(path, &bytes, backup)?;
    for (companion, target) in &copies {
        let data = studio_document::model_files::read_origin(companion)
            .map_err(|source| SaveError::Io { path: companion.clone(), source })?;
        put(target, &data, backup)?;
    }
    Ok(SourceSaved { bytes, companions: copies.into_iter().map(|(_, to)| to).collect(), model: renamed })
}
