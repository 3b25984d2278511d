//! Bones, `mstudiobone_t` (goldsrc-skeleton.md, "Bones").

use crate::error::{Problem, Record, Result};
use crate::raw::{RawBone, RawHeader};
use crate::reader::{FileData, name, table};

/// One bone of the skeleton. Parents always come before their children (checked at load), so
/// the hierarchy can be walked in one forward pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Name, such as `Bip01 Spine`.
    pub name: String,
    /// Parent bone, `None` for a root bone; always less than this bone's index.
    pub parent: Option<usize>,
    /// Bone flags (`STUDIO_HAS_*`); Valve's compiler writes 0.
    pub flags: i32,
    /// For each degree of freedom (x, y, z, x rotation, y rotation, z rotation), the bone
    /// controller that moves it; always a valid index into the model's controllers.
    pub controllers: [Option<usize>; 6],
    /// Default position (relative to the parent) and rotation (Euler angles, radians).
    pub value: [f32; 6],
    /// Multiplier for the animation values of each degree of freedom.
    pub scale: [f32; 6],
}

pub(crate) fn read_bones(file: &FileData<'_>, header: &RawHeader) -> Result<Vec<Bone>> {
    let table = file.table::<RawBone>(Record::Bone, table!(header, numbones, boneindex))?;
    let num_controllers = usize::try_from(header.numbonecontrollers).unwrap_or(0);
    table
        .iter()
        .map(|(index, offset, raw)| {
            let at = |problem| file.error(Record::Bone, Some(index), offset, problem);
            let parent = match raw.parent {
                -1 => None,
                p => match usize::try_from(p) {
                    Ok(p) if p < index => Some(p),
                    _ => return Err(at(Problem::ParentOrder { parent: p })),
                },
            };
            let mut controllers = [None; 6];
            for (slot, &c) in controllers.iter_mut().zip(&raw.bonecontroller) {
                *slot = match c {
                    -1 => None,
                    c => match usize::try_from(c) {
                        Ok(c) if c < num_controllers => Some(c),
                        _ => {
                            return Err(at(Problem::BadReference {
                                field: "bonecontroller",
                                value: i64::from(c),
                                target: "bone controller",
                                count: num_controllers,
                            }));
                        }
                    },
                };
            }
            Ok(Bone {
                name: name(&raw.name),
                parent,
                flags: raw.flags,
                controllers,
                value: raw.value,
                scale: raw.scale,
            })
        })
        .collect()
}

/// Checks a bone number read from a record that follows a bone.
pub(crate) fn bone_index(
    file: &FileData<'_>,
    record: Record,
    index: usize,
    offset: u64,
    value: i32,
    num_bones: usize,
) -> Result<usize> {
    match usize::try_from(value) {
        Ok(bone) if bone < num_bones => Ok(bone),
        _ => Err(file.error(
            record,
            Some(index),
            offset,
            Problem::BadReference {
                field: "bone",
                value: i64::from(value),
                target: "bone",
                count: num_bones,
            },
        )),
    }
}
