//! studioview: the command line's commands, as a library so that tests drive the same code the
//! binary runs. The viewer is studio-viewer; the model as both open it is studio-document.

#![forbid(unsafe_code)]
#![allow(missing_docs)]

pub mod check;
pub mod decompile;
pub mod export_cmd;
pub mod games_cmd;
pub mod info;
pub mod info_source;
pub mod list;
pub mod pose_cmd;
pub mod qc_cmd;
pub mod render_cmd;
pub mod source_pose_cmd;
pub mod stdout;
pub mod texture_cmd;
pub mod texture_source_cmd;
pub mod transform_cmd;
