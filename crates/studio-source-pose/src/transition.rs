//! Paths through a Source model's transition graph (`FindTransitionSequence` in the engine;
//! source-animation.md, "Pose parameters, transitions and included models"): the sequences to
//! play on the way from one sequence to another. Nodes are numbered from 1 (0 means none); the
//! graph's byte for nodes a → b, at (a − 1) × nodes + (b − 1), is the next node on the way.
//! Sequences of include models have their own graphs, which are not merged: for them the path
//! is the goal itself.

use crate::rig::Rig;

/// Which way a sequence is played on a transition path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From its entry node to its exit node.
    Forward,
    /// From its exit node back to its entry node (allowed by its `nodeflags`).
    Backward,
}

/// The entry and exit nodes and node flags of combined sequence `i`, when it is the main
/// model's (group 0).
fn nodes(rig: &Rig<'_>, i: usize) -> Option<(i32, i32, i32)> {
    let seq = rig.sequence(i).filter(|s| s.group == 0)?;
    Some((seq.seq.nodes.0, seq.seq.nodes.1, seq.seq.node_flags))
}

/// The graph's next node from `from` toward `to` (both numbered from 1).
fn next_node(rig: &Rig<'_>, from: i32, to: i32) -> Option<i32> {
    let graph = &rig.render().transitions;
    let count = graph.count();
    let (a, b) = (usize::try_from(from).ok()?.checked_sub(1)?, usize::try_from(to).ok()?.checked_sub(1)?);
    if a >= count || b >= count {
        return None;
    }
    graph.next.get(a * count + b).map(|&n| i32::from(n))
}

/// One step: from `current` played in `direction` toward `goal`, the sequence to play next.
fn step(rig: &Rig<'_>, current: usize, goal: usize, direction: Direction) -> (usize, Direction) {
    let (Some(cur), Some(target)) = (nodes(rig, current), nodes(rig, goal)) else {
        return (goal, Direction::Forward);
    };
    if cur.0 == 0 || target.0 == 0 {
        return (goal, Direction::Forward);
    }
    let end_node = if direction == Direction::Forward { cur.1 } else { cur.0 };
    if end_node == target.0 {
        return (goal, Direction::Forward);
    }
    let Some(intern) = next_node(rig, end_node, target.0).filter(|&n| n != 0) else {
        return (goal, Direction::Forward);
    };
    for i in 0..rig.num_sequences() {
        let Some((entry, exit, flags)) = nodes(rig, i) else { continue };
        if entry == end_node && exit == intern {
            return (i, Direction::Forward);
        }
        if flags != 0 && exit == end_node && entry == intern {
            return (i, Direction::Backward);
        }
    }
    (goal, Direction::Forward)
}

/// The combined sequences to play, in order, to get from `from` to `to`, ending with `to`. It
/// stops after as many steps as the graph has nodes, so a table with a cycle cannot loop.
pub fn transition_path(rig: &Rig<'_>, from: usize, to: usize) -> Vec<(usize, Direction)> {
    let mut path = Vec::new();
    let (mut current, mut direction) = (from, Direction::Forward);
    for _ in 0..=rig.render().transitions.count() {
        let (next, dir) = step(rig, current, to, direction);
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

    #[test]
    fn paths_follow_the_graph_forward_and_backward() {
        let Some(shared) = studio_testing::shared() else { return };
        let bytes = studio_testing::read(&shared, "fixtures/source/models/fixture/anim48.mdl");
        let mut model = studio_source::parse_mdl(&bytes).unwrap();
        assert!(model.sequences.len() >= 4);
        model.includes.clear();
        // Nodes 1 (stand), 2 (crouch), 3 (prone). Sequence 0 idles at 1; 1 goes 1 → 2; 2 goes
        // 2 → 3; 3 idles at 3. The graph: from 1 toward 3 go by 2; everything else directly.
        model.transitions.names = vec!["stand".into(), "crouch".into(), "prone".into()];
        let mut next = vec![0u8; 9];
        let at = |a: usize, b: usize| (a - 1) * 3 + (b - 1);
        next[at(1, 3)] = 2;
        next[at(1, 2)] = 2;
        next[at(2, 3)] = 3;
        next[at(3, 1)] = 2;
        next[at(2, 1)] = 1;
        model.transitions.next = next;
        for s in &mut model.sequences {
            (s.nodes, s.node_flags) = ((0, 0), 0);
        }
        model.sequences[0].nodes = (1, 1);
        model.sequences[1].nodes = (1, 2);
        model.sequences[2].nodes = (2, 3);
        model.sequences[3].nodes = (3, 3);
        let rig = Rig::new(&model);
        assert_eq!(
            transition_path(&rig, 0, 3),
            [(1, Direction::Forward), (2, Direction::Forward), (3, Direction::Forward)]
        );
        // Back up: only sequences whose node flags allow it play backwards.
        assert_eq!(
            transition_path(&rig, 3, 0),
            [(0, Direction::Forward)],
            "no reversible way: straight there"
        );
        model.sequences[2].node_flags = 1;
        model.sequences[1].node_flags = 1;
        let rig = Rig::new(&model);
        assert_eq!(
            transition_path(&rig, 3, 0),
            [(2, Direction::Backward), (1, Direction::Backward), (0, Direction::Forward)]
        );
        // A sequence without a node goes straight to the goal.
        assert_eq!(transition_path(&rig, 4, 3), [(3, Direction::Forward)]);
    }
}
