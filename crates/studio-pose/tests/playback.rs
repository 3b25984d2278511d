//! Transition paths and event lookups on the groups fixture, whose transition table (read with
//! Python at byte 2476) is 0 2 2 / 1 0 1 / 2 2 0.

use studio_pose::playback::{Direction, events_between, transition_path};

fn groups() -> Option<studio_model::Model> {
    let dir = studio_testing::shared()?;
    Some(studio_model::load(&dir.join("fixtures/groups.mdl")).unwrap().model)
}

#[test]
fn path_goes_through_a_linking_sequence() {
    let Some(mut model) = groups() else { return };
    // As stored: stand 1→1, walk 2→2, sit 1→3 (reversible). No sequence links node 1 to node 2,
    // so going from stand to walk is direct.
    assert_eq!(transition_path(&model, 0, 1), [(1, Direction::Forward)]);
    // Make walk a link from node 1 to node 2 and sit the goal at node 2: from stand (exit 1) the
    // table says go through node 2 (row 1, column 2), and walk goes there.
    let nodes = |m: &mut studio_model::Model, s: usize, entry, exit, flags| {
        m.sequences[s].entry_node = entry;
        m.sequences[s].exit_node = exit;
        m.sequences[s].node_flags = flags;
    };
    nodes(&mut model, 1, 1, 2, 0);
    nodes(&mut model, 2, 2, 2, 0);
    assert_eq!(transition_path(&model, 0, 2), [(1, Direction::Forward), (2, Direction::Forward)]);
    // Stored the other way round but reversible, walk is played backwards.
    nodes(&mut model, 1, 2, 1, 1);
    assert_eq!(transition_path(&model, 0, 2), [(1, Direction::Backward), (2, Direction::Forward)]);
    // Not reversible: no link, so straight to the goal.
    nodes(&mut model, 1, 2, 1, 0);
    assert_eq!(transition_path(&model, 0, 2), [(2, Direction::Forward)]);
}

#[test]
fn walk_footsteps_fire_as_playback_passes_them() {
    let Some(model) = groups() else { return };
    let walk = &model.sequences[1];
    let frames = |from, to| events_between(walk, from, to).map(|e| e.frame).collect::<Vec<_>>();
    assert_eq!(frames(0.0, 5.0), [2]);
    assert_eq!(frames(5.0, 8.0), [7]);
    assert_eq!(frames(8.0, 3.0), [2]);
}
