//! A game's folders and archives for a model viewer, apart from model parsing: where a model's
//! files come from when they are not all loose on disk.
//!
//! - [`vpk`]: Source archives (versions 1 and 2, data in the directory file or in numbered
//!   archives); [`pak`]: Quake/GoldSrc archives; [`Archive`]: either;
//! - [`game`]: game folders and their archives, searched as the engine searches them;
//! - [`model_path`]: paths that name a file inside an archive (`pak01_dir.vpk:models/x.mdl`);
//! - [`files`]: a model's files in its game, for the readers' loaders ([`GameFiles`]);
//! - [`write`]: small archives, for tests.
//!
//! Opening an archive reads its header and directory, never its data; a file is read when it is
//! asked for, alone. Every offset and size is checked against the file, and a bad archive is an
//! error naming the record and the byte offset.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod archive;
mod backing;
pub mod directory;
pub mod error;
pub mod files;
pub mod game;
pub mod model_path;
pub mod pak;
pub mod vpk;
pub mod write;

pub use archive::{Archive, is_pak};
pub use directory::Directory;
pub use error::{Error, Result};
pub use files::GameFiles;
pub use game::{GameFolders, Place, SearchEntry, Where, archive_paths};
pub use model_path::ArchivePath;
pub use pak::Pak;
pub use vpk::Vpk;
