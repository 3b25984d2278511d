//! The game installs a model's files are searched in (studio-games): the game a model's path is
//! in (the nearest folder above it with a `gameinfo.txt` or `liblist.gam`) gives its search path,
//! in its engine's order; a model outside any game keeps the folder rule (the folder above its
//! `models/`, with its archives). Game folders the user adds (`--game DIR`, the viewer's added
//! folders) come after, each with its own search path when it is a game's.
//!
//! Steam is found once a process, when a search path first needs an app's install folder
//! (`|appid_N|`, a `mount` block) or the Games list is asked for: from the places Steam uses
//! (studio-games' [`Locations`]) and the folders `--steam DIR` or the settings name.
//!
//! Inside [`shared`] (opening one model: its files, then its materials) a game's places are
//! opened once: a 50,000-file archive is read once, not twice. Nothing is kept past it, so no
//! archive stays open behind the user's back and a file changed between two opens is seen.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use studio_archive::GameFolders;
use studio_games::{Installs, Locations, Preferences, SearchList};

/// What the user chose: Steam folders to read besides the ones found, game folders to search
/// after a model's own, and the game settings search paths depend on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Context {
    /// Steam folders named by the user (`--steam DIR`, the settings).
    pub steam: Vec<PathBuf>,
    /// Game folders searched after a model's own (`--game DIR`).
    pub games: Vec<PathBuf>,
    /// Language, low violence, HD models, addon content.
    pub preferences: Preferences,
}

static CONTEXT: RwLock<Option<Context>> = RwLock::new(None);
static FOUND: Mutex<Option<Arc<Installs>>> = Mutex::new(None);
thread_local! {
    /// The searches opened inside [`shared`] on this thread.
    static SHARED: std::cell::RefCell<Option<Vec<(SearchKey, Search)>>> = const { std::cell::RefCell::new(None) };
}

/// What a search depends on: the model's game, the folder above its `models/`, whether it is
/// archived, and the folders added.
type SearchKey = (Option<PathBuf>, Option<PathBuf>, bool, Vec<PathBuf>);

/// Runs `f` (opening one model) with each game's places opened once for all its searches.
pub fn shared<T>(f: impl FnOnce() -> T) -> T {
    let outer = SHARED.with(|s| s.borrow().is_some());
    if outer {
        return f();
    }
    SHARED.with(|s| *s.borrow_mut() = Some(Vec::new()));
    // Cleared however `f` ends.
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            SHARED.with(|s| *s.borrow_mut() = None);
        }
    }
    let _clear = Clear;
    f()
}

/// Sets what the user chose; Steam is looked for again when next needed.
pub fn configure(context: Context) {
    let mut current = CONTEXT.write().unwrap_or_else(PoisonError::into_inner);
    if current.as_ref() != Some(&context) {
        *current = Some(context);
        *FOUND.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// What the user chose.
pub fn context() -> Context {
    CONTEXT.read().unwrap_or_else(PoisonError::into_inner).clone().unwrap_or_default()
}

/// The Steam folders, libraries and games of this machine, found on first use.
pub fn installs() -> Arc<Installs> {
    let mut found = FOUND.lock().unwrap_or_else(PoisonError::into_inner);
    Arc::clone(
        found.get_or_insert_with(|| {
            Arc::new(Installs::discover(&Locations::of_this_machine(), &context().steam))
        }),
    )
}

/// The places searched for a model's files, and what a viewer says about them.
#[derive(Clone, Debug, Default)]
pub struct Search {
    /// The folders and archives, opened, in order.
    pub folders: GameFolders,
    /// The game folder whose search path leads, if the model is in a game.
    pub game: Option<PathBuf>,
    /// Its search path as read (places not there, lines not followed).
    pub list: SearchList,
    /// Why a game's search path could not be read (the folder rule was used instead).
    pub problems: Vec<String>,
}

/// The places of game folder `folder` (a game's search path, or the folder rule), then appended
/// to `search`.
fn add_game(search: &mut Search, folder: &Path, model_root: Option<&Path>) {
    let preferences = context().preferences;
    let folders = if studio_games::is_game_folder(folder) {
        match installs().search_path(folder, &preferences) {
            Ok(list) => {
                let folders = GameFolders::search(&list.entries);
                if search.game.is_none() {
                    search.game = Some(folder.to_owned());
                    search.list = list;
                }
                Some(folders)
            }
            Err(problem) => {
                search.problems.push(format!("{problem}: its folder is searched alone"));
                None
            }
        }
    } else {
        None
    };
    let folders = folders.unwrap_or_else(|| GameFolders::open(&[model_root.unwrap_or(folder).to_owned()]));
    search.folders = std::mem::take(&mut search.folders).then(folders);
}

/// The places searched for the files of the model at `path` (on disk, or `archive:inner`): its
/// game's search path (or the folder rule), then `extra` and the user's `--game` folders.
/// Inside [`shared`], opened once for all its searches.
pub fn search(path: &Path, extra: &[PathBuf]) -> Search {
    let key: SearchKey = (
        studio_games::game_of(path),
        crate::model_files::game_root(path),
        crate::model_files::is_archived(path),
        extra.to_vec(),
    );
    let found = SHARED.with(|s| {
        s.borrow().as_ref().and_then(|opened| opened.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone()))
    });
    if let Some(search) = found {
        return search;
    }
    let search = open_search(&key);
    SHARED.with(|s| {
        if let Some(opened) = s.borrow_mut().as_mut() {
            opened.push((key, search.clone()));
        }
    });
    search
}

/// [`search`], opened now, for what `key` says of the model.
fn open_search(key: &SearchKey) -> Search {
    let (game, root, archived, extra) = key;
    let mut search = Search::default();
    match game {
        Some(game) => {
            add_game(&mut search, game, root.as_deref());
            // The model's own folder, when its game's search path leaves it out (a model in a
            // folder no entry mounts).
            if let Some(root) = root
                && !search.folders.roots.iter().any(|r| same_folder(r, root))
                && !*archived
            {
                search.folders =
                    std::mem::take(&mut search.folders).then(GameFolders::open(std::slice::from_ref(root)));
            }
        }
        None => {
            search.folders = GameFolders::open(root.as_slice());
        }
    }
    for folder in extra.iter().chain(&context().games) {
        add_game(&mut search, folder, None);
    }
    search
}

/// The places of the game in `folder`: its search path, or the folder rule when it is not a
/// game's (or its file cannot be read, said in `problems`).
pub fn search_game(folder: &Path) -> Search {
    let mut search = Search::default();
    add_game(&mut search, folder, None);
    search
}

/// Whether two paths name one folder.
fn same_folder(a: &Path, b: &Path) -> bool {
    a == b || std::fs::canonicalize(a).ok().zip(std::fs::canonicalize(b).ok()).is_some_and(|(a, b)| a == b)
}

/// The command line's choices of Steam folders and game settings (every command takes them).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct InstallArgs {
    /// A Steam folder to read besides those found (repeatable).
    #[arg(long, global = true, value_name = "DIR")]
    pub steam: Vec<PathBuf>,
    /// The games' language, for their `_<language>` paths.
    #[arg(long, global = true, default_value = "english")]
    pub language: String,
    /// Search paths as a low-violence build mounts them (`game_lv`).
    #[arg(long, global = true)]
    pub low_violence: bool,
    /// Leave out HD content (Half-Life's `_hd` folders, Source's `game_hd`).
    #[arg(long, global = true)]
    pub no_hd_models: bool,
    /// Search Half-Life's `_addon` folders (custom addon content).
    #[arg(long, global = true)]
    pub addon_content: bool,
}

impl InstallArgs {
    /// The context these choices and the `--game` folders `games` give.
    pub fn context(&self, games: &[PathBuf]) -> Context {
        Context {
            steam: self.steam.clone(),
            games: games.to_vec(),
            preferences: Preferences {
                language: self.language.trim().to_ascii_lowercase(),
                low_violence: self.low_violence,
                hd_models: !self.no_hd_models,
                addon_content: self.addon_content,
            },
        }
    }
}
