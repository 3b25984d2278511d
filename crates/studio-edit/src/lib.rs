//! studio-edit: editing a model. The records that can change, undo and redo, and saving
//! through the writers (the QC lines that describe what was edited are studio-decompile's `qc`).

#![forbid(unsafe_code)]
#![allow(missing_docs)]

pub mod goldsrc;
pub mod history;
pub mod save;
pub mod source;
pub mod texture;
pub mod transform;

pub use goldsrc::GoldRecord;
pub use history::{Change, Edit, History, Records};
pub use source::SourceRecord;
