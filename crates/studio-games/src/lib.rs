//! The games on a machine, for a model viewer, and each game's search path in its engine's
//! order: where a model's materials, companions and includes come from in a real install.
//!
//! - [`steam`]: Steam's folder, its libraries (`libraryfolders.vdf`) and installed apps
//!   (`appmanifest_<id>.acf`);
//! - [`gameinfo`]: a Source game's `gameinfo.txt` (its `SearchPaths` and `mount` block);
//! - [`liblist`]: a Half-Life mod's `liblist.gam`;
//! - [`search_path`]: the folders and archives a game searches, in order;
//! - [`preferences`]: the settings that change it (language, low violence, HD, addons);
//! - [`installs`]: every game found, and the game a model's path is in;
//! - [`testing`]: a synthetic Steam install, for tests and benchmarks.
//!
//! Every file read is untrusted: sizes are bounded, loops over folders and entries are capped,
//! and a bad file is an error naming it and the place in it (KeyValues' byte offset, a
//! `liblist.gam` line); discovery keeps going past it.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod gameinfo;
pub mod installs;
pub mod liblist;
pub mod preferences;
pub mod search_path;
pub mod steam;
pub mod testing;

pub use gameinfo::GameInfo;
pub use installs::{Engine, Game, Installs, game_of, is_game_folder};
pub use liblist::Liblist;
pub use preferences::Preferences;
pub use search_path::SearchList;
pub use steam::{Locations, Steam};
