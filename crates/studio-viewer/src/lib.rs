//! studio-viewer: the viewer window ([`app`]), the model browser's catalog and thumbnails, and
//! the messages of a program that may have no console. `studioview` runs it; tests drive the
//! same code.

#![forbid(unsafe_code)]
#![allow(missing_docs)]

pub mod app;
pub mod catalog;
pub mod thumbnail;
pub mod user_message;
