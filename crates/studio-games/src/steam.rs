//! Steam on this machine: its folder, its libraries (`steamapps/libraryfolders.vdf`) and the apps
//! installed in each (`steamapps/appmanifest_<id>.acf`, whose `installdir` is the app's folder
//! under `steamapps/common/`).
//!
//! Steam's folder is looked for where Steam puts it: on Linux `~/.steam/steam`,
//! `~/.local/share/Steam` and the Flatpak's `~/.var/app/com.valvesoftware.Steam/.local/share/Steam`;
//! on Windows the registry's `HKCU\Software\Valve\Steam\SteamPath`, then
//! `%ProgramFiles(x86)%\Steam`; on macOS `~/Library/Application Support/Steam`. A missing,
//! unreadable or malformed file is a problem naming the file and the place in it, and what
//! could be read is kept.

use std::path::{Path, PathBuf};

use studio_material::keyvalues::{self, Pair};

/// Most libraries, manifests and folders looked at (a large machine has a few hundred apps).
pub const MAX_ENTRIES: usize = 4096;
/// Largest `.vdf` or `.acf` read.
pub const MAX_FILE: u64 = 1 << 20;

/// Where this machine keeps the places Steam is looked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Locations {
    /// The user's home folder (Linux and macOS).
    pub home: Option<PathBuf>,
    /// `SteamPath` from the registry (Windows).
    pub registry: Option<PathBuf>,
    /// `%ProgramFiles(x86)%` (Windows).
    pub program_files: Option<PathBuf>,
}

impl Locations {
    /// This machine's: `HOME`, and on Windows the registry and `ProgramFiles(x86)`.
    pub fn of_this_machine() -> Self {
        Self {
            home: std::env::var_os("HOME").map(PathBuf::from),
            registry: registry_steam_path(),
            program_files: std::env::var_os("ProgramFiles(x86)").map(PathBuf::from),
        }
    }

    /// The folders Steam may be in, in the order looked at (the platform's own list).
    pub fn candidates(&self) -> Vec<PathBuf> {
        let mut out = Vec::new();
        if cfg!(windows) {
            out.extend(self.registry.clone());
            out.extend(self.program_files.as_ref().map(|p| p.join("Steam")));
        } else if cfg!(target_os = "macos") {
            out.extend(self.home.as_ref().map(|h| h.join("Library/Application Support/Steam")));
        } else if let Some(home) = &self.home {
            out.push(home.join(".steam/steam"));
            out.push(home.join(".local/share/Steam"));
            out.push(home.join(".var/app/com.valvesoftware.Steam/.local/share/Steam"));
        }
        out
    }

    /// The Steam folders that are there (holding `steamapps`), each once even when reached by
    /// two names (`~/.steam/steam` is a link to `~/.local/share/Steam`).
    pub fn steam_folders(&self) -> Vec<PathBuf> {
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for candidate in self.candidates() {
            if !candidate.join("steamapps").is_dir() {
                continue;
            }
            let real = std::fs::canonicalize(&candidate).unwrap_or_else(|_| candidate.clone());
            if !seen.contains(&real) {
                seen.push(real);
                out.push(candidate);
            }
        }
        out
    }
}

/// `HKCU\Software\Valve\Steam\SteamPath`, where Steam's installer writes its folder.
#[cfg(windows)]
fn registry_steam_path() -> Option<PathBuf> {
    let key =
        winreg::RegKey::predef(winreg::enums::HKEY_CURRENT_USER).open_subkey(r"Software\Valve\Steam").ok()?;
    let path: String = key.get_value("SteamPath").ok()?;
    Some(PathBuf::from(path))
}

/// No registry off Windows.
#[cfg(not(windows))]
fn registry_steam_path() -> Option<PathBuf> {
    None
}

/// One Steam library folder and the apps installed in it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Library {
    /// The library folder (holding `steamapps`).
    pub path: PathBuf,
    /// Its installed apps, by app id.
    pub apps: Vec<App>,
}

/// An installed app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct App {
    /// Its Steam app id.
    pub id: u32,
    /// Its name in the manifest.
    pub name: String,
    /// Its install folder (`steamapps/common/<installdir>`).
    pub folder: PathBuf,
}

/// A Steam folder, its libraries and their apps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Steam {
    /// The Steam folder.
    pub folder: PathBuf,
    /// Its libraries, the Steam folder's own first.
    pub libraries: Vec<Library>,
    /// What could not be read, each naming the file and where.
    pub problems: Vec<String>,
}

/// The bytes of a file of at most `max` bytes, or a problem naming it.
pub(crate) fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    let size = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?.len();
    if size > max {
        return Err(format!("{}: {size} bytes is more than {max}", path.display()));
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// The library folders `libraryfolders.vdf` lists: the current form (`"0" { "path" "…" }`) and
/// the older one (`"1" "D:\\SteamLibrary"`).
pub fn parse_library_folders(bytes: &[u8], file: &Path) -> Result<Vec<PathBuf>, String> {
    let pairs = keyvalues::parse_escaped(bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    let root = Pair::find(&pairs, "libraryfolders").and_then(Pair::block).ok_or_else(|| {
        format!("{}: libraryfolders at byte 0: there is no libraryfolders block", file.display())
    })?;
    let mut out = Vec::new();
    for entry in root.iter().take(MAX_ENTRIES) {
        if entry.key.parse::<u32>().is_err() {
            continue;
        }
        let path = match &entry.value {
            keyvalues::Value::Text(path) => Some(path.as_str()),
            keyvalues::Value::Block(body) => Pair::find(body, "path").and_then(Pair::text),
        };
        match path {
            Some(path) if !path.trim().is_empty() => out.push(PathBuf::from(path.trim())),
            _ => {
                return Err(format!(
                    "{}: library {:?} at byte {}: it has no path",
                    file.display(),
                    entry.key,
                    entry.offset
                ));
            }
        }
    }
    Ok(out)
}

/// An app manifest's id, name and `installdir`.
pub fn parse_manifest(bytes: &[u8], file: &Path) -> Result<(u32, String, String), String> {
    let pairs = keyvalues::parse_escaped(bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    let state_pair = Pair::find(&pairs, "AppState");
    let state = state_pair
        .and_then(Pair::block)
        .ok_or_else(|| format!("{}: AppState at byte 0: there is no AppState block", file.display()))?;
    let place = format!("{}: AppState at byte {}", file.display(), state_pair.map_or(0, |p| p.offset));
    let text = |key: &str| Pair::find(state, key).and_then(Pair::text).map(str::trim);
    let id = text("appid")
        .and_then(|t| t.parse::<u32>().ok())
        .ok_or_else(|| format!("{place}: it has no numeric appid"))?;
    let install = text("installdir")
        .filter(|t| !t.is_empty())
        .ok_or_else(|| format!("{place}: it has no installdir"))?;
    if Path::new(install).components().any(|c| !matches!(c, std::path::Component::Normal(_))) {
        return Err(format!("{place}: its installdir {install:?} is not a folder name"));
    }
    Ok((id, text("name").unwrap_or_default().to_owned(), install.to_owned()))
}

impl Steam {
    /// The Steam folder `folder` with its libraries and apps; problems are kept, not fatal.
    pub fn read(folder: &Path) -> Self {
        let mut steam = Steam { folder: folder.to_owned(), ..Steam::default() };
        let mut paths = vec![folder.to_owned()];
        let vdf = folder.join("steamapps/libraryfolders.vdf");
        match read_bounded(&vdf, MAX_FILE).and_then(|bytes| parse_library_folders(&bytes, &vdf)) {
            Ok(listed) => paths.extend(listed),
            Err(e) => steam.problems.push(e),
        }
        let mut seen: Vec<PathBuf> = Vec::new();
        for path in paths {
            let real = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
            if seen.contains(&real) {
                continue;
            }
            seen.push(real);
            let steamapps = path.join("steamapps");
            if !steamapps.is_dir() {
                steam.problems.push(format!(
                    "{}: the library {} is not there",
                    vdf.display(),
                    path.display()
                ));
                continue;
            }
            let library = Library { apps: apps_in(&path, &mut steam.problems), path };
            steam.libraries.push(library);
        }
        steam
    }

    /// The install folder of app `id`, in whichever library holds it.
    pub fn app_folder(&self, id: u32) -> Option<&Path> {
        self.app(id).map(|(app, _)| app.folder.as_path())
    }

    /// App `id` and its library.
    pub fn app(&self, id: u32) -> Option<(&App, &Library)> {
        self.libraries.iter().find_map(|l| l.apps.iter().find(|a| a.id == id).map(|a| (a, l)))
    }
}

/// The apps of the library at `library`, from its manifests, by app id.
fn apps_in(library: &Path, problems: &mut Vec<String>) -> Vec<App> {
    let steamapps = library.join("steamapps");
    let Ok(entries) = std::fs::read_dir(&steamapps) else {
        problems.push(format!("{}: the folder cannot be read", steamapps.display()));
        return Vec::new();
    };
    let mut manifests: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .take(MAX_ENTRIES)
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("").to_ascii_lowercase();
            name.starts_with("appmanifest_") && name.ends_with(".acf")
        })
        .collect();
    manifests.sort();
    let mut apps = Vec::new();
    for manifest in manifests {
        match read_bounded(&manifest, MAX_FILE).and_then(|bytes| parse_manifest(&bytes, &manifest)) {
            Ok((id, name, install)) => {
                let folder = steamapps.join("common").join(&install);
                if !folder.is_dir() {
                    problems.push(format!(
                        "{}: its installdir {install:?} is not there ({})",
                        manifest.display(),
                        folder.display()
                    ));
                } else if !apps.iter().any(|a: &App| a.id == id) {
                    apps.push(App { id, name, folder });
                }
            }
            Err(e) => problems.push(e),
        }
    }
    apps.sort_by_key(|a| a.id);
    apps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn library_folders_in_both_forms() {
        let new = br#""libraryfolders"
{
    "0" { "path" "C:\\Program Files (x86)\\Steam" "label" "" "apps" { "220" "123" } }
    "1" { "path" "D:\\SteamLibrary" }
}"#;
        assert_eq!(
            parse_library_folders(new, Path::new("x.vdf")).unwrap(),
            [PathBuf::from(r"C:\Program Files (x86)\Steam"), PathBuf::from(r"D:\SteamLibrary")]
        );
        let old = br#""LibraryFolders" { "TimeNextStatsReport" "1" "ContentStatsID" "-1" "1" "E:\\Games" }"#;
        assert_eq!(parse_library_folders(old, Path::new("x.vdf")).unwrap(), [PathBuf::from(r"E:\Games")]);
        for (text, says) in [
            (&b"\"libraryfolders\" { \"0\" { \"label\" \"x\" } }"[..], "has no path"),
            (b"\"other\" { }", "no libraryfolders block"),
            (b"\"libraryfolders\" { \"0\" { ", "KeyValues at byte"),
        ] {
            let error = parse_library_folders(text, Path::new("steamapps/libraryfolders.vdf")).unwrap_err();
            assert!(error.contains(says) && error.contains("libraryfolders.vdf"), "{error}");
        }
    }

    #[test]
    fn manifests_name_the_install_folder() {
        let text = br#""AppState" { "appid" "240" "name" "Counter-Strike: Source" "installdir" "Counter-Strike Source" }"#;
        assert_eq!(
            parse_manifest(text, Path::new("a.acf")).unwrap(),
            (240, "Counter-Strike: Source".into(), "Counter-Strike Source".into())
        );
        for (text, says) in [
            (&br#""AppState" { "appid" "x" "installdir" "y" }"#[..], "no numeric appid"),
            (br#""AppState" { "appid" "1" }"#, "no installdir"),
            (br#""AppState" { "appid" "1" "installdir" "../../etc" }"#, "not a folder name"),
            (br#""AppState" { "appid" "1" "#, "KeyValues at byte"),
        ] {
            let error = parse_manifest(text, Path::new("appmanifest_1.acf")).unwrap_err();
            assert!(error.contains(says) && error.contains("appmanifest_1.acf"), "{error}");
        }
    }
}
