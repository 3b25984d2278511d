//! Source engine materials for a model viewer, apart from model parsing: a model names
//! materials, a game folder finds them.
//!
//! - [`keyvalues`]: the KeyValues text of `.vmt` files;
//! - [`vmt`]: a material's shader parameters, `patch` materials, what a viewer draws with;
//! - [`vtf`] and [`image`]: textures 7.0–7.5 and their formats, decoded to RGBA8;
//! - [`lookup`]: finding a model's material in its game folders (loose files and archives,
//!   studio-archive's [`GameFolders`]);
//! - [`write`]: small `.vtf` files, for tests.
//!
//! Every reader takes untrusted bytes: offsets and sizes are checked against the file, loops
//! consume input, nesting is bounded, and a bad file is an error naming the record and the byte
//! offset.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod error;
pub mod image;
pub mod keyvalues;
pub mod lookup;
pub mod vmt;
pub mod vtf;
pub mod write;

pub use error::{Error, Result};
pub use image::Format;
pub use lookup::{ExtraTextures, Material, find_material};
pub use studio_archive::{GameFolders, Vpk};
pub use vmt::{Phong, Shading, Vmt, parse_vmt};
pub use vtf::{Vtf, parse_vtf};
