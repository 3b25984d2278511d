//! studio-document: a model file as the command line and the viewer open it. Its companions
//! (loose or inside an archive), its game's search path and materials, a Source model with its
//! include models ([`source_doc`]), and what both derive from it: the box round a pose, the
//! glTF export, a sequence found by name, a PNG of a rendering.

#![forbid(unsafe_code)]
#![allow(missing_docs)]

pub mod animation_file;
pub mod bone_merge;
pub mod bounds;
pub mod demo;
pub mod event_sounds;
pub mod export;
pub mod flex_groups;
pub mod frame_drawer;
pub mod installs;
pub mod materials;
pub mod model_files;
pub mod muzzle_flash;
pub mod png_file;
pub mod quantize;
pub mod readable;
pub mod second_model;
pub mod sequences;
pub mod shown;
pub mod source_doc;
pub mod view_model;
