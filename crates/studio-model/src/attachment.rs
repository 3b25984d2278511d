//! Attachments, `mstudioattachment_t` (goldsrc-skeleton.md, "Attachments").

use glam::Vec3;

use crate::bone::bone_index;
use crate::error::{Record, Result};
use crate::raw::{RawAttachment, RawHeader};
use crate::reader::{FileData, name, table};

/// A point fixed to a bone, such as a gun's muzzle; the game asks for it by number.
#[derive(Clone, Debug, PartialEq)]
pub struct Attachment {
    /// Name; usually empty, since the game uses the number.
    pub name: String,
    /// The `type` field; unused.
    pub kind: i32,
    /// The bone it is fixed to (valid index).
    pub bone: usize,
    /// Position in the bone's space.
    pub org: Vec3,
    /// Direction vectors; unused and usually 0.
    pub vectors: [Vec3; 3],
}

pub(crate) fn read_attachments(
    file: &FileData<'_>,
    header: &RawHeader,
    num_bones: usize,
) -> Result<Vec<Attachment>> {
    let table =
        file.table::<RawAttachment>(Record::Attachment, table!(header, numattachments, attachmentindex))?;
    table
        .iter()
        .map(|(index, offset, raw)| {
            Ok(Attachment {
                name: name(&raw.name),
                kind: raw.kind,
                bone: bone_index(file, Record::Attachment, index, offset, raw.bone, num_bones)?,
                org: Vec3::from_array(raw.org),
                vectors: raw.vectors.map(Vec3::from_array),
            })
        })
        .collect()
}
