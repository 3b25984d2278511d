//! Editing a model: the records that can change, undo and redo, and saving (the QC lines that
//! describe what was edited are studio-decompile's `qc`).

pub mod goldsrc;
pub mod history;
pub mod save;
pub mod source;

pub use goldsrc::GoldRecord;
pub use history::{Change, Edit, History, Records};
pub use source::SourceRecord;
