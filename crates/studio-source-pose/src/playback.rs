//! Playing a Source sequence: its cycle rate, the cycle advanced by time, and the events crossed
//! on the way (source-bonesetup.md, "Cycle"; source-animation.md, "Events").

use studio_source::{Event, STUDIO_LOOPING};

use crate::rig::{AnimRef, Rig, SeqRef};

/// `Studio_SeqAnims`: the animations at the four corners of `seq`'s grid cell at `params`,
/// weighted bilinearly, those with a weight above 0 (none for a sequence without a grid).
fn corner_animations<'r>(
    rig: &'r Rig<'_>,
    seq: SeqRef<'r>,
    params: &[f32],
) -> impl Iterator<Item = (AnimRef<'r>, f32)> + 'r {
    let corners = (!seq.seq.grid.contains(&0)).then(|| {
        let (i0, s0) = crate::grid::grid_axis(rig, seq, params, 0);
        let (i1, s1) = crate::grid::grid_axis(rig, seq, params, 1);
        [
            (i0, i1, (1.0 - s0) * (1.0 - s1)),
            (i0 + 1, i1, s0 * (1.0 - s1)),
            (i0, i1 + 1, (1.0 - s0) * s1),
            (i0 + 1, i1 + 1, s0 * s1),
        ]
    });
    corners
        .into_iter()
        .flatten()
        .filter(|&(_, _, w)| w > 0.0)
        .filter_map(move |(x, y, w)| Some((rig.grid_cell(seq, x, y)?, w)))
}

/// Cycles per second of `seq` at pose parameters `params`: over the four corners of its grid
/// cell weighted bilinearly (the engine's `Studio_SeqAnims`), Σ w × fps / (frames − 1) for the
/// animations of more than one frame; 0 for a sequence without animation.
pub fn cycle_rate(rig: &Rig<'_>, seq: SeqRef<'_>, params: &[f32]) -> f32 {
    corner_animations(rig, seq, params)
        .filter(|(a, _)| a.animation.frames > 1)
        .map(|(a, w)| w * a.animation.fps / (a.animation.frames - 1) as f32)
        .sum()
}

/// `Studio_AnimPosition`: how far an animation's movement has gone at `cycle` (whole loops
/// past 1 or below 0 add the whole movement), and its yaw; `None` without movement pieces.
pub fn animation_movement(animation: &studio_source::Animation, cycle: f32) -> Option<(glam::Vec3, f32)> {
    let last = animation.movements.last()?;
    let loops = if cycle > 1.0 {
        cycle.trunc()
    } else if cycle < 0.0 {
        cycle.trunc() - 1.0
    } else {
        0.0
    };
    let frame = (cycle - loops) * animation.frames.saturating_sub(1) as f32;
    let (mut position, mut yaw, mut previous) = (glam::Vec3::ZERO, 0.0f32, 0.0f32);
    for piece in &animation.movements {
        let end = piece.end_frame as f32;
        if end >= frame {
            let f = (frame - previous) / (end - previous);
            let d = piece.v0 * f + 0.5 * (piece.v1 - piece.v0) * f * f;
            position += piece.vector * d;
            yaw = yaw * (1.0 - f) + piece.angle * f;
            if loops != 0.0 {
                position += last.position * loops;
                yaw += last.angle * loops;
            }
            return Some((position, yaw));
        }
        previous = end;
        position = piece.position;
        yaw = piece.angle;
    }
    None
}

/// `Studio_SeqMovement`: a sequence's movement at `cycle`, its grid cell's corners weighted
/// bilinearly as for its rate.
pub fn sequence_movement(rig: &Rig<'_>, seq: SeqRef<'_>, params: &[f32], cycle: f32) -> (glam::Vec3, f32) {
    let mut total = (glam::Vec3::ZERO, 0.0);
    for (a, w) in corner_animations(rig, seq, params) {
        if let Some((position, yaw)) = animation_movement(a.animation, cycle) {
            total.0 += position * w;
            total.1 += yaw * w;
        }
    }
    total
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
    fn movement_runs_through_its_pieces() {
        let piece = |end_frame, v, vector: glam::Vec3, position: glam::Vec3, angle| studio_source::Movement {
            end_frame,
            motion_flags: 0,
            v0: v,
            v1: v,
            angle,
            vector,
            position,
        };
        let animation = studio_source::Animation {
            name: String::new(),
            fps: 30.0,
            flags: 0,
            frames: 21,
            data: studio_source::Section { block: 0, index: 0 },
            section_frames: 0,
            sections: Vec::new(),
            chains: Vec::new(),
            movements: vec![
                piece(10, 10.0, glam::Vec3::X, glam::Vec3::new(10.0, 0.0, 0.0), 0.0),
                piece(20, 10.0, glam::Vec3::Y, glam::Vec3::new(10.0, 10.0, 0.0), 90.0),
            ],
            num_ik_rules: 0,
            ik_rule_index: 0,
            ik_rules: Vec::new(),
            local_hierarchy: Vec::new(),
            local_hierarchy_index: 0,
            block_ik_rule_index: 0,
            num_local_hierarchy: 0,
            zero_frames: None,
            offset: 0,
        };
        // Halfway through the first piece: 5 along x at constant speed.
        let (p, yaw) = animation_movement(&animation, 0.25).unwrap();
        assert!(p.abs_diff_eq(glam::Vec3::new(5.0, 0.0, 0.0), 1e-5) && yaw == 0.0);
        // Halfway through the second: the first piece's end, then 5 along y, half its turn.
        let (p, yaw) = animation_movement(&animation, 0.75).unwrap();
        assert!(p.abs_diff_eq(glam::Vec3::new(10.0, 5.0, 0.0), 1e-5) && (yaw - 45.0).abs() < 1e-5);
        // One loop on: the whole movement once more.
        let (p, _) = animation_movement(&animation, 1.25).unwrap();
        assert!(p.abs_diff_eq(glam::Vec3::new(15.0, 10.0, 0.0), 1e-5));
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
