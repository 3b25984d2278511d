//! Hit boxes, `mstudiobbox_t` (goldsrc-skeleton.md, "Hit boxes").

use glam::Vec3;

use crate::bone::bone_index;
use crate::error::{Record, Result};
use crate::raw::{RawHeader, RawHitbox};
use crate::reader::{FileData, table};

/// Half-Life's hit group names (monsters.h), indexed by group number.
pub const HIT_GROUP_NAMES: [&str; 8] =
    ["generic", "head", "chest", "stomach", "left arm", "right arm", "left leg", "right leg"];

/// The name Half-Life's game code gives a hit group, if it is one of the standard eight.
pub fn hit_group_name(group: i32) -> Option<&'static str> {
    usize::try_from(group).ok().and_then(|g| HIT_GROUP_NAMES.get(g).copied())
}

/// A box that moves with its bone and is used to test where a shot hits.
#[derive(Clone, Debug, PartialEq)]
pub struct Hitbox {
    /// The bone it follows (valid index).
    pub bone: usize,
    /// Hit group; its meaning belongs to the game ([`hit_group_name`]).
    pub group: i32,
    /// Lower corner, in the bone's space.
    pub bbmin: Vec3,
    /// Upper corner, in the bone's space.
    pub bbmax: Vec3,
}

pub(crate) fn read_hitboxes(
    file: &FileData<'_>,
    header: &RawHeader,
    num_bones: usize,
) -> Result<Vec<Hitbox>> {
    let table = file.table::<RawHitbox>(Record::Hitbox, table!(header, numhitboxes, hitboxindex))?;
    table
        .iter()
        .map(|(index, offset, raw)| {
            Ok(Hitbox {
                bone: bone_index(file, Record::Hitbox, index, offset, raw.bone, num_bones)?,
                group: raw.group,
                bbmin: Vec3::from_array(raw.bbmin),
                bbmax: Vec3::from_array(raw.bbmax),
            })
        })
        .collect()
}
