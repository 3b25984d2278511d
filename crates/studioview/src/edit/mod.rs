//! Editing a model: the records that can change, undo and redo, saving, and the QC lines that
//! describe what was edited.

pub mod goldsrc;
pub mod history;
pub mod qc;
pub mod save;
pub mod source;

pub use goldsrc::GoldRecord;
pub use history::{Change, Edit, History, Records};
pub use source::SourceRecord;
