//! Playback arithmetic a viewer needs, free of any UI: frames from time with Valve's looping and
//! clamping rules (`StudioEstimateFrame`), events crossed between two frames, linear movement,
//! and paths through the transition graph (`FindTransition` in Half-Life's game code).

use glam::Vec3;
use studio_model::{Event, Model, Sequence};

/// Wraps or clamps a frame the way the game does before sampling: a looping sequence of n frames
/// repeats with period n − 1 (its last frame is its first) into [0, n − 1); a one-shot one stops
/// at n − 1.001 and never goes below 0; a sequence of one frame is always at 0.
pub fn normalize_frame(sequence: &Sequence, frame: f64) -> f32 {
    let n = f64::from(sequence.num_frames);
    if n <= 1.0 || !frame.is_finite() {
        return 0.0;
    }
    let period = n - 1.0;
    if sequence.is_looping() {
        let mut f = frame - (frame / period).trunc() * period;
        if f < 0.0 {
            f += period;
        }
        // Rounding can land exactly on the period; that is frame 0 again.
        let f = f as f32;
        if f >= period as f32 { 0.0 } else { f }
    } else {
        frame.clamp(0.0, n - 1.001) as f32
    }
}

/// The frame reached `time_secs` after the start when playing at the sequence's fps times
/// `speed`, wrapped or clamped by [`normalize_frame`].
pub fn frame_at(sequence: &Sequence, time_secs: f64, speed: f64) -> f32 {
    normalize_frame(sequence, time_secs * f64::from(sequence.fps) * speed)
}

/// The events that fire when playback moves forward from frame `from` to frame `to`: those whose
/// frame lies in (from, to]. When a looping sequence wrapped round (`to < from`), those after
/// `from` and those up to `to`. To include events on the very first frame, start from −1.
pub fn events_between(sequence: &Sequence, from: f32, to: f32) -> impl Iterator<Item = &Event> + '_ {
    let wrapped = to < from;
    sequence.events.iter().filter(move |e| {
        let f = e.frame as f32;
        if wrapped { f > from || f <= to } else { f > from && f <= to }
    })
}

/// How far the model has moved along the sequence's linear movement at `frame`:
/// `linearmovement × frame / (n − 1)`.
pub fn movement_at(sequence: &Sequence, frame: f32) -> Vec3 {
    let n = sequence.num_frames;
    if n <= 1 {
        return Vec3::ZERO;
    }
    sequence.linear_movement * (frame / (n - 1) as f32)
}

/// Ground speed in units per second: the length of the linear movement over the sequence's
/// duration, as `StudioGetSequenceInfo` computes it.
pub fn ground_speed(sequence: &Sequence) -> f32 {
    let n = sequence.num_frames;
    if n <= 1 {
        return 0.0;
    }
    sequence.linear_movement.length() * sequence.fps / (n - 1) as f32
}

/// Which way a sequence is played on a transition path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From its entry node to its exit node.
    Forward,
    /// Backwards, from its exit node to its entry node (allowed by its `nodeflags`).
    Backward,
}

/// One step of `FindTransition`: from `current` (played in `direction`) toward `goal`, the
/// sequence to play next and its direction. The goal itself when no transition is needed or
/// none is defined.
fn find_transition(model: &Model, current: usize, goal: usize, direction: Direction) -> (usize, Direction) {
    let seqs = &model.sequences;
    let (Some(cur), Some(target)) = (seqs.get(current), seqs.get(goal)) else {
        return (goal, Direction::Forward);
    };
    if cur.entry_node == 0 || target.entry_node == 0 {
        return (goal, Direction::Forward);
    }
    let end_node = if direction == Direction::Forward { cur.exit_node } else { cur.entry_node };
    if end_node == target.entry_node {
        return (goal, Direction::Forward);
    }
    let next = match (usize::try_from(end_node), usize::try_from(target.entry_node)) {
        (Ok(a), Ok(b)) => model.transitions.next(a, b),
        _ => None,
    };
    let Some(intern) = next.filter(|&n| n != 0).map(i32::from) else { return (goal, Direction::Forward) };
    for (i, s) in seqs.iter().enumerate() {
        if s.entry_node == end_node && s.exit_node == intern {
            return (i, Direction::Forward);
        }
        if s.node_flags != 0 && s.exit_node == end_node && s.entry_node == intern {
            return (i, Direction::Backward);
        }
    }
    (goal, Direction::Forward)
}

/// The sequences to play, in order, to get from sequence `from` to sequence `to` through the
/// transition graph, ending with `to` itself. Following the graph's next-node table this is the
/// shortest path the game would take; it stops after as many steps as there are nodes, so a
/// cyclic table cannot loop.
pub fn transition_path(model: &Model, from: usize, to: usize) -> Vec<(usize, Direction)> {
    let mut path = Vec::new();
    let (mut current, mut direction) = (from, Direction::Forward);
    for _ in 0..=model.transitions.count() {
        let (next, dir) = find_transition(model, current, to, direction);
        path.push((next, dir));
        if next == to {
            return path;
        }
        (current, direction) = (next, dir);
    }
    path.push((to, Direction::Forward));
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio_model::STUDIO_LOOPING;

    fn sequence(frames: u32, looping: bool) -> Sequence {
        Sequence {
            label: "test".into(),
            fps: 10.0,
            flags: if looping { STUDIO_LOOPING } else { 0 },
            activity: 0,
            activity_weight: 0,
            events: vec![],
            num_frames: frames,
            pivots: vec![],
            motion_type: 0,
            motion_bone: None,
            linear_movement: Vec3::new(30.0, 0.0, 0.0),
            bbmin: Vec3::ZERO,
            bbmax: Vec3::ZERO,
            num_blends: 1,
            anim_index: 0,
            blend_type: [0; 2],
            blend_start: [0.0; 2],
            blend_end: [0.0; 2],
            group: 0,
            entry_node: 0,
            exit_node: 0,
            node_flags: 0,
            animation: None,
        }
    }

    #[test]
    fn looping_wraps_with_period_frames_minus_one() {
        let s = sequence(11, true);
        assert_eq!(normalize_frame(&s, 3.5), 3.5);
        assert_eq!(normalize_frame(&s, 10.0), 0.0);
        assert_eq!(normalize_frame(&s, 12.5), 2.5);
        assert_eq!(normalize_frame(&s, -1.0), 9.0);
        assert_eq!(frame_at(&s, 1.25, 1.0), 2.5);
        assert_eq!(frame_at(&s, 1.25, 0.5), 6.25);
    }

    #[test]
    fn one_shot_clamps_short_of_the_last_frame() {
        let s = sequence(11, false);
        assert_eq!(normalize_frame(&s, 30.0), (10.0f64 - 0.001) as f32);
        assert_eq!(normalize_frame(&s, -3.0), 0.0);
        assert_eq!(normalize_frame(&sequence(1, true), 5.0), 0.0);
        assert_eq!(normalize_frame(&s, f64::NAN), 0.0);
    }

    #[test]
    fn events_fire_when_their_frame_is_passed() {
        let mut s = sequence(11, true);
        for frame in [0, 2, 9] {
            s.events.push(Event { frame, event: 1000 + frame, kind: 0, options: String::new() });
        }
        let fired = |from, to| events_between(&s, from, to).map(|e| e.frame).collect::<Vec<_>>();
        assert_eq!(fired(-1.0, 2.0), [0, 2]);
        assert_eq!(fired(0.0, 2.0), [2]);
        assert_eq!(fired(2.0, 8.9), Vec::<i32>::new());
        assert_eq!(fired(8.5, 1.0), [0, 9]);
    }

    #[test]
    fn movement_is_linear_over_the_sequence() {
        let s = sequence(11, true);
        assert_eq!(movement_at(&s, 5.0), Vec3::new(15.0, 0.0, 0.0));
        assert_eq!(ground_speed(&s), 30.0);
        assert_eq!(movement_at(&sequence(1, true), 0.0), Vec3::ZERO);
    }
}
