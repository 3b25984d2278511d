//! Errors with a place: the record being read and the byte offset in its file. The type and the
//! bounds-checked reads are studio-archive's, which the archives of a game folder share.

pub use studio_archive::error::{Error, Result};
pub(crate) use studio_archive::error::{slice, u16_at, u32_at};
