//! Animations decoded once into per-frame tables (the version 10 evaluator's approach): each
//! record's rotation as a quaternion per frame, with whether the next frame's angles are the
//! same, and its position per frame. A pose then reads two table entries and blends them
//! instead of walking run-length streams and turning angles into quaternions.

use glam::{Quat, Vec3};
use studio_source::{BoneRecord, Channel, STUDIO_ANIM_DELTA, SourceModel};

use crate::decode::{BoneBase, angles, position, rotation};
use crate::rig::Rig;

/// The most bytes all tables of one evaluator may take; animations past it are read from their
/// streams (the same values, more slowly).
pub const TABLE_BUDGET: usize = 64 << 20;

/// One record decoded per frame of its chain.
#[derive(Clone, Debug)]
pub struct RecordTable {
    /// The quaternion of each frame's angles.
    rotations: Vec<Quat>,
    /// Whether frame f's angles equal frame f + 1's (then no blend between them).
    same_as_next: Vec<bool>,
    /// Each frame's position.
    positions: Vec<Vec3>,
}

/// A chain's records decoded per frame; `None` for a record read from its streams.
#[derive(Clone, Debug)]
pub struct ChainTable {
    records: Vec<Option<RecordTable>>,
}

/// Tables of every chain of every animation of every group of a rig.
#[derive(Clone, Debug, Default)]
pub struct Tables {
    /// [group][animation][chain].
    chains: Vec<Vec<Vec<Option<ChainTable>>>>,
    bytes: usize,
}

impl Tables {
    /// Builds the tables of `rig`'s animations within [`TABLE_BUDGET`].
    pub fn build(rig: &Rig<'_>) -> Self {
        let mut tables = Tables::default();
        for g in 0..rig.num_groups() {
            let model = rig.group(g);
            let animations = model
                .animations
                .iter()
                .map(|animation| {
                    animation
                        .chains
                        .iter()
                        .map(|chain| {
                            let chain = chain.as_ref()?;
                            let bytes = model.chain_bytes(chain);
                            let records = chain
                                .records
                                .iter()
                                .map(|record| tables.record(model, bytes, record, chain.frames))
                                .collect();
                            Some(ChainTable { records })
                        })
                        .collect()
                })
                .collect();
            tables.chains.push(animations);
        }
        tables
    }

    /// Bytes the tables take.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The table of chain `chain` of `animation` of `group`.
    pub fn chain(&self, group: usize, animation: usize, chain: usize) -> Option<&ChainTable> {
        self.chains.get(group)?.get(animation)?.get(chain)?.as_ref()
    }

    fn record(
        &mut self,
        model: &SourceModel,
        bytes: &[u8],
        record: &BoneRecord,
        frames: u32,
    ) -> Option<RecordTable> {
        // Only records with streams gain from a table; a stream whose first run is one value
        // for one frame holds that value at f + 1 too (a rule the per-frame table would lose).
        let rotation_streams = match record.rotation {
            Channel::Streams(s) => s,
            _ => [None; 3],
        };
        let position_streams = match record.position {
            Channel::Streams(s) => s,
            _ => [None; 3],
        };
        let mut streams = rotation_streams.iter().chain(&position_streams).flatten().peekable();
        if streams.peek().is_none() || streams.any(|&s| single_first_run(bytes, s)) {
            return None;
        }
        let size = frames as usize * (size_of::<Quat>() + size_of::<Vec3>() + 1);
        if self.bytes + size > TABLE_BUDGET {
            return None;
        }
        self.bytes += size;
        let bone = model.bones.get(record.bone)?;
        let base = BoneBase::of(bone);
        let rotations = (0..frames).map(|f| rotation(bytes, record, &base, f, 0.0)).collect();
        let same_as_next = (0..frames).map(|f| angles_equal_next(bytes, record, &base, f)).collect();
        let positions = (0..frames).map(|f| position(bytes, record, &base, f, 0.0)).collect();
        Some(RecordTable { rotations, same_as_next, positions })
    }
}

/// Whether the stream starts with a run of one value for one frame.
fn single_first_run(bytes: &[u8], start: u64) -> bool {
    let at = usize::try_from(start).ok();
    at.and_then(|a| bytes.get(a..a.checked_add(2)?)).is_some_and(|h| h == [1, 1])
}

/// Whether a record's angles at `frame` equal those at `frame + 1` (as `CalcBoneQuaternion`
/// compares them: then it blends nothing).
fn angles_equal_next(bytes: &[u8], record: &BoneRecord, base: &BoneBase, frame: u32) -> bool {
    let Channel::Streams(streams) = record.rotation else { return true };
    let (a1, a2) = angles(bytes, &streams, base, record.flags & STUDIO_ANIM_DELTA != 0, frame);
    a1 == a2
}

impl ChainTable {
    /// Record `index`'s rotation and position at local frame `frame` and fraction `s`, if the
    /// record has a table.
    pub fn sample(&self, index: usize, frame: u32, s: f32) -> Option<(Quat, Vec3)> {
        let table = self.records.get(index)?.as_ref()?;
        let f = frame as usize;
        let q1 = *table.rotations.get(f)?;
        let p1 = *table.positions.get(f)?;
        if s <= 0.001 {
            return Some((q1, p1));
        }
        let next = (f + 1).min(table.rotations.len() - 1);
        let rotation =
            if table.same_as_next[f] { q1 } else { crate::quaternion::nlerp(q1, table.rotations[next], s) };
        Some((rotation, p1 * (1.0 - s) + table.positions[next] * s))
    }
}
