//! Choosing a sequence through the model's transition graph, as the games' monsters and NPCs
//! reach it: each sequence between played once (forwards, or backwards where the graph says),
//! then the one chosen; shown in the Sequences panel; straight there when turned off.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use egui_kittest::kittest::Queryable;
use studio_viewer::app::command::Command;

/// The groups fixture (stand, walk, sit; a three-node graph whose table, row by row, is
/// 0 2 2 / 1 0 1 / 2 2 0) with walk linking node 1 to node 2 (`walk_nodes`) and sit at node
/// 2, written with its companions to a folder of its own.
fn groups_with_links(name: &str, walk_nodes: (i32, i32, i32)) -> Option<PathBuf> {
    let shared = studio_testing::shared()?;
    let mut model = studio_model::load(&shared.join("fixtures/groups.mdl")).unwrap().model;
    let labels: Vec<&str> = model.sequences.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels[..3], ["stand", "walk", "sit"]);
    model.sequences[0].entry_node = 1;
    model.sequences[0].exit_node = 1;
    (model.sequences[1].entry_node, model.sequences[1].exit_node, model.sequences[1].node_flags) = walk_nodes;
    (model.sequences[2].entry_node, model.sequences[2].exit_node, model.sequences[2].node_flags) = (2, 2, 0);
    let files = studio_model::write(&model).unwrap();
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name);
    std::fs::write(dir.join("groups.mdl"), &files.main).unwrap();
    if let Some(textures) = &files.textures {
        std::fs::write(dir.join("groupsT.mdl"), textures).unwrap();
    }
    for (i, group) in files.groups.iter().enumerate() {
        std::fs::write(dir.join(format!("groups{:02}.mdl", i + 1)), group).unwrap();
    }
    Some(dir.join("groups.mdl"))
}

/// Plays in steps of 1/30 s until `done` or 10 s have passed.
fn play_until(
    h: &mut egui_kittest::Harness<'_, studio_viewer::app::StudioApp>,
    done: impl Fn(&studio_viewer::app::state::AppState) -> bool,
) {
    for _ in 0..300 {
        if done(&h.state().state) {
            return;
        }
        h.state_mut().state.advance(1.0 / 30.0);
    }
    panic!("not reached in 10 s of playing");
}

/// The viewer showing the model at `path`, playing its first sequence (stand), reached
/// without a route.
fn playing_stand(path: PathBuf) -> egui_kittest::Harness<'static, studio_viewer::app::StudioApp> {
    let mut h = common::harness(1400.0, 1000.0);
    common::drop_file(&mut h, path);
    let state = &mut h.state_mut().state;
    state.playing = false;
    state.apply(Command::SelectSequence(0));
    state.playing = true;
    h
}

#[test]
fn a_half_life_model_goes_through_the_sequence_the_graph_puts_between() {
    let Some(path) = groups_with_links("route-forward", (1, 2, 0)) else { return };
    let mut h = playing_stand(path);
    let state = &mut h.state_mut().state;
    assert!(state.settings.transition_graph, "on by default");

    // Stand → sit: by walk (node 1 → 2), then sit.
    state.apply(Command::SelectSequence(2));
    assert_eq!(state.sequence, 1, "walk first");
    assert!(!state.reverse);
    let route = state.route.clone().expect("a route");
    assert_eq!(route.goal, 2);
    assert_eq!(route.steps.iter().copied().collect::<Vec<_>>(), [(2, false)]);
    // The panel says where it is going (paused, so the harness's clock leaves it there).
    h.state_mut().state.playing = false;
    h.run_steps(2);
    h.get_by_label("On the way to sit: walk, then sit");
    h.state_mut().state.playing = true;
    // Walk plays once, not looping, and sit follows.
    let walk_frames = h.state().state.model().sequences[1].frames() as f32 - 1.0;
    h.state_mut().state.advance(0.01);
    assert_eq!(h.state().state.sequence, 1);
    assert!(h.state().state.frame > 0.0 && h.state().state.frame < walk_frames);
    play_until(&mut h, |s| s.sequence == 2);
    let state = &h.state().state;
    assert!(state.route.is_none(), "the goal reached");
    assert!(state.playing);
    assert!(state.frame < 1.0, "sit from its start: {}", state.frame);
    assert!(state.transition.is_some(), "sit blends in from walk's end");

    // Turned off: straight to the sequence chosen.
    let state = &mut h.state_mut().state;
    state.apply(Command::SelectSequence(0));
    state.settings.transition_graph = false;
    state.apply(Command::SelectSequence(2));
    assert_eq!(state.sequence, 2);
    assert!(state.route.is_none());
}

#[test]
fn a_reversible_link_is_played_backwards() {
    // Walk stored from node 2 to node 1, reversible: from stand it is played backwards.
    let Some(path) = groups_with_links("route-backward", (2, 1, 1)) else { return };
    let mut h = playing_stand(path);
    let state = &mut h.state_mut().state;
    state.apply(Command::SelectSequence(2));
    let last = state.model().sequences[1].frames() as f32 - 1.0;
    assert_eq!((state.sequence, state.reverse, state.frame), (1, true, last), "walk from its end");
    h.state_mut().state.playing = false;
    h.run_steps(2);
    h.get_by_label("On the way to sit: walk (backwards), then sit");
    h.state_mut().state.playing = true;
    h.state_mut().state.advance(0.05);
    let frame = h.state().state.frame;
    assert!(frame < last && frame > 0.0, "walking backwards: {frame}");
    assert!(h.state().state.event_log.is_empty(), "no events fire backwards");
    play_until(&mut h, |s| s.sequence == 2);
    assert!(!h.state().state.reverse);
    assert!(h.state().state.route.is_none());
}

#[test]
fn a_source_model_goes_through_its_graph_too() {
    let Some(shared) = studio_testing::shared() else { return };
    let mut h = common::harness(1400.0, 1000.0);
    common::drop_file(&mut h, shared.join("fixtures/source/models/fixture/anim48.mdl"));
    let state = &mut h.state_mut().state;
    let view = state.source.as_deref_mut().expect("a Source model");
    // Nodes 1 and 2; sequence 1 links 1 → 2, sequence 2 sits at 2, sequence 0 at 1.
    let mut model = (*view.doc.model).clone();
    assert!(model.sequences.len() >= 3);
    for s in &mut model.sequences {
        (s.nodes, s.node_flags) = ((0, 0), 0);
    }
    model.sequences[0].nodes = (1, 1);
    model.sequences[1].nodes = (1, 2);
    model.sequences[2].nodes = (2, 2);
    model.transitions.names = vec!["a".into(), "b".into()];
    model.transitions.next = vec![0, 2, 1, 0];
    view.doc.replace_model(Arc::new(model));
    state.playing = false;
    state.apply(Command::SelectSequence(0));
    state.playing = true;
    state.apply(Command::SelectSequence(2));
    let doc = &state.source.as_deref().unwrap().doc;
    assert_eq!(doc.sequence, 1, "the link first");
    assert_eq!(state.route.as_ref().map(|r| r.goal), Some(2));
    assert_eq!(doc.transitions.fading(), 1, "the sequence left fades out");
    play_until(&mut h, |s| s.source.as_deref().is_some_and(|v| v.doc.sequence == 2));
    let state = &h.state().state;
    assert!(state.route.is_none());
    assert!(state.source.as_deref().unwrap().doc.cycle < 0.5);
}
