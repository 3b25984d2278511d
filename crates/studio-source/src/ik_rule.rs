//! An animation's IK rules and local hierarchy changes (source-bones.md, "IK chains, rules and
//! locks"; source-animation.md, "Local hierarchy"): where they are (the `.mdl`, or an `.ani`
//! block) follows the animation's block (source-animdata.md, "Blocks").

use glam::{Quat, Vec3};

use crate::error::{Record, Result, Warning};
use crate::raw::{RawCompressedIkError, RawIkRule, RawLocalHierarchy};
use crate::reader::{FileData, reference};

/// An IK rule (`mstudioikrule_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct IkRule {
    /// Index.
    pub index: i32,
    /// `IK_SELF` 1, `IK_WORLD` 2, `IK_GROUND` 3, `IK_RELEASE` 4, `IK_ATTACHMENT` 5, `IK_UNLATCH` 6.
    pub kind: i32,
    /// The chain it moves (checked against the chains).
    pub chain: usize,
    /// Its bone, if any.
    pub bone: Option<usize>,
    /// IK target slot.
    pub slot: i32,
    /// Height, radius and floor.
    pub height_radius_floor: [f32; 3],
    /// Position.
    pub position: Vec3,
    /// Rotation.
    pub rotation: Quat,
    /// Beginning of influence, start and end of full influence, end of all influence.
    pub ramp: [f32; 4],
    /// Contact frame, drop and top.
    pub contact_drop_top: [f32; 3],
    /// The world attachment's name (`IK_ATTACHMENT`).
    pub attachment: String,
    /// Offset of its compressed error streams from the rule, 0 for none (not decoded yet).
    pub compressed_error_index: i32,
}

/// A local hierarchy change (`mstudiolocalhierarchy_t`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LocalHierarchy {
    /// The bone re-parented.
    pub bone: usize,
    /// Its parent meanwhile, if any.
    pub new_parent: Option<usize>,
    /// Beginning of influence, start and end of full influence, end of all influence.
    pub ramp: [f32; 4],
    /// First frame.
    pub first_frame: i32,
    /// Its transform from the new parent, frame by frame, when it has one.
    pub compressed: Option<CompressedError>,
}

/// `mstudiocompressedikerror_t`: six value streams (position x, y, z, then Euler angles x, y, z
/// in radians), each scaled, in the file `file`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompressedError {
    /// The file the streams are in (the `.mdl` or the `.ani`).
    pub file: crate::FileRole,
    /// Each stream's scale.
    pub scale: [f32; 6],
    /// Each stream's offset in `file` (`None` for none: the value is 0). The streams are read
    /// with the bounded reader of the pose crate (`decode::values`), which stops at the file's end.
    pub streams: [Option<u64>; 6],
}

/// The counts references are checked against.
pub(crate) struct Counts {
    pub bones: usize,
    pub chains: usize,
}

/// Reads `count` IK rules at `base + relative` of `file`.
pub(crate) fn rules(
    file: &FileData<'_>,
    animation: usize,
    base: u64,
    count: i32,
    relative: i32,
    counts: &Counts,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<IkRule>> {
    let table = file.table::<RawIkRule>(
        Record::IkRule,
        Some(animation),
        base,
        "numikrules",
        count,
        "ikruleindex",
        relative,
    )?;
    let mut out = Vec::with_capacity(table.len());
    for (i, at, r) in table.iter() {
        let place = (Record::IkRule, Some(i), at);
        out.push(IkRule {
            index: r.index,
            kind: r.kind,
            chain: crate::reader::required(file, place, "chain", r.chain, "IK chain", counts.chains)?,
            bone: reference(file, place, "bone", r.bone, "bone", counts.bones)?,
            slot: r.slot,
            height_radius_floor: [r.height, r.radius, r.floor],
            position: Vec3::from_array(r.pos),
            rotation: Quat::from_array(r.q),
            ramp: [r.start, r.peak, r.tail, r.end],
            contact_drop_top: [r.contact, r.drop, r.top],
            attachment: file.optional_name(
                Record::IkRule,
                Some(i),
                at,
                "szattachmentindex",
                r.szattachmentindex,
                warnings,
            ),
            compressed_error_index: r.compressedikerrorindex,
        });
    }
    Ok(out)
}

/// Reads `count` local hierarchy changes at `base + relative` of `file`.
/// The compressed record a local hierarchy at `at` points at (`localanimindex`, from the
/// record; 0 for none), checked to lie in the file.
fn compressed(file: &FileData<'_>, i: usize, at: u64, relative: i32) -> Result<Option<CompressedError>> {
    if relative == 0 {
        return Ok(None);
    }
    let record_at = file.at(Record::LocalHierarchy, Some(i), at, "localanimindex", relative)?;
    let raw = file.read::<RawCompressedIkError>(Record::LocalHierarchy, Some(i), record_at)?;
    let streams = raw.offset.map(|o| u64::try_from(o).ok().filter(|&o| o > 0).map(|o| record_at + o));
    Ok(Some(CompressedError { file: file.role(), scale: raw.scale, streams }))
}

pub(crate) fn local_hierarchy(
    file: &FileData<'_>,
    animation: usize,
    base: u64,
    count: i32,
    relative: i32,
    num_bones: usize,
) -> Result<Vec<LocalHierarchy>> {
    let table = file.table::<RawLocalHierarchy>(
        Record::LocalHierarchy,
        Some(animation),
        base,
        "numlocalhierarchy",
        count,
        "localhierarchyindex",
        relative,
    )?;
    let mut out = Vec::with_capacity(table.len());
    for (i, at, h) in table.iter() {
        let place = (Record::LocalHierarchy, Some(i), at);
        out.push(LocalHierarchy {
            bone: crate::reader::required(file, place, "iBone", h.bone, "bone", num_bones)?,
            new_parent: reference(file, place, "iNewParent", h.new_parent, "bone", num_bones)?,
            ramp: [h.start, h.peak, h.tail, h.end],
            first_frame: h.i_start,
            compressed: compressed(file, i, at, h.localanimindex)?,
        });
    }
    Ok(out)
}
