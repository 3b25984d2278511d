//! A model named by any path a user gives: a file on disk, or a file inside one of a game's
//! archives (`GAME/pak01_dir.vpk:models/props/crate.mdl`, `valve/pak0.pak:models/scientist.mdl`).
//! Its companions, include models and `.ani` are found in its game the way the engine finds
//! them, loose first, then in each archive (studio-archive's [`GameFiles`]); every command and
//! the viewer load models through here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use studio_archive::{Archive, ArchivePath, GameFiles, GameFolders};
use studio_bytes::files::{FileSet, LoadError, game_folder};

/// Whether `path` names a file inside an archive.
pub fn is_archived(path: &Path) -> bool {
    ArchivePath::parse(path).is_some()
}

/// The game folder of the model at `path`: the folder that holds its archive, or the one above
/// its `models` folder.
pub fn game_root(path: &Path) -> Option<PathBuf> {
    match ArchivePath::parse(path) {
        Some(archived) => Some(archived.game()),
        None => game_folder(path),
    }
}

/// The bytes of a file found for a model: on disk, or `archive:inner` (a companion's origin).
pub fn read_origin(origin: &Path) -> std::io::Result<Vec<u8>> {
    let Some(archived) = ArchivePath::parse(origin) else { return std::fs::read(origin) };
    let archive = Archive::open(&archived.archive).map_err(std::io::Error::other)?;
    match archive.read(&archived.inner) {
        Some(read) => read.map_err(std::io::Error::other),
        None => Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{archived} is not in the archive"),
        )),
    }
}

/// Whether `path` names a `.mdl` (any case).
pub fn is_mdl(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("mdl"))
}

/// Whether `path` names an archive of models: a `.vpk` directory file or a `.pak`.
pub fn is_archive_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("").to_ascii_lowercase();
    name.ends_with("_dir.vpk") || name.ends_with(".pak")
}

/// Every `.mdl` inside the archive at `path`, as `archive:inner` paths, sorted.
pub fn models_in_archive(path: &Path) -> Result<Vec<PathBuf>, String> {
    let archive = Archive::open(path)?;
    let mut inside: Vec<PathBuf> = archive
        .files()
        .filter(|(name, _)| is_mdl(Path::new(name)))
        .map(|(name, _)| ArchivePath { archive: path.to_owned(), inner: name.to_owned() }.to_path())
        .collect();
    inside.sort();
    Ok(inside)
}

/// The files of the model at `path`, in its game (its search path, or the folder rule) and then
/// in `extra` game folders ([`crate::installs::search`]).
pub fn files(path: &Path, extra: &[PathBuf]) -> Result<GameFiles, String> {
    GameFiles::open_in(path, crate::installs::search(path, extra).folders)
}

/// A load error for a model whose files could not be opened (a broken archive, say).
fn unopened<E>(path: &Path, error: String) -> LoadError<E> {
    LoadError::Io { path: path.to_owned(), source: std::io::Error::other(error) }
}

/// The main file's bytes, or the error of a load that cannot start.
fn main_bytes<E>(files: &GameFiles) -> Result<Vec<u8>, LoadError<E>> {
    files.main().map_err(|source| LoadError::Io { path: files.path().to_owned(), source })
}

/// A Source model loaded with its companions, when the file starts like one; `None` when it
/// does not (or cannot be read: the GoldSrc load says why).
pub fn source_load(
    path: &Path,
) -> Option<Result<studio_source::LoadedSource, studio_source::SourceLoadError>> {
    source_load_in(path, &[])
}

/// [`source_load`], with `extra` game folders searched after the model's own.
pub fn source_load_in(
    path: &Path,
    extra: &[PathBuf],
) -> Option<Result<studio_source::LoadedSource, studio_source::SourceLoadError>> {
    let files = match files(path, extra) {
        Ok(files) => files,
        Err(error) => return is_archived(path).then(|| Err(unopened(path, error))),
    };
    let bytes = files.main().ok()?;
    studio_source::is_source_model(&bytes).then(|| studio_source::load_set(&files, &bytes))
}

/// A Half-Life model loaded with its companions.
pub fn goldsrc_load(path: &Path) -> Result<studio_model::Loaded, studio_model::LoadError> {
    goldsrc_load_in(path, &[])
}

/// [`goldsrc_load`], with `extra` game folders searched after the model's own.
pub fn goldsrc_load_in(
    path: &Path,
    extra: &[PathBuf],
) -> Result<studio_model::Loaded, studio_model::LoadError> {
    let files = files(path, extra).map_err(|error| unopened(path, error))?;
    let bytes = main_bytes(&files)?;
    studio_model::load_set(&files, &bytes)
}

/// Game folders opened once for many models (`check`, `list`, the model browser): each game's
/// archives are read once, not once a model.
#[derive(Debug, Default)]
pub struct Games {
    opened: Mutex<HashMap<GameKey, Arc<GameFolders>>>,
}

/// What a model's places depend on: its game folder (when in a game) and the folder above its
/// `models/`.
type GameKey = (Option<PathBuf>, Option<PathBuf>);

impl Games {
    /// The places searched for the model at `path` (its game's search path, or the folder
    /// rule), opened on first use for each game and model folder.
    pub fn game_of(&self, path: &Path) -> Arc<GameFolders> {
        let key = (studio_games::game_of(path), game_root(path));
        let mut opened = self.opened.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let game = opened.entry(key).or_insert_with(|| Arc::new(crate::installs::search(path, &[]).folders));
        Arc::clone(game)
    }

    /// The files of the model at `path` in its game.
    pub fn files(&self, path: &Path) -> Result<GameFiles, String> {
        let game = self.game_of(path);
        match ArchivePath::parse(path) {
            Some(archived) => {
                if game.archive(&archived.archive).is_some() {
                    GameFiles::archived(&archived, game)
                } else {
                    // An archive the game's own search leaves out, or one that is broken:
                    // opened alone, for its error.
                    files(path, &[])
                }
            }
            None => Ok(GameFiles::loose(path, game)),
        }
    }
}

/// The models in the folder of the model at `path` (loose: its folder on disk; archived: its
/// folder inside its archive), sorted by name ignoring case, without Half-Life texture and
/// sequence group files: what next and previous model step through.
pub fn siblings(path: &Path) -> Vec<PathBuf> {
    let candidates: Vec<PathBuf> = match ArchivePath::parse(path) {
        Some(archived) => {
            let Ok(archive) = Archive::open(&archived.archive) else { return Vec::new() };
            let folder_of =
                |name: &str| name.rsplit_once('/').map_or("", |(dir, _)| dir).to_ascii_lowercase();
            let folder = folder_of(&archived.inner);
            archive
                .files()
                .filter(|(name, _)| is_mdl(Path::new(name)) && folder_of(name) == folder)
                .map(|(name, _)| {
                    ArchivePath { archive: archived.archive.clone(), inner: name.to_owned() }.to_path()
                })
                .collect()
        }
        None => {
            let dir = path.parent().unwrap_or(Path::new(""));
            let Ok(entries) =
                std::fs::read_dir(if dir.as_os_str().is_empty() { Path::new(".") } else { dir })
            else {
                return Vec::new();
            };
            entries
                .filter_map(|e| e.ok())
                .map(|e| dir.join(e.file_name()))
                .filter(|p| is_mdl(p) && p.is_file())
                .collect()
        }
    };
    // Texture and sequence group files are told apart by their headers and main files.
    let games = Games::default();
    let mut models: Vec<PathBuf> = candidates
        .into_iter()
        .filter(|p| {
            let Ok(files) = games.files(p) else { return false };
            let head = files.main_head(244).unwrap_or_default();
            !is_companion(&files, &head)
        })
        .collect();
    models.sort_by_key(|p| p.to_string_lossy().to_ascii_lowercase());
    models
}

/// The model `step` places after `path` among its [`siblings`] (before it for a negative step),
/// wrapping round; `None` when it is alone.
pub fn sibling(path: &Path, step: i32) -> Option<PathBuf> {
    let models = siblings(path);
    if models.len() < 2 {
        return None;
    }
    let key = path.to_string_lossy().to_ascii_lowercase();
    let at = models.iter().position(|p| p.to_string_lossy().to_ascii_lowercase() == key).unwrap_or(0);
    let n = models.len() as i64;
    let next = (at as i64 + i64::from(step)).rem_euclid(n) as usize;
    Some(models[next].clone())
}

/// A sequence group file (it starts with `IDSQ`), or a texture file: `nameT.mdl` beside a
/// `name.mdl` that keeps its textures there. A name alone is not enough: `soldier_100.mdl` is
/// not a group file of `soldier_1.mdl`.
pub fn is_companion(files: &dyn FileSet, head: &[u8]) -> bool {
    if studio_model::is_group_file(head) {
        return true;
    }
    let Some(stem) = files.path().file_stem().and_then(|s| s.to_str()) else { return false };
    let Some(main_stem) = stem.strip_suffix(['t', 'T']).filter(|s| !s.is_empty()) else { return false };
    files
        .beside(&format!("{main_stem}.mdl"))
        .and_then(|main| studio_model::companions_needed(&main.bytes).ok())
        .is_some_and(|needed| needed.texture_file)
}

/// The `.phy` beside the Source model at `path` (`None` when there is none).
pub fn load_phy(path: &Path) -> Result<Option<studio_source::Phy>, String> {
    let Ok(files) = files(path, &[]) else { return Ok(None) };
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let name = name.rsplit([':', '/', '\\']).next().unwrap_or(name);
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    let Some(found) = files.beside(&format!("{stem}.phy")) else { return Ok(None) };
    studio_source::parse_phy(&found.bytes).map(Some).map_err(|e| e.to_string())
}
