//! Texture tools for version 10 models, as Half-Life Asset Manager has them: export a texture
//! as an indexed image, import any common image over one (its palette kept, or quantized; its
//! size brought to one studiomdl accepts, the meshes' texture coordinates following), and the
//! UV map a painter paints under.

pub mod export;
pub mod import;
pub mod picture;
pub mod size;

/// The quantizer (studio-document's, shared with animation capture).
pub use studio_document::quantize;
pub mod source;
pub mod uv_map;

pub use export::{ImageFormat, default_file_name, image_bytes};
pub use import::{ImportReport, MeshPlace, TextureImage, import_picture, texture_image};
pub use picture::{Picture, PictureError, decode_picture, read_picture};
pub use uv_map::{UvMapOptions, uv_map};

/// The longest texture name the file holds (`mstudiotexture_t.name` is 64 bytes, one for the
/// terminating zero).
pub const MAX_NAME_BYTES: usize = 63;

/// Whether `name` can be a texture's name: 1 to 63 bytes of printable ASCII.
pub fn is_valid_name(name: &str) -> bool {
    (1..=MAX_NAME_BYTES).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_graphic() || b == b' ')
}
