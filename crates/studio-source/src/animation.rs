//! Animation descriptions (source-animation.md, "Animation descriptions", "Sections",
//! "Movements"; source-header.md, "Version differences"). The per-bone data they point at is
//! not decoded here.

use glam::Vec3;
use studio_bytes::Table;

use crate::anim_data::{Chain, read_chain, section_frames};
use crate::bone::{BONE_HAS_SAVEFRAME_POS, BONE_HAS_SAVEFRAME_ROT, Bone};
use crate::error::{Problem, Record, Result, Warning, usable_or_warn};
use crate::ik_rule::{self, IkRule, LocalHierarchy};
use crate::raw::{RawAnimDesc, RawHeader, RawMovement, RawSection};
use crate::reader::FileData;

/// `STUDIO_LOOPING`.
pub const STUDIO_LOOPING: i32 = 0x1;
/// `STUDIO_DELTA`.
pub const STUDIO_DELTA: i32 = 0x4;
/// `STUDIO_FRAMEANIM` (version 49): the data is stored frame by frame, in a layout only known
/// from reverse engineering (source-animdata.md, "Frame-encoded animations"); such an
/// animation shows its default pose.
pub const STUDIO_FRAMEANIM: i32 = 0x40;

/// Sequence and animation flag names, for display (source-animation.md, "Flags").
pub const SEQUENCE_FLAG_NAMES: [(i32, &str); 14] = [
    (0x1, "LOOPING"),
    (0x2, "SNAP"),
    (0x4, "DELTA"),
    (0x8, "AUTOPLAY"),
    (0x10, "POST"),
    (0x20, "ALLZEROS"),
    (0x80, "CYCLEPOSE"),
    (0x100, "REALTIME"),
    (0x200, "LOCAL"),
    (0x400, "HIDDEN"),
    (0x800, "OVERRIDE"),
    (0x1000, "ACTIVITY"),
    (0x2000, "EVENT"),
    (0x4000, "WORLD"),
];

/// One animation description (`mstudioanimdesc_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    /// Its name (`@idle`…).
    pub name: String,
    /// Frames per second.
    pub fps: f32,
    /// `STUDIO_*` flags.
    pub flags: i32,
    /// Frames.
    pub frames: u32,
    /// Where its data is when it has no sections: the block (0 the `.mdl`, ≥ 1 an `.ani`
    /// block, −1 none) and the offset (from this record in the `.mdl`, from the block's start
    /// in the `.ani`).
    pub data: Section,
    /// Frames per section; 0 without sections.
    pub section_frames: u32,
    /// The sections' blocks and offsets, when `section_frames` is not 0.
    pub sections: Vec<Section>,
    /// The record chain of each entry of `sections` (or the one chain of `data`), read and
    /// checked: `None` where the data is in an `.ani` file not read yet, is not there, or is
    /// unusable (with a warning).
    pub chains: Vec<Option<Chain>>,
    /// Piecewise movement.
    pub movements: Vec<Movement>,
    /// IK rules (counted; stored in the `.mdl` when `ik_rule_index` is not 0).
    pub num_ik_rules: i32,
    /// The IK rules, where read (from the `.mdl`, or from its `.ani` block).
    pub ik_rules: Vec<IkRule>,
    /// The local hierarchy changes, where read.
    pub local_hierarchy: Vec<LocalHierarchy>,
    /// Offset of the local hierarchy changes (from this record, or from the `.ani` block).
    pub local_hierarchy_index: i32,
    /// Offset of the IK rules from this record.
    pub ik_rule_index: i32,
    /// Offset of the IK rules in the animation block, when they are there.
    pub block_ik_rule_index: i32,
    /// Local hierarchy changes (counted).
    pub num_local_hierarchy: i32,
    /// Zero-frame data: frames per span, spans, offset from this record (version 48 and up).
    pub zero_frames: Option<ZeroFrames>,
    /// Byte offset of this record in the `.mdl`.
    pub offset: u64,
}

/// Where a run of animation data is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    /// 0: the `.mdl`; ≥ 1: that `.ani` block; −1: none.
    pub block: i32,
    /// The offset.
    pub index: i32,
}

/// Zero-frame data of an animation (source-animdata.md, "Zero-frame data").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ZeroFrames {
    /// Frames per span.
    pub span: i16,
    /// Spans.
    pub count: i16,
    /// Offset from the animation record.
    pub index: i32,
}

/// One piece of an animation's movement (`mstudiomovement_t`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Movement {
    /// Last frame of the piece.
    pub end_frame: i32,
    /// Motion types.
    pub motion_flags: i32,
    /// Velocity at the start.
    pub v0: f32,
    /// Velocity at the end.
    pub v1: f32,
    /// Yaw at the end.
    pub angle: f32,
    /// Movement relative to the piece's initial angle.
    pub vector: Vec3,
    /// Position relative to the animation's start.
    pub position: Vec3,
}

/// The header's table of `mstudioanimdesc_t`, checked to lie in the file.
pub(crate) fn table<'a>(file: &FileData<'a>, raw: &RawHeader) -> Result<Table<'a, RawAnimDesc>> {
    file.table(
        Record::Animation,
        None,
        0,
        "numlocalanim",
        raw.numlocalanim,
        "localanimindex",
        raw.localanimindex,
    )
}

pub(crate) fn parse(
    file: &FileData<'_>,
    raw: &RawHeader,
    bones: &[Bone],
    num_chains: usize,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Animation>> {
    let num_bones = bones.len();
    let counts = &ik_rule::Counts { bones: num_bones, chains: num_chains };
    let table = table(file, raw)?;
    let mut out = Vec::with_capacity(table.len());
    for (i, at, a) in table.iter() {
        let index = Some(i);
        let frames = u32::try_from(a.numframes).map_err(|_| {
            file.error(
                Record::Animation,
                index,
                at + 16,
                Problem::Negative { field: "numframes", value: a.numframes.into() },
            )
        })?;
        let section_frames = u32::try_from(a.sectionframes).map_err(|_| {
            file.error(
                Record::Animation,
                index,
                at + 84,
                Problem::Negative { field: "sectionframes", value: a.sectionframes.into() },
            )
        })?;
        let movements = file
            .table::<RawMovement>(
                Record::Movement,
                index,
                at,
                "nummovements",
                a.nummovements,
                "movementindex",
                a.movementindex,
            )?
            .iter()
            .map(|(_, _, m)| Movement {
                end_frame: m.endframe,
                motion_flags: m.motionflags,
                v0: m.v0,
                v1: m.v1,
                angle: m.angle,
                vector: Vec3::from_array(m.vector),
                position: Vec3::from_array(m.position),
            })
            .collect();
        let mut animation = Animation {
            name: file.name(Record::Animation, index, at, "sznameindex", a.sznameindex)?,
            fps: a.fps,
            flags: a.flags,
            frames,
            data: Section { block: a.animblock, index: a.animindex },
            section_frames,
            sections: Vec::new(),
            chains: Vec::new(),
            movements,
            num_ik_rules: a.numikrules,
            ik_rules: Vec::new(),
            local_hierarchy: Vec::new(),
            local_hierarchy_index: a.localhierarchyindex,
            ik_rule_index: a.ikruleindex,
            block_ik_rule_index: a.animblockikruleindex,
            num_local_hierarchy: a.numlocalhierarchy,
            zero_frames: (raw.version >= 48 && a.zeroframeindex != 0).then_some(ZeroFrames {
                span: a.zeroframespan,
                count: a.zeroframecount,
                index: a.zeroframeindex,
            }),
            offset: at,
        };
        if let Some(whole_sections) = frames.checked_div(section_frames) {
            if raw.version < 46 {
                // Sections of a version 45 .ani cannot be read: one frame with no data.
                animation.frames = 1;
                animation.section_frames = 0;
                animation.data = Section { block: -1, index: 0 };
            } else {
                // floor(numframes / sectionframes) + 2 entries (source-animdata.md, "Sections").
                let count = i32::try_from(whole_sections + 2).unwrap_or(i32::MAX);
                animation.sections = file
                    .table::<RawSection>(
                        Record::Section,
                        index,
                        at,
                        "sections",
                        count,
                        "sectionindex",
                        a.sectionindex,
                    )?
                    .iter()
                    .map(|(_, _, s)| Section { block: s.animblock, index: s.animindex })
                    .collect();
            }
        }
        animation.chains = read_chains(file, i, &animation, num_bones, warnings);
        if let Some(zero) = animation.zero_frames {
            let checked = check_zero_frames(file, i, at, zero, bones);
            animation.zero_frames = usable_or_warn(checked, "its zero-frame data is unavailable", warnings);
        }
        // IK rules and local hierarchies in the .mdl (those in an .ani block are read with it).
        let hierarchy_index = if a.animblock == 0 { a.localhierarchyindex } else { 0 };
        read_ik_data(file, i, &Ok(at), &mut animation, (a.ikruleindex, hierarchy_index), counts, warnings);
        out.push(animation);
    }
    Ok(out)
}

impl Animation {
    /// Each place its data is (the sections, or the one place of the whole), with the frames
    /// its chain covers; `None` frames for an entry no frame reads.
    pub fn places(&self) -> Vec<(Section, Option<u32>)> {
        if self.section_frames == 0 {
            return vec![(self.data, Some(self.frames.max(1)))];
        }
        let entries = self.sections.len();
        self.sections
            .iter()
            .enumerate()
            .map(|(s, &place)| (place, section_frames(self.frames, self.section_frames, s, entries)))
            .collect()
    }
}

/// Reads the chains of `animation` that lie in the `.mdl` (block 0); an unusable chain is a
/// warning. Entries elsewhere are left `None`.
pub(crate) fn read_chains(
    file: &FileData<'_>,
    index: usize,
    animation: &Animation,
    num_bones: usize,
    warnings: &mut Vec<Warning>,
) -> Vec<Option<Chain>> {
    let frame_encoded = animation.flags & STUDIO_FRAMEANIM != 0;
    animation
        .places()
        .into_iter()
        .map(|(place, frames)| {
            let frames = frames?;
            if frame_encoded || place.block != 0 || place.index == 0 {
                return None;
            }
            let start =
                file.at(Record::AnimationData, Some(index), animation.offset, "animindex", place.index);
            usable(start.and_then(|start| read_chain(file, index, start, frames, num_bones)), warnings)
        })
        .collect()
}

/// Checks an animation's zero-frame data (source-animdata.md, "Zero-frame data"): per bone with
/// `BONE_HAS_SAVEFRAME_POS`, `count` `Vector48`s, and with `_ROT`, `count` `Quaternion64`s, all
/// inside the file, with at least one frame, and a positive span where there are two or more.
/// A single stored frame is applied whatever the span says: the engine's `CalcZeroframeData`
/// reads `zeroframespan` only to find a frame among two or more.
fn check_zero_frames(
    file: &FileData<'_>,
    index: usize,
    at: u64,
    zero: ZeroFrames,
    bones: &[Bone],
) -> Result<ZeroFrames> {
    let record = Record::ZeroFrames;
    // Where zeroframespan and zeroframecount are in mstudioanimdesc_t.
    let (span_at, count_at) = (at + 88, at + 90);
    let out_of_range = |offset, field, value: i16, needs| {
        file.error(record, Some(index), offset, Problem::OutOfRange { field, value: i64::from(value), needs })
    };
    if zero.count <= 0 {
        return Err(out_of_range(
            count_at,
            "zeroframecount",
            zero.count,
            "zero-frame data holds one frame or more",
        ));
    }
    if zero.count >= 2 && zero.span <= 0 {
        return Err(out_of_range(
            span_at,
            "zeroframespan",
            zero.span,
            "two or more zero frames need a span of at least 1",
        ));
    }
    let per_frame: u64 = bones
        .iter()
        .map(|b| {
            let pos = if b.flags & BONE_HAS_SAVEFRAME_POS != 0 { 6 } else { 0 };
            let rot = if b.flags & BONE_HAS_SAVEFRAME_ROT != 0 { 8 } else { 0 };
            pos + rot
        })
        .sum();
    let start = file.at(record, Some(index), at, "zeroframeindex", zero.index)?;
    file.slice(record, Some(index), start, per_frame * zero.count as u64)?;
    Ok(zero)
}

/// Reads an animation's IK rules and local hierarchy changes at `indices` (rules, changes) from
/// `base` in `file`, each where its index is not 0: from the animation record in the `.mdl`,
/// from the animation's block in the `.ani` (source-animdata.md, "Blocks"). An unusable table,
/// or a base that cannot be had, is a warning and leaves it empty.
pub(crate) fn read_ik_data(
    file: &FileData<'_>,
    index: usize,
    base: &Result<u64>,
    animation: &mut Animation,
    (rule_index, hierarchy_index): (i32, i32),
    counts: &ik_rule::Counts,
    warnings: &mut Vec<Warning>,
) {
    if rule_index != 0 {
        let rules = base.clone().and_then(|base| {
            ik_rule::rules(file, index, base, animation.num_ik_rules, rule_index, counts, warnings)
        });
        animation.ik_rules =
            usable_or_warn(rules, "its IK rules are unavailable", warnings).unwrap_or_default();
    }
    if hierarchy_index != 0 {
        let count = animation.num_local_hierarchy;
        let changes = base.clone().and_then(|base| {
            ik_rule::local_hierarchy(file, index, base, count, hierarchy_index, counts.bones)
        });
        animation.local_hierarchy =
            usable_or_warn(changes, "its local hierarchy is unavailable", warnings).unwrap_or_default();
    }
}

/// A chain, or a warning that it is unavailable.
pub(crate) fn usable(chain: Result<Chain>, warnings: &mut Vec<Warning>) -> Option<Chain> {
    usable_or_warn(chain, "that part of the animation is unavailable", warnings)
}
