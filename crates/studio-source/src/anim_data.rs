//! An animation's per-bone data (source-animation.md, "Per-bone animation data";
//! source-animdata.md, "Per-bone records", "Value streams", "Sections", "Blocks"): the chain of
//! `mstudioanim_t` records of one section, each record's raw values decoded and each value
//! stream proven to cover the section's frames inside its file. The values themselves are
//! read from the streams when a pose needs them.

use glam::{Quat, Vec3};

use crate::compressed::{quaternion48, quaternion64, vector48};
use crate::error::{FileRole, Problem, Record, Result};
use crate::reader::FileData;

/// `STUDIO_ANIM_RAWPOS`.
pub const STUDIO_ANIM_RAWPOS: u8 = 0x01;
/// `STUDIO_ANIM_RAWROT`.
pub const STUDIO_ANIM_RAWROT: u8 = 0x02;
/// `STUDIO_ANIM_ANIMPOS`.
pub const STUDIO_ANIM_ANIMPOS: u8 = 0x04;
/// `STUDIO_ANIM_ANIMROT`.
pub const STUDIO_ANIM_ANIMROT: u8 = 0x08;
/// `STUDIO_ANIM_DELTA`.
pub const STUDIO_ANIM_DELTA: u8 = 0x10;
/// `STUDIO_ANIM_RAWROT2`.
pub const STUDIO_ANIM_RAWROT2: u8 = 0x20;

/// The records of one chain.
#[derive(Clone, Debug, PartialEq)]
pub struct Chain {
    /// The file the chain and its streams are in (the `.mdl` or the `.ani`).
    pub file: FileRole,
    /// Frames its streams cover.
    pub frames: u32,
    /// One record per animated bone, in bone order.
    pub records: Vec<BoneRecord>,
}

/// One bone's record.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneRecord {
    /// The bone.
    pub bone: usize,
    /// `STUDIO_ANIM_*` flags.
    pub flags: u8,
    /// Its rotation data.
    pub rotation: Channel<Quat>,
    /// Its position data.
    pub position: Channel<Vec3>,
}

/// A rotation or position of one record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Channel<T> {
    /// None: the bone's default (identity or zero for a delta).
    Default,
    /// A constant value.
    Raw(T),
    /// Per component (x, y, z), the byte offset of its value stream in the chain's file, or
    /// `None` where the component has no stream (it contributes 0).
    Streams([Option<u64>; 3]),
}

/// Reads the chain starting at `start` whose streams cover `frames` frames.
pub(crate) fn read_chain(
    file: &FileData<'_>,
    animation: usize,
    start: u64,
    frames: u32,
    num_bones: usize,
) -> Result<Chain> {
    let record = Record::AnimationData;
    let index = Some(animation);
    let mut records = Vec::new();
    let mut at = start;
    let mut previous: Option<u8> = None;
    loop {
        let [bone, flags, next_lo, next_hi]: [u8; 4] = file.read(record, index, at)?;
        let next = i16::from_le_bytes([next_lo, next_hi]);
        if bone == 255 {
            // A terminator record (source-animdata.md, "Per-bone records").
            break;
        }
        if usize::from(bone) >= num_bones {
            return Err(file.error(
                record,
                index,
                at,
                Problem::BadReference {
                    field: "bone",
                    value: i64::from(bone),
                    target: "bone",
                    count: num_bones,
                },
            ));
        }
        if let Some(previous) = previous.filter(|&p| bone <= p) {
            return Err(file.error(record, index, at, Problem::ChainOrder { bone, previous }));
        }
        previous = Some(bone);
        let data = at + 4;
        let rotation = if flags & STUDIO_ANIM_RAWROT != 0 {
            Channel::Raw(quaternion48(file.read(record, index, data)?))
        } else if flags & STUDIO_ANIM_RAWROT2 != 0 {
            Channel::Raw(quaternion64(file.read(record, index, data)?))
        } else if flags & STUDIO_ANIM_ANIMROT != 0 {
            Channel::Streams(streams(file, animation, data, frames)?)
        } else {
            Channel::Default
        };
        let position = if flags & STUDIO_ANIM_RAWPOS != 0 {
            let after = match (flags & STUDIO_ANIM_RAWROT != 0, flags & STUDIO_ANIM_RAWROT2 != 0) {
                (true, _) => 6,
                (false, true) => 8,
                (false, false) => 0,
            };
            Channel::Raw(vector48(file.read(record, index, data + after)?))
        } else if flags & STUDIO_ANIM_ANIMPOS != 0 {
            let after = if flags & STUDIO_ANIM_ANIMROT != 0 { 6 } else { 0 };
            Channel::Streams(streams(file, animation, data + after, frames)?)
        } else {
            Channel::Default
        };
        records.push(BoneRecord { bone: usize::from(bone), flags, rotation, position });
        match next {
            0 => break,
            n if n < 0 => return Err(file.error(record, index, at + 2, Problem::BackwardChain { next: n })),
            n => at += n as u64,
        }
    }
    Ok(Chain { file: file.role(), frames, records })
}

/// The three streams of the value pointer (`mstudioanim_valueptr_t`) at `at`, each checked.
fn streams(file: &FileData<'_>, animation: usize, at: u64, frames: u32) -> Result<[Option<u64>; 3]> {
    let offsets: [u8; 6] = file.read(Record::AnimationData, Some(animation), at)?;
    let mut out = [None; 3];
    for (axis, slot) in out.iter_mut().enumerate() {
        let offset = i16::from_le_bytes([offsets[2 * axis], offsets[2 * axis + 1]]);
        if offset > 0 {
            let stream = at + offset as u64;
            check_stream(file, animation, stream, frames)?;
            *slot = Some(stream);
        }
    }
    Ok(out)
}

/// Walks a value stream's runs until they cover `frames` frames, each run's header and values
/// inside the file (source-animdata.md, "Value streams"). A run covering no frames, or with no
/// value to repeat, would leave the stream short however far it is read: an error here.
fn check_stream(file: &FileData<'_>, animation: usize, start: u64, frames: u32) -> Result<()> {
    let record = Record::ValueStream;
    let index = Some(animation);
    let mut covered = 0u64;
    let mut at = start;
    while covered < u64::from(frames) {
        let [valid, total]: [u8; 2] = file.read(record, index, at)?;
        if total == 0 || valid == 0 {
            return Err(file.error(record, index, at, Problem::BadRun { valid, total, covered, frames }));
        }
        file.slice(record, index, at + 2, 2 * u64::from(valid))?;
        covered += u64::from(total);
        at += 2 * (u64::from(valid) + 1);
    }
    Ok(())
}

/// The value of each of `frames` frames of the value stream at `offset` of `bytes` (the
/// chain's file), as the run-length rule gives them (source-animdata.md, "Value streams"), before
/// scaling; `None` if the stream leaves the file or stops short (a stream [`Chain`] holds has
/// been checked, so it does not).
pub fn decode_stream(bytes: &[u8], offset: u64, frames: u32) -> Option<Vec<i16>> {
    let entry = |at: u64| -> Option<[u8; 2]> {
        let at = usize::try_from(at).ok()?;
        bytes.get(at..at.checked_add(2)?)?.try_into().ok()
    };
    let mut values = Vec::with_capacity(usize::try_from(frames).ok()?.min(bytes.len() / 2 + 1));
    let mut at = offset;
    while values.len() < frames as usize {
        let [valid, total] = entry(at)?;
        if valid == 0 || total == 0 {
            return None;
        }
        let mut last = 0;
        for k in 0..u64::from(total) {
            // The first `valid` frames have their own value; the rest repeat the last one.
            if k < u64::from(valid) {
                last = i16::from_le_bytes(entry(at + 2 + 2 * k)?);
            }
            if values.len() < frames as usize {
                values.push(last);
            }
        }
        at += 2 * (u64::from(valid) + 1);
    }
    Some(values)
}

/// Frames the chain of section entry `section` of `entries` covers, for an animation of
/// `frames` frames cut every `section_frames` (source-animdata.md, "Sections"); `None` for an
/// entry no frame reads.
pub(crate) fn section_frames(
    frames: u32,
    section_frames: u32,
    section: usize,
    entries: usize,
) -> Option<u32> {
    let section = u32::try_from(section).ok()?;
    let last_frame = frames.saturating_sub(1);
    if frames > section_frames && section as usize + 1 == entries {
        // The last frame, stored alone.
        return Some(1);
    }
    let first = section.checked_mul(section_frames)?;
    let end = section.checked_add(1)?.saturating_mul(section_frames).min(last_frame);
    // A section starting past the last frame, and, when the whole animation fits in section 0,
    // every later entry, are never read.
    if first > last_frame || (frames <= section_frames && section > 0) || end < first {
        return None;
    }
    Some(end - first + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_frame_counts() {
        // @sections30 of the fixtures: 30 frames every 8: 0–8, 8–16, 16–24, 24–29, 29 alone.
        let counts: Vec<Option<u32>> = (0..5).map(|s| section_frames(30, 8, s, 5)).collect();
        assert_eq!(counts, [Some(9), Some(9), Some(9), Some(6), Some(1)]);
        // 24 frames every 8: the section numbered 3 is empty.
        let counts: Vec<Option<u32>> = (0..5).map(|s| section_frames(24, 8, s, 5)).collect();
        assert_eq!(counts, [Some(9), Some(9), Some(8), None, Some(1)]);
        // Shorter than one section: only section 0 is read.
        let counts: Vec<Option<u32>> = (0..2).map(|s| section_frames(5, 8, s, 2)).collect();
        assert_eq!(counts, [Some(5), None]);
    }
}
