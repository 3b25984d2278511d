//! studioview: the viewer window ([`app`]) and the command line's commands, as a library so
//! that tests drive the same code the binary runs.

#![forbid(unsafe_code)]
#![allow(missing_docs)]

pub mod app;
pub mod catalog;
pub mod check;
pub mod decompile;
pub mod demo;
pub mod edit;
pub mod export;
pub mod flex_groups;
pub mod games_cmd;
pub mod info;
pub mod info_source;
pub mod installs;
pub mod list;
pub mod materials;
pub mod model_files;
pub mod pose_cmd;
pub mod qc_cmd;
pub mod readable;
pub mod render_cmd;
pub mod shown;
pub mod source_doc;
pub mod source_pose_cmd;
pub mod stdout;
pub mod thumbnail;
pub mod user_message;
pub mod view_model;
