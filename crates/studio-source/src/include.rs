//! Include models and animation blocks: the other files a model draws on (source-animation.md,
//! "Pose parameters, transitions and included models"; source-header.md, ".ani files").

use crate::error::{Record, Result, Warning};
use crate::raw::{RawAnimBlock, RawHeader, RawModelGroup};
use crate::reader::FileData;

/// An include model (`mstudiomodelgroup_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct IncludeModel {
    /// Its label.
    pub label: String,
    /// Its file name, relative to the game folder; `\` or `/` separate.
    pub file: String,
}

/// The byte range of one `.ani` block; block 0 is never used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnimBlock {
    /// First byte.
    pub start: i32,
    /// One past the last byte.
    pub end: i32,
}

/// The include models; a label that cannot be read is a warning and reads as empty (the file
/// name, without which the include cannot be found, must be read).
pub(crate) fn parse_includes(
    file: &FileData<'_>,
    raw: &RawHeader,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<IncludeModel>> {
    let table = file.table::<RawModelGroup>(
        Record::IncludeModel,
        None,
        0,
        "numincludemodels",
        raw.numincludemodels,
        "includemodelindex",
        raw.includemodelindex,
    )?;
    let mut out = Vec::with_capacity(table.len());
    for (i, at, g) in table.iter() {
        out.push(IncludeModel {
            label: file.optional_name(
                Record::IncludeModel,
                Some(i),
                at,
                "szlabelindex",
                g.szlabelindex,
                warnings,
            ),
            file: file.name(Record::IncludeModel, Some(i), at, "sznameindex", g.sznameindex)?,
        });
    }
    Ok(out)
}

pub(crate) fn parse_blocks(file: &FileData<'_>, raw: &RawHeader) -> Result<Vec<AnimBlock>> {
    let table = file.table::<RawAnimBlock>(
        Record::AnimBlock,
        None,
        0,
        "numanimblocks",
        raw.numanimblocks,
        "animblockindex",
        raw.animblockindex,
    )?;
    Ok(table.iter().map(|(_, _, b)| AnimBlock { start: b.datastart, end: b.dataend }).collect())
}
