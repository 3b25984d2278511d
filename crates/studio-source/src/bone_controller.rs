//! Bone controllers (source-bones.md, "Bone controllers").

use studio_bytes::Table;

use crate::error::{Record, Result};
use crate::raw::{RawBoneController, RawHeader};
use crate::reader::FileData;

/// One bone controller.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneController {
    /// The bone it drives; `None` for −1 (checked against the bones once they are read).
    pub bone: i32,
    /// Motion type flags (`STUDIO_X` … `STUDIO_RLOOP`).
    pub kind: i32,
    /// Start of the range.
    pub start: f32,
    /// End of the range.
    pub end: f32,
    /// Byte value at rest.
    pub rest: i32,
    /// 0 to 3 user-set controller, 4 the mouth.
    pub input: i32,
}

/// The header's table of `mstudiobonecontroller_t`, checked to lie in the file.
pub(crate) fn table<'a>(file: &FileData<'a>, raw: &RawHeader) -> Result<Table<'a, RawBoneController>> {
    file.table(
        Record::BoneController,
        None,
        0,
        "numbonecontrollers",
        raw.numbonecontrollers,
        "bonecontrollerindex",
        raw.bonecontrollerindex,
    )
}

pub(crate) fn parse(file: &FileData<'_>, raw: &RawHeader) -> Result<Vec<BoneController>> {
    let table = table(file, raw)?;
    Ok(table
        .iter()
        .map(|(_, _, c)| BoneController {
            bone: c.bone,
            kind: c.kind,
            start: c.start,
            end: c.end,
            rest: c.rest,
            input: c.inputfield,
        })
        .collect())
}
