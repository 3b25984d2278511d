//! Playing a Source sequence: its cycle rate, the cycle advanced by time, and the events crossed
//! on the way (source-bonesetup.md, "Cycle"; source-animation.md, "Events").

use studio_source::{Event, STUDIO_LOOPING};

use crate::rig::{Rig, SeqRef};

/// Cycles per second of `seq` at pose parameters `params`: over the four corners of its grid
/// cell weighted bilinearly (the engine's `Studio_SeqAnims`), Σ w × fps / (frames − 1) for the
/// animations of more than one frame; 0 for a sequence without animation.
pub fn cycle_rate(rig: &Rig<'_>, seq: SeqRef<'_>, params: &[f32]) -> f32 {
    let [g0, g1] = seq.seq.grid;
    if g0 == 0 || g1 == 0 {
        return 0.0;
    }
    let (i0, s0) = crate::pose::grid_axis(rig, seq, params, 0);
    let (i1, s1) = crate::pose::grid_axis(rig, seq, params, 1);
    let corners = [
        (i0, i1, (1.0 - s0) * (1.0 - s1)),
        (i0 + 1, i1, s0 * (1.0 - s1)),
        (i0, i1 + 1, (1.0 - s0) * s1),
        (i0 + 1, i1 + 1, s0 * s1),
    ];
    corners
        .iter()
        .filter(|&&(_, _, w)| w > 0.0)
        .filter_map(|&(x, y, w)| {
            let local = *seq.seq.animations.get(y.min(g1 - 1) * g0 + x.min(g0 - 1))?;
            let a = rig.animation(seq.group, local)?.animation;
            (a.frames > 1).then(|| w * a.fps / (a.frames - 1) as f32)
        })
        .sum()
}

/// The cycle `dt` seconds after `cycle` at `rate` cycles per second: wrapped into [0, 1) for a
/// looping sequence, held at 1 for one that is not.
pub fn advance(seq: &studio_source::Sequence, cycle: f32, rate: f32, dt: f32) -> f32 {
    let next = cycle + rate * dt;
    if !next.is_finite() {
        return 0.0;
    }
    if seq.flags & STUDIO_LOOPING != 0 { next - next.floor() } else { next.clamp(0.0, 1.0) }
}

/// The events of `seq` crossed going from cycle `from` to cycle `to` (after `from`, up to and
/// including `to`), across the loop's end when `to` is below `from` for a looping sequence.
pub fn events_between(seq: &studio_source::Sequence, from: f32, to: f32) -> impl Iterator<Item = &Event> {
    let wrapped = to < from && seq.flags & STUDIO_LOOPING != 0;
    seq.events.iter().filter(move |e| {
        if wrapped { e.cycle > from || e.cycle <= to } else { e.cycle > from && e.cycle <= to }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sequence(looping: bool, cycles: &[f32]) -> studio_source::Sequence {
        studio_source::Sequence {
            label: String::new(),
            activity_name: String::new(),
            activity_weight: 0,
            flags: if looping { STUDIO_LOOPING } else { 0 },
            events: cycles
                .iter()
                .map(|&cycle| Event { cycle, event: 0, kind: 0, options: String::new(), name: String::new() })
                .collect(),
            bbmin: glam::Vec3::ZERO,
            bbmax: glam::Vec3::ZERO,
            grid: [1, 1],
            animations: vec![0],
            params: [None; 2],
            param_start: [0.0; 2],
            param_end: [1.0; 2],
            pose_keys: Vec::new(),
            fade: (0.2, 0.2),
            nodes: (0, 0),
            node_flags: 0,
            layers: Vec::new(),
            ik_locks: Vec::new(),
            num_ik_rules: 0,
            weights: Vec::new(),
            key_values: String::new(),
            cycle_pose: None,
            activity_modifiers: Vec::new(),
        }
    }

    #[test]
    fn cycles_wrap_or_hold_and_cross_events() {
        let looping = sequence(true, &[0.0, 0.5]);
        assert!((advance(&looping, 0.9, 1.0, 0.25) - 0.15).abs() < 1e-6);
        assert_eq!(advance(&sequence(false, &[]), 0.9, 1.0, 0.25), 1.0);
        let crossed: Vec<f32> = events_between(&looping, 0.4, 0.6).map(|e| e.cycle).collect();
        assert_eq!(crossed, [0.5]);
        // Across the loop's end: the event at 0 is crossed.
        let crossed: Vec<f32> = events_between(&looping, 0.9, 0.1).map(|e| e.cycle).collect();
        assert_eq!(crossed, [0.0]);
        assert_eq!(events_between(&looping, 0.5, 0.7).count(), 0, "the start is not crossed again");
    }

    #[test]
    fn walk_plays_at_its_frame_rate() {
        let Some(shared) = studio_testing::shared() else { return };
        let path = shared.join("fixtures/source/models/fixture/anim48.mdl");
        let model = studio_source::load(&path).unwrap().model;
        let rig = Rig::new(&model);
        let params = vec![0.5; rig.pose_parameters.len()];
        // walk: 25 frames at 30 fps, so 30 / 24 cycles per second.
        let walk = rig.sequence(2).unwrap();
        assert!((cycle_rate(&rig, walk, &params) - 30.0 / 24.0).abs() < 1e-5);
        // ref has one frame: no rate.
        assert_eq!(cycle_rate(&rig, rig.sequence(0).unwrap(), &params), 0.0);
    }
}
