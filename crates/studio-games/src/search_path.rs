//! A game's search path: the folders and archives its models and materials are looked up in,
//! in the engine's order.
//!
//! **Source** (`FileSystem_LoadSearchPaths`, `filesystem_init.cpp`): each `SearchPaths` line in
//! order. Only lines whose ids (split on `+`) hold `game` serve model and material lookups;
//! `game_lv` counts as `game` in a low-violence build and `game_hd` with HD content, and `mod`,
//! `mod_write`, `download` and the rest are searched by request only. A location starting
//! `|gameinfo_path|` is below the game's folder; `|all_source_engine_paths|` and a plain
//! relative path are below the base folder (the one above the game folder; for a mod in
//! `steamapps/sourcemods`, the install folder of its `SteamAppId`); `|appid_N|` below app N's
//! install folder. `..` and `.` are resolved as written; one that climbs above the root is
//! refused. A location ending `NAME.vpk` mounts `NAME_dir.vpk`. A wildcard in the last part
//! (`custom/*`) mounts each subfolder and `.vpk` there whose name does not start with `.`, in
//! case-insensitive alphabetical order, leaving out the `NAME_nnn.vpk` parts of a `NAME_dir.vpk`
//! (and, as the engine's loop does, anything else starting `NAME` sorted just before it). When
//! the language is not English, a location holding `_english` is preceded by its
//! `_<language>` twin. A place is searched once, where it first comes.
//!
//! Then the `mount` block (Source 2013 mods): each app's folders, each folder's `vpk` and `dir`
//! entries in order, after the `SearchPaths`, or before them with `head`. A mounted app's own
//! `gameinfo.txt` is not read, so mounts never chain (and a cycle of mounts cannot loop).
//!
//! **Half-Life**: for the mod, then its `fallback_dir`, then `valve`: `NAME_addon` (with addon
//! content), `NAME_hd` (with HD models), `NAME_<language>` (not English), `NAME`,
//! `NAME_downloads`; each folder's loose files, then its archives (studio-archive's
//! [`archive_paths`](studio_archive::archive_paths): `pakN.pak` from the highest).

use std::path::{Component, Path, PathBuf};

use studio_archive::SearchEntry;

use crate::gameinfo::{GameInfo, MountItem};
use crate::liblist::Liblist;
use crate::preferences::Preferences;

/// Most places one wildcard mounts.
pub const MAX_WILDCARD: usize = 1024;

/// A game's search path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchList {
    /// The places, in order.
    pub entries: Vec<SearchEntry>,
    /// Places the game names that are not there (a language's archive, say), as entries.
    pub missing: Vec<String>,
    /// Lines that could not be followed, and why.
    pub notes: Vec<String>,
}

impl SearchList {
    fn add(&mut self, path: PathBuf, archive: bool, entry: String) {
        if !self.entries.iter().any(|e| e.path == path) {
            self.entries.push(SearchEntry { path, archive, entry });
        }
    }
}

/// `path` with `.` and `..` resolved as written; `None` when `..` climbs above its root.
pub fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    let mut depth = 0usize;
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if depth == 0 {
                    return None;
                }
                out.pop();
                depth -= 1;
            }
            Component::Normal(part) => {
                out.push(part);
                depth += 1;
            }
            root => out.push(root.as_os_str()),
        }
    }
    Some(out)
}

/// Whether `name` matches `pattern` (`*` any run, `?` one character), ignoring ASCII case.
pub fn wildcard_match(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().map(|c| c.to_ascii_lowercase()).collect();
    let n: Vec<char> = name.chars().map(|c| c.to_ascii_lowercase()).collect();
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ni));
            pi += 1;
        } else if let Some((sp, sn)) = star {
            pi = sp + 1;
            ni = sn + 1;
            star = Some((sp, sn + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// The archive a location ending `.vpk` mounts: `NAME_dir.vpk`, or `NAME.vpk` itself when there
/// is no directory file (a single-file archive).
fn vpk_file(path: &Path) -> PathBuf {
    let text = path.to_string_lossy();
    let lower = text.to_ascii_lowercase();
    if lower.ends_with("_dir.vpk") {
        return path.to_owned();
    }
    let stem = &text[..text.len() - ".vpk".len()];
    let dir = PathBuf::from(format!("{stem}_dir.vpk"));
    if dir.is_file() || !path.is_file() { dir } else { path.to_owned() }
}

/// Whether `path` names a `.vpk` (any case).
fn is_vpk(path: &Path) -> bool {
    path.to_string_lossy().to_ascii_lowercase().ends_with(".vpk")
}

/// The places a wildcard location mounts, in the engine's order.
fn expand(pattern_path: &Path, notes: &mut Vec<String>, entry: &str) -> Vec<PathBuf> {
    let Some(parent) = pattern_path.parent() else { return Vec::new() };
    let pattern = pattern_path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if parent.to_string_lossy().contains(['*', '?']) {
        notes.push(format!("{entry}: a wildcard before the last part of a path is not followed"));
        return Vec::new();
    }
    let Ok(read) = std::fs::read_dir(parent) else { return Vec::new() };
    let mut found: Vec<(String, PathBuf)> = read
        .filter_map(|e| e.ok())
        .take(MAX_WILDCARD * 4)
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_owned();
            let path = e.path();
            let wanted = !name.starts_with('.')
                && wildcard_match(pattern, &name)
                && (path.is_dir() || name.to_ascii_lowercase().contains(".vpk"));
            wanted.then_some((name.to_ascii_lowercase(), path))
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    // For each NAME_dir.vpk, the entries just before it that start with NAME go.
    let mut idx = found.len();
    while idx > 1 {
        idx -= 1;
        let name = found[idx].0.clone();
        if let Some(at) = name.find("_dir.vpk") {
            let prefix = &name[..at];
            while idx > 0 && found[idx - 1].0.starts_with(prefix) {
                found.remove(idx - 1);
                idx -= 1;
            }
        }
    }
    if found.len() > MAX_WILDCARD {
        notes.push(format!("{entry}: only the first {MAX_WILDCARD} of {} places are mounted", found.len()));
        found.truncate(MAX_WILDCARD);
    }
    found.into_iter().map(|(_, p)| p).collect()
}

/// The folder a Source game's plain and `|all_source_engine_paths|` locations are below.
pub fn base_folder(game: &Path, info: &GameInfo, app_folder: &dyn Fn(u32) -> Option<PathBuf>) -> PathBuf {
    let parent = game.parent().map(Path::to_path_buf).unwrap_or_default();
    let in_sourcemods =
        parent.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case("sourcemods"));
    match info.app_id.filter(|_| in_sourcemods).and_then(app_folder) {
        Some(folder) => folder,
        None => parent,
    }
}

/// Mounts `path` (a folder, or a `.vpk` location) as `entry`, with its language twin first.
fn mount(list: &mut SearchList, path: PathBuf, entry: String, preferences: &Preferences) {
    let mut paths = Vec::new();
    if let Some(language) = preferences.other_language() {
        let text = path.to_string_lossy();
        if text.contains("_english") {
            paths.push(PathBuf::from(text.replace("_english", &format!("_{language}"))));
        }
    }
    paths.push(path);
    for path in paths {
        if is_vpk(&path) {
            let file = vpk_file(&path);
            if file.is_file() {
                list.add(file, true, entry.clone());
            } else {
                list.missing.push(format!("{entry} ({})", file.display()));
            }
        } else if path.is_dir() {
            list.add(path, false, entry.clone());
        } else {
            list.missing.push(format!("{entry} ({})", path.display()));
        }
    }
}

/// The search path of the Source game whose `gameinfo.txt` (read as `info`) is in `game`;
/// `app_folder` gives a Steam app's install folder.
pub fn source(
    game: &Path,
    info: &GameInfo,
    app_folder: &dyn Fn(u32) -> Option<PathBuf>,
    preferences: &Preferences,
) -> SearchList {
    let base = base_folder(game, info, app_folder);
    let mut list = SearchList::default();
    let mut head = SearchList::default();
    for mount_app in info.mounts.iter().filter(|m| m.head) {
        mount_block(&mut head, mount_app, app_folder, preferences);
    }
    for line in &info.search_paths {
        let serves = line.id_list().any(|id| {
            id == "game"
                || (id == "game_lv" && preferences.low_violence)
                || (id == "game_hd" && preferences.hd_models)
        });
        if !serves {
            continue;
        }
        let entry = format!("{}  {}", line.ids, line.location);
        let location = line.location.as_str();
        let lower = location.to_ascii_lowercase();
        let (below, rest) = if let Some(rest) = lower.strip_prefix("|appid_") {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let Some(after) = rest[digits.len()..].strip_prefix('|').filter(|_| !digits.is_empty()) else {
                list.notes.push(format!("{entry}: a malformed |appid_N| token"));
                continue;
            };
            let Some(folder) = digits.parse::<u32>().ok().filter(|&id| id != 0).and_then(app_folder) else {
                list.notes.push(format!("{entry}: app {digits} is not installed in any Steam library found"));
                continue;
            };
            (folder, &location[location.len() - after.len()..])
        } else if lower.starts_with("|gameinfo_path|") {
            (game.to_owned(), &location["|gameinfo_path|".len()..])
        } else if lower.starts_with("|all_source_engine_paths|") {
            (base.clone(), &location["|all_source_engine_paths|".len()..])
        } else {
            (base.clone(), location)
        };
        let joined = below.join(rest.replace('\\', "/"));
        let Some(path) = normalize(&joined) else {
            list.notes.push(format!("{entry}: {} climbs above its root", joined.display()));
            continue;
        };
        if rest.contains(['*', '?']) {
            for found in expand(&path, &mut list.notes, &entry) {
                let name = found.file_name().and_then(|n| n.to_str()).unwrap_or("").to_owned();
                mount(&mut list, found, format!("{entry} ({name})"), preferences);
            }
        } else {
            mount(&mut list, path, entry, preferences);
        }
    }
    for mount_app in info.mounts.iter().filter(|m| !m.head) {
        mount_block(&mut list, mount_app, app_folder, preferences);
    }
    // Head mounts first; each place once, where it first comes.
    for entry in list.entries {
        head.add(entry.path, entry.archive, entry.entry);
    }
    head.missing.extend(list.missing);
    head.notes.extend(list.notes);
    head
}

/// The places of one app of the `mount` block.
fn mount_block(
    list: &mut SearchList,
    mount_app: &crate::gameinfo::Mount,
    app_folder: &dyn Fn(u32) -> Option<PathBuf>,
    preferences: &Preferences,
) {
    let Some(app) = app_folder(mount_app.app_id) else {
        if mount_app.required {
            list.notes.push(format!(
                "mount {}: the app is not installed in any Steam library found",
                mount_app.app_id
            ));
        }
        return;
    };
    let app = normalize(&app).unwrap_or(app);
    for folder in &mount_app.folders {
        let Some(below) = normalize(&app.join(&folder.name)).filter(|p| p.starts_with(&app)) else {
            list.notes.push(format!(
                "mount {} {}: the folder climbs out of the app's",
                mount_app.app_id, folder.name
            ));
            continue;
        };
        for item in &folder.items {
            let (kind, name) = match item {
                MountItem::Vpk(name) => ("vpk", name),
                MountItem::Dir(name) => ("dir", name),
            };
            let entry = format!("mount {} {} {kind} {name}", mount_app.app_id, folder.name);
            let Some(path) = normalize(&below.join(name)).filter(|p| p.starts_with(&below)) else {
                list.notes.push(format!("{entry}: it climbs out of {}", below.display()));
                continue;
            };
            let path = match item {
                MountItem::Vpk(_) if is_vpk(&path) => path,
                MountItem::Vpk(_) => {
                    let text = path.to_string_lossy();
                    let stem = text.strip_suffix("_dir").unwrap_or(&text);
                    PathBuf::from(format!("{stem}.vpk"))
                }
                MountItem::Dir(_) => path,
            };
            mount(list, path, entry, preferences);
        }
    }
}

/// The folder `name` in `dir`, matched exactly first, then ignoring ASCII case (a Windows
/// install copied to a case-sensitive disk).
fn folder_named(dir: &Path, name: &str) -> Option<PathBuf> {
    let exact = dir.join(name);
    if exact.is_dir() {
        return Some(exact);
    }
    let read = std::fs::read_dir(dir).ok()?;
    read.filter_map(|e| e.ok())
        .take(MAX_WILDCARD * 4)
        .find(|e| e.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(name)) && e.path().is_dir())
        .map(|e| e.path())
}

/// The search path of the Half-Life mod in `game` (its `liblist.gam` read as `liblist`).
pub fn goldsrc(game: &Path, liblist: &Liblist, preferences: &Preferences) -> SearchList {
    let install = game.parent().map(Path::to_path_buf).unwrap_or_default();
    let own = game.file_name().and_then(|n| n.to_str()).unwrap_or("").to_owned();
    let mut names = vec![own.clone()];
    if let Some(fallback) = &liblist.fallback_dir
        && !fallback.eq_ignore_ascii_case(&own)
        && Path::new(fallback).components().all(|c| matches!(c, Component::Normal(_)))
    {
        names.push(fallback.clone());
    }
    if !names.iter().any(|n| n.eq_ignore_ascii_case("valve")) {
        names.push("valve".into());
    }
    let mut list = SearchList::default();
    for name in names {
        let mut suffixes: Vec<String> = Vec::new();
        if preferences.addon_content {
            suffixes.push("_addon".into());
        }
        if preferences.hd_models {
            suffixes.push("_hd".into());
        }
        if let Some(language) = preferences.other_language() {
            suffixes.push(format!("_{language}"));
        }
        suffixes.push(String::new());
        suffixes.push("_downloads".into());
        for suffix in suffixes {
            let folder_name = format!("{name}{suffix}");
            let Some(folder) = folder_named(&install, &folder_name) else {
                if suffix.is_empty() {
                    list.missing.push(format!("{folder_name} ({})", install.join(&folder_name).display()));
                }
                continue;
            };
            list.add(folder.clone(), false, folder_name.clone());
            for archive in studio_archive::archive_paths(&folder) {
                let file = archive.file_name().and_then(|n| n.to_str()).unwrap_or("").to_owned();
                list.add(archive, true, format!("{folder_name}/{file}"));
            }
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_and_dots() {
        assert!(wildcard_match("*", "anything"));
        assert!(wildcard_match("*.VPK", "mod_dir.vpk"));
        assert!(wildcard_match("a?c*", "ABCdef"));
        assert!(!wildcard_match("a?c", "abcd"));
        assert!(wildcard_match("*x*y", "axbxy"));
        assert_eq!(normalize(Path::new("/a/b/../c/./d")), Some(PathBuf::from("/a/c/d")));
        assert_eq!(normalize(Path::new("/a/../../etc")), None);
        assert_eq!(normalize(Path::new("a/..")), Some(PathBuf::new()));
    }
}
