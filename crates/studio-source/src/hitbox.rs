//! Hit box sets and their boxes (source-bones.md, "Hit boxes").

use glam::Vec3;
use studio_bytes::Table;

use crate::error::{Record, Result, Warning};
use crate::raw::{RawHeader, RawHitbox, RawHitboxSet};
use crate::reader::{FileData, required};

/// A named set of hit boxes.
#[derive(Clone, Debug, PartialEq)]
pub struct HitboxSet {
    /// Its name (`default` for the first).
    pub name: String,
    /// Its boxes.
    pub hitboxes: Vec<Hitbox>,
}

/// One hit box.
#[derive(Clone, Debug, PartialEq)]
pub struct Hitbox {
    /// The bone it follows.
    pub bone: usize,
    /// Intersection group.
    pub group: i32,
    /// Lower corner in the bone's space.
    pub bbmin: Vec3,
    /// Upper corner.
    pub bbmax: Vec3,
    /// Its name; empty when the file gives none.
    pub name: String,
}

/// The header's table of `mstudiohitboxset_t`, checked to lie in the file.
pub(crate) fn sets<'a>(file: &FileData<'a>, raw: &RawHeader) -> Result<Table<'a, RawHitboxSet>> {
    file.table(
        Record::HitboxSet,
        None,
        0,
        "numhitboxsets",
        raw.numhitboxsets,
        "hitboxsetindex",
        raw.hitboxsetindex,
    )
}

/// Set `s`'s (at `set_at`) table of `mstudiobbox_t`, checked to lie in the file.
pub(crate) fn boxes<'a>(
    file: &FileData<'a>,
    s: usize,
    set_at: u64,
    set: &RawHitboxSet,
) -> Result<Table<'a, RawHitbox>> {
    file.table(
        Record::HitboxSet,
        Some(s),
        set_at,
        "numhitboxes",
        set.numhitboxes,
        "hitboxindex",
        set.hitboxindex,
    )
}

/// The hit box sets; a name that cannot be read is a warning and reads as empty.
pub(crate) fn parse(
    file: &FileData<'_>,
    raw: &RawHeader,
    num_bones: usize,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<HitboxSet>> {
    let sets = sets(file, raw)?;
    let mut out = Vec::with_capacity(sets.len());
    for (s, set_at, set) in sets.iter() {
        let boxes = boxes(file, s, set_at, &set)?;
        let mut hitboxes = Vec::with_capacity(boxes.len());
        for (i, at, b) in boxes.iter() {
            let place = (Record::Hitbox, Some(i), at);
            let bone = required(file, place, "bone", b.bone, "bone", num_bones)?;
            hitboxes.push(Hitbox {
                bone,
                group: b.group,
                bbmin: Vec3::from_array(b.bbmin),
                bbmax: Vec3::from_array(b.bbmax),
                name: file.optional_name(
                    Record::Hitbox,
                    Some(i),
                    at,
                    "szhitboxnameindex",
                    b.szhitboxnameindex,
                    warnings,
                ),
            });
        }
        out.push(HitboxSet {
            name: file.optional_name(
                Record::HitboxSet,
                Some(s),
                set_at,
                "sznameindex",
                set.sznameindex,
                warnings,
            ),
            hitboxes,
        });
    }
    Ok(out)
}
