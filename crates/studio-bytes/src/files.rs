//! Finding a model's companion files on disk, as real installs need: names matched ignoring
//! ASCII case (`hivet.mdl` beside `hive.mdl`, `Anim48.ani` for `anim48.ani`), and paths
//! written with `\` or `/`.

use std::fmt;
use std::path::{Component, Path, PathBuf};

/// Why a model could not be loaded from disk: its main file could not be read, or the format's
/// reader refused it with its error `E`.
#[derive(Debug)]
pub enum LoadError<E> {
    /// The main file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The model set is not usable.
    Parse {
        /// The main file.
        path: PathBuf,
        /// The reader's error.
        error: Box<E>,
    },
}

impl<E: fmt::Display> LoadError<E> {
    /// What is wrong, without the path (for a line that already names the file).
    pub fn reason(&self) -> String {
        match self {
            LoadError::Io { source, .. } => source.to_string(),
            LoadError::Parse { error, .. } => error.to_string(),
        }
    }
}

impl<E: fmt::Display> fmt::Display for LoadError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = match self {
            LoadError::Io { path, .. } | LoadError::Parse { path, .. } => path,
        };
        write!(f, "{}: {}", path.display(), self.reason())
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for LoadError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io { source, .. } => Some(source),
            LoadError::Parse { .. } => None,
        }
    }
}

/// A file found for a model: its bytes and where it came from (a path on disk, or
/// `archive:path` for a file inside an archive).
#[derive(Clone, Debug)]
pub struct Found {
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// Where it was found.
    pub origin: PathBuf,
}

/// Where a model's files are read from: its main file, the files beside it, and the files of
/// its game. [`LooseFiles`] reads them from disk; studio-archive's game files look in the game's
/// archives too, as the engine does. A file that cannot be read is treated as not found.
pub trait FileSet {
    /// The main file: a path on disk, or `archive:path` for one inside an archive.
    fn path(&self) -> &Path;
    /// The main file's bytes.
    fn main(&self) -> std::io::Result<Vec<u8>>;
    /// The file `name` beside the main file (any case).
    fn beside(&self, name: &str) -> Option<Found>;
    /// The file at `relative` below the model's game folder (any case, `\` or `/`).
    fn in_game(&self, relative: &str) -> Option<Found>;
    /// Where [`Self::beside`] looks first for `name`, for a message saying it is not there.
    fn beside_place(&self, name: &str) -> String;
    /// Where [`Self::in_game`] looks first for `relative`, for the same message.
    fn game_place(&self, relative: &str) -> String;
}

/// A model's files on disk: beside it, and below the folder above its path's `models` folder.
#[derive(Clone, Debug)]
pub struct LooseFiles {
    path: PathBuf,
    game: Option<PathBuf>,
}

impl LooseFiles {
    /// The files of the model at `path`.
    pub fn new(path: &Path) -> Self {
        // The file's name as on disk, where the name asked for matched it in another case.
        let path = match (path.parent(), path.file_name().and_then(|n| n.to_str())) {
            (Some(dir), Some(name)) => spelled_on_disk(dir, name, path.to_owned()),
            _ => path.to_owned(),
        };
        let game = game_folder(&path);
        Self { path, game }
    }

    fn dir(&self) -> &Path {
        self.path.parent().unwrap_or(Path::new(""))
    }
}

/// The bytes of the file at `path`, if it can be read.
fn read_found(path: PathBuf) -> Option<Found> {
    let bytes = std::fs::read(&path).ok()?;
    Some(Found { bytes, origin: path })
}

impl FileSet for LooseFiles {
    fn path(&self) -> &Path {
        &self.path
    }

    fn main(&self) -> std::io::Result<Vec<u8>> {
        std::fs::read(&self.path)
    }

    fn beside(&self, name: &str) -> Option<Found> {
        read_found(companion_path(self.dir(), name)?)
    }

    fn in_game(&self, relative: &str) -> Option<Found> {
        read_found(resolve(self.game.as_deref()?, relative)?)
    }

    fn beside_place(&self, name: &str) -> String {
        self.dir().join(name).display().to_string()
    }

    fn game_place(&self, relative: &str) -> String {
        match &self.game {
            Some(game) => place_below(game, relative).display().to_string(),
            None => format!("{relative} (no models folder above {})", self.path.display()),
        }
    }
}

/// Whether a name found by its exact spelling may be spelled otherwise on disk: Windows' and
/// macOS's file systems ignore case, so `dir/Name` "exists" for a file `name`. There the spelling
/// on disk is read from the folder, so that what we report (and write beside it) is the file's
/// real name. Linux's are case-sensitive: an exact hit is the name on disk.
const CASE_MAY_FOLD: bool = !cfg!(target_os = "linux");

/// The folder's entries (`.` for an empty path), or none where it cannot be read.
fn entries(dir: &Path) -> impl Iterator<Item = std::fs::DirEntry> {
    std::fs::read_dir(if dir.as_os_str().is_empty() { Path::new(".") } else { dir })
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok())
}

/// `dir/name` as it is spelled on disk, where a case-insensitive file system found it under
/// another spelling; `exact` itself where the folder has no entry of that name ignoring ASCII
/// case (a Unicode case difference only Windows folds).
fn spelled_on_disk(dir: &Path, name: &str, exact: PathBuf) -> PathBuf {
    if !CASE_MAY_FOLD {
        return exact;
    }
    // The exact spelling where the folder has it (a case-sensitive volume on macOS).
    let mut found = None;
    for entry in entries(dir) {
        let entry_name = entry.file_name();
        match entry_name.to_str() {
            Some(n) if n == name => return exact,
            Some(n) if n.eq_ignore_ascii_case(name) && found.is_none() => found = Some(entry_name),
            _ => {}
        }
    }
    found.map_or(exact, |found| dir.join(found))
}

/// The file named `name` in `dir`, matched exactly first, then ignoring ASCII case; spelled as
/// on disk.
pub fn companion_path(dir: &Path, name: &str) -> Option<PathBuf> {
    let exact = dir.join(name);
    if exact.is_file() {
        return Some(spelled_on_disk(dir, name, exact));
    }
    entries(dir)
        .find(|entry| entry.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(name)))
        .map(|entry| dir.join(entry.file_name()))
        .filter(|path| path.is_file())
}

/// The file a model names relative to a game folder (`models\fixture\x.mdl`), each component
/// matched ignoring case; `\` and `/` both separate. Folders whose names differ only in case
/// (files meant for Windows unpacked on a case-sensitive disk) are all searched, the exact
/// spelling first. Names that climb out of the folder (`..`) or are absolute are not followed.
pub fn resolve(root: &Path, relative: &str) -> Option<PathBuf> {
    let parts: Vec<&str> = relative.split(['/', '\\']).filter(|p| !p.is_empty() && *p != ".").collect();
    let (file, folders) = parts.split_last()?;
    let climbs = |part: &&str| {
        *part == ".." || Path::new(part).components().any(|c| !matches!(c, Component::Normal(_)))
    };
    if folders.iter().any(climbs) || *file == ".." {
        return None;
    }
    search(root, folders, file)
}

/// `file` below `dir` through `folders`, trying every spelling of each folder.
fn search(dir: &Path, folders: &[&str], file: &str) -> Option<PathBuf> {
    let Some((folder, rest)) = folders.split_first() else { return companion_path(dir, file) };
    folders_named(dir, folder).into_iter().find_map(|d| search(&d, rest, file))
}

/// Every folder in `dir` named `name` ignoring ASCII case, the exact spelling first.
fn folders_named(dir: &Path, name: &str) -> Vec<PathBuf> {
    let exact = dir.join(name);
    let exact = exact.is_dir().then(|| spelled_on_disk(dir, name, exact));
    let mut out: Vec<PathBuf> = exact.iter().cloned().collect();
    out.extend(
        entries(dir)
            .filter(|entry| entry.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(name)))
            .map(|entry| dir.join(entry.file_name()))
            .filter(|path| Some(path) != exact.as_ref() && path.is_dir()),
    );
    out
}

/// Where `relative` (`models\\x.mdl` or `models/x.mdl`) would be below `root`, joined a component
/// at a time so that the path has this system's separators throughout: for messages naming
/// where a file was looked for.
pub fn place_below(root: &Path, relative: &str) -> PathBuf {
    relative
        .split(['/', '\\'])
        .filter(|part| !part.is_empty())
        .fold(root.to_path_buf(), |p, part| p.join(part))
}

/// The game folder of a model file: the folder that holds the last `models` folder (any case)
/// on its path, as a game's folder holds `models/`; `None` when there is none.
pub fn game_folder(model: &Path) -> Option<PathBuf> {
    model
        .ancestors()
        .skip(1)
        .find(|dir| {
            dir.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case("models"))
        })
        .and_then(Path::parent)
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_across_cases_and_separators() {
        let root = std::env::temp_dir().join(format!("studio-bytes-files-{}", std::process::id()));
        let dir = root.join("Models").join("Fixture");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("anim.ani"), b"x").unwrap();
        assert_eq!(resolve(&root, r"models\fixture\Anim.ani"), Some(dir.join("anim.ani")));
        assert_eq!(resolve(&root, "models/FIXTURE/anim.ani"), Some(dir.join("anim.ani")));
        assert_eq!(resolve(&root, "models/../models/fixture/anim.ani"), None);
        assert_eq!(resolve(&root, "models/fixture/missing.ani"), None);
        // Folders differing only in case are all searched, where they can differ: on a
        // case-insensitive file system (Windows, macOS) `models/fixture` is `Models/Fixture`,
        // and what is found is spelled as on disk.
        let folds_case = root.join("MODELS").is_dir();
        let other = root.join("models").join("fixture");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("walk.ani"), b"x").unwrap();
        let walk = if folds_case { dir.join("walk.ani") } else { other.join("walk.ani") };
        assert_eq!(resolve(&root, "Models/Fixture/walk.ani"), Some(walk.clone()));
        assert_eq!(resolve(&root, "MODELS/fixture/WALK.ANI"), Some(walk));
        assert_eq!(resolve(&root, "models/fixture/anim.ani"), Some(dir.join("anim.ani")));
        assert_eq!(game_folder(&dir.join("x.mdl")), Some(root.clone()));
        assert_eq!(game_folder(Path::new("/tmp/x.mdl")), None);
        std::fs::remove_dir_all(&root).unwrap();
    }
}
