//! Pose parameters (source-animation.md, "Pose parameters, transitions and included models").

use crate::error::{Record, Result};
use crate::raw::{RawHeader, RawPoseParameter};
use crate::reader::FileData;

/// One pose parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseParameter {
    /// Its name.
    pub name: String,
    /// Flags (studio.h's comment is "????").
    pub flags: i32,
    /// Start of the range.
    pub start: f32,
    /// End of the range.
    pub end: f32,
    /// Looping range: 0 for none, 360 for a rotation.
    pub loop_range: f32,
}

pub(crate) fn parse(file: &FileData<'_>, raw: &RawHeader) -> Result<Vec<PoseParameter>> {
    let table = file.table::<RawPoseParameter>(
        Record::PoseParameter,
        None,
        0,
        "numlocalposeparameters",
        raw.numlocalposeparameters,
        "localposeparamindex",
        raw.localposeparamindex,
    )?;
    let mut out = Vec::with_capacity(table.len());
    for (i, at, p) in table.iter() {
        out.push(PoseParameter {
            name: file.name(Record::PoseParameter, Some(i), at, "sznameindex", p.sznameindex)?,
            flags: p.flags,
            start: p.start,
            end: p.end,
            loop_range: p.loop_range,
        });
    }
    Ok(out)
}
