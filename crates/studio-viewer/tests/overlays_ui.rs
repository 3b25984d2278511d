//! The Display panel's overlays through the viewer's real widgets (kittest): vertex normals,
//! the player's hull, and the bone weights view, per bone or for the bone whose joint is under
//! the pointer.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use studio_render::WeightView;
use studio_viewer::app::StudioApp;
use studio_viewer::app::command::Command;
use studio_viewer::app::settings::{Settings, Weights};

fn harness(app: StudioApp) -> Harness<'static, StudioApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui, None), app)
}

#[test]
fn normals_hull_and_bone_weights_from_the_display_panel() {
    let mut h = harness(StudioApp::new(Settings::default(), None));
    h.run_steps(2);
    if h.state().state.playing {
        h.state_mut().state.apply(Command::TogglePlay);
    }
    for label in ["Normals", "Player hull"] {
        h.get_by_role_and_label(egui::accesskit::Role::CheckBox, label).click();
        h.run_steps(2);
    }
    let overlay = h.state().state.render_options().overlay;
    assert!(overlay.normals && overlay.player_hull);
    assert_eq!(overlay.weights, WeightView::Off);

    // The weights view from its list.
    h.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Weights").click();
    h.run_steps(2);
    h.get_by_label("per bone").click();
    h.run_steps(2);
    assert_eq!(h.state().state.settings.weights, Weights::PerBone);
    assert_eq!(h.state().state.render_options().overlay.weights, WeightView::PerBone);

    // Under the cursor: the bone whose joint the pointer is on; elsewhere the selected one.
    h.state_mut().state.settings.weights = Weights::UnderCursor;
    h.run_steps(1);
    let state = &h.state().state;
    let rect = h.state().viewport_rect();
    let size = (rect.width() as u32, rect.height() as u32);
    let (bone, joint) = state
        .bone_names()
        .iter()
        .enumerate()
        .find_map(|(i, (_, at))| state.camera.project(*at, size.0, size.1).map(|p| (i, p)))
        .expect("a joint in view");
    h.hover_at(rect.min + egui::vec2(joint.x, joint.y));
    h.run_steps(2);
    let hovered = h.state().state.hovered_bone.expect("a bone under the pointer");
    // Joints may lie together: the one found is as near as the one aimed at.
    let state = &h.state().state;
    let at = |b: usize| state.camera.project(state.bone_names()[b].1, size.0, size.1).unwrap();
    assert!((at(hovered) - joint).length() <= (at(bone) - joint).length() + 1e-3);
    assert_eq!(state.render_options().overlay.weights, WeightView::Bone(hovered));
    h.hover_at(rect.min + egui::vec2(2.0, 2.0));
    h.run_steps(2);
    assert_eq!(h.state().state.hovered_bone, None);
    h.state_mut().state.apply(Command::SelectBone(Some(1)));
    assert_eq!(h.state().state.render_options().overlay.weights, WeightView::Bone(1));
}

#[test]
fn the_ground_scrolls_back_by_a_walks_movement() {
    let mut h = harness(StudioApp::new(Settings::default(), None));
    h.run_steps(2);
    let walk =
        h.state().state.model().sequences.iter().position(|s| s.label == "walk").expect("the demo walks");
    let state = &mut h.state_mut().state;
    state.apply(Command::SelectSequence(walk));
    if state.playing {
        state.apply(Command::TogglePlay);
    }
    state.apply(Command::SetFrame(10.0));
    h.run_steps(2);
    assert_eq!(h.state().state.render_options().ground_offset, glam::Vec3::ZERO, "off by default");
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Scroll the ground").click();
    h.run_steps(2);
    let state = &h.state().state;
    let sequence = &state.model().sequences[walk];
    let moved = studio_pose::playback::movement_at(sequence, 10.0);
    assert!(moved.x > 1.0, "the walk has gone forward by frame 10: {moved}");
    assert!((state.render_options().ground_offset + moved).length() < 1e-4, "the ground goes back as far");
    // Moving the model along the ground instead: the ground stays.
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Move along the ground").click();
    h.run_steps(2);
    assert_eq!(h.state().state.render_options().ground_offset, glam::Vec3::ZERO);
}

#[test]
fn the_ground_scrolls_back_by_a_source_sequences_movement() {
    let Some(shared) = studio_testing::shared() else { return };
    let model = shared.join("fixtures/source/models/fixture/anim48.mdl");
    let mut h = harness(StudioApp::new(Settings::default(), Some(model)));
    h.run_steps(2);
    let state = &mut h.state_mut().state;
    if state.playing {
        state.apply(Command::TogglePlay);
    }
    state.settings.scroll_ground = true;
    // The first sequence whose movement takes the model somewhere by half its cycle.
    let count = state.source.as_ref().unwrap().doc.num_sequences();
    let mut moving = None;
    for sequence in 0..count {
        state.apply(Command::SelectSequence(sequence));
        state.apply(Command::SetCycle(0.5));
        let moved = state.source.as_ref().unwrap().doc.movement();
        if moved.length() > 0.5 {
            moving = Some(moved);
            break;
        }
    }
    let moved = moving.expect("anim48 has a sequence that moves");
    assert!(
        (state.render_options().ground_offset + moved).length() < 1e-4,
        "the ground goes back as far: {moved}"
    );
    state.settings.scroll_ground = false;
    assert_eq!(state.render_options().ground_offset, glam::Vec3::ZERO);
}
