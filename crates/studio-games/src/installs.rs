//! The games on this machine: every Source game (a folder with `gameinfo.txt`) and Half-Life mod
//! (a folder with `liblist.gam`) in the install folders of the apps of every Steam library, and
//! in Steam's `steamapps/sourcemods`; and the game a model's path is in.

use std::path::{Path, PathBuf};

use studio_archive::{ArchivePath, GameFolders};
use studio_bytes::files::resolve;

use crate::gameinfo::{self, GameInfo};
use crate::liblist::{self, Liblist};
use crate::preferences::Preferences;
use crate::search_path::{self, SearchList};
use crate::steam::{Locations, Steam, read_bounded};

/// Most folders a model's path is walked up looking for its game.
const MAX_CLIMB: usize = 24;
/// Most game folders looked at in one app's install folder.
const MAX_GAME_FOLDERS: usize = 512;
/// Largest `gameinfo.txt` read.
const MAX_GAMEINFO: u64 = 1 << 20;

/// Which engine a game runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Source (`gameinfo.txt`).
    Source,
    /// GoldSrc, Half-Life's engine (`liblist.gam`).
    GoldSrc,
}

impl Engine {
    /// `source` or `goldsrc`.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Source => "source",
            Engine::GoldSrc => "goldsrc",
        }
    }
}

/// A game found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Its name from `gameinfo.txt` or `liblist.gam` (the folder's name when it gives none).
    pub name: String,
    /// Its engine.
    pub engine: Engine,
    /// The Steam app installed in the folder above it, where known.
    pub app_id: Option<u32>,
    /// The game folder (holding `gameinfo.txt` or `liblist.gam`).
    pub folder: PathBuf,
    /// The Steam library it is in.
    pub library: Option<PathBuf>,
}

/// The Steam folders, libraries and games found on this machine.
#[derive(Clone, Debug, Default)]
pub struct Installs {
    /// Each Steam folder found, with its libraries and apps.
    pub steam: Vec<Steam>,
    /// The games, by library, then app, then folder name.
    pub games: Vec<Game>,
    /// What could not be read, each naming the file and where.
    pub problems: Vec<String>,
}

/// What a game folder's own file says: its engine and name, or why it cannot be read.
pub fn read_game(folder: &Path) -> Option<Result<(Engine, GameDescription), String>> {
    if let Some(file) = resolve(folder, "gameinfo.txt").filter(|p| p.is_file()) {
        return Some(
            read_bounded(&file, MAX_GAMEINFO)
                .and_then(|b| gameinfo::parse(&b, &file))
                .map(|info| (Engine::Source, GameDescription::Source(info))),
        );
    }
    let file = resolve(folder, "liblist.gam").filter(|p| p.is_file())?;
    Some(
        read_bounded(&file, MAX_GAMEINFO)
            .and_then(|b| liblist::parse(&b, &file))
            .map(|l| (Engine::GoldSrc, GameDescription::GoldSrc(l))),
    )
}

/// A game's own file, read.
#[derive(Clone, Debug, PartialEq)]
pub enum GameDescription {
    /// `gameinfo.txt`.
    Source(GameInfo),
    /// `liblist.gam`.
    GoldSrc(Liblist),
}

impl GameDescription {
    /// The name it gives.
    pub fn name(&self) -> &str {
        match self {
            GameDescription::Source(info) => &info.name,
            GameDescription::GoldSrc(liblist) => &liblist.name,
        }
    }
}

/// The spellings of a game's file looked for when walking up from a model: Valve ships them in
/// lower case, and `GameInfo.txt` is the other spelling seen. (Listing every folder above a
/// model to match any case would cost milliseconds a model in a large folder such as `/tmp`.)
const GAME_FILES: [&str; 4] = ["gameinfo.txt", "GameInfo.txt", "liblist.gam", "LIBLIST.GAM"];

/// Whether `folder` is a game folder (holds `gameinfo.txt` or `liblist.gam`).
pub fn is_game_folder(folder: &Path) -> bool {
    GAME_FILES.iter().any(|f| folder.join(f).is_file())
}

/// The game folder the model at `path` (on disk, or `archive:inner`) is in: the nearest folder
/// above it that is a game folder.
pub fn game_of(path: &Path) -> Option<PathBuf> {
    let start = match ArchivePath::parse(path) {
        Some(archived) => archived.game(),
        None => path.parent()?.to_path_buf(),
    };
    let start = if start.as_os_str().is_empty() { PathBuf::from(".") } else { start };
    // A relative path climbs from the working folder (a rooted one is kept as written).
    let start = if start.has_root() { start } else { std::path::absolute(&start).unwrap_or(start) };
    start.ancestors().take(MAX_CLIMB).find(|dir| is_game_folder(dir)).map(Path::to_path_buf)
}

impl Installs {
    /// Steam's folders found from `locations`, and `more` (a folder the user names) first; their
    /// libraries, apps and games.
    pub fn discover(locations: &Locations, more: &[PathBuf]) -> Self {
        let mut folders: Vec<PathBuf> = more.to_vec();
        folders.extend(locations.steam_folders());
        let mut installs = Installs::default();
        let mut seen = Vec::new();
        for folder in folders {
            let real = std::fs::canonicalize(&folder).unwrap_or_else(|_| folder.clone());
            if seen.contains(&real) {
                continue;
            }
            seen.push(real);
            if !folder.join("steamapps").is_dir() {
                installs
                    .problems
                    .push(format!("{}: no steamapps folder: not a Steam folder", folder.display()));
                continue;
            }
            let steam = Steam::read(&folder);
            installs.problems.extend(steam.problems.iter().cloned());
            installs.add_games(&steam);
            installs.steam.push(steam);
        }
        installs
    }

    /// The games of `steam`'s libraries and its `sourcemods`.
    fn add_games(&mut self, steam: &Steam) {
        for library in &steam.libraries {
            for app in &library.apps {
                for folder in subfolders(&app.folder) {
                    if self.games.iter().any(|g| g.folder == folder) {
                        continue;
                    }
                    let sharing: Vec<&crate::steam::App> =
                        library.apps.iter().filter(|a| a.folder == app.folder).collect();
                    if let Some(game) = self.game_in(&folder, Some(&library.path), &sharing) {
                        self.games.push(game);
                    }
                }
            }
        }
        for folder in subfolders(&steam.folder.join("steamapps/sourcemods")) {
            if let Some(game) = self.game_in(&folder, Some(&steam.folder), &[]) {
                self.games.push(game);
            }
        }
    }

    /// The game in `folder`, if it is one; several apps can share one install folder (Half-Life's
    /// add-ons): the one whose name is the game's, else the lowest id.
    fn game_in(
        &mut self,
        folder: &Path,
        library: Option<&Path>,
        apps: &[&crate::steam::App],
    ) -> Option<Game> {
        let (engine, name, own_id) = match read_game(folder)? {
            Ok((engine, description)) => {
                let own = match &description {
                    GameDescription::Source(info) => info.app_id,
                    GameDescription::GoldSrc(_) => None,
                };
                (engine, description.name().to_owned(), own)
            }
            Err(problem) => {
                self.problems.push(problem);
                let engine =
                    if resolve(folder, "gameinfo.txt").is_some() { Engine::Source } else { Engine::GoldSrc };
                (engine, String::new(), None)
            }
        };
        let name = if name.is_empty() { folder.file_name()?.to_string_lossy().into_owned() } else { name };
        let app_id = apps
            .iter()
            .find(|a| a.name.eq_ignore_ascii_case(&name))
            .or_else(|| apps.iter().min_by_key(|a| a.id))
            .map(|a| a.id)
            .or(own_id.filter(|_| apps.is_empty()));
        Some(Game {
            name,
            engine,
            app_id,
            folder: folder.to_owned(),
            library: library.map(Path::to_path_buf),
        })
    }

    /// The install folder of Steam app `id`.
    pub fn app_folder(&self, id: u32) -> Option<PathBuf> {
        self.steam.iter().find_map(|s| s.app_folder(id)).map(Path::to_path_buf)
    }

    /// The search path of the game in `folder`, as its engine builds it; an error when its
    /// `gameinfo.txt` or `liblist.gam` cannot be read or it has neither.
    pub fn search_path(&self, folder: &Path, preferences: &Preferences) -> Result<SearchList, String> {
        let app_folder = |id: u32| self.app_folder(id);
        match read_game(folder) {
            Some(Ok((_, GameDescription::Source(info)))) => {
                Ok(search_path::source(folder, &info, &app_folder, preferences))
            }
            Some(Ok((_, GameDescription::GoldSrc(liblist)))) => {
                Ok(search_path::goldsrc(folder, &liblist, preferences))
            }
            Some(Err(e)) => Err(e),
            None => Err(format!("{}: no gameinfo.txt or liblist.gam: not a game folder", folder.display())),
        }
    }

    /// The places to search for the files of a model in the game folder `folder`: its search
    /// path, opened. When it cannot be read, the folder alone with its archives (the rule for a
    /// folder that is not a game's), and why in the error.
    pub fn open(
        &self,
        folder: &Path,
        preferences: &Preferences,
    ) -> (GameFolders, SearchList, Option<String>) {
        match self.search_path(folder, preferences) {
            Ok(list) => (GameFolders::search(&list.entries), list, None),
            Err(e) => (GameFolders::open(&[folder.to_owned()]), SearchList::default(), Some(e)),
        }
    }
}

/// The subfolders of `folder`, by name, bounded.
fn subfolders(folder: &Path) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut out: Vec<PathBuf> =
        read.filter_map(|e| e.ok()).take(MAX_GAME_FOLDERS).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    out.sort_by_key(|p| p.to_string_lossy().to_ascii_lowercase());
    out
}
