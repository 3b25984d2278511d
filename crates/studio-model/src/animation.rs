//! Animation data: per blend and bone, six run-length coded channels
//! (goldsrc-sequences.md, "Animation data", `mstudioanim_t` and `mstudioanimvalue_t`).
//!
//! The parser proves that every channel's runs cover every frame of its sequence inside its
//! file; decoding values into poses belongs to the pose crate, which walks the runs with
//! [`Runs`].

use crate::error::{ChannelProblem, Problem, Record, Result};
use crate::raw::RawAnim;
use crate::reader::{FileData, TableField};

/// Names of the six channels of a bone, in file order.
pub const CHANNEL_NAMES: [&str; 6] = ["x", "y", "z", "x rotation", "y rotation", "z rotation"];

/// Where one channel's first run lies: a byte offset from the start of its sequence group's
/// file (see [`crate::SequenceGroup::runs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Channel {
    /// Byte offset of the first run in the group's file.
    pub offset: u32,
}

/// One bone's channels in one blend; `None` for a channel that keeps the bone's default value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BoneAnimation {
    /// x, y, z position, then x, y, z rotation.
    pub channels: [Option<Channel>; 6],
}

/// A sequence's animation: for each blend, one [`BoneAnimation`] per bone.
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    num_bones: usize,
    bones: Vec<BoneAnimation>,
}

impl Animation {
    /// An animation of `bones.len() / num_bones` blends, for models built in code; every channel
    /// must point at runs in its group's data covering the sequence's frames (the writer checks).
    pub fn new(num_bones: usize, bones: Vec<BoneAnimation>) -> Self {
        Self { num_bones, bones }
    }

    /// Number of bones per blend.
    pub fn num_bones(&self) -> usize {
        self.num_bones
    }

    /// Number of blends.
    pub fn num_blends(&self) -> usize {
        self.bones.len().checked_div(self.num_bones).unwrap_or(0)
    }

    /// The bones of one blend, or `None` if there is no such blend.
    pub fn blend(&self, blend: usize) -> Option<&[BoneAnimation]> {
        let start = blend.checked_mul(self.num_bones)?;
        self.bones.get(start..start.checked_add(self.num_bones)?)
    }

    /// The bones of one blend, to point channels elsewhere (see [`crate::Model::append_channel`]).
    pub fn blend_mut(&mut self, blend: usize) -> Option<&mut [BoneAnimation]> {
        let start = blend.checked_mul(self.num_bones)?;
        self.bones.get_mut(start..start.checked_add(self.num_bones)?)
    }
}

/// One run: `total` frames, the first `valid` of which have their own value; the rest repeat
/// the last one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run<'a> {
    /// Frames with their own value.
    pub valid: u8,
    /// Frames the run covers.
    pub total: u8,
    values: &'a [u8],
}

impl Run<'_> {
    /// The `i`th stored raw value, if `i < valid`.
    pub fn value(&self, i: usize) -> Option<i16> {
        let at = i.checked_mul(2)?;
        let bytes = self.values.get(at..at.checked_add(2)?)?;
        Some(i16::from_le_bytes([bytes[0], bytes[1]]))
    }

    /// The stored raw values, in order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = i16> + '_ {
        self.values.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]]))
    }
}

/// The runs of a channel, in order, as far as the file holds them. A run whose `total` is 0 is
/// returned like any other (Valve's lookup steps over it); the walk always moves forward, so it
/// ends with the file.
#[derive(Clone, Debug)]
pub struct Runs<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Runs<'a> {
    /// The runs of the channel starting at `channel` in `data` (a group file's bytes).
    pub fn new(data: &'a [u8], channel: Channel) -> Self {
        Self { data, pos: channel.offset as usize }
    }
}

impl<'a> Iterator for Runs<'a> {
    type Item = Run<'a>;

    fn next(&mut self) -> Option<Run<'a>> {
        let header = self.data.get(self.pos..self.pos.checked_add(2)?)?;
        let (valid, total) = (header[0], header[1]);
        let start = self.pos + 2;
        let end = start + 2 * usize::from(valid);
        let values = self.data.get(start..end)?;
        self.pos = end;
        Some(Run { valid, total, values })
    }
}

/// Reads a sequence's `mstudioanim_t` records from its group's file and checks every channel's
/// runs for `frames` frames.
pub(crate) fn read_animation(
    file: &FileData<'_>,
    sequence: usize,
    anim_index: i32,
    num_blends: usize,
    num_bones: usize,
    frames: u64,
) -> Result<Animation> {
    let count = num_blends.checked_mul(num_bones).and_then(|c| i32::try_from(c).ok());
    let offset = file.offset(Record::Animation, Some(sequence), "animindex", anim_index)?;
    let Some(count) = count else {
        return Err(file.error(
            Record::Animation,
            Some(sequence),
            offset,
            Problem::TableOutside {
                count: (num_blends as u64).saturating_mul(num_bones as u64),
                size: 12,
                offset,
                len: file.len(),
            },
        ));
    };
    let table = file
        .table::<RawAnim>(
            Record::Animation,
            TableField {
                count_field: "numblends × numbones",
                count,
                offset_field: "animindex",
                offset: i64::from(anim_index),
            },
        )
        .map_err(|mut e| {
            e.place.index = Some(sequence);
            e
        })?;
    let mut bones = Vec::with_capacity(table.len());
    for (i, record_offset, raw) in table.iter() {
        let (blend, bone) = (i / num_bones.max(1), i % num_bones.max(1));
        let mut animation = BoneAnimation::default();
        for (channel, (&relative, slot)) in raw.offset.iter().zip(&mut animation.channels).enumerate() {
            if relative == 0 {
                continue;
            }
            let start = record_offset + u64::from(relative);
            let at = |detail| {
                file.error(
                    Record::Channel,
                    Some(sequence),
                    start,
                    Problem::Channel { blend, bone, channel, detail },
                )
            };
            check_runs(file, sequence, start, frames, at)?;
            // The file's length fits in memory, so an offset inside it fits in u32 only when the
            // file is under 4 GiB; larger files cannot be studio models (lengths are int32).
            let offset =
                u32::try_from(start).map_err(|_| at(ChannelProblem::TooShort { covered: 0, frames }))?;
            *slot = Some(Channel { offset });
        }
        bones.push(animation);
    }
    Ok(Animation { num_bones, bones })
}

/// Walks a channel's runs from `start` until they cover `frames` frames, checking each run's
/// values lie inside the file. Every step moves forward by at least 2 bytes and is charged to
/// the file's read budget, so neither runs of `total` 0 nor channels sharing data can hang it.
fn check_runs(
    file: &FileData<'_>,
    sequence: usize,
    start: u64,
    frames: u64,
    at: impl Fn(ChannelProblem) -> crate::Error,
) -> Result<()> {
    let bytes = file.bytes();
    let mut covered = 0u64;
    let mut pos = start;
    while covered < frames {
        let header = usize::try_from(pos).ok().and_then(|p| bytes.get(p..p.checked_add(2)?));
        let Some(&[valid, total]) = header else {
            return Err(at(ChannelProblem::TooShort { covered, frames }));
        };
        let run_len = 2 + 2 * u64::from(valid);
        if pos + run_len > file.len() {
            return Err(at(ChannelProblem::ValuesOutside { offset: pos, valid }));
        }
        file.charge(Record::Channel, Some(sequence), pos, run_len)?;
        covered += u64::from(total);
        pos += run_len;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, FileRole};

    fn check(bytes: &[u8], start: u64, frames: u64) -> Result<()> {
        let file = FileData::new(bytes, FileRole::Main);
        check_runs(&file, 0, start, frames, |detail| Error {
            place: file.place(Record::Channel, Some(0), start),
            problem: Problem::Channel { blend: 0, bone: 0, channel: 0, detail },
        })
    }

    fn detail(result: Result<()>) -> ChannelProblem {
        match result.unwrap_err().problem {
            Problem::Channel { detail, .. } => detail,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn worked_example_covers_five_frames_and_no_more() {
        let bytes = [3, 5, 10, 0, 20, 0, 30, 0];
        assert!(check(&bytes, 0, 5).is_ok());
        assert_eq!(detail(check(&bytes, 0, 6)), ChannelProblem::TooShort { covered: 5, frames: 6 });
        let runs: Vec<_> = Runs::new(&bytes, Channel { offset: 0 }).collect();
        assert_eq!(runs.len(), 1);
        assert_eq!(runs[0].values().collect::<Vec<_>>(), [10, 20, 30]);
    }

    #[test]
    fn runs_of_total_zero_are_stepped_over_and_cannot_hang() {
        // Two empty runs (valid 0 and valid 1), then a run of 4 frames.
        let bytes = [0, 0, 1, 0, 7, 0, 2, 4, 1, 0, 2, 0];
        assert!(check(&bytes, 0, 4).is_ok());
        let totals: Vec<u8> = Runs::new(&bytes, Channel { offset: 0 }).map(|r| r.total).collect();
        assert_eq!(totals, [0, 0, 4]);
        // A file of nothing but empty runs ends the walk at its end.
        let zeros = vec![0u8; 10_000];
        assert_eq!(detail(check(&zeros, 0, 1)), ChannelProblem::TooShort { covered: 0, frames: 1 });
        assert_eq!(Runs::new(&zeros, Channel { offset: 0 }).count(), 5_000);
    }

    #[test]
    fn values_past_the_end_are_an_error() {
        let bytes = [3, 5, 10, 0, 20, 0];
        assert_eq!(detail(check(&bytes, 0, 1)), ChannelProblem::ValuesOutside { offset: 0, valid: 3 });
        assert_eq!(Runs::new(&bytes, Channel { offset: 0 }).count(), 0);
    }

    #[test]
    fn channels_sharing_one_long_chain_exhaust_the_budget() {
        // 1 MB of one-frame runs: each walk of all of it is allowed, but not many of them.
        let mut bytes = Vec::new();
        for _ in 0..(1 << 18) {
            bytes.extend_from_slice(&[1, 1, 0, 0]);
        }
        let file = FileData::new(&bytes, FileRole::Main);
        let frames = 1 << 18;
        let walk = || {
            check_runs(&file, 0, 0, frames, |detail| Error {
                place: file.place(Record::Channel, Some(0), 0),
                problem: Problem::Channel { blend: 0, bone: 0, channel: 0, detail },
            })
        };
        for _ in 0..4 {
            walk().unwrap();
        }
        assert!(matches!(walk().unwrap_err().problem, Problem::TooManyRuns(_)));
    }
}
