//! Per-sequence keyframe tables: a sequence's run-length channels decoded once into one key per
//! bone and keyframe, so a pose costs two adjacent key lookups per bone instead of walking runs
//! and computing Euler-to-quaternion trigonometry and a slerp's arc cosine.
//!
//! Key `k` of a bone holds what Valve's lookups give for keyframe `k`: the rotation as a
//! quaternion (or, for a single bone, its angles, since a controller's turn is added before the
//! quaternion is formed) with the slerp towards key `k + 1` already set up, the raw position values, and which position channels hold over the interval
//! to `k + 1`. Valve's second keyframe is key `k + 1`, which the builder checks for every frame;
//! one extra key holds the lookahead of the last frame. A bone whose keys never change (its
//! channels are absent or constant) keeps one key. A sequence where the check fails (only
//! malformed run data can do that) gets no table and is evaluated from its runs directly, as is
//! one whose table would be too large.
//!
//! Bones are stored four to a group, lane by lane ([`crate::lanes::KeyLanes`]), and sampled four
//! at a time; bones that controllers move in groups of their own, which turn and move the
//! sampled result ([`crate::turn`]). A bone whose turn cannot follow the slerp (a y turn, or keys
//! near the edge of Valve's flip) is single: it keeps one [`Key`] per keyframe and is sampled as
//! Valve does it. Groups of bones that never change and are the same in every blend come last
//! and are sampled once, when the table is built.

use studio_model::{Bone, Model, Sequence};

use crate::channel::{ChannelCursor, PositionKey, position_key_at, rotation_pair_at};
use glam::Vec4;

use crate::lanes::{Group, KeyLanes, LANES, LaneBones};

use crate::fast::{SHORT_SERIES_LIMIT, SlerpSetup, slerp_setup, valve_cosom};
use crate::math::angle_quaternion;
use crate::turn::LaneControllers;

/// Largest table built for one sequence; larger ones are evaluated from their runs.
pub const MAX_TABLE_BYTES: usize = 32 << 20;

/// How the rotation moves from one key to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Motion {
    /// Both keys hold the same rotation: no slerp (Valve's `VectorCompare` case).
    #[default]
    Same,
    /// Valve's slerp falls back to a lerp (the rotations are within 1e-6 of each other).
    Lerp,
    /// A slerp by `omega`, with `inv_sin` = 1 / sin ω.
    Slerp,
    /// A slerp by an `omega` below [`crate::fast::SHORT_SERIES_LIMIT`], whose sines take the
    /// shorter series.
    SlerpShort,
    /// A degenerate pair (opposite quaternions): the slerp is computed in full.
    Full,
}

/// One bone at one keyframe. 32 bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Key {
    /// For a bone sampled in a group: the quaternion, then the slerp angle ω towards the next
    /// key's rotation and 1 / sin ω. For a single bone (one a controller turns where the turn
    /// cannot follow the slerp, see [`crate::turn`]): its x, y and z angles, to which the
    /// controllers' turns are added before the quaternion is formed. While the table is built:
    /// the raw x, y, z values.
    pub rotation: [f32; 6],
    /// Raw x, y, z position values (before value and scale).
    pub position: [i16; 3],
    /// Bit `d` set: position channel `d` holds its value to the next keyframe. Bit 7 set: the
    /// next key's rotation is negated for the slerp (the shorter way round).
    pub hold: u8,
    /// How the rotation moves to the next key.
    pub motion: Motion,
}

const _: () = assert!(size_of::<Key>() == 32);

impl Key {
    /// The quaternion (bones without rotation controllers).
    #[inline]
    pub fn quaternion(&self) -> Vec4 {
        Vec4::new(self.rotation[0], self.rotation[1], self.rotation[2], self.rotation[3])
    }

    /// The slerp angle towards the next key (bones without rotation controllers).
    #[inline]
    pub fn omega(&self) -> f32 {
        self.rotation[4]
    }

    /// 1 / sin [`Self::omega`].
    #[inline]
    pub fn inv_sin(&self) -> f32 {
        self.rotation[5]
    }
}

/// Bit of [`Key::hold`] saying the next rotation is negated.
pub const FLIP: u8 = 0x80;

/// A sequence's keyframes. Bones that a controller moves are sampled one at a time from
/// [`Key`]s; the others four at a time, from [`KeyLanes`] (the same groups in every blend). Per
/// blend, each bone or group has either `frames + 1` keys or, when it never changes, one; the
/// keys of a blend are laid out frame by frame (keyframe k of every bone or group that moves,
/// then keyframe k + 1), so a pose reads two short runs of memory.
#[derive(Clone, Debug)]
pub struct SequenceTable {
    /// The bones sampled one at a time, in bone order.
    singles: Vec<usize>,
    /// Per blend and single bone: first key and stride (the number of bones laid out together;
    /// 0 for a constant bone).
    spans: Vec<(u32, u32)>,
    keys: Vec<Key>,
    /// The other bones, four to a group, in bone order.
    groups: Vec<Group>,
    /// How many of the groups are sampled per pose; the others never change in any blend.
    sampled: usize,
    /// Per blend and sampled group: first row and stride, as `spans`.
    group_spans: Vec<(u32, u32)>,
    rows: Vec<KeyLanes>,
    /// The bones of the groups after the sampled ones, sampled once.
    settled: Vec<LaneBones>,
    /// Where the sequence's motion bone is sampled.
    motion_place: Option<Place>,
}

/// Where a bone is sampled in a [`SequenceTable`]'s layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// In a group, at a lane.
    Group(usize, usize),
    /// Single, at an index of [`SequenceTable::singles`].
    Single(usize),
}

/// Keys `k` and `k + 1` of a span (`k < frames`).
#[inline]
fn pair<T>(items: &[T], (start, stride): (u32, u32), k: usize) -> (&T, &T) {
    let at = start as usize + k * stride as usize;
    // One bounds check for both keys.
    let pair = &items[at..=at + stride as usize];
    (&pair[0], &pair[pair.len() - 1])
}

impl SequenceTable {
    /// The bones sampled one at a time.
    #[inline]
    pub fn singles(&self) -> &[usize] {
        &self.singles
    }

    /// Each single bone's span of keys in a blend: first key and stride.
    #[inline]
    pub fn spans(&self, blend: usize) -> &[(u32, u32)] {
        let n = self.singles.len();
        &self.spans[blend * n..(blend + 1) * n]
    }

    /// Keys `k` and `k + 1` of a single bone's span (`k < frames`).
    #[inline]
    pub fn keys(&self, span: (u32, u32), k: usize) -> (&Key, &Key) {
        pair(&self.keys, span, k)
    }

    /// The groups of four bones.
    #[inline]
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Each sampled group's span of rows in a blend.
    #[inline]
    pub fn group_spans(&self, blend: usize) -> &[(u32, u32)] {
        let n = self.sampled;
        &self.group_spans[blend * n..(blend + 1) * n]
    }

    /// How many groups, the first ones, are sampled per pose ([`Self::group_spans`]); the
    /// others never change, and have their bones in [`Self::settled`].
    #[inline]
    pub fn sampled(&self) -> usize {
        self.sampled
    }

    /// The bones of each group after the sampled ones.
    #[inline]
    pub fn settled(&self) -> &[LaneBones] {
        &self.settled
    }

    /// Rows `k` and `k + 1` of a group's span (`k < frames`).
    #[inline]
    pub fn rows(&self, span: (u32, u32), k: usize) -> (&KeyLanes, &KeyLanes) {
        pair(&self.rows, span, k)
    }

    /// Where the sequence's motion bone is sampled, if it has one.
    #[inline]
    pub fn motion_place(&self) -> Option<Place> {
        self.motion_place
    }

    /// Where `bone` is sampled: in a group whose last bone repeats in its spare lanes, the last
    /// of them, which is the one put in bone order last ([`crate::sample::TablePose::scatter`]).
    pub fn place(&self, bone: usize) -> Option<Place> {
        if let Some(i) = self.singles.iter().position(|&b| b == bone) {
            return Some(Place::Single(i));
        }
        self.groups.iter().enumerate().find_map(|(g, group)| {
            group.bones.iter().rposition(|&b| b == bone).map(|lane| Place::Group(g, lane))
        })
    }

    /// Bytes the table takes.
    pub fn bytes(&self) -> usize {
        self.keys.len() * size_of::<Key>()
            + self.rows.len() * size_of::<KeyLanes>()
            + self.settled.len() * size_of::<LaneBones>()
            + (self.spans.len() + self.group_spans.len()) * size_of::<(u32, u32)>()
            + self.groups.len() * size_of::<Group>()
            + self.singles.len() * size_of::<usize>()
    }
}

/// Whether a controller moves a bone (so it is sampled in a group of such bones, or alone).
pub fn is_controlled(bone: &Bone) -> bool {
    bone.controllers.iter().any(Option::is_some)
}

/// Whether a bone's rotation is adjusted by a controller (so its table stores raw angles).
pub fn has_rotation_controller(bone: &Bone) -> bool {
    bone.controllers[3..].iter().any(Option::is_some)
}

/// Sets up the slerp from `key` to `next` as Valve's `QuaternionSlerp` decides it
/// ([`crate::fast::slerp_setup`]).
pub(crate) fn plan_slerp(key: &mut Key, next: Vec4) {
    key.motion = match slerp_setup(key.quaternion(), next) {
        SlerpSetup::Full => Motion::Full,
        SlerpSetup::Lerp { flip } => {
            key.hold |= if flip { FLIP } else { 0 };
            Motion::Lerp
        }
        SlerpSetup::Slerp { flip, omega, inv_sin } => {
            key.hold |= if flip { FLIP } else { 0 };
            (key.rotation[4], key.rotation[5]) = (omega, inv_sin);
            if omega < SHORT_SERIES_LIMIT { Motion::SlerpShort } else { Motion::Slerp }
        }
    };
}

/// The raw keys of one bone in one blend, `frames + 1` of them, or `None` if Valve's second
/// keyframe ever differs from the next key.
fn raw_keys(
    data: &[u8],
    anim: &studio_model::BoneAnimation,
    frames: usize,
    out: &mut Vec<Key>,
) -> Option<()> {
    let mut expected_rotation = [0i16; 3];
    let mut expected_position: [Option<i16>; 3] = [None; 3];
    let mut last = Key::default();
    let cursor = |dof: usize| anim.channels[dof].map(|c| ChannelCursor::new(data, c.offset as usize));
    let mut cursors: [Option<ChannelCursor<'_>>; 6] = std::array::from_fn(cursor);
    for frame in 0..frames {
        let k = i32::try_from(frame).ok()?;
        let mut key = Key::default();
        for d in 0..3 {
            let (r1, r2) = match &mut cursors[d + 3] {
                Some(cursor) => rotation_pair_at(data, cursor.seek(k)),
                None => (0, 0),
            };
            let (p1, p2, hold) = match &mut cursors[d] {
                Some(cursor) => match position_key_at(data, cursor.seek(k)) {
                    PositionKey::Lerp(a, b) => (a, b, false),
                    PositionKey::Hold(a) => (a, a, true),
                },
                None => (0, 0, true),
            };
            if frame > 0 && (expected_rotation[d] != r1 || expected_position[d].is_some_and(|e| e != p1)) {
                return None;
            }
            key.rotation[d] = f32::from(r1);
            key.position[d] = p1;
            key.hold |= u8::from(hold) << d;
            expected_rotation[d] = r2;
            expected_position[d] = (!hold).then_some(p2);
            last.rotation[d] = f32::from(r2);
            last.position[d] = p2;
        }
        out.push(key);
    }
    last.hold = 0b111;
    out.push(last);
    Some(())
}

/// Whether a bone's rotation controllers can turn the result of its keyframe slerp rather than
/// its keys' angles ([`crate::turn`]), so that it is sampled in a group: none turns the y angle,
/// and for every pair of keys in `angles` (per blend, each key's x, y, z angles) Valve's flip
/// decides the same whatever turn is added (p · q is not within 1e-4 of 0, where rounding of the
/// turned quaternions could tip it and the slerp would go the other way round) and the pair is
/// not opposite.
///
/// Valve's two other branches are left to the table's decision on the unturned keys, like any
/// other bone's; where rounding of the turned keys could tip them, both ways give the same
/// rotation to within a few units in the last place of a float. The lerp test `1 − cos ω >
/// 1e-6` can tip only within rounding of its edge, where the lerp and the slerp differ by at most
/// `t (1 − t) (1 − cos ω)`, about 4e-7. `VectorCompare` of the turned angles can find keys equal
/// that differ by less than a float's rounding of their sum, where the slerp between them moves
/// by less than that.
fn turns_after_slerp<'a>(bone: &Bone, angles: impl Iterator<Item = &'a [[f32; 3]]>) -> bool {
    if bone.controllers[4].is_some() {
        return false;
    }
    angles.flat_map(|column| column.windows(2)).all(|pair| {
        let (p, q) =
            (Vec4::from_array(angle_quaternion(pair[0])), Vec4::from_array(angle_quaternion(pair[1])));
        pair[0] == pair[1]
            || (f64::from(valve_cosom(p, q)).abs() >= 1e-4 && slerp_setup(p, q) != SlerpSetup::Full)
    })
}

/// Builds the table for a sequence, or `None` if it cannot be tabled exactly or would be too
/// large.
pub fn build(model: &Model, sequence: &Sequence) -> Option<SequenceTable> {
    let animation = sequence.animation.as_ref()?;
    let frames = sequence.frames() as usize;
    let bones = model.bones.len();
    let blends = animation.num_blends();
    // At most: every bone a controller turns both in a group of its own kind and single.
    let turned = model.bones.iter().filter(|b| has_rotation_controller(b)).count();
    let row_bytes = (bones - turned).div_ceil(LANES) * size_of::<KeyLanes>()
        + turned.div_ceil(LANES) * size_of::<KeyLanes>()
        + turned * size_of::<Key>();
    let most = blends.checked_mul(frames.checked_add(1)?)?.checked_mul(row_bytes)?;
    if most > MAX_TABLE_BYTES {
        return None;
    }
    let data = model.animation_data(sequence);
    // Each bone's keys in each blend (raw values), and their angles, kept while the table is
    // built.
    let mut columns: Vec<Vec<Key>> = Vec::with_capacity(blends * bones);
    let mut angles: Vec<Vec<[f32; 3]>> = Vec::with_capacity(blends * bones);
    for blend in 0..blends {
        for (bone, anim) in model.bones.iter().zip(animation.blend(blend)?) {
            let mut column = Vec::with_capacity(frames + 1);
            raw_keys(data, anim, frames, &mut column)?;
            let angle = |key: &Key, d: usize| bone.value[d + 3] + key.rotation[d] * bone.scale[d + 3];
            angles.push(column.iter().map(|key| [angle(key, 0), angle(key, 1), angle(key, 2)]).collect());
            columns.push(column);
        }
    }
    if columns.len() != blends * bones {
        return None;
    }
    // Bones a controller turns are sampled one at a time unless the turn can follow the slerp.
    let singles: Vec<usize> = (0..bones)
        .filter(|&b| {
            let bone = &model.bones[b];
            has_rotation_controller(bone)
                && !turns_after_slerp(bone, (0..blends).map(|blend| angles[blend * bones + b].as_slice()))
        })
        .collect();
    let grouped: Vec<usize> = (0..bones).filter(|b| !singles.contains(b)).collect();
    let mut spans = Vec::with_capacity(blends * singles.len());
    let mut group_spans = Vec::with_capacity(blends * grouped.len().div_ceil(LANES));
    let (mut keys, mut rows) = (Vec::new(), Vec::new());
    for (i, (column, angles)) in columns.iter_mut().zip(&angles).enumerate() {
        let single = singles.contains(&(i % bones));
        for (key, key_angles) in column.iter_mut().zip(angles) {
            key.rotation = if single {
                let [x, y, z] = *key_angles;
                [x, y, z, 0.0, 0.0, 0.0]
            } else {
                let [x, y, z, w] = angle_quaternion(*key_angles);
                [x, y, z, w, 0.0, 0.0]
            };
        }
        if !single {
            for k in 0..frames {
                // Valve slerps only when the angles differ (`VectorCompare`), whatever the
                // quaternions.
                if angles[k] != angles[k + 1] {
                    let next = column[k + 1].quaternion();
                    plan_slerp(&mut column[k], next);
                }
            }
        }
        // A bone whose keys are all alike is stored once: key k and k + 1 are then the same.
        let constant = column[..frames].iter().all(|k| *k == column[0]) && {
            let (first, last) = (&column[0], &column[frames]);
            first.rotation == last.rotation && first.position == last.position
        };
        if constant {
            column.truncate(1);
            column[0].motion = Motion::Same;
        }
    }
    // Bones that never change go together, and so do bones every blend shares, so that whole
    // groups are stored once or copied from the first blend; the others in bone order. Bones a
    // controller moves are grouped apart, so that the others' groups skip the controllers, and
    // the other bones that never change come last, in groups that are sampled once, here.
    // Per bone, once: (never changes and no controller, a controller moves it, kind), kind 2 for
    // a bone that never changes, 1 for one every blend shares, 0 for the others. Both compare
    // what each blend yields: a bone held still in every blend, but at another value in one
    // (positions in blend 0, none in blend 1), changes with the blend and is of kind 0.
    let order: Vec<(bool, bool, u8)> = (0..bones)
        .map(|b| {
            let shared = (0..blends).all(|blend| columns[blend * bones + b] == columns[b]);
            let kind = match (shared, columns[b].len() == 1) {
                (true, true) => 2,
                (true, false) => 1,
                (false, _) => 0,
            };
            let controlled = is_controlled(&model.bones[b]);
            (!controlled && kind == 2, controlled, kind)
        })
        .collect();
    let mut grouped = grouped;
    grouped.sort_by_key(|&b| order[b]);
    let (varying, settled_bones) = grouped.split_at(grouped.partition_point(|&b| !order[b].0));
    let (plain, moved) = varying.split_at(varying.partition_point(|&b| !order[b].1));
    // Whole groups only: a few left over join the last of the others rather than take a group.
    let (left_over, settled_bones) = settled_bones.split_at(settled_bones.len() % LANES);
    let plain = [plain, left_over].concat();
    let groups: Vec<Group> = plain
        .chunks(LANES)
        .chain(moved.chunks(LANES))
        .chain(settled_bones.chunks(LANES))
        .map(|lanes| {
            let mut group = Group::new(lanes, |b, d| model.bones[b].value[d], |b, d| model.bones[b].scale[d]);
            group.controllers =
                LaneControllers::new(group.bones.map(|b| model.bones[b].controllers)).map(Box::new);
            group
        })
        .collect();
    let sampled = groups.len() - settled_bones.len().div_ceil(LANES);
    let settled: Vec<LaneBones> = groups[sampled..]
        .iter()
        .map(|group| {
            // As a pose samples it at the start of a keyframe.
            let key = group.bones.map(|b| &columns[b][0]);
            let row = KeyLanes::new(key, key);
            group.sample(&row, &row, 0.0)
        })
        .collect();
    let singles_lanes: Vec<[usize; 1]> = singles.iter().map(|&b| [b]).collect();
    let groups_lanes: Vec<[usize; LANES]> = groups[..sampled].iter().map(|g| g.bones).collect();
    for blend in 0..blends {
        // Opposite quaternions (only degenerate input) take the one-bone path's full slerp.
        if grouped.iter().any(|&b| columns[blend * bones + b].iter().any(|k| k.motion == Motion::Full)) {
            return None;
        }
        let layout = Layout { columns: &columns, bones, blend, frames };
        layout.lay_out(&singles_lanes, |[key], _| *key, &mut spans, &mut keys)?;
        layout.lay_out(&groups_lanes, KeyLanes::new, &mut group_spans, &mut rows)?;
    }
    keys.shrink_to_fit();
    rows.shrink_to_fit();
    let mut table = SequenceTable {
        singles,
        spans,
        keys,
        groups,
        sampled,
        group_spans,
        rows,
        settled,
        motion_place: None,
    };
    table.motion_place = sequence.motion_bone.and_then(|b| table.place(b));
    Some(table)
}

/// One blend's keys, as the builder lays them out.
struct Layout<'a> {
    /// Each bone's keys in each blend.
    columns: &'a [Vec<Key>],
    bones: usize,
    blend: usize,
    frames: usize,
}

impl Layout<'_> {
    /// Adds the blend's spans and rows for `members` (single bones, or the bones of groups): a
    /// member whose bones move the same in an earlier blend (legs in an aiming blend) shares
    /// that blend's span; one whose bones never change gets one row; the others get `frames + 1`
    /// rows, laid out frame by frame together, in which their constant bones repeat their key.
    /// `row` makes a member's row from its bones' keys at a keyframe and at the next (the last
    /// key for the last).
    fn lay_out<'k, const N: usize, R>(
        &'k self,
        members: &[[usize; N]],
        row: impl Fn([&'k Key; N], [&'k Key; N]) -> R,
        spans: &mut Vec<(u32, u32)>,
        rows: &mut Vec<R>,
    ) -> Option<()> {
        let first = self.blend * self.bones;
        let key = |b: usize, k: usize| {
            let column = &self.columns[first + b];
            &column[k.min(column.len() - 1)]
        };
        let shared_blend = |lanes: &[usize; N]| {
            (0..self.blend).find(|earlier| {
                lanes.iter().all(|&b| self.columns[earlier * self.bones + b] == self.columns[first + b])
            })
        };
        let mut moving = Vec::with_capacity(members.len());
        for (m, lanes) in members.iter().enumerate() {
            spans.push(match shared_blend(lanes) {
                Some(earlier) => spans[earlier * members.len() + m],
                None if lanes.iter().all(|&b| self.columns[first + b].len() == 1) => {
                    rows.push(row(lanes.map(|b| key(b, 0)), lanes.map(|b| key(b, 1))));
                    (u32::try_from(rows.len() - 1).ok()?, 0)
                }
                None => {
                    moving.push(m);
                    (0, 0)
                }
            });
        }
        let start = rows.len();
        let stride = u32::try_from(moving.len()).ok()?;
        for (c, &m) in moving.iter().enumerate() {
            spans[self.blend * members.len() + m] = (u32::try_from(start + c).ok()?, stride);
        }
        for k in 0..=self.frames {
            rows.extend(
                moving.iter().map(|&m| row(members[m].map(|b| key(b, k)), members[m].map(|b| key(b, k + 1)))),
            );
        }
        Some(())
    }
}
