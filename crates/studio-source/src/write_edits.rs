//! Writing edited values back into a `.mdl`: the same file with only what changed rewritten.
//!
//! A value with a fixed place in its record is rewritten where it is
//! (`source-bones.md`, `source-animation.md`, `source-header.md`): the header's eye position,
//! hull and view box (`studiohdr_t`); bone controllers' bone, type, range, rest and input
//! (`mstudiobonecontroller_t`); hit boxes' bone, group and box (`mstudiobbox_t`); attachments'
//! flags, bone and matrix (`mstudioattachment_t`); sequences' flags and activity weight
//! (`mstudioseqdesc_t`) and their events' cycle, event, type and options (`mstudioevent_t`,
//! whose options are a 64-byte field); animations' frame rate (`mstudioanimdesc_t`).
//!
//! What does not fit where it was — a table with records added or removed, a new name — is
//! written after the file's end: the whole table again (its records in their order, each name
//! after it, every offset pointing forward as studiomdl writes them) or the new name, and the
//! offsets and counts that find it are rewritten in place; `length` becomes the new size. The
//! old table stays where it was, unreferenced. Everything the reader reads then has the edited
//! value, and every other byte of the original file is as it was. That covers hit boxes (per
//! set) and attachments added, removed or renamed, hit box sets renamed, a sequence's activity
//! renamed, events added, removed or renamed, the `.ani` file renamed; the second header's
//! illumination attachment follows its attachment by name. Changing the number of hit box
//! sets, sequences, animations or bone controllers, or removing the illumination attachment, is
//! refused with
//! [`EditWriteError::NeedsRebuild`].

use std::mem::offset_of;

use bytemuck::{Pod, Zeroable};

use crate::error::FileRole;
use crate::model::SourceModel;
use crate::raw::*;
use crate::reader::FileData;

/// Why edits cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum EditWriteError {
    /// The original file no longer reads.
    #[error(transparent)]
    Read(#[from] crate::Error),
    /// An edit changes what only a rebuild from QC can.
    #[error("{0} changed: that needs a QC rebuild")]
    NeedsRebuild(String),
    /// The file would outgrow its 32-bit offsets.
    #[error("the edited file would be larger than 2 GiB")]
    TooLarge,
    /// The file's records overlap, so writing one value changed another: the written file
    /// did not read back with the edits (and was not kept).
    #[error(
        "the file's records overlap, so the edits cannot be written without changing other values: rebuild it from QC"
    )]
    Overlapping,
}

type Result<T> = std::result::Result<T, EditWriteError>;

/// Rewrites, in a copy of `bytes` (the `.mdl` `original` was read from), every field in which
/// `edited` differs from `original`, moving tables that changed size and new names to the end.
/// Fields compare by their bits, so an unchanged NaN stays.
pub fn write_edits(bytes: &[u8], original: &SourceModel, edited: &SourceModel) -> Result<Vec<u8>> {
    let file = FileData::new(bytes, FileRole::Mdl);
    let (raw, raw2, _) = crate::header::parse(&file, &mut Vec::new())?;
    let out = Out { bytes: bytes.to_vec(), end: bytes.len() };
    let mut edit = Edit { file, raw, out, original, edited };
    header(&mut edit.out, original, edited)?;
    controllers(&mut edit)?;
    hitboxes(&mut edit)?;
    attachments(&mut edit)?;
    if let Some(raw2) = raw2 {
        illumination_attachment(&raw, &raw2, &mut edit.out, original, edited)?;
    }
    sequences(&mut edit)?;
    animations(&mut edit)?;
    let mut out = edit.out;
    if out.bytes.len() != out.end {
        let length = i32::try_from(out.bytes.len()).map_err(|_| EditWriteError::TooLarge)?;
        out.put(offset_of!(RawHeader, length) as u64, &length);
    }
    if bytes != out.bytes.as_slice() {
        check(bytes, &out.bytes, edited)?;
    }
    Ok(out.bytes)
}

/// Reads the written file back and compares what was edited with `edited` (as text, so that a
/// NaN equals itself). A file whose records overlap (a mutated or hand-made one) can have one
/// field inside another; then the write changed more than it meant to.
fn check(before: &[u8], written: &[u8], edited: &SourceModel) -> Result<()> {
    let text = |m: &SourceModel| {
        let fps: Vec<f32> = m.animations.iter().map(|a| a.fps).collect();
        let (boxes, ani) = ((m.header.eye_position, m.header.hull, m.header.view_box), &m.header.ani_name);
        format!(
            "{boxes:?}{ani}{:?}{:?}{:?}{:?}{fps:?}",
            m.bone_controllers, m.hitbox_sets, m.attachments, m.sequences
        )
    };
    let same = matches!(crate::parse_mdl(written), Ok(reread) if text(&reread) == text(edited));
    // A file that does not read on its own (only with its companions) cannot be checked so; the
    // original is read again only then.
    if same || crate::parse_mdl(before).is_err() { Ok(()) } else { Err(EditWriteError::Overlapping) }
}

/// What the writers of each table work from: the original file (read again), its header,
/// the copy being written, and the model before and after the edits.
struct Edit<'a> {
    file: FileData<'a>,
    raw: RawHeader,
    out: Out,
    original: &'a SourceModel,
    edited: &'a SourceModel,
}

/// The copy being written.
struct Out {
    bytes: Vec<u8>,
    /// The original file's length.
    end: usize,
}

impl Out {
    /// Writes `value` at `at` (an offset the reader has checked, or one this writer appended).
    fn put<T: Pod>(&mut self, at: u64, value: &T) {
        let source = bytemuck::bytes_of(value);
        let start = usize::try_from(at).unwrap_or(usize::MAX);
        if let Some(slot) = start.checked_add(source.len()).and_then(|end| self.bytes.get_mut(start..end)) {
            slot.copy_from_slice(source);
        }
    }

    /// Writes `new` at `base + field` when its bits differ from `old`.
    fn field<T: Pod>(&mut self, base: u64, field: usize, old: &T, new: &T) {
        if bytemuck::bytes_of(old) != bytemuck::bytes_of(new) {
            self.put(base + field as u64, new);
        }
    }

    /// Points the record at `base` at a table of `count` records at `table_at`: its count field
    /// and its offset field (from the record), at `fields` within it.
    fn point_at(&mut self, base: u64, fields: (usize, usize), count: usize, table_at: u64) -> Result<()> {
        let count = i32::try_from(count).map_err(|_| EditWriteError::TooLarge)?;
        self.put(base + fields.0 as u64, &count);
        self.put(base + fields.1 as u64, &relative(table_at, base)?);
        Ok(())
    }

    /// Appends `data` after the end, aligned to 4 bytes; returns where it starts.
    fn append(&mut self, data: &[u8]) -> Result<u64> {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        let at = self.bytes.len();
        self.bytes.extend_from_slice(data);
        if i32::try_from(self.bytes.len()).is_err() {
            return Err(EditWriteError::TooLarge);
        }
        Ok(at as u64)
    }

    /// Appends `count` zeroed records of `T`; returns where the first starts.
    fn append_records<T: Pod>(&mut self, count: usize) -> Result<u64> {
        let size = count.checked_mul(size_of::<T>()).ok_or(EditWriteError::TooLarge)?;
        if size > i32::MAX as usize {
            return Err(EditWriteError::TooLarge);
        }
        self.append(&vec![0; size])
    }

    /// Appends a NUL-terminated name; returns its offset from `base` (0 for an empty name,
    /// which the format reads as none).
    fn name(&mut self, text: &str, base: u64) -> Result<i32> {
        if text.is_empty() {
            return Ok(0);
        }
        let mut data = text.as_bytes().to_vec();
        data.push(0);
        let at = self.append(&data)?;
        relative(at, base)
    }
}

/// `target - base` as a record's int32 offset.
fn relative(target: u64, base: u64) -> Result<i32> {
    i32::try_from(i128::from(target) - i128::from(base)).map_err(|_| EditWriteError::TooLarge)
}

fn same_count(what: &str, original: usize, edited: usize) -> Result<()> {
    if original == edited {
        Ok(())
    } else {
        Err(EditWriteError::NeedsRebuild(format!("the number of {what}")))
    }
}

fn index(value: Option<usize>) -> i32 {
    value.and_then(|v| i32::try_from(v).ok()).unwrap_or(-1)
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

fn header(out: &mut Out, original: &SourceModel, edited: &SourceModel) -> Result<()> {
    let (o, e) = (&original.header, &edited.header);
    // The `.ani` file's name (a model saved under a new name names its own copy), from the
    // file's start.
    if o.ani_name != e.ani_name {
        let name = out.name(&e.ani_name, 0)?;
        out.put(offset_of!(RawHeader, szanimblocknameindex) as u64, &name);
    }
    out.field(0, offset_of!(RawHeader, eyeposition), &o.eye_position.to_array(), &e.eye_position.to_array());
    out.field(0, offset_of!(RawHeader, hull_min), &o.hull.0.to_array(), &e.hull.0.to_array());
    out.field(0, offset_of!(RawHeader, hull_max), &o.hull.1.to_array(), &e.hull.1.to_array());
    out.field(0, offset_of!(RawHeader, view_bbmin), &o.view_box.0.to_array(), &e.view_box.0.to_array());
    out.field(0, offset_of!(RawHeader, view_bbmax), &o.view_box.1.to_array(), &e.view_box.1.to_array());
    Ok(())
}

fn controllers(edit: &mut Edit<'_>) -> Result<()> {
    let Edit { file, raw, out, original, edited } = edit;
    same_count("bone controllers", original.bone_controllers.len(), edited.bone_controllers.len())?;
    let table = crate::bone_controller::table(file, raw)?;
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

fn hitboxes(edit: &mut Edit<'_>) -> Result<()> {
    let Edit { file, raw, out, original, edited } = edit;
    same_count("hit box sets", original.hitbox_sets.len(), edited.hitbox_sets.len())?;
    let sets = crate::hitbox::sets(file, raw)?;
    for ((s, set_at, set), (o, e)) in sets.iter().zip(original.hitbox_sets.iter().zip(&edited.hitbox_sets)) {
        if o.name != e.name {
            let name = out.name(&e.name, set_at)?;
            out.put(set_at + offset_of!(RawHitboxSet, sznameindex) as u64, &name);
        }
        let boxes = crate::hitbox::boxes(file, s, set_at, &set)?;
        let old: Vec<(u64, RawHitbox)> = boxes.iter().map(|(_, at, b)| (at, b)).collect();
        let renamed = o.hitboxes.iter().zip(&e.hitboxes).any(|(a, b)| a.name != b.name);
        if o.hitboxes.len() == e.hitboxes.len() && !renamed {
            for (&(at, _), (o, e)) in old.iter().zip(o.hitboxes.iter().zip(&e.hitboxes)) {
                out.field(at, offset_of!(RawHitbox, bone), &index(Some(o.bone)), &index(Some(e.bone)));
                out.field(at, offset_of!(RawHitbox, group), &o.group, &e.group);
                out.field(at, offset_of!(RawHitbox, bbmin), &o.bbmin.to_array(), &e.bbmin.to_array());
                out.field(at, offset_of!(RawHitbox, bbmax), &o.bbmax.to_array(), &e.bbmax.to_array());
            }
            continue;
        }
        // The set's table again, after the end, with each name after it.
        let table_at = out.append_records::<RawHitbox>(e.hitboxes.len())?;
        for (i, h) in e.hitboxes.iter().enumerate() {
            let at = table_at + (i * size_of::<RawHitbox>()) as u64;
            let mut record = RawHitbox::zeroed();
            record.unused = old.get(i).map_or([0; 8], |(_, r)| r.unused);
            record.bone = index(Some(h.bone));
            record.group = h.group;
            record.bbmin = h.bbmin.to_array();
            record.bbmax = h.bbmax.to_array();
            record.szhitboxnameindex = out.name(&h.name, at)?;
            out.put(at, &record);
        }
        let fields = (offset_of!(RawHitboxSet, numhitboxes), offset_of!(RawHitboxSet, hitboxindex));
        out.point_at(set_at, fields, e.hitboxes.len(), table_at)?;
    }
    Ok(())
}

fn attachments(edit: &mut Edit<'_>) -> Result<()> {
    let Edit { file, raw, out, original, edited } = edit;
    let table = crate::attachment::table(file, raw)?;
    let old: Vec<(u64, RawAttachment)> = table.iter().map(|(_, at, a)| (at, a)).collect();
    let (o, e) = (&original.attachments, &edited.attachments);
    let renamed = o.iter().zip(e).any(|(a, b)| a.name != b.name);
    if o.len() == e.len() && !renamed {
        for (&(at, _), (o, e)) in old.iter().zip(o.iter().zip(e)) {
            out.field(at, offset_of!(RawAttachment, flags), &o.flags, &e.flags);
            // The file's own value stays for an unchanged bone (it may be any negative number).
            if o.bone != e.bone {
                out.put(at + offset_of!(RawAttachment, localbone) as u64, &index(e.bone));
            }
            out.field(at, offset_of!(RawAttachment, local), &o.local, &e.local);
        }
        return Ok(());
    }
    let table_at = out.append_records::<RawAttachment>(e.len())?;
    for (i, a) in e.iter().enumerate() {
        let at = table_at + (i * size_of::<RawAttachment>()) as u64;
        let mut record = RawAttachment::zeroed();
        record.unused = old.get(i).map_or([0; 8], |(_, r)| r.unused);
        record.flags = a.flags;
        record.localbone = index(a.bone);
        record.local = a.local;
        record.sznameindex = out.name(&a.name, at)?;
        out.put(at, &record);
    }
    let count = i32::try_from(e.len()).map_err(|_| EditWriteError::TooLarge)?;
    let table_at = i32::try_from(table_at).map_err(|_| EditWriteError::TooLarge)?;
    out.put(offset_of!(RawHeader, numlocalattachments) as u64, &count);
    out.put(offset_of!(RawHeader, localattachmentindex) as u64, &table_at);
    Ok(())
}

/// `studiohdr2_t`'s `illumpositionattachmentindex` (1-based, 0 for none) follows its
/// attachment, found by name, when attachments were added or removed; an illumination
/// attachment that was removed needs a rebuild.
fn illumination_attachment(
    raw: &RawHeader,
    raw2: &RawHeader2,
    out: &mut Out,
    original: &SourceModel,
    edited: &SourceModel,
) -> Result<()> {
    let Some(old) = usize::try_from(raw2.illumpositionattachmentindex).ok().and_then(|i| i.checked_sub(1))
    else {
        return Ok(());
    };
    let Some(name) = original.attachments.get(old).map(|a| &a.name) else { return Ok(()) };
    let Some(new) = edited.attachments.iter().position(|a| &a.name == name) else {
        return Err(EditWriteError::NeedsRebuild(format!(
            "the illumination attachment {name} was removed, so it"
        )));
    };
    if new != old {
        let at = u64::try_from(raw.studiohdr2index).map_err(|_| EditWriteError::TooLarge)?;
        let index = i32::try_from(new + 1).map_err(|_| EditWriteError::TooLarge)?;
        out.put(at + offset_of!(RawHeader2, illumpositionattachmentindex) as u64, &index);
    }
    Ok(())
}

fn sequences(edit: &mut Edit<'_>) -> Result<()> {
    let Edit { file, raw, out, original, edited } = edit;
    same_count("sequences", original.sequences.len(), edited.sequences.len())?;
    let table = crate::sequence::table(file, raw)?;
    for ((i, at, seq), (o, e)) in table.iter().zip(original.sequences.iter().zip(&edited.sequences)) {
        if o.label != e.label {
            let name = out.name(&e.label, at)?;
            out.put(at + offset_of!(RawSeqDesc, szlabelindex) as u64, &name);
        }
        if o.activity_name != e.activity_name {
            let name = out.name(&e.activity_name, at)?;
            out.put(at + offset_of!(RawSeqDesc, szactivitynameindex) as u64, &name);
        }
        out.field(at, offset_of!(RawSeqDesc, flags), &o.flags, &e.flags);
        out.field(at, offset_of!(RawSeqDesc, actweight), &o.activity_weight, &e.activity_weight);
        let events = crate::sequence::events(file, i, at, &seq)?;
        let old: Vec<(u64, RawEvent)> = events.iter().map(|(_, at, e)| (at, e)).collect();
        let too_long = |j: usize| {
            EditWriteError::NeedsRebuild(format!("event {j}'s options (sequence {i}), over 63 bytes,"))
        };
        let renamed = o.events.iter().zip(&e.events).any(|(a, b)| a.name != b.name);
        if o.events.len() == e.events.len() && !renamed {
            for (j, (&(event_at, ref raw_event), (o, e))) in
                old.iter().zip(o.events.iter().zip(&e.events)).enumerate()
            {
                out.field(event_at, offset_of!(RawEvent, cycle), &o.cycle, &e.cycle);
                out.field(event_at, offset_of!(RawEvent, event), &o.event, &e.event);
                out.field(event_at, offset_of!(RawEvent, kind), &o.kind, &e.kind);
                if o.options != e.options {
                    let options = options_field(&e.options, &raw_event.options).ok_or_else(|| too_long(j))?;
                    out.put(event_at + offset_of!(RawEvent, options) as u64, &options);
                }
            }
            continue;
        }
        let table_at = out.append_records::<RawEvent>(e.events.len())?;
        for (j, event) in e.events.iter().enumerate() {
            let event_at = table_at + (j * size_of::<RawEvent>()) as u64;
            let mut record = RawEvent::zeroed();
            record.cycle = event.cycle;
            record.event = event.event;
            record.kind = event.kind;
            record.options = options_field(&event.options, &[0; 64]).ok_or_else(|| too_long(j))?;
            record.szeventindex = out.name(&event.name, event_at)?;
            out.put(event_at, &record);
        }
        let fields = (offset_of!(RawSeqDesc, numevents), offset_of!(RawSeqDesc, eventindex));
        out.point_at(at, fields, e.events.len(), table_at)?;
    }
    Ok(())
}

fn animations(edit: &mut Edit<'_>) -> Result<()> {
    let Edit { file, raw, out, original, edited } = edit;
    same_count("animations", original.animations.len(), edited.animations.len())?;
    let table = crate::animation::table(file, raw)?;
    for ((_, at, _), (o, e)) in table.iter().zip(original.animations.iter().zip(&edited.animations)) {
        out.field(at, offset_of!(RawAnimDesc, fps), &o.fps, &e.fps);
    }
    Ok(())
}
