//! The game settings the search paths depend on, as the engines read them from their own
//! configuration; the viewer lets the user change them.
//!
//! - `language` (default `english`): Source mounts `NAME_<language>` before each search path
//!   whose location holds `_english` (`FileSystem_AddLoadedSearchPath`); Half-Life searches
//!   `MOD_<language>` before `MOD`.
//! - `low_violence` (default off): Source mounts `game_lv` paths only in low-violence builds.
//! - `hd_models` (default on, Half-Life's "Enable HD models if available"): Half-Life searches
//!   `MOD_hd` before `MOD`, and Source mounts `game_hd` paths.
//! - `addon_content` (default off, Half-Life's "Allow custom addon content"): Half-Life searches
//!   `MOD_addon` first.

/// The settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preferences {
    /// The game's language, in lower case as Steam names it (`english`, `german`, `french`, …).
    pub language: String,
    /// A low-violence build.
    pub low_violence: bool,
    /// HD models (Half-Life's `_hd` folders, Source's `game_hd`).
    pub hd_models: bool,
    /// Half-Life's custom addon content (`_addon` folders).
    pub addon_content: bool,
}

impl Default for Preferences {
    fn default() -> Self {
        Self { language: "english".into(), low_violence: false, hd_models: true, addon_content: false }
    }
}

impl Preferences {
    /// The language when it is not English (the only case that adds paths).
    pub fn other_language(&self) -> Option<&str> {
        let language = self.language.trim();
        (!language.is_empty() && !language.eq_ignore_ascii_case("english")).then_some(language)
    }
}
