//! Sequences, `mstudioseqdesc_t`, with their events and pivots
//! (goldsrc-sequences.md, "Sequences", "Events", "Pivots").

use glam::Vec3;

use crate::animation::Animation;
use crate::error::{Problem, Record, Result, WarningKind};
use crate::motion::{STUDIO_X, STUDIO_Y, STUDIO_Z};
use crate::raw::{RawEvent, RawHeader, RawPivot, RawSequence};
use crate::reader::{FileData, name, table};
use crate::warnings::Warnings;

/// `STUDIO_LOOPING`: the sequence repeats.
pub const STUDIO_LOOPING: i32 = 0x0001;

/// An event that fires when playback reaches its frame (`mstudioevent_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Frame on which it fires.
    pub frame: i32,
    /// Event number; the game code defines what it does.
    pub event: i32,
    /// The `type` field; not written by studiomdl.
    pub kind: i32,
    /// Text for the event, such as a sound file name.
    pub options: String,
}

/// A point a foot stays planted on for a span of frames (`mstudiopivot_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct Pivot {
    /// Pivot point.
    pub org: Vec3,
    /// First frame.
    pub start: i32,
    /// Last frame.
    pub end: i32,
}

/// One animation, such as `idle1` or `run`.
#[derive(Clone, Debug, PartialEq)]
pub struct Sequence {
    /// Sequence name.
    pub label: String,
    /// Frames per second.
    pub fps: f32,
    /// Flags; [`STUDIO_LOOPING`] is the only one defined.
    pub flags: i32,
    /// Activity number (activity.h of the game).
    pub activity: i32,
    /// Weight among sequences of the same activity.
    pub activity_weight: i32,
    /// Events, in file order.
    pub events: Vec<Event>,
    /// Frames in the sequence, as stored (0 is read as one frame, as the game does).
    pub num_frames: u32,
    /// Foot pivots.
    pub pivots: Vec<Pivot>,
    /// Motion flags saying how the root moves (`motiontype`).
    pub motion_type: i32,
    /// Bone the motion is measured on; `None` when the stored number names no bone (then the
    /// model's motion flags are ignored, with a warning if they needed it).
    pub motion_bone: Option<usize>,
    /// Distance travelled over the whole sequence.
    pub linear_movement: Vec3,
    /// Bounding box of the sequence, lower corner.
    pub bbmin: Vec3,
    /// Upper corner.
    pub bbmax: Vec3,
    /// Copies of the animation to blend between (at least 1).
    pub num_blends: usize,
    /// The `animindex` field: offset of the animation in the group's file.
    pub anim_index: i32,
    /// Motion flag each blend direction varies.
    pub blend_type: [i32; 2],
    /// Value at blend setting 0.
    pub blend_start: [f32; 2],
    /// Value at blend setting 255.
    pub blend_end: [f32; 2],
    /// Sequence group holding the animation (valid index).
    pub group: usize,
    /// Transition node at the start, or 0.
    pub entry_node: i32,
    /// Transition node at the end, or 0.
    pub exit_node: i32,
    /// Non-zero: may be played backwards from exit to entry node.
    pub node_flags: i32,
    /// The animation, or `None` when its group's file is missing or unusable.
    pub animation: Option<Animation>,
}

impl Sequence {
    /// Whether the sequence repeats.
    pub fn is_looping(&self) -> bool {
        self.flags & STUDIO_LOOPING != 0
    }

    /// Frames the animation data covers: `num_frames`, but at least 1.
    pub fn frames(&self) -> u32 {
        self.num_frames.max(1)
    }
}

/// Reads the sequence descriptions, events and pivots from the main file; animations are read
/// afterwards, group by group.
pub(crate) fn read_sequences(
    file: &FileData<'_>,
    header: &RawHeader,
    num_bones: usize,
    num_groups: usize,
    warnings: &mut Warnings,
) -> Result<Vec<(Sequence, u64)>> {
    let table = file.table::<RawSequence>(Record::Sequence, table!(header, numseq, seqindex))?;
    let mut sequences = Vec::with_capacity(table.len());
    for (index, offset, raw) in table.iter() {
        let at = |problem| file.error(Record::Sequence, Some(index), offset, problem);
        let place = file.place(Record::Sequence, Some(index), offset);
        let num_frames = u32::try_from(raw.numframes)
            .map_err(|_| at(Problem::Negative { field: "numframes", value: i64::from(raw.numframes) }))?;
        if num_frames == 0 {
            warnings.push(
                place,
                WarningKind::Unusable {
                    field: "numframes",
                    value: 0,
                    consequence: "read as one frame, as the game does",
                },
            );
        }
        let num_blends = match usize::try_from(raw.numblends) {
            Ok(n) if n >= 1 => n,
            _ => {
                warnings.push(
                    place,
                    WarningKind::Unusable {
                        field: "numblends",
                        value: i64::from(raw.numblends),
                        consequence: "read as 1 blend, as the game does",
                    },
                );
                1
            }
        };
        // Group 0 is the main file even when numseqgroups is 0: the game never looks it up.
        let group = match usize::try_from(raw.seqgroup) {
            Ok(g) if g == 0 || g < num_groups => g,
            _ => {
                return Err(at(Problem::BadReference {
                    field: "seqgroup",
                    value: i64::from(raw.seqgroup),
                    target: "sequence group",
                    count: num_groups,
                }));
            }
        };
        let motion_bone = usize::try_from(raw.motionbone).ok().filter(|&b| b < num_bones);
        if motion_bone.is_none() && raw.motiontype & (STUDIO_X | STUDIO_Y | STUDIO_Z) != 0 {
            warnings.push(
                place,
                WarningKind::Unusable {
                    field: "motionbone",
                    value: i64::from(raw.motionbone),
                    consequence: "names no bone; motion extraction is skipped",
                },
            );
        }
        if raw.flags & !STUDIO_LOOPING != 0 {
            warnings.push(place, WarningKind::UnknownValue { field: "flags", value: i64::from(raw.flags) });
        }
        let events = file
            .table::<RawEvent>(Record::Event, table!(raw, numevents, eventindex))?
            .iter()
            .map(|(_, _, e)| Event {
                frame: e.frame,
                event: e.event,
                kind: e.kind,
                options: name(&e.options),
            })
            .collect();
        let pivots = file
            .table::<RawPivot>(Record::Pivot, table!(raw, numpivots, pivotindex))?
            .iter()
            .map(|(_, _, p)| Pivot { org: Vec3::from_array(p.org), start: p.start, end: p.end })
            .collect();
        let sequence = Sequence {
            label: name(&raw.label),
            fps: raw.fps,
            flags: raw.flags,
            activity: raw.activity,
            activity_weight: raw.actweight,
            events,
            num_frames,
            pivots,
            motion_type: raw.motiontype,
            motion_bone,
            linear_movement: Vec3::from_array(raw.linearmovement),
            bbmin: Vec3::from_array(raw.bbmin),
            bbmax: Vec3::from_array(raw.bbmax),
            num_blends,
            anim_index: raw.animindex,
            blend_type: raw.blendtype,
            blend_start: raw.blendstart,
            blend_end: raw.blendend,
            group,
            entry_node: raw.entrynode,
            exit_node: raw.exitnode,
            node_flags: raw.nodeflags,
            animation: None,
        };
        sequences.push((sequence, offset));
    }
    Ok(sequences)
}
