//! Sequence descriptions (source-animation.md, "Sequence descriptions", "Events", "Auto
//! layers"): the blend grid and its pose parameters, pose keys, layers, IK locks, events,
//! weight list, activity and its modifiers, key values and transition nodes.

use glam::Vec3;
use studio_bytes::Table;

use crate::error::{Problem, Record, Result, Warning};
use crate::ik::{IkLock, locks};
use crate::raw::{RawAutoLayer, RawEvent, RawHeader, RawIkLock, RawSeqDesc};
use crate::reader::{FileData, reference};

/// `STUDIO_CYCLEPOSE`: the cycle comes from a pose parameter.
pub const STUDIO_CYCLEPOSE: i32 = 0x80;

/// `STUDIO_AL_POSE`: an auto layer's weight ramps on a pose parameter instead of the cycle.
pub const STUDIO_AL_POSE: i32 = 0x4000;

/// `NEW_EVENT_STYLE`: the event is named, not numbered.
pub const NEW_EVENT_STYLE: i32 = 1 << 10;

/// One sequence (the default: an empty one that weights every bone, for callers that evaluate
/// an animation on its own).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sequence {
    /// Its label.
    pub label: String,
    /// Its activity's name (`ACT_IDLE`…), empty for none.
    pub activity_name: String,
    /// Activity weight.
    pub activity_weight: i32,
    /// `STUDIO_*` flags.
    pub flags: i32,
    /// Events.
    pub events: Vec<Event>,
    /// Bounding box over its frames.
    pub bbmin: Vec3,
    /// Upper corner.
    pub bbmax: Vec3,
    /// The blend grid's size (columns, rows).
    pub grid: [usize; 2],
    /// The grid's animations, by row: the entry for (x, y) is `y × grid[0] + x`. Indices are
    /// local to the file the sequence is in (checked against its animations).
    pub animations: Vec<usize>,
    /// The pose parameters of the grid's two axes.
    pub params: [Option<usize>; 2],
    /// Each axis' start, in the parameter's units.
    pub param_start: [f32; 2],
    /// Each axis' end.
    pub param_end: [f32; 2],
    /// Pose keys: per axis, per grid column or row, the parameter value it is at (empty when
    /// the sequence has none).
    pub pose_keys: Vec<f32>,
    /// Ideal cross-fade times.
    pub fade: (f32, f32),
    /// Transition nodes at entry and exit (1-based; 0 none).
    pub nodes: (i32, i32),
    /// Transition rules.
    pub node_flags: i32,
    /// Auto layers.
    pub layers: Vec<AutoLayer>,
    /// IK locks.
    pub ik_locks: Vec<IkLock>,
    /// IK rules (counted).
    pub num_ik_rules: i32,
    /// Per bone, how much of the sequence it takes (empty: none stored).
    pub weights: Vec<f32>,
    /// Key-values text.
    pub key_values: String,
    /// The pose parameter the cycle comes from (`STUDIO_CYCLEPOSE`).
    pub cycle_pose: Option<usize>,
    /// Activity modifiers.
    pub activity_modifiers: Vec<String>,
}

/// One event (`mstudioevent_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Where in the cycle.
    pub cycle: f32,
    /// Its number (old style).
    pub event: i32,
    /// Its type: `NEW_EVENT_STYLE` for a named event.
    pub kind: i32,
    /// The options text.
    pub options: String,
    /// Its name (new style).
    pub name: String,
}

/// An auto layer (`mstudioautolayer_t`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AutoLayer {
    /// The layered sequence, local to the file.
    pub sequence: i16,
    /// The pose parameter it ramps on (`STUDIO_AL_POSE`).
    pub pose: i16,
    /// `STUDIO_AL_*` flags.
    pub flags: i32,
    /// Beginning of influence.
    pub start: f32,
    /// Start of full influence.
    pub peak: f32,
    /// End of full influence.
    pub tail: f32,
    /// End of all influence.
    pub end: f32,
}

/// The counts a sequence's references are checked against.
pub(crate) struct Counts {
    pub bones: usize,
    pub animations: usize,
    pub pose_parameters: usize,
    pub ik_chains: usize,
}

/// The header's table of `mstudioseqdesc_t`, checked to lie in the file.
pub(crate) fn table<'a>(file: &FileData<'a>, raw: &RawHeader) -> Result<Table<'a, RawSeqDesc>> {
    file.table(Record::Sequence, None, 0, "numlocalseq", raw.numlocalseq, "localseqindex", raw.localseqindex)
}

/// Sequence `i`'s (at `at`) table of `mstudioevent_t`, checked to lie in the file.
pub(crate) fn events<'a>(
    file: &FileData<'a>,
    i: usize,
    at: u64,
    s: &RawSeqDesc,
) -> Result<Table<'a, RawEvent>> {
    file.table(Record::Event, Some(i), at, "numevents", s.numevents, "eventindex", s.eventindex)
}

/// The sequences; an event's, activity's or activity modifier's name that cannot be read is a
/// warning and reads as empty (the label, which include models are matched by, must be read).
pub(crate) fn parse(
    file: &FileData<'_>,
    raw: &RawHeader,
    counts: &Counts,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Sequence>> {
    let table = table(file, raw)?;
    let mut out = Vec::with_capacity(table.len());
    for (i, at, s) in table.iter() {
        out.push(sequence(file, (i, at), &s, counts, warnings)?);
    }
    Ok(out)
}

fn sequence(
    file: &FileData<'_>,
    (i, at): (usize, u64),
    s: &RawSeqDesc,
    counts: &Counts,
    warnings: &mut Vec<Warning>,
) -> Result<Sequence> {
    let index = Some(i);
    let negative = |field, value: i32| {
        file.error(Record::Sequence, index, at, Problem::Negative { field, value: i64::from(value) })
    };
    let grid = [
        usize::try_from(s.groupsize[0]).map_err(|_| negative("groupsize[0]", s.groupsize[0]))?,
        usize::try_from(s.groupsize[1]).map_err(|_| negative("groupsize[1]", s.groupsize[1]))?,
    ];
    let cells = i32::try_from(grid[0].saturating_mul(grid[1])).unwrap_or(i32::MAX);
    let grid_table = file.table::<i16>(
        Record::BlendGrid,
        index,
        at,
        "groupsize",
        cells,
        "animindexindex",
        s.animindexindex,
    )?;
    let mut animations = Vec::with_capacity(grid_table.len());
    for (_, cell_at, animation) in grid_table.iter() {
        let place = (Record::BlendGrid, index, cell_at);
        animations.push(crate::reader::required(
            file,
            place,
            "animindexindex",
            i32::from(animation),
            "animation",
            counts.animations,
        )?);
    }
    let place = (Record::Sequence, index, at);
    let params = [
        reference(file, place, "paramindex[0]", s.paramindex[0], "pose parameter", counts.pose_parameters)?,
        reference(file, place, "paramindex[1]", s.paramindex[1], "pose parameter", counts.pose_parameters)?,
    ];
    let pose_keys = if s.posekeyindex == 0 {
        Vec::new()
    } else {
        let keys = i32::try_from(grid[0].saturating_add(grid[1])).unwrap_or(i32::MAX);
        file.table::<f32>(Record::PoseKeys, index, at, "groupsize", keys, "posekeyindex", s.posekeyindex)?
            .iter()
            .map(|(_, _, k)| k)
            .collect()
    };
    let weights = if s.weightlistindex == 0 {
        Vec::new()
    } else {
        let bones = i32::try_from(counts.bones).unwrap_or(i32::MAX);
        file.table::<f32>(
            Record::WeightList,
            index,
            at,
            "numbones",
            bones,
            "weightlistindex",
            s.weightlistindex,
        )?
        .iter()
        .map(|(_, _, w)| w)
        .collect()
    };
    let events = events(file, i, at, s)?;
    let mut event_list = Vec::with_capacity(events.len());
    for (_, event_at, event) in events.iter() {
        event_list.push(Event {
            cycle: event.cycle,
            event: event.event,
            kind: event.kind,
            options: studio_bytes::name(&event.options),
            // The sequence's index, as "event of sequence" reads: the offset finds the event.
            name: file.optional_name(
                Record::Event,
                index,
                event_at,
                "szeventindex",
                event.szeventindex,
                warnings,
            ),
        });
    }
    let layers = file
        .table::<RawAutoLayer>(
            Record::AutoLayer,
            index,
            at,
            "numautolayers",
            s.numautolayers,
            "autolayerindex",
            s.autolayerindex,
        )?
        .iter()
        .map(|(_, _, l)| AutoLayer {
            sequence: l.sequence,
            pose: l.pose,
            flags: l.flags,
            start: l.start,
            peak: l.peak,
            tail: l.tail,
            end: l.end,
        })
        .collect();
    let lock_table = file.table::<RawIkLock>(
        Record::IkLock,
        index,
        at,
        "numiklocks",
        s.numiklocks,
        "iklockindex",
        s.iklockindex,
    )?;
    let modifiers = file.table::<i32>(
        Record::ActivityModifier,
        index,
        at,
        "numactivitymodifiers",
        s.numactivitymodifiers,
        "activitymodifierindex",
        s.activitymodifierindex,
    )?;
    let mut activity_modifiers = Vec::with_capacity(modifiers.len());
    for (_, modifier_at, name) in modifiers.iter() {
        activity_modifiers.push(file.optional_name(
            Record::ActivityModifier,
            index,
            modifier_at,
            "sznameindex",
            name,
            warnings,
        ));
    }
    let key_values = if s.keyvaluesize > 0 {
        let kv_at = file.at(Record::KeyValues, index, at, "keyvalueindex", s.keyvalueindex)?;
        let len = u64::try_from(s.keyvaluesize).unwrap_or(0);
        studio_bytes::name(file.slice(Record::KeyValues, index, kv_at, len)?)
    } else {
        String::new()
    };
    Ok(Sequence {
        label: file.name(Record::Sequence, index, at, "szlabelindex", s.szlabelindex)?,
        activity_name: file.optional_name(
            Record::Sequence,
            index,
            at,
            "szactivitynameindex",
            s.szactivitynameindex,
            warnings,
        ),
        activity_weight: s.actweight,
        flags: s.flags,
        events: event_list,
        bbmin: Vec3::from_array(s.bbmin),
        bbmax: Vec3::from_array(s.bbmax),
        grid,
        animations,
        params,
        param_start: s.paramstart,
        param_end: s.paramend,
        pose_keys,
        fade: (s.fadeintime, s.fadeouttime),
        nodes: (s.localentrynode, s.localexitnode),
        node_flags: s.nodeflags,
        layers,
        ik_locks: locks(file, lock_table, counts.ik_chains)?,
        num_ik_rules: s.numikrules,
        weights,
        key_values,
        cycle_pose: if s.flags & STUDIO_CYCLEPOSE != 0 {
            reference(
                file,
                place,
                "cycleposeindex",
                s.cycleposeindex,
                "pose parameter",
                counts.pose_parameters,
            )?
        } else {
            None
        },
        activity_modifiers,
    })
}
