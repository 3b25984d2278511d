//! A Source game's `gameinfo.txt`, as the engine reads it (`LoadGameInfoFile` and
//! `FileSystem_LoadSearchPaths` in the Source SDK's `filesystem_init.cpp`): KeyValues text
//! without escape sequences, a `GameInfo` block with the game's name (`game`), its
//! `FileSystem` block (`SteamAppId`, the `SearchPaths` lines in order) and, as mods on Source 2013
//! branches write it, a `mount` block of other Steam apps' folders.
//!
//! Conditions after a key (`[$WIN32]`, `[!$X360]`) are evaluated for the machine we run on, as
//! KeyValues evaluates them for the engine's platform.

use std::path::Path;

use studio_material::keyvalues::{self, Pair};

/// Most `SearchPaths` lines and mounted folders read (real files have a few dozen).
pub const MAX_LINES: usize = 1024;

/// What a `gameinfo.txt` says.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// The game's name (`game`).
    pub name: String,
    /// `FileSystem/SteamAppId`: the app the game runs as.
    pub app_id: Option<u32>,
    /// The `SearchPaths` lines in order.
    pub search_paths: Vec<SearchPathLine>,
    /// The `mount` block's apps, in order.
    pub mounts: Vec<Mount>,
}

/// One `SearchPaths` line: `game+mod  |gameinfo_path|.`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchPathLine {
    /// The path ids as written (`game+mod`).
    pub ids: String,
    /// The location as written.
    pub location: String,
}

impl SearchPathLine {
    /// The ids, split on `+`, trimmed and in lower case.
    pub fn id_list(&self) -> impl Iterator<Item = String> + '_ {
        self.ids.split('+').map(|id| id.trim().to_ascii_lowercase()).filter(|id| !id.is_empty())
    }
}

/// An app of the `mount` block: `440 { "head" "1" "tf" { "vpk" "tf2_textures" "dir" "custom" } }`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mount {
    /// The Steam app whose folders are mounted.
    pub app_id: u32,
    /// Whether they go before the `SearchPaths` (`head`), not after them.
    pub head: bool,
    /// Whether the game needs the app (`required`); without it the mount is skipped.
    pub required: bool,
    /// Its folders, each with what of it is mounted.
    pub folders: Vec<MountFolder>,
}

/// A folder of a mounted app and what of it is mounted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MountFolder {
    /// The folder below the app's install folder (`tf`).
    pub name: String,
    /// What is mounted, in order.
    pub items: Vec<MountItem>,
}

/// One mounted archive or folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MountItem {
    /// `vpk NAME`: the archive `NAME_dir.vpk` (or `NAME.vpk`) in the folder.
    Vpk(String),
    /// `dir NAME`: the folder `NAME` below it (`.` for the folder itself).
    Dir(String),
}

/// Whether a KeyValues condition holds on this machine.
pub fn condition_holds(condition: Option<&str>) -> bool {
    let Some(condition) = condition else { return true };
    let (negated, name) = match condition.trim().strip_prefix('!') {
        Some(rest) => (true, rest.trim()),
        None => (false, condition.trim()),
    };
    let name = name.trim_start_matches('$').to_ascii_uppercase();
    let holds = match name.as_str() {
        "WINDOWS" | "WIN32" => cfg!(windows),
        "WIN64" => cfg!(all(windows, target_pointer_width = "64")),
        "LINUX" => cfg!(target_os = "linux"),
        "OSX" => cfg!(target_os = "macos"),
        "POSIX" => cfg!(unix),
        _ => false,
    };
    holds != negated
}

/// The pairs of `pairs` whose condition holds.
fn live(pairs: &[Pair]) -> impl Iterator<Item = &Pair> {
    pairs.iter().filter(|p| condition_holds(p.condition.as_deref()))
}

/// The first live pair named `key` (any case).
fn find<'p>(pairs: &'p [Pair], key: &str) -> Option<&'p Pair> {
    live(pairs).find(|p| p.key.eq_ignore_ascii_case(key))
}

/// Reads `gameinfo.txt` from `bytes`; `file` names it in errors.
pub fn parse(bytes: &[u8], file: &Path) -> Result<GameInfo, String> {
    let at = |pair: Option<&Pair>, problem: &str| {
        let (key, offset) = pair.map_or(("GameInfo", 0), |p| (p.key.as_str(), p.offset));
        format!("{}: {key} at byte {offset}: {problem}", file.display())
    };
    let pairs = keyvalues::parse(bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    let main_pair = find(&pairs, "GameInfo");
    let main = main_pair.and_then(Pair::block).ok_or_else(|| at(None, "there is no GameInfo block"))?;
    let mut info = GameInfo {
        name: find(main, "game").and_then(Pair::text).unwrap_or_default().trim().to_owned(),
        ..GameInfo::default()
    };
    let file_system_pair = find(main, "FileSystem");
    let file_system =
        file_system_pair.and_then(Pair::block).ok_or_else(|| at(main_pair, "it has no FileSystem block"))?;
    info.app_id = find(file_system, "SteamAppId").and_then(Pair::text).and_then(|t| t.trim().parse().ok());
    let search_paths = find(file_system, "SearchPaths")
        .and_then(Pair::block)
        .ok_or_else(|| at(file_system_pair, "it has no SearchPaths block"))?;
    for pair in live(search_paths).take(MAX_LINES) {
        let Some(location) = pair.text() else {
            return Err(at(Some(pair), "the search path is a block, not a location"));
        };
        info.search_paths
            .push(SearchPathLine { ids: pair.key.clone(), location: location.trim().to_owned() });
    }
    // The mount block: in GameInfo, or in its FileSystem.
    if let Some(mount) = find(main, "mount").or_else(|| find(file_system, "mount")).and_then(Pair::block) {
        for app in live(mount).take(MAX_LINES) {
            let Ok(app_id) = app.key.trim().parse::<u32>() else { continue };
            let Some(body) = app.block() else {
                return Err(at(Some(app), "the mount is not a block"));
            };
            let flag = |key: &str, default: bool| {
                find(body, key).and_then(Pair::text).map_or(default, |t| t.trim() != "0")
            };
            let mut mount = Mount {
                app_id,
                head: flag("head", false),
                required: flag("required", true),
                folders: Vec::new(),
            };
            for folder in live(body).filter(|p| p.block().is_some()).take(MAX_LINES) {
                let items = live(folder.block().unwrap_or_default())
                    .filter_map(|item| {
                        let value = item.text()?.trim().to_owned();
                        match item.key.to_ascii_lowercase().as_str() {
                            "vpk" => Some(MountItem::Vpk(value)),
                            "dir" => Some(MountItem::Dir(value)),
                            _ => None,
                        }
                    })
                    .take(MAX_LINES)
                    .collect();
                mount.folders.push(MountFolder { name: folder.key.trim().to_owned(), items });
            }
            info.mounts.push(mount);
        }
    }
    Ok(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_search_paths_and_mounts_in_order() {
        let text = br#""GameInfo"
{
    game "Momentum Mod"
    FileSystem
    {
        SteamAppId 669270
        SearchPaths
        {
            game+mod        custom/*
            game+mod+mod_write  |gameinfo_path|.
            game            |all_source_engine_paths|hl2/hl2_textures.vpk
            game_lv         hl2/hl2_lv.vpk   [$X360]
        }
    }
    mount
    {
        440 { "tf" { "vpk" "tf2_textures_dir" "dir" "custom" } }
        240 { "head" "1" "required" "0" "cstrike" { "vpk" "cstrike_pak" } }
    }
}"#;
        let info = parse(text, Path::new("gameinfo.txt")).unwrap();
        assert_eq!(info.name, "Momentum Mod");
        assert_eq!(info.app_id, Some(669270));
        let lines: Vec<(&str, &str)> =
            info.search_paths.iter().map(|l| (l.ids.as_str(), l.location.as_str())).collect();
        assert_eq!(
            lines,
            [
                ("game+mod", "custom/*"),
                ("game+mod+mod_write", "|gameinfo_path|."),
                ("game", "|all_source_engine_paths|hl2/hl2_textures.vpk"),
            ]
        );
        assert_eq!(info.search_paths[1].id_list().collect::<Vec<_>>(), ["game", "mod", "mod_write"]);
        assert_eq!(info.mounts.len(), 2);
        assert_eq!(
            info.mounts[0],
            Mount {
                app_id: 440,
                head: false,
                required: true,
                folders: vec![MountFolder {
                    name: "tf".into(),
                    items: vec![MountItem::Vpk("tf2_textures_dir".into()), MountItem::Dir("custom".into())]
                }]
            }
        );
        assert!(info.mounts[1].head && !info.mounts[1].required);
    }

    #[test]
    fn a_broken_file_says_what_is_missing_and_where() {
        for (text, says) in [
            (&b"\"GameInfo\" { game x"[..], "KeyValues at byte"),
            (b"\"Other\" { }", "GameInfo at byte 0: there is no GameInfo block"),
            (b"GameInfo { game x }", "GameInfo at byte 0: it has no FileSystem block"),
            (
                b"GameInfo { FileSystem { SteamAppId 1 } }",
                "FileSystem at byte 11: it has no SearchPaths block",
            ),
            (
                b"GameInfo { FileSystem { SearchPaths { game { } } } }",
                "game at byte 38: the search path is a block",
            ),
        ] {
            let error = parse(text, Path::new("mod/gameinfo.txt")).unwrap_err();
            assert!(error.starts_with(&format!("{}: ", Path::new("mod/gameinfo.txt").display())), "{error}");
            assert!(error.contains(says), "{error}");
        }
    }
}
