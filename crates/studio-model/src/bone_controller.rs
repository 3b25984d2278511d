//! Bone controllers, `mstudiobonecontroller_t` (goldsrc-skeleton.md, "Bone controllers").

use crate::bone::bone_index;
use crate::error::{Record, Result, WarningKind};
use crate::motion::{STUDIO_RLOOP, STUDIO_XR, STUDIO_YR, STUDIO_ZR, degree_of_freedom};
use crate::raw::{RawBoneController, RawHeader};
use crate::reader::{FileData, table};
use crate::warnings::Warnings;

/// Which of the entity's inputs drives a controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControllerInput {
    /// One of the four user controller bytes, 0–3.
    User(usize),
    /// The mouth, opened as a character speaks (`index` 4; Valve's code treats any index
    /// above 3 this way).
    Mouth,
}

/// A bone controller: lets the game turn or move one degree of freedom of a bone directly.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneController {
    /// The bone it moves (valid index).
    pub bone: usize,
    /// Motion flag of the degree of freedom, optionally with `STUDIO_RLOOP` (`type` in studio.h).
    pub kind: i32,
    /// Value at setting 0: units for a position, degrees for a rotation.
    pub start: f32,
    /// Value at setting 255.
    pub end: f32,
    /// Setting, 0 to 255, at rest.
    pub rest: i32,
    /// The `index` field: which entity input drives it.
    pub index: i32,
}

impl BoneController {
    /// The degree of freedom it moves (0–5), or `None` for a type the game ignores.
    pub fn degree_of_freedom(&self) -> Option<usize> {
        degree_of_freedom(self.kind)
    }

    /// Whether it turns a rotation (its range is in degrees).
    pub fn is_rotation(&self) -> bool {
        matches!(self.kind & !STUDIO_RLOOP, STUDIO_XR | STUDIO_YR | STUDIO_ZR)
    }

    /// Whether it wraps round (`STUDIO_RLOOP`).
    pub fn is_rloop(&self) -> bool {
        self.kind & STUDIO_RLOOP != 0
    }

    /// The input that drives it; `None` for a negative index, which Valve's code would read
    /// out of bounds and this viewer ignores.
    pub fn input(&self) -> Option<ControllerInput> {
        match usize::try_from(self.index) {
            Ok(i @ 0..=3) => Some(ControllerInput::User(i)),
            Ok(_) => Some(ControllerInput::Mouth),
            Err(_) => None,
        }
    }
}

pub(crate) fn read_bone_controllers(
    file: &FileData<'_>,
    header: &RawHeader,
    num_bones: usize,
    warnings: &mut Warnings,
) -> Result<Vec<BoneController>> {
    let table = file.table::<RawBoneController>(
        Record::BoneController,
        table!(header, numbonecontrollers, bonecontrollerindex),
    )?;
    table
        .iter()
        .map(|(index, offset, raw)| {
            let bone = bone_index(file, Record::BoneController, index, offset, raw.bone, num_bones)?;
            let place = file.place(Record::BoneController, Some(index), offset);
            if degree_of_freedom(raw.kind).is_none() || raw.kind & !(0x3F | STUDIO_RLOOP) != 0 {
                warnings.push(place, WarningKind::UnknownValue { field: "type", value: i64::from(raw.kind) });
            }
            if !(0..=4).contains(&raw.index) {
                let consequence = if raw.index < 0 {
                    "the controller is ignored"
                } else {
                    "treated as the mouth, as the game does"
                };
                warnings.push(
                    place,
                    WarningKind::Unusable { field: "index", value: i64::from(raw.index), consequence },
                );
            }
            Ok(BoneController {
                bone,
                kind: raw.kind,
                start: raw.start,
                end: raw.end,
                rest: raw.rest,
                index: raw.index,
            })
        })
        .collect()
}
