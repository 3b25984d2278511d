//! The editable records of a version 10 model (`goldsrc-structures.md`): the header's eye
//! position and boxes, hit boxes, attachments, sequence settings, texture flags and bone
//! controllers' range and rest. Each edit replaces one record whole, so undo puts it back whole.

use glam::Vec3;
use studio_model::{Attachment, BoneController, Event, Hitbox, Model};

use super::history::{Change, Records};
use super::texture::TextureImage;
use super::texture::import::set_texture_image;

/// The header fields that can be edited (`studiohdr_t`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelBoxes {
    /// `eyeposition`.
    pub eye_position: Vec3,
    /// `min`, `max`: the hull (`$cbox`).
    pub hull: (Vec3, Vec3),
    /// `bbmin`, `bbmax`: the view box (`$bbox`).
    pub view: (Vec3, Vec3),
}

/// A sequence's settings that can be edited (`mstudioseqdesc_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceSettings {
    /// Frames per second.
    pub fps: f32,
    /// Flags (`STUDIO_LOOPING`).
    pub flags: i32,
    /// Activity number.
    pub activity: i32,
    /// Activity weight.
    pub activity_weight: i32,
    /// Events.
    pub events: Vec<Event>,
}

/// One editable record of a version 10 model, with its place.
#[derive(Clone, Debug, PartialEq)]
pub enum GoldRecord {
    /// The header's eye position and boxes.
    Boxes(ModelBoxes),
    /// Hit box N.
    Hitbox(usize, Hitbox),
    /// Attachment N.
    Attachment(usize, Attachment),
    /// Sequence N's settings.
    Sequence(usize, SequenceSettings),
    /// Texture N's flags.
    TextureFlags(usize, i32),
    /// Texture N's name.
    TextureName(usize, String),
    /// The whole model: a transform, or normals flipped, changes it throughout.
    Whole(Box<Model>),
    /// Texture N's pixels, palette and size, with the texture coordinates of its meshes (an
    /// imported picture).
    TextureImage(usize, Box<TextureImage>),
    /// Bone controller N.
    Controller(usize, BoneController),
}

impl GoldRecord {
    /// The header's record as it is in `model`.
    pub fn boxes(model: &Model) -> Self {
        let h = &model.header;
        GoldRecord::Boxes(ModelBoxes {
            eye_position: h.eye_position,
            hull: (h.min, h.max),
            view: (h.bbmin, h.bbmax),
        })
    }

    /// Sequence `index`'s settings as they are in `model`.
    pub fn sequence(model: &Model, index: usize) -> Option<Self> {
        let s = model.sequences.get(index)?;
        Some(GoldRecord::Sequence(
            index,
            SequenceSettings {
                fps: s.fps,
                flags: s.flags,
                activity: s.activity,
                activity_weight: s.activity_weight,
                events: s.events.clone(),
            },
        ))
    }
}

/// Whether a record can stand in `model`: its bone exists.
fn valid(model: &Model, record: &GoldRecord) -> bool {
    let bones = model.bones.len();
    match record {
        GoldRecord::Hitbox(_, h) => h.bone < bones,
        GoldRecord::Attachment(_, a) => a.bone < bones,
        GoldRecord::Controller(_, c) => c.bone < bones,
        _ => true,
    }
}

fn set(model: &mut Model, record: &GoldRecord) -> bool {
    match record.clone() {
        GoldRecord::Boxes(b) => {
            let h = &mut model.header;
            h.eye_position = b.eye_position;
            (h.min, h.max) = b.hull;
            (h.bbmin, h.bbmax) = b.view;
            true
        }
        GoldRecord::Hitbox(i, h) => model.hitboxes.get_mut(i).map(|slot| *slot = h).is_some(),
        GoldRecord::Attachment(i, a) => model.attachments.get_mut(i).map(|slot| *slot = a).is_some(),
        GoldRecord::Sequence(i, s) => model
            .sequences
            .get_mut(i)
            .map(|slot| {
                slot.fps = s.fps;
                slot.flags = s.flags;
                slot.activity = s.activity;
                slot.activity_weight = s.activity_weight;
                slot.events = s.events;
            })
            .is_some(),
        GoldRecord::TextureFlags(i, flags) => model.textures.get_mut(i).map(|t| t.flags = flags).is_some(),
        GoldRecord::TextureName(i, name) => model.textures.get_mut(i).map(|t| t.name = name).is_some(),
        GoldRecord::TextureImage(i, image) => set_texture_image(model, i, &image),
        GoldRecord::Whole(whole) => {
            *model = *whole;
            true
        }
        GoldRecord::Controller(i, c) => model.bone_controllers.get_mut(i).map(|slot| *slot = c).is_some(),
    }
}

fn insert(model: &mut Model, record: &GoldRecord) -> bool {
    match record.clone() {
        GoldRecord::Hitbox(i, h) if i <= model.hitboxes.len() => model.hitboxes.insert(i, h),
        GoldRecord::Attachment(i, a) if i <= model.attachments.len() => model.attachments.insert(i, a),
        _ => return false,
    }
    true
}

fn remove(model: &mut Model, record: &GoldRecord) -> bool {
    match *record {
        GoldRecord::Hitbox(i, _) if i < model.hitboxes.len() => drop(model.hitboxes.remove(i)),
        GoldRecord::Attachment(i, _) if i < model.attachments.len() => drop(model.attachments.remove(i)),
        _ => return false,
    }
    true
}

impl Records for Model {
    type Record = GoldRecord;

    fn apply(&mut self, change: &Change<GoldRecord>) -> bool {
        match change {
            Change::Set { after, .. } => valid(self, after) && set(self, after),
            Change::Insert(r) => valid(self, r) && insert(self, r),
            Change::Remove(r) => remove(self, r),
        }
    }

    /// Texture flags and pixels, a hit box's group (its colour) and the number of boxes and attachments
    /// (the overlay's space).
    fn changes_upload(change: &Change<GoldRecord>) -> bool {
        match change {
            Change::Set {
                after: GoldRecord::TextureFlags(..) | GoldRecord::TextureImage(..) | GoldRecord::Whole(..),
                ..
            } => true,
            Change::Set { before: GoldRecord::Hitbox(_, a), after: GoldRecord::Hitbox(_, b) } => {
                a.group != b.group
            }
            Change::Set { .. } => false,
            Change::Insert(_) | Change::Remove(_) => true,
        }
    }

    fn same_place(a: &GoldRecord, b: &GoldRecord) -> bool {
        use GoldRecord::*;
        match (a, b) {
            (Boxes(_), Boxes(_)) | (Whole(_), Whole(_)) => true,
            (Hitbox(i, _), Hitbox(j, _))
            | (Attachment(i, _), Attachment(j, _))
            | (Sequence(i, _), Sequence(j, _))
            | (TextureFlags(i, _), TextureFlags(j, _))
            | (TextureName(i, _), TextureName(j, _))
            | (TextureImage(i, _), TextureImage(j, _))
            | (Controller(i, _), Controller(j, _)) => i == j,
            _ => false,
        }
    }
}
