//! Attachments (source-bones.md, "Attachments").

use studio_bytes::Table;

use crate::error::{Record, Result, Warning};
use crate::raw::{RawAttachment, RawHeader};
use crate::reader::{FileData, reference};

/// `ATTACHMENT_FLAG_WORLD_ALIGN`: the attachment keeps the world's orientation.
pub const ATTACHMENT_FLAG_WORLD_ALIGN: u32 = 0x10000;

/// One attachment point.
#[derive(Clone, Debug, PartialEq)]
pub struct Attachment {
    /// Its name.
    pub name: String,
    /// `ATTACHMENT_FLAG_*`.
    pub flags: u32,
    /// The bone it is attached to.
    pub bone: Option<usize>,
    /// Its 3×4 matrix in the bone's space, by rows.
    pub local: [[f32; 4]; 3],
}

/// The header's table of `mstudioattachment_t`, checked to lie in the file.
pub(crate) fn table<'a>(file: &FileData<'a>, raw: &RawHeader) -> Result<Table<'a, RawAttachment>> {
    file.table(
        Record::Attachment,
        None,
        0,
        "numlocalattachments",
        raw.numlocalattachments,
        "localattachmentindex",
        raw.localattachmentindex,
    )
}

/// The attachments; a name that cannot be read is a warning and reads as empty.
pub(crate) fn parse(
    file: &FileData<'_>,
    raw: &RawHeader,
    num_bones: usize,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Attachment>> {
    let table = table(file, raw)?;
    let mut out = Vec::with_capacity(table.len());
    for (i, at, a) in table.iter() {
        out.push(Attachment {
            name: file.optional_name(Record::Attachment, Some(i), at, "sznameindex", a.sznameindex, warnings),
            flags: a.flags,
            bone: reference(
                file,
                (Record::Attachment, Some(i), at),
                "localbone",
                a.localbone,
                "bone",
                num_bones,
            )?,
            local: a.local,
        });
    }
    Ok(out)
}
