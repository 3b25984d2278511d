//! The model browser's state, apart from its window: the game folders it shows (the open
//! model's own, then the ones added, remembered in the settings), their models indexed on a
//! thread of their own ([`crate::catalog::index`], sequence names included), the search, the
//! filter by game folder or archive, the folder picked in the tree, and the model to reveal.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};

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
}

impl Browser {
    /// Shows `roots` (indexing them again on a thread when they changed); `wake` is called when
    /// the index is made.
    pub fn show_roots(&mut self, roots: Vec<PathBuf>, wake: impl Fn() + Send + 'static) {
        if roots == self.roots && (self.index.is_some() || self.indexing.is_some()) {
            return;
        }
        self.roots = roots.clone();
        self.index = None;
        let (send, receive) = channel();
        self.indexing = Some(receive);
        std::thread::Builder::new()
            .name("model index".into())
            .spawn(move || {
                let _ = send.send(make_index(&roots));
                wake();
            })
            .ok();
    }

    /// Indexes the game folders again (a refresh).
    pub fn refresh(&mut self, wake: impl Fn() + Send + 'static) {
        let roots = std::mem::take(&mut self.roots);
        self.index = None;
        self.indexing = None;
        self.show_roots(roots, wake);
    }

    /// Takes the index when the thread has made it; whether it is still being made.
    pub fn poll(&mut self) -> bool {
        if let Some(receive) = &self.indexing {
            match receive.try_recv() {
                Ok(index) => {
                    self.index = Some(index);
                    self.indexing = None;
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => return true,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.indexing = None,
            }
        }
        false
    }

    /// Waits for the index (tests).
    pub fn wait(&mut self) {
        if let Some(receive) = self.indexing.take()
            && let Ok(index) = receive.recv()
        {
            self.index = Some(index);
        }
    }

    /// The models shown: those matching the search (lower case) in the filter, or, without a
    /// search, those of the folder picked (every model when none is).
    pub fn shown(&self) -> Vec<usize> {
        let Some(index) = &self.index else { return Vec::new() };
        let search = self.search.trim().to_ascii_lowercase();
        let in_filter = |i: &usize| {
            let entry = &index.entries[*i];
            match &self.filter {
                Filter::All => true,
                Filter::Loose(root) => {
                    entry.archive.is_none() && self.roots.get(index.roots[*i]) == Some(root)
                }
                Filter::Archive(archive) => entry.archive.as_ref() == Some(archive),
            }
        };
        if !search.is_empty() {
            return (0..index.entries.len())
                .filter(in_filter)
                .filter(|&i| index.entries[i].matches(&search))
                .collect();
        }
        match self.folder.as_ref().and_then(|f| index.folders.get(f)) {
            Some(models) => models.iter().copied().filter(in_filter).collect(),
            None => (0..index.entries.len()).filter(in_filter).collect(),
        }
    }

    /// The filters the index offers: each game folder's loose models, each archive.
    pub fn filters(&self) -> Vec<(Filter, String)> {
        let mut out = vec![(Filter::All, "All game folders and archives".to_owned())];
        let Some(index) = &self.index else { return out };
        for root in &self.roots {
            out.push((Filter::Loose(root.clone()), format!("{} (loose files)", root.display())));
        }
        let mut archives: Vec<&PathBuf> = index.entries.iter().filter_map(|e| e.archive.as_ref()).collect();
        archives.dedup();
        for archive in archives {
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
    match crate::model_files::game_root(path)
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
    let mut out = Index::default();
    for (r, root) in roots.iter().enumerate() {
        let (entries, broken) = index(root, true);
        out.broken.extend(broken);
        out.roots.extend(std::iter::repeat_n(r, entries.len()));
        out.entries.extend(entries);
    }
    for (i, entry) in out.entries.iter().enumerate() {
        out.folders.entry(folder_of(&entry.relative).unwrap_or_default()).or_default().push(i);
    }
    out
}
