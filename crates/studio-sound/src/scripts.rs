//! Source's sound scripts: `scripts/game_sounds_manifest.txt` names the script files
//! (`precache_file`, `preload_file`, `declare_file` …), each a KeyValues list of entries:
//!
//! ```text
//! "Weapon_Pistol.Reload"
//! {
//!     "channel"  "CHAN_ITEM"
//!     "wave"     "weapons/pistol/pistol_reload1.wav"
//! }
//! "Weapon_Pistol.Single" { "rndwave" { "wave" ")weapons/pistol/fire2.wav" "wave" "…" } }
//! ```
//!
//! As the engine's sound emitter system reads them, the first entry of a name counts (a later
//! one of the same name is reported, not used), names match in any case, and an entry with
//! `rndwave` plays one of its waves at random. Every file is read from the game's search path,
//! and what could not be read is kept in [`SoundScripts::problems`].

use studio_archive::GameFolders;
use studio_material::keyvalues::{self, Pair};

/// The manifest, below a game folder.
pub const MANIFEST: &str = "scripts/game_sounds_manifest.txt";
/// Most script files a manifest may name.
const MAX_FILES: usize = 512;
/// Most entries kept.
const MAX_ENTRIES: usize = 200_000;

/// One entry: its waves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name, lower case.
    pub name: String,
    /// Its waves (one, or `rndwave`'s), as written.
    pub waves: Vec<String>,
    /// The script file it is in.
    pub file: String,
}

/// The sound scripts of a game.
#[derive(Clone, Debug, Default)]
pub struct SoundScripts {
    /// The entries, sorted by name.
    entries: Vec<Entry>,
    /// The script files read, in the manifest's order.
    pub files: Vec<String>,
    /// What could not be read, one line each.
    pub problems: Vec<String>,
}

impl SoundScripts {
    /// The sound scripts of the game searched by `folders`: its manifest and every file it
    /// names. A game without a manifest has none (and says so in `problems`).
    pub fn load(folders: &GameFolders) -> Self {
        let mut scripts = Self::default();
        let mut tried = Vec::new();
        let manifest = match folders.find(MANIFEST, &mut tried) {
            Ok(Some(found)) => found.bytes,
            Ok(None) => {
                scripts.problems.push(format!("{MANIFEST} not found; looked in {}", tried.join(", ")));
                return scripts;
            }
            Err(e) => {
                scripts.problems.push(e);
                return scripts;
            }
        };
        for file in manifest_files(&manifest, &mut scripts.problems).into_iter().take(MAX_FILES) {
            let mut tried = Vec::new();
            match folders.find(&file, &mut tried) {
                Ok(Some(found)) => scripts.add_file(&found.bytes, &file),
                Ok(None) => scripts.problems.push(format!("{file} (named in {MANIFEST}) not found")),
                Err(e) => scripts.problems.push(e),
            }
        }
        scripts.finish();
        scripts
    }

    /// Adds the entries of script file `file` holding `text` (before [`Self::finish`]).
    pub fn add_file(&mut self, text: &[u8], file: &str) {
        let pairs = match keyvalues::parse(text) {
            Ok(pairs) => pairs,
            Err(e) => {
                self.problems.push(format!("{file}: {e}"));
                return;
            }
        };
        self.files.push(file.to_owned());
        for pair in &pairs {
            if self.entries.len() >= MAX_ENTRIES {
                self.problems
                    .push(format!("{file}: more than {MAX_ENTRIES} sound entries; the rest are left out"));
                return;
            }
            let Some(block) = pair.block() else { continue };
            let waves = waves_of(block);
            self.entries.push(Entry { name: pair.key.to_ascii_lowercase(), waves, file: file.to_owned() });
        }
    }

    /// Sorts the entries by name, keeping the first of each name (a stable sort keeps file
    /// order among equals).
    pub fn finish(&mut self) {
        self.entries.sort_by(|a, b| a.name.cmp(&b.name));
        self.entries.dedup_by(|later, first| later.name == first.name);
    }

    /// The entry named `name` (any case).
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        let name = name.to_ascii_lowercase();
        self.entries.binary_search_by(|e| e.name.as_str().cmp(&name)).ok().map(|i| &self.entries[i])
    }

    /// How many entries there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The script files a manifest names: the values of its block's `*_file` keys.
fn manifest_files(text: &[u8], problems: &mut Vec<String>) -> Vec<String> {
    let pairs = match keyvalues::parse(text) {
        Ok(pairs) => pairs,
        Err(e) => {
            problems.push(format!("{MANIFEST}: {e}"));
            return Vec::new();
        }
    };
    let mut files = Vec::new();
    for block in pairs.iter().filter_map(Pair::block) {
        for pair in block {
            if pair.key.to_ascii_lowercase().ends_with("_file")
                && let Some(file) = pair.text()
            {
                let file = file.trim().replace('\\', "/");
                if !file.is_empty() && !files.contains(&file) {
                    files.push(file);
                }
            }
        }
    }
    files
}

/// An entry's waves: its `wave`, or each `wave` of its `rndwave` block.
fn waves_of(block: &[Pair]) -> Vec<String> {
    let mut waves: Vec<String> = block
        .iter()
        .filter(|p| p.key.eq_ignore_ascii_case("wave"))
        .filter_map(|p| p.text().map(str::to_owned))
        .collect();
    for random in block.iter().filter(|p| p.key.eq_ignore_ascii_case("rndwave")).filter_map(Pair::block) {
        waves.extend(
            random
                .iter()
                .filter(|p| p.key.eq_ignore_ascii_case("wave"))
                .filter_map(|p| p.text().map(str::to_owned)),
        );
    }
    waves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_read_first_one_of_a_name_kept() {
        let mut scripts = SoundScripts::default();
        scripts.add_file(
            br#""Weapon_Pistol.Reload" { "channel" "CHAN_ITEM" "wave" "weapons/pistol/reload1.wav" }
                "Weapon_Pistol.Single" { "rndwave" { "wave" ")weapons/pistol/fire2.wav" "wave" ")weapons/pistol/fire3.wav" } }
                // a comment
                "weapon_pistol.reload" { "wave" "later.wav" }"#,
            "scripts/game_sounds_weapons.txt",
        );
        scripts.add_file(b"\"broken\" {", "scripts/broken.txt");
        scripts.finish();
        assert_eq!(scripts.len(), 2);
        assert_eq!(scripts.entry("WEAPON_PISTOL.RELOAD").unwrap().waves, ["weapons/pistol/reload1.wav"]);
        assert_eq!(scripts.entry("Weapon_Pistol.Single").unwrap().waves.len(), 2);
        assert!(scripts.entry("nothing").is_none());
        assert_eq!(scripts.problems.len(), 1);
        assert!(scripts.problems[0].starts_with("scripts/broken.txt"), "{:?}", scripts.problems);
    }

    #[test]
    fn the_manifest_names_its_files() {
        let mut problems = Vec::new();
        let files = manifest_files(
            br#"game_sounds_manifest { "precache_file" "scripts/game_sounds.txt" "preload_file" "scripts\game_sounds_world.txt" "precache_file" "scripts/game_sounds.txt" "other" "x" }"#,
            &mut problems,
        );
        assert_eq!(files, ["scripts/game_sounds.txt", "scripts/game_sounds_world.txt"]);
        assert!(problems.is_empty());
    }
}
