//! Writing edited values back into a `.mdl` in place: the same file with only the fields that
//! changed rewritten, every record where it was and every other byte as it was.
//!
//! What can be written this way is what has a fixed place in its record
//! (`source-bones.md`, `source-animation.md`, `source-header.md`): the header's eye position,
//! hull and view box (`studiohdr_t`); bone controllers' bone, type, range, rest and input
//! (`mstudiobonecontroller_t`); hit boxes' bone, group and box (`mstudiobbox_t`); attachments'
//! flags, bone and matrix (`mstudioattachment_t`); sequences' flags and activity weight
//! (`mstudioseqdesc_t`), their events' cycle, event, type and options (`mstudioevent_t`, whose
//! options are a 64-byte field); animations' frame rate (`mstudioanimdesc_t`). A changed name,
//! activity name or count needs a new layout — strings are pooled and tables packed — so it is
//! refused with [`InPlaceError::NeedsRebuild`], and the caller offers a QC rebuild instead.

use std::mem::offset_of;

use bytemuck::Pod;

use crate::error::{FileRole, Record};
use crate::model::SourceModel;
use crate::raw::*;
use crate::reader::FileData;

/// Why edits cannot be written in place.
#[derive(Debug, thiserror::Error)]
pub enum InPlaceError {
    /// The original file no longer reads.
    #[error(transparent)]
    Read(#[from] crate::Error),
    /// An edit changes the layout (a count or a name); it needs a rebuild from QC.
    #[error("{0} changed: that needs a new layout (a QC rebuild), not an in-place write")]
    NeedsRebuild(String),
}

/// Rewrites, in a copy of `bytes` (the `.mdl` `original` was read from), every field in which
/// `edited` differs from `original`. Fields compare by their bits, so an unchanged NaN stays.
pub fn write_in_place(
    bytes: &[u8],
    original: &SourceModel,
    edited: &SourceModel,
) -> Result<Vec<u8>, InPlaceError> {
    let file = FileData::new(bytes, FileRole::Mdl);
    let (raw, _, _) = crate::header::parse(&file)?;
    let mut out = Patch { bytes: bytes.to_vec() };
    header(&mut out, original, edited);
    controllers(&file, &raw, &mut out, original, edited)?;
    hitboxes(&file, &raw, &mut out, original, edited)?;
    attachments(&file, &raw, &mut out, original, edited)?;
    sequences(&file, &raw, &mut out, original, edited)?;
    animations(&file, &raw, &mut out, original, edited)?;
    Ok(out.bytes)
}

/// The copy being patched.
struct Patch {
    bytes: Vec<u8>,
}

impl Patch {
    /// Writes `value` at `at` (an offset the reader has already checked to lie in the file).
    fn put<T: Pod>(&mut self, at: u64, value: &T) {
        let source = bytemuck::bytes_of(value);
        let start = usize::try_from(at).unwrap_or(usize::MAX);
        if let Some(slot) = start.checked_add(source.len()).and_then(|end| self.bytes.get_mut(start..end)) {
            slot.copy_from_slice(source);
        }
    }

    /// Writes `new` at `base + field` when its bits differ from `old`.
    fn field<T: Pod + PartialEq>(&mut self, base: u64, field: usize, old: &T, new: &T) {
        if bytemuck::bytes_of(old) != bytemuck::bytes_of(new) {
            self.put(base + field as u64, new);
        }
    }
}

fn same_count(what: &str, original: usize, edited: usize) -> Result<(), InPlaceError> {
    if original == edited { Ok(()) } else { Err(InPlaceError::NeedsRebuild(format!("the number of {what}"))) }
}

fn same_name(what: String, original: &str, edited: &str) -> Result<(), InPlaceError> {
    if original == edited { Ok(()) } else { Err(InPlaceError::NeedsRebuild(what)) }
}

fn index(value: Option<usize>) -> i32 {
    value.and_then(|v| i32::try_from(v).ok()).unwrap_or(-1)
}

fn header(out: &mut Patch, original: &SourceModel, edited: &SourceModel) {
    let (o, e) = (&original.header, &edited.header);
    out.field(0, offset_of!(RawHeader, eyeposition), &o.eye_position.to_array(), &e.eye_position.to_array());
    out.field(0, offset_of!(RawHeader, hull_min), &o.hull.0.to_array(), &e.hull.0.to_array());
    out.field(0, offset_of!(RawHeader, hull_max), &o.hull.1.to_array(), &e.hull.1.to_array());
    out.field(0, offset_of!(RawHeader, view_bbmin), &o.view_box.0.to_array(), &e.view_box.0.to_array());
    out.field(0, offset_of!(RawHeader, view_bbmax), &o.view_box.1.to_array(), &e.view_box.1.to_array());
}

fn controllers(
    file: &FileData<'_>,
    raw: &RawHeader,
    out: &mut Patch,
    original: &SourceModel,
    edited: &SourceModel,
) -> Result<(), InPlaceError> {
    same_count("bone controllers", original.bone_controllers.len(), edited.bone_controllers.len())?;
    let table = file.table::<RawBoneController>(
        Record::BoneController,
        None,
        0,
        "numbonecontrollers",
        raw.numbonecontrollers,
        "bonecontrollerindex",
        raw.bonecontrollerindex,
    )?;
    for ((_, at, _), (o, e)) in
        table.iter().zip(original.bone_controllers.iter().zip(&edited.bone_controllers))
    {
        out.field(at, offset_of!(RawBoneController, bone), &o.bone, &e.bone);
        out.field(at, offset_of!(RawBoneController, kind), &o.kind, &e.kind);
        out.field(at, offset_of!(RawBoneController, start), &o.start, &e.start);
        out.field(at, offset_of!(RawBoneController, end), &o.end, &e.end);
        out.field(at, offset_of!(RawBoneController, rest), &o.rest, &e.rest);
        out.field(at, offset_of!(RawBoneController, inputfield), &o.input, &e.input);
    }
    Ok(())
}

fn hitboxes(
    file: &FileData<'_>,
    raw: &RawHeader,
    out: &mut Patch,
    original: &SourceModel,
    edited: &SourceModel,
) -> Result<(), InPlaceError> {
    same_count("hit box sets", original.hitbox_sets.len(), edited.hitbox_sets.len())?;
    let sets = file.table::<RawHitboxSet>(
        Record::HitboxSet,
        None,
        0,
        "numhitboxsets",
        raw.numhitboxsets,
        "hitboxsetindex",
        raw.hitboxsetindex,
    )?;
    for ((s, set_at, set), (o, e)) in sets.iter().zip(original.hitbox_sets.iter().zip(&edited.hitbox_sets)) {
        same_name(format!("hit box set {s}'s name"), &o.name, &e.name)?;
        same_count(&format!("hit boxes in set {s}"), o.hitboxes.len(), e.hitboxes.len())?;
        let boxes = file.table::<RawHitbox>(
            Record::Hitbox,
            Some(s),
            set_at,
            "numhitboxes",
            set.numhitboxes,
            "hitboxindex",
            set.hitboxindex,
        )?;
        for ((i, at, _), (o, e)) in boxes.iter().zip(o.hitboxes.iter().zip(&e.hitboxes)) {
            same_name(format!("hit box {i}'s name (set {s})"), &o.name, &e.name)?;
            out.field(at, offset_of!(RawHitbox, bone), &index(Some(o.bone)), &index(Some(e.bone)));
            out.field(at, offset_of!(RawHitbox, group), &o.group, &e.group);
            out.field(at, offset_of!(RawHitbox, bbmin), &o.bbmin.to_array(), &e.bbmin.to_array());
            out.field(at, offset_of!(RawHitbox, bbmax), &o.bbmax.to_array(), &e.bbmax.to_array());
        }
    }
    Ok(())
}

fn attachments(
    file: &FileData<'_>,
    raw: &RawHeader,
    out: &mut Patch,
    original: &SourceModel,
    edited: &SourceModel,
) -> Result<(), InPlaceError> {
    same_count("attachments", original.attachments.len(), edited.attachments.len())?;
    let table = file.table::<RawAttachment>(
        Record::Attachment,
        None,
        0,
        "numlocalattachments",
        raw.numlocalattachments,
        "localattachmentindex",
        raw.localattachmentindex,
    )?;
    for ((i, at, _), (o, e)) in table.iter().zip(original.attachments.iter().zip(&edited.attachments)) {
        same_name(format!("attachment {i}'s name"), &o.name, &e.name)?;
        out.field(at, offset_of!(RawAttachment, flags), &o.flags, &e.flags);
        // The file's own value stays for an unchanged bone (it may be any negative number).
        if o.bone != e.bone {
            out.put(at + offset_of!(RawAttachment, localbone) as u64, &index(e.bone));
        }
        out.field(at, offset_of!(RawAttachment, local), &o.local, &e.local);
    }
    Ok(())
}

fn sequences(
    file: &FileData<'_>,
    raw: &RawHeader,
    out: &mut Patch,
    original: &SourceModel,
    edited: &SourceModel,
) -> Result<(), InPlaceError> {
    same_count("sequences", original.sequences.len(), edited.sequences.len())?;
    let table = file.table::<RawSeqDesc>(
        Record::Sequence,
        None,
        0,
        "numlocalseq",
        raw.numlocalseq,
        "localseqindex",
        raw.localseqindex,
    )?;
    for ((i, at, seq), (o, e)) in table.iter().zip(original.sequences.iter().zip(&edited.sequences)) {
        same_name(format!("sequence {i}'s name"), &o.label, &e.label)?;
        same_name(format!("sequence {i}'s activity"), &o.activity_name, &e.activity_name)?;
        out.field(at, offset_of!(RawSeqDesc, flags), &o.flags, &e.flags);
        out.field(at, offset_of!(RawSeqDesc, actweight), &o.activity_weight, &e.activity_weight);
        same_count(&format!("events of sequence {i}"), o.events.len(), e.events.len())?;
        let events = file.table::<RawEvent>(
            Record::Event,
            Some(i),
            at,
            "numevents",
            seq.numevents,
            "eventindex",
            seq.eventindex,
        )?;
        for ((j, event_at, event), (o, e)) in events.iter().zip(o.events.iter().zip(&e.events)) {
            same_name(format!("event {j}'s name (sequence {i})"), &o.name, &e.name)?;
            out.field(event_at, offset_of!(RawEvent, cycle), &o.cycle, &e.cycle);
            out.field(event_at, offset_of!(RawEvent, event), &o.event, &e.event);
            out.field(event_at, offset_of!(RawEvent, kind), &o.kind, &e.kind);
            if o.options != e.options {
                let options = options_field(&e.options, &event.options).ok_or_else(|| {
                    InPlaceError::NeedsRebuild(format!("event {j}'s options (sequence {i}), over 63 bytes,"))
                })?;
                out.put(event_at + offset_of!(RawEvent, options) as u64, &options);
            }
        }
    }
    Ok(())
}

/// The 64-byte options field holding `text` (NUL-terminated, the rest zero), or `None` when it
/// does not fit. `old` is the field as it was, kept when the text is the same.
fn options_field(text: &str, old: &[u8; 64]) -> Option<[u8; 64]> {
    if studio_bytes::name(old) == text {
        return Some(*old);
    }
    let bytes = text.as_bytes();
    if bytes.len() > 63 {
        return None;
    }
    let mut field = [0u8; 64];
    field[..bytes.len()].copy_from_slice(bytes);
    Some(field)
}

fn animations(
    file: &FileData<'_>,
    raw: &RawHeader,
    out: &mut Patch,
    original: &SourceModel,
    edited: &SourceModel,
) -> Result<(), InPlaceError> {
    same_count("animations", original.animations.len(), edited.animations.len())?;
    let table = file.table::<RawAnimDesc>(
        Record::Animation,
        None,
        0,
        "numlocalanim",
        raw.numlocalanim,
        "localanimindex",
        raw.localanimindex,
    )?;
    for ((_, at, _), (o, e)) in table.iter().zip(original.animations.iter().zip(&edited.animations)) {
        out.field(at, offset_of!(RawAnimDesc, fps), &o.fps, &e.fps);
    }
    Ok(())
}
