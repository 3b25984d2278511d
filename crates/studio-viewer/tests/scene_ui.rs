//! The Sequences panel's scene choices with egui_kittest: the bind pose shown instead of the
//! sequence's, for a Half-Life model and a Source one.

mod common;

use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};

#[test]
fn the_bind_pose_replaces_the_sequences_pose_while_it_is_on() {
    let mut h = common::harness(1400.0, 1000.0);
    let model = h.state().state.model().clone();
    let rest = studio_document::export::goldsrc::rest_pose(&model).1;
    assert_ne!(h.state().state.pose.bones, rest, "the demo plays a sequence");
    h.get_by_role_and_label(Role::CheckBox, "Bind pose").click();
    h.run_steps(3);
    assert!(h.state().state.bind_pose);
    assert_eq!(h.state().state.pose.bones, rest);
    // Playing on does not move it; turning it off shows the sequence again.
    h.run_steps(3);
    assert_eq!(h.state().state.pose.bones, rest);
    h.get_by_role_and_label(Role::CheckBox, "Bind pose").click();
    h.run_steps(3);
    assert_ne!(h.state().state.pose.bones, rest);

    // A Source model: every skinning matrix is the identity in the bind pose.
    let Some(shared) = studio_testing::shared() else { return };
    common::drop_file(&mut h, shared.join("fixtures/source/models/fixture/anim48.mdl"));
    assert!(h.state().state.source.is_some());
    assert!(!h.state().state.bind_pose, "a new model starts in its sequence");
    h.get_by_role_and_label(Role::CheckBox, "Bind pose").click();
    h.run_steps(3);
    let view = h.state().state.source.as_deref().unwrap();
    for m in &view.doc.frame.skinning {
        assert!(m.abs_diff_eq(glam::Affine3A::IDENTITY, 1e-4), "{m:?}");
    }
}

#[test]
fn a_source_sequence_that_moves_shows_its_ground_speed() {
    let Some(shared) = studio_testing::shared() else { return };
    let mut h = common::harness(1400.0, 1000.0);
    common::drop_file(&mut h, shared.join("fixtures/source/models/fixture/anim48.mdl"));
    let doc = &h.state().state.source.as_deref().unwrap().doc;
    let moving = (0..doc.num_sequences()).find(|&i| {
        let mut probe = studio_document::source_doc::SourceDoc::new(
            doc.model.as_ref().clone(),
            doc.path.clone(),
            Vec::new(),
        );
        probe.select_sequence(i, false);
        probe.evaluate();
        probe.ground_speed() > 0.0
    });
    let Some(moving) = moving else { panic!("the fixture has a sequence with movement") };
    h.state_mut().state.playing = false;
    h.state_mut().state.apply(studio_viewer::app::command::Command::SelectSequence(moving));
    h.run_steps(2);
    let doc = &h.state().state.source.as_deref().unwrap().doc;
    let expected = format!("ground speed {:.1} units/s", doc.ground_speed());
    assert!(expected != "ground speed 0.0 units/s");
    h.get_by_label(&expected);
    // A sequence standing still shows none.
    h.state_mut().state.apply(studio_viewer::app::command::Command::SelectSequence(0));
    h.run_steps(2);
    assert_eq!(h.state().state.source.as_deref().unwrap().doc.ground_speed(), 0.0);
    assert!(h.query_by_label(&expected).is_none());
}

#[test]
fn a_layer_chosen_in_the_panel_mixes_over_the_pose_and_a_new_sequence_blends_in() {
    use studio_pose::{Overlay, Pose, PoseEvaluator, PoseRequest};
    use studio_viewer::app::command::Command;
    let mut h = common::harness(1400.0, 1000.0);
    let model = h.state().state.model().clone();
    let find = |label: &str| model.sequences.iter().position(|s| s.label == label).unwrap();
    let (walk, attack) = (find("walk"), find("attack"));
    h.state_mut().state.apply(Command::SelectSequence(walk));
    h.state_mut().state.playing = false;
    h.state_mut().state.transition = None;
    h.run_steps(2);
    let before = h.state().state.pose.bones.clone();
    // Layers ▸ slot 1 ▸ attack, at its own cycle 0.5.
    h.get_by_label("Layers (0)").click();
    h.run_steps(2);
    h.query_all_by_role(Role::ComboBox)
        .find(|n| {
            n.value().is_some_and(|v| v == "1: none")
                || n.accesskit_node().label().is_some_and(|l| l == "1: none")
        })
        .expect("layer slot 1")
        .click();
    h.run_steps(2);
    h.query_all_by_label("attack").last().expect("attack in the list").click();
    h.run_steps(2);
    let layer = h.state().state.layers[0];
    assert_eq!(layer.sequence, Some(attack));
    assert!(h.state().state.pose.bones != before, "the layer moves the pose");
    let mut layer = h.state().state.layers[0];
    layer.main_clock = false;
    layer.cycle = 0.5;
    layer.weight = 0.5;
    h.state_mut().state.apply(Command::SetLayer(0, layer));
    h.run_steps(2);
    let state = &h.state().state;
    let mut evaluator = PoseEvaluator::new(model.clone());
    let mut expected = Pose::new(&model);
    let main = PoseRequest {
        sequence: walk,
        frame: state.frame,
        blend: state.blend,
        controllers: state.controller_bytes(),
    };
    let frame = 0.5 * (model.sequences[attack].frames() - 1) as f32;
    let over = Overlay { request: PoseRequest { sequence: attack, frame, ..main }, weight: 0.5 };
    evaluator.evaluate_overlaid(&main, &[over], &mut expected).unwrap();
    assert_eq!(state.pose.bones, expected.bones);
    h.state_mut().state.apply(Command::SetLayer(0, studio_viewer::app::state::layers::Layer::default()));

    // Playing, a new sequence blends in from the one left over 0.2 s.
    h.state_mut().state.playing = true;
    let left = PoseRequest { frame: h.state().state.frame, ..main };
    h.state_mut().state.apply(Command::SelectSequence(attack));
    let transition = h.state().state.transition.expect("a transition starts");
    assert_eq!(transition.from.sequence, walk);
    h.state_mut().state.advance(0.05);
    let state = &h.state().state;
    let now = PoseRequest { sequence: attack, frame: state.frame, ..left };
    evaluator.evaluate_overlaid(&now, &[Overlay { request: left, weight: 0.75 }], &mut expected).unwrap();
    for (a, b) in state.pose.bones.iter().zip(&expected.bones) {
        assert!(a.abs_diff_eq(*b, 1e-4));
    }
    h.state_mut().state.advance(0.2);
    assert!(h.state().state.transition.is_none(), "over after 0.2 s");
    // Off: no blend.
    h.state_mut().state.settings.blend_transitions = false;
    h.state_mut().state.apply(Command::SelectSequence(walk));
    assert!(h.state().state.transition.is_none());
}
