//! `AccumulatePose` (source-bonesetup.md, "Accumulating a sequence into the pose"): one
//! sequence merged into the running pose at its cycle and weight: its IK locks recorded, its
//! blend grid evaluated into a private pose ([`crate::grid`]), that pose merged in the bones'
//! own space or in model space ([`crate::merge`]), its autolayers ([`crate::layers`]), then the
//! locks solved. All of it runs at weight 0 too: only the merge is then a no-op
//! (`CBoneSetup::AccumulatePose` returns early for a negative sequence alone).

use studio_source::STUDIO_LOOPING;

use crate::grid::grid;
use crate::layers::{STUDIO_AL_LOCAL, layer_into};
use crate::local_pose::{LocalPose, Scratch};
use crate::merge::{merge, merge_world};
use crate::pose::Ctx;
use crate::rig::SeqRef;

/// `STUDIO_WORLD`: the sequence blends in model space.
pub(crate) const STUDIO_WORLD: i32 = 0x4000;

/// `STUDIO_CYCLEPOSE`.
const STUDIO_CYCLEPOSE: i32 = 0x80;

/// `STUDIO_LOCAL`.
const STUDIO_LOCAL: i32 = 0x200;

/// `STUDIO_REALTIME`: the sequence plays on the real-time clock, whatever cycle it is given.
pub(crate) const STUDIO_REALTIME: i32 = 0x100;

/// How deep layers of layers are followed: real models nest one or two.
const MAX_LAYER_DEPTH: usize = 8;

/// The cycle a sequence reads its animations at (source-bonesetup.md, "Cycle";
/// `CalcPoseSingle`): a `STUDIO_REALTIME` sequence's from the clock `time` (the fraction of
/// time × its cycles per second, `Studio_CPS`), a `STUDIO_CYCLEPOSE` one's from its pose
/// parameter, else `cycle` wrapped (looping) or clamped.
fn sequence_cycle(ctx: Ctx<'_, '_>, seq: SeqRef<'_>, cycle: f32) -> f32 {
    let (rig, params) = (ctx.rig, ctx.params);
    let sequence = seq.seq;
    if sequence.flags & STUDIO_REALTIME != 0 {
        // `cycle - (int)cycle`: truncated towards zero, as the engine does.
        let c = ctx.time * crate::playback::cycle_rate(rig, seq, params);
        return if c.is_finite() { c - c.trunc() } else { 0.0 };
    }
    if sequence.flags & STUDIO_CYCLEPOSE != 0 {
        return rig.cycle_pose(seq).and_then(|p| params.get(p)).copied().unwrap_or(0.0);
    }
    if sequence.flags & STUDIO_LOOPING != 0 {
        if !(0.0..1.0).contains(&cycle) {
            let c = cycle - cycle.floor();
            return if c.is_finite() { c } else { 0.0 };
        }
        cycle
    } else {
        cycle.clamp(0.0, 1.0)
    }
}

/// `AccumulatePose`: merges combined sequence `sequence` at `cycle` with weight `w` (clamped to
/// 0–1) into `pose`. Its layers are given `cycle` as it came, not the cycle its animations are
/// read at: `CalcPoseSingle` takes the cycle by value.
pub(crate) fn accumulate(
    ctx: Ctx<'_, '_>,
    scratch: &mut Scratch,
    pose: &mut LocalPose,
    sequence: usize,
    cycle: f32,
    w: f32,
    depth: usize,
) {
    let rig = ctx.rig;
    let Some(seq) = rig.sequence(sequence) else { return };
    if depth > MAX_LAYER_DEPTH {
        return;
    }
    // `clamp(flWeight, 0, 1)`; a weight that is not a number adds nothing.
    let w = if w.is_nan() { 0.0 } else { w.clamp(0.0, 1.0) };
    let model = rig.render();
    let locks = crate::ik_lock::record(model, &seq.seq.ik_locks, pose, scratch);
    let flags = seq.seq.flags;
    // At weight 0 `SlerpBones` returns at once: the private pose would be thrown away.
    if w > 0.0 {
        let read_at = sequence_cycle(ctx, seq, cycle);
        let mut private = scratch.pose(model);
        if grid(ctx, scratch, seq, read_at, &mut private) {
            if flags & STUDIO_LOCAL != 0 {
                for layer in seq.seq.layers.iter().filter(|l| l.flags & STUDIO_AL_LOCAL != 0) {
                    layer_into(ctx, scratch, seq, &mut private, layer, cycle, 1.0, depth, true);
                }
            }
            if flags & STUDIO_WORLD != 0 {
                merge_world(rig, seq, pose, &private, w, scratch);
            } else {
                merge(rig, seq, pose, &private, w);
            }
        }
        scratch.give(private);
    }
    let local_parent = flags & STUDIO_LOCAL != 0;
    for layer in seq.seq.layers.iter().filter(|l| !(local_parent && l.flags & STUDIO_AL_LOCAL != 0)) {
        layer_into(ctx, scratch, seq, pose, layer, cycle, w, depth, false);
    }
    crate::ik_lock::solve(model, &locks, pose, scratch);
    scratch.give_locks(locks);
}
