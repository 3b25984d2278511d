//! The model browser's state, apart from its window: the game folders it shows (the open
//! model's own, then the ones added, remembered in the settings), their models indexed on a
//! thread of their own ([`crate::catalog::index`], sequence names included), the search, the
//! filter by game folder or archive, the folder picked in the tree, and the model to reveal.
//! Or, with a game picked from the Games list (the games of this machine, found on a thread), the
//! models of every place of that game's search path, in its order, each marked when an earlier
//! place holds a model of the same path (the one the game loads).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, channel};

use studio_games::Installs;

use crate::catalog::{Entry, index};

/// Which models the browser shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Filter {
    /// Every model of every game folder.
    #[default]
    All,
    /// The loose models of a game folder.
    Loose(PathBuf),
    /// The models of one archive.
    Archive(PathBuf),
}

/// The index of the game folders, when made.
#[derive(Debug, Default)]
pub struct Index {
    /// Every model, by game folder then path.
    pub entries: Vec<Entry>,
    /// Archives that could not be read, with why.
    pub broken: Vec<String>,
    /// Each folder (`models/props`, from the game folder) and its models, as indices into
    /// `entries`.
    pub folders: BTreeMap<String, Vec<usize>>,
    /// The game folder of each entry.
    pub roots: Vec<usize>,
    /// Each entry's path, sequence labels and activities, in lower case, one line each: what
    /// the search looks in.
    haystacks: Vec<String>,
    /// The archives, in the entries' order.
    pub archives: Vec<PathBuf>,
    /// The folders indexed (their loose models), as `roots` numbers them.
    pub root_paths: Vec<PathBuf>,
    /// The game whose search path was indexed, if one was.
    pub game: Option<PathBuf>,
    /// Why the game's search path could not be read, if it could not.
    pub problems: Vec<String>,
}

/// The browser.
#[derive(Debug, Default)]
pub struct Browser {
    /// Whether its window shows.
    pub open: bool,
    /// The search over paths, sequence names and activities.
    pub search: String,
    /// Which models it shows.
    pub filter: Filter,
    /// The folder picked in the tree (`models/props`), when not searching.
    pub folder: Option<String>,
    /// A model to scroll to and highlight (Show in browser), until shown.
    pub reveal: Option<PathBuf>,
    /// The game folders indexed, or being indexed.
    pub roots: Vec<PathBuf>,
    /// The index, once made.
    pub index: Option<Index>,
    /// The index being made.
    indexing: Option<Receiver<Index>>,
    /// The game picked in the Games list: its search path is browsed instead of the folders.
    pub game: Option<PathBuf>,
    /// The game whose search path is indexed, or being indexed.
    indexed_game: Option<PathBuf>,
    /// The games of this machine, once found.
    pub installs: Option<Arc<Installs>>,
    /// The games being found.
    discovering: Option<Receiver<Arc<Installs>>>,
    /// The models shown, and the search, filter and folder they were found for (made again
    /// only when one of them, or the index, changes: not every frame).
    shown: Option<(ShownFor, Vec<usize>)>,
}

/// What [`Browser::shown`] depends on.
#[derive(Clone, Debug, PartialEq)]
struct ShownFor {
    search: String,
    filter: Filter,
    folder: Option<String>,
}

impl Browser {
    /// Shows `roots` (indexing them again on a thread when they changed); `wake` is called when
    /// the index is made.
    pub fn show_roots(&mut self, roots: Vec<PathBuf>, wake: impl Fn() + Send + 'static) {
        if roots == self.roots && (self.index.is_some() || self.indexing.is_some()) {
            return;
        }
        if roots == self.roots
            && self.indexed_game.is_none()
            && (self.index.is_some() || self.indexing.is_some())
        {
            return;
        }
        self.roots = roots.clone();
        self.indexed_game = None;
        self.start(move || make_index(&roots), wake);
    }

    /// Shows the models of the search path of the game in `game`.
    pub fn show_game(&mut self, game: PathBuf, wake: impl Fn() + Send + 'static) {
        if self.indexed_game.as_ref() == Some(&game) && (self.index.is_some() || self.indexing.is_some()) {
            return;
        }
        self.indexed_game = Some(game.clone());
        self.start(move || make_game_index(&game), wake);
    }

    /// Makes the index with `make` on a thread of its own.
    fn start(&mut self, make: impl FnOnce() -> Index + Send + 'static, wake: impl Fn() + Send + 'static) {
        self.index = None;
        self.shown = None;
        let (send, receive) = channel();
        self.indexing = Some(receive);
        std::thread::Builder::new()
            .name("model index".into())
            .spawn(move || {
                let _ = send.send(make());
                wake();
            })
            .ok();
    }

    /// Starts finding the games of this machine on a thread, once; `wake` is called when found.
    pub fn discover(&mut self, wake: impl Fn() + Send + 'static) {
        if self.installs.is_some() || self.discovering.is_some() {
            return;
        }
        let (send, receive) = channel();
        self.discovering = Some(receive);
        std::thread::Builder::new()
            .name("game discovery".into())
            .spawn(move || {
                let _ = send.send(studio_document::installs::installs());
                wake();
            })
            .ok();
    }

    /// Takes the games when found; whether they are still being found.
    pub fn poll_games(&mut self) -> bool {
        if let Some(receive) = &self.discovering {
            match receive.try_recv() {
                Ok(installs) => {
                    self.installs = Some(installs);
                    self.discovering = None;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => return true,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.discovering = None,
            }
        }
        false
    }

    /// Forgets the games found (after the Steam folders or settings changed): they are found
    /// again when next shown, and a game's search path is indexed again.
    pub fn forget_games(&mut self) {
        self.installs = None;
        self.discovering = None;
        if self.indexed_game.take().is_some() {
            self.index = None;
            self.indexing = None;
        }
    }

    /// Indexes the game folders again (a refresh).
    pub fn refresh(&mut self, wake: impl Fn() + Send + 'static) {
        self.index = None;
        self.indexing = None;
        match self.indexed_game.take() {
            Some(game) => self.show_game(game, wake),
            None => {
                let roots = std::mem::take(&mut self.roots);
                self.show_roots(roots, wake);
            }
        }
    }

    /// Takes the index when the thread has made it; whether it is still being made.
    pub fn poll(&mut self) -> bool {
        if let Some(receive) = &self.indexing {
            match receive.try_recv() {
                Ok(index) => {
                    self.index = Some(index);
                    self.indexing = None;
                    self.shown = None;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => return true,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.indexing = None,
            }
        }
        false
    }

    /// The models shown: those matching the search (any case) in the filter, or, without a
    /// search, those of the folder picked (every model when none is), as indices into the
    /// index's entries.
    pub fn shown(&mut self) -> &[usize] {
        self.find_shown();
        self.shown_found()
    }

    /// Finds the models shown again if the search, filter, folder or index changed since.
    pub fn find_shown(&mut self) {
        let wanted = ShownFor {
            search: self.search.trim().to_ascii_lowercase(),
            filter: self.filter.clone(),
            folder: self.folder.clone(),
        };
        if self.shown.as_ref().is_none_or(|(found_for, _)| *found_for != wanted) {
            let found = self.find(&wanted);
            self.shown = Some((wanted, found));
        }
    }

    /// The models shown as last found ([`Self::find_shown`]).
    pub fn shown_found(&self) -> &[usize] {
        self.shown.as_ref().map_or(&[], |(_, found)| found.as_slice())
    }

    fn find(&self, wanted: &ShownFor) -> Vec<usize> {
        let Some(index) = &self.index else { return Vec::new() };
        let in_filter = |i: &usize| {
            let entry = &index.entries[*i];
            match &wanted.filter {
                Filter::All => true,
                Filter::Loose(root) => {
                    entry.archive.is_none() && index.root_paths.get(index.roots[*i]) == Some(root)
                }
                Filter::Archive(archive) => entry.archive.as_ref() == Some(archive),
            }
        };
        if !wanted.search.is_empty() {
            return (0..index.entries.len())
                .filter(in_filter)
                .filter(|&i| index.haystacks[i].contains(&wanted.search))
                .collect();
        }
        match wanted.folder.as_ref().and_then(|f| index.folders.get(f)) {
            Some(models) => models.iter().copied().filter(in_filter).collect(),
            None => (0..index.entries.len()).filter(in_filter).collect(),
        }
    }

    /// The filters the index offers: each game folder's loose models, each archive.
    pub fn filters(&self) -> Vec<(Filter, String)> {
        let mut out = vec![(Filter::All, "All game folders and archives".to_owned())];
        let Some(index) = &self.index else { return out };
        for root in &index.root_paths {
            out.push((Filter::Loose(root.clone()), format!("{} (loose files)", root.display())));
        }
        for archive in &index.archives {
            out.push((Filter::Archive(archive.clone()), archive.display().to_string()));
        }
        out
    }

    /// Opens the browser on `path`'s folder, to scroll to it and highlight it.
    pub fn reveal(&mut self, path: &Path) {
        self.open = true;
        self.search.clear();
        self.filter = Filter::All;
        self.folder = folder_of(&relative_in_game(path));
        self.reveal = Some(path.to_path_buf());
    }
}

/// `path` below its game folder, with `/`: `models/props/crate.mdl`.
pub fn relative_in_game(path: &Path) -> String {
    if let Some(archived) = studio_archive::ArchivePath::parse(path) {
        return archived.inner;
    }
    match studio_document::model_files::game_root(path)
        .and_then(|root| path.strip_prefix(&root).ok().map(Path::to_path_buf))
    {
        Some(relative) => relative
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
        None => path.display().to_string(),
    }
}

/// The folder of a relative path (`models/props` of `models/props/crate.mdl`).
pub fn folder_of(relative: &str) -> Option<String> {
    relative.rsplit_once('/').map(|(dir, _)| dir.to_owned())
}

/// Indexes every game folder, with sequence names.
fn make_index(roots: &[PathBuf]) -> Index {
    let mut out = Index { root_paths: roots.to_vec(), ..Index::default() };
    for (r, root) in roots.iter().enumerate() {
        let (entries, broken) = index(root, true);
        out.broken.extend(broken);
        out.roots.extend(std::iter::repeat_n(r, entries.len()));
        out.entries.extend(entries);
    }
    finish(out)
}

/// Indexes every place of the search path of the game in `game`, in its order.
fn make_game_index(game: &Path) -> Index {
    let search = studio_document::installs::search_game(game);
    let games = &search.folders;
    let mut out = Index {
        root_paths: games.roots.clone(),
        game: Some(game.to_owned()),
        broken: games.broken_archives.clone(),
        problems: search.problems.clone(),
        ..Index::default()
    };
    out.entries = crate::catalog::game_entries(games, true);
    // A loose entry's folder: the place whose folder holds it.
    out.roots = out
        .entries
        .iter()
        .map(|e| match &e.archive {
            Some(_) => 0,
            // The innermost folder holding it (`custom/x` rather than the game folder above).
            None => (0..games.roots.len())
                .filter(|&r| e.path.starts_with(&games.roots[r]))
                .max_by_key(|&r| games.roots[r].components().count())
                .unwrap_or(0),
        })
        .collect();
    finish(out)
}

/// The folders, haystacks and archives of an index's entries.
fn finish(mut out: Index) -> Index {
    for (i, entry) in out.entries.iter().enumerate() {
        out.folders.entry(folder_of(&entry.relative).unwrap_or_default()).or_default().push(i);
        out.haystacks.push(entry.haystack());
        if let Some(archive) = &entry.archive
            && out.archives.last() != Some(archive)
        {
            out.archives.push(archive.clone());
        }
    }
    out
}
