//! Watching the open model's files on disk, so that a recompile or another tool's save reloads
//! it: the folders holding the model and its companions are watched (a compiler often writes a
//! new file rather than into the old one, which a watch on the file itself would lose), and
//! each file's size and time are compared with what was loaded or saved, so that the viewer's
//! own saves and a file touched without a change reload nothing.
//!
//! Events come through `notify` (inotify, ReadDirectoryChangesW, FSEvents) and its small
//! debouncer, which reports a file once it has been quiet for [`QUIET`]: a compiler that
//! writes a file in several steps is reloaded once, after its last. Where the system's watcher
//! cannot start (some network and container file systems), the folders are polled instead.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use notify_debouncer_mini::notify::{self, RecursiveMode};
use notify_debouncer_mini::{DebounceEventResult, Debouncer, new_debouncer, new_debouncer_opt};

/// How long a file must be left alone before it counts as written.
pub const QUIET: Duration = Duration::from_millis(300);

/// How often folders are polled where the system's watcher cannot start.
const POLL_INTERVAL: Duration = Duration::from_secs(1);

/// What tells the window to draw a frame (where the watch is looked at) when a file changed.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

/// A file's size and time of last change, to tell a changed file from a touched one.
type Stamp = Option<(u64, SystemTime)>;

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// The running watcher: the system's, or a poller.
enum Running {
    System(Debouncer<notify::RecommendedWatcher>),
    Polling(Debouncer<notify::PollWatcher>),
}

impl Running {
    fn watch(&mut self, folder: &Path) -> notify::Result<()> {
        match self {
            Self::System(d) => d.watcher().watch(folder, RecursiveMode::NonRecursive),
            Self::Polling(d) => d.watcher().watch(folder, RecursiveMode::NonRecursive),
        }
    }
}

/// The open model's files, watched.
#[derive(Default)]
pub struct Watch {
    running: Option<Running>,
    events: Option<Receiver<DebounceEventResult>>,
    /// The files, and their stamps as loaded or saved.
    files: Vec<(PathBuf, Stamp)>,
    /// Their names, as events name them.
    names: Vec<OsString>,
    waker: Arc<Mutex<Option<Waker>>>,
    /// Why watching failed, once said.
    pub problem: Option<String>,
}

impl Watch {
    /// Has `waker` called whenever a watched file changes.
    pub fn set_waker(&mut self, waker: Waker) {
        if let Ok(mut slot) = self.waker.lock() {
            *slot = Some(waker);
        }
    }

    /// Whether files are being watched.
    pub fn is_watching(&self) -> bool {
        self.running.is_some()
    }

    /// The files watched.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(|(p, _)| p.as_path())
    }

    /// Stops watching.
    pub fn stop(&mut self) {
        self.running = None;
        self.events = None;
        self.files.clear();
        self.names.clear();
    }

    /// Watches `files` (those that exist as files on disk) instead of what was watched, taking
    /// their stamps as they are now. An error says why nothing is watched.
    pub fn watch(&mut self, files: &[PathBuf]) -> Result<(), String> {
        self.stop();
        let files: Vec<PathBuf> = files.iter().filter(|f| f.is_file()).cloned().collect();
        if files.is_empty() {
            return Ok(());
        }
        let (sender, receiver) = channel();
        let waker = Arc::clone(&self.waker);
        let handler = move |result: DebounceEventResult| {
            let _ = sender.send(result);
            if let Some(wake) = waker.lock().ok().and_then(|w| w.clone()) {
                wake();
            }
        };
        let mut running = match new_debouncer(QUIET, handler.clone()) {
            Ok(debouncer) => Running::System(debouncer),
            Err(_) => {
                let config = notify_debouncer_mini::Config::default()
                    .with_timeout(QUIET)
                    .with_notify_config(notify::Config::default().with_poll_interval(POLL_INTERVAL));
                Running::Polling(new_debouncer_opt(config, handler).map_err(|e| e.to_string())?)
            }
        };
        let mut folders: Vec<PathBuf> = Vec::new();
        for file in &files {
            let folder = match file.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            if !folders.contains(&folder) {
                running.watch(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
                folders.push(folder);
            }
        }
        self.names = files.iter().filter_map(|f| f.file_name().map(|n| n.to_os_string())).collect();
        self.files = files
            .into_iter()
            .map(|f| {
                let then = stamp(&f);
                (f, then)
            })
            .collect();
        self.running = Some(running);
        self.events = Some(receiver);
        Ok(())
    }

    /// Takes the watched files' stamps as they are now (after the viewer saved them).
    pub fn restamp(&mut self) {
        for (path, stamp_then) in &mut self.files {
            *stamp_then = stamp(path);
        }
    }

    /// Whether one of the watched files changed since it was loaded or saved: an event named it
    /// and its size or time differ. Drains the events.
    pub fn changed(&mut self) -> bool {
        let Some(events) = &self.events else { return false };
        let mut named = false;
        while let Ok(result) = events.try_recv() {
            match result {
                Ok(events) => {
                    named |=
                        events.iter().any(|e| e.path.file_name().is_some_and(|n| self.is_watched_name(n)))
                }
                Err(error) => self.problem = Some(error.to_string()),
            }
        }
        named && self.files.iter().any(|(path, then)| stamp(path) != *then)
    }

    /// Whether `name` is one of the watched files' (without regard to case where the file
    /// system ignores it).
    fn is_watched_name(&self, name: &std::ffi::OsStr) -> bool {
        self.names.iter().any(|n| {
            if cfg!(any(windows, target_os = "macos")) {
                n.to_string_lossy().eq_ignore_ascii_case(&name.to_string_lossy())
            } else {
                n == name
            }
        })
    }
}
