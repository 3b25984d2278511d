//! The editable records of a Source model (`source-bones.md`, `source-animation.md`): the
//! header's eye position, hull and view box, hit boxes (per set), attachments, sequence
//! settings and bone controllers. Only the main model's records are edited, not its include
//! models'.

use glam::Vec3;
use studio_source::{Attachment, BoneController, Event, Hitbox, SourceModel};

use super::history::{Change, Records};

/// The header fields that can be edited (`studiohdr_t`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SourceBoxes {
    /// `eyeposition`.
    pub eye_position: Vec3,
    /// `hull_min`, `hull_max` (`$cbox`).
    pub hull: (Vec3, Vec3),
    /// `view_bbmin`, `view_bbmax` (`$bbox`).
    pub view: (Vec3, Vec3),
}

/// A sequence's settings that can be edited (`mstudioseqdesc_t`, and the frame rate of its
/// animations, `mstudioanimdesc_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct SourceSequenceSettings {
    /// Frames per second of its animations (all of them take the value).
    pub fps: f32,
    /// Flags (`STUDIO_LOOPING`).
    pub flags: i32,
    /// Activity name.
    pub activity_name: String,
    /// Activity weight.
    pub activity_weight: i32,
    /// Events.
    pub events: Vec<Event>,
}

/// One editable record of a Source model, with its place.
#[derive(Clone, Debug, PartialEq)]
pub enum SourceRecord {
    /// The header's eye position and boxes.
    Boxes(SourceBoxes),
    /// Hit box N of set S: `(S, N, box)`.
    Hitbox(usize, usize, Hitbox),
    /// Attachment N.
    Attachment(usize, Attachment),
    /// Sequence N's settings (the main model's sequences).
    Sequence(usize, SourceSequenceSettings),
    /// Bone controller N.
    Controller(usize, BoneController),
}

impl SourceRecord {
    /// The header's record as it is in `model`.
    pub fn boxes(model: &SourceModel) -> Self {
        let h = &model.header;
        SourceRecord::Boxes(SourceBoxes { eye_position: h.eye_position, hull: h.hull, view: h.view_box })
    }

    /// Sequence `index`'s settings as they are in `model`.
    pub fn sequence(model: &SourceModel, index: usize) -> Option<Self> {
        let s = model.sequences.get(index)?;
        let fps = s.animations.first().and_then(|&a| model.animations.get(a)).map_or(30.0, |a| a.fps);
        Some(SourceRecord::Sequence(
            index,
            SourceSequenceSettings {
                fps,
                flags: s.flags,
                activity_name: s.activity_name.clone(),
                activity_weight: s.activity_weight,
                events: s.events.clone(),
            },
        ))
    }
}

fn valid(model: &SourceModel, record: &SourceRecord) -> bool {
    let bones = model.bones.len();
    match record {
        SourceRecord::Hitbox(_, _, h) => h.bone < bones,
        SourceRecord::Attachment(_, a) => a.bone.is_none_or(|b| b < bones),
        SourceRecord::Controller(_, c) => usize::try_from(c.bone).is_ok_and(|b| b < bones),
        _ => true,
    }
}

fn set(model: &mut SourceModel, record: &SourceRecord) -> bool {
    match record.clone() {
        SourceRecord::Boxes(b) => {
            let h = &mut model.header;
            (h.eye_position, h.hull, h.view_box) = (b.eye_position, b.hull, b.view);
            true
        }
        SourceRecord::Hitbox(s, i, h) => model
            .hitbox_sets
            .get_mut(s)
            .and_then(|set| set.hitboxes.get_mut(i))
            .map(|slot| *slot = h)
            .is_some(),
        SourceRecord::Attachment(i, a) => model.attachments.get_mut(i).map(|slot| *slot = a).is_some(),
        SourceRecord::Sequence(i, s) => {
            let Some(seq) = model.sequences.get_mut(i) else { return false };
            seq.flags = s.flags;
            seq.activity_name = s.activity_name;
            seq.activity_weight = s.activity_weight;
            seq.events = s.events;
            let animations = seq.animations.clone();
            for a in animations {
                if let Some(animation) = model.animations.get_mut(a) {
                    animation.fps = s.fps;
                }
            }
            true
        }
        SourceRecord::Controller(i, c) => model.bone_controllers.get_mut(i).map(|slot| *slot = c).is_some(),
    }
}

fn insert(model: &mut SourceModel, record: &SourceRecord) -> bool {
    match record.clone() {
        SourceRecord::Hitbox(s, i, h) => match model.hitbox_sets.get_mut(s) {
            Some(set) if i <= set.hitboxes.len() => set.hitboxes.insert(i, h),
            _ => return false,
        },
        SourceRecord::Attachment(i, a) if i <= model.attachments.len() => model.attachments.insert(i, a),
        _ => return false,
    }
    true
}

fn remove(model: &mut SourceModel, record: &SourceRecord) -> bool {
    match *record {
        SourceRecord::Hitbox(s, i, _) => match model.hitbox_sets.get_mut(s) {
            Some(set) if i < set.hitboxes.len() => drop(set.hitboxes.remove(i)),
            _ => return false,
        },
        SourceRecord::Attachment(i, _) if i < model.attachments.len() => drop(model.attachments.remove(i)),
        _ => return false,
    }
    true
}

impl Records for SourceModel {
    type Record = SourceRecord;

    fn apply(&mut self, change: &Change<SourceRecord>) -> bool {
        match change {
            Change::Set { after, .. } => valid(self, after) && set(self, after),
            Change::Insert(r) => valid(self, r) && insert(self, r),
            Change::Remove(r) => remove(self, r),
        }
    }

    /// A hit box's group (its colour) and the number of boxes and attachments (the overlay's
    /// space).
    fn changes_upload(change: &Change<SourceRecord>) -> bool {
        match change {
            Change::Set { before: SourceRecord::Hitbox(_, _, a), after: SourceRecord::Hitbox(_, _, b) } => {
                a.group != b.group
            }
            Change::Set { .. } => false,
            Change::Insert(_) | Change::Remove(_) => true,
        }
    }

    fn same_place(a: &SourceRecord, b: &SourceRecord) -> bool {
        use SourceRecord::*;
        match (a, b) {
            (Boxes(_), Boxes(_)) => true,
            (Hitbox(s, i, _), Hitbox(t, j, _)) => (s, i) == (t, j),
            (Attachment(i, _), Attachment(j, _))
            | (Sequence(i, _), Sequence(j, _))
            | (Controller(i, _), Controller(j, _)) => i == j,
            _ => false,
        }
    }
}
