//! A model's files in its game ([`GameFiles`], a [`FileSet`]): the main file, loose or inside an
//! archive; the files beside it and the files its game folder holds, found as the engine finds
//! them: loose first, then in each archive of the game.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use studio_bytes::files::{FileSet, Found, companion_path, game_folder, place_below};

use crate::archive::Archive;
use crate::game::GameFolders;
use crate::model_path::ArchivePath;

/// Where the main file is.
#[derive(Clone, Debug)]
enum Main {
    /// On disk.
    Loose(PathBuf),
    /// In archive `archive` of the game, at `inner`.
    Archived { archive: usize, inner: String },
}

/// A model's files in its game folders.
#[derive(Clone, Debug)]
pub struct GameFiles {
    /// The model's path as given: on disk, or `archive:inner`.
    path: PathBuf,
    main: Main,
    game: Arc<GameFolders>,
    /// The model's folder below its game folder (`models/props`), where known.
    folder: Option<String>,
}

impl GameFiles {
    /// The files of the model at `path` (on disk, or `archive:inner`), in its game folder (the
    /// folder above its `models` folder, or the archive's) and then in `extra` game folders.
    pub fn open(path: &Path, extra: &[PathBuf]) -> Result<Self, String> {
        let archived = ArchivePath::parse(path);
        let root = match &archived {
            Some(a) => Some(a.game()),
            None => game_folder(path),
        };
        let roots: Vec<PathBuf> = root.iter().chain(extra).cloned().collect();
        Self::open_in(path, GameFolders::open(&roots))
    }

    /// The files of the model at `path` (on disk, or `archive:inner`) in `game`: a game's search
    /// path, say.
    pub fn open_in(path: &Path, mut game: GameFolders) -> Result<Self, String> {
        let Some(archived) = ArchivePath::parse(path) else { return Ok(Self::loose(path, Arc::new(game))) };
        // The archive the path names, even one the folder's own search leaves out (a .vpk not
        // named *_dir.vpk, a .pak past a missing number): searched first.
        if game.archive(&archived.archive).is_none() {
            let archive = Archive::open(&archived.archive)?;
            game.put_first(archive);
        }
        Self::archived(&archived, Arc::new(game))
    }

    /// The files of the loose model at `path` in `game`.
    pub fn loose(path: &Path, game: Arc<GameFolders>) -> Self {
        let folder = game.roots.iter().find_map(|root| {
            let dir = path.parent()?.strip_prefix(root).ok()?;
            Some(dir.to_str()?.replace('\\', "/"))
        });
        Self { path: path.to_owned(), main: Main::Loose(path.to_owned()), game, folder }
    }

    /// The files of the model inside an archive of `game`.
    pub fn archived(path: &ArchivePath, game: Arc<GameFolders>) -> Result<Self, String> {
        let archive = game
            .archive(&path.archive)
            .ok_or_else(|| format!("{}: the archive is not one of the game's", path.archive.display()))?;
        let folder = path.inner.rsplit_once('/').map_or(String::new(), |(dir, _)| dir.to_owned());
        Ok(Self {
            path: path.to_path(),
            main: Main::Archived { archive, inner: path.inner.clone() },
            game,
            folder: Some(folder),
        })
    }

    /// The first `len` bytes of the main file (fewer when it is shorter): its header, without
    /// reading the rest.
    pub fn main_head(&self, len: u64) -> std::io::Result<Vec<u8>> {
        match &self.main {
            Main::Loose(path) => {
                use std::io::Read;
                let mut head = Vec::new();
                std::fs::File::open(path)?.take(len).read_to_end(&mut head)?;
                Ok(head)
            }
            Main::Archived { archive, inner } => {
                match self.game.archives[*archive].read_part(inner, 0, len) {
                    Some(read) => read.map_err(std::io::Error::other),
                    None => Err(std::io::Error::new(std::io::ErrorKind::NotFound, format!("no {inner}"))),
                }
            }
        }
    }

    /// The game folders the files are looked for in.
    pub fn game(&self) -> &Arc<GameFolders> {
        &self.game
    }

    /// `name` in the model's folder below the game folder.
    fn relative(&self, name: &str) -> Option<String> {
        let folder = self.folder.as_deref()?;
        Some(if folder.is_empty() { name.to_owned() } else { format!("{folder}/{name}") })
    }

    /// The file at `relative` in the game's archives only.
    fn in_archives(&self, relative: &str) -> Option<Found> {
        let archives = self.game.places.iter().filter_map(|place| match place.at {
            crate::game::Where::Archive(i) => Some(&self.game.archives[i]),
            crate::game::Where::Folder(_) => None,
        });
        archives.into_iter().find_map(|archive| {
            let bytes = archive.read(relative)?.ok()?;
            let name = archive.name_of(relative).unwrap_or(relative);
            Some(Found { bytes, origin: format!("{}:{name}", archive.path().display()).into() })
        })
    }
}

impl FileSet for GameFiles {
    fn path(&self) -> &Path {
        &self.path
    }

    fn main(&self) -> std::io::Result<Vec<u8>> {
        match &self.main {
            Main::Loose(path) => std::fs::read(path),
            Main::Archived { archive, inner } => {
                let archive = &self.game.archives[*archive];
                match archive.read(inner) {
                    Some(read) => read.map_err(std::io::Error::other),
                    None => Err(std::io::Error::new(
                        std::io::ErrorKind::NotFound,
                        format!("{} holds no {inner}", archive.path().display()),
                    )),
                }
            }
        }
    }

    fn beside(&self, name: &str) -> Option<Found> {
        match &self.main {
            Main::Loose(path) => {
                let loose = companion_path(path.parent().unwrap_or(Path::new("")), name);
                if let Some(bytes) = loose.as_ref().and_then(|p| std::fs::read(p).ok()) {
                    return Some(Found { bytes, origin: loose.unwrap_or_default() });
                }
                self.in_archives(&self.relative(name)?)
            }
            Main::Archived { .. } => self.in_game(&self.relative(name)?),
        }
    }

    fn in_game(&self, relative: &str) -> Option<Found> {
        self.game.find(&relative.replace('\\', "/"), &mut Vec::new()).ok().flatten()
    }

    fn beside_place(&self, name: &str) -> String {
        match (&self.main, self.relative(name)) {
            (Main::Loose(path), _) => path.parent().unwrap_or(Path::new("")).join(name).display().to_string(),
            (Main::Archived { .. }, Some(relative)) => self.game_place(&relative),
            (Main::Archived { .. }, None) => name.to_owned(),
        }
    }

    fn game_place(&self, relative: &str) -> String {
        let archives = self.game.archives.len();
        match self.game.roots.first() {
            Some(root) if archives > 0 => {
                format!("{}, then the game's {archives} archive(s)", place_below(root, relative).display())
            }
            Some(root) => place_below(root, relative).display().to_string(),
            None => format!("{relative} (no models folder above {})", self.path.display()),
        }
    }
}
