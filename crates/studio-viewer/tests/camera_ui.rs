//! The camera through the viewer's real widgets and keys (kittest): a view model opening in
//! first person at the game's field of view, the camera modes, the FOV slider, orthographic
//! projection, the axis views on keys 1–6, free-look flying, a view saved per model, and the
//! panels hidden.

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use glam::Vec3;
use studio_render::CameraMode;
use studio_viewer::app::StudioApp;
use studio_viewer::app::command::Command;
use studio_viewer::app::settings::Settings;

fn harness(app: StudioApp) -> Harness<'static, StudioApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui, None), app)
}

/// The slider whose label contains `text`.
fn slider<'h>(h: &'h Harness<'_, StudioApp>, text: &'static str) -> egui_kittest::Node<'h> {
    h.get_by(move |node| {
        node.role() == egui::accesskit::Role::Slider && node.label().is_some_and(|l| l.contains(text))
    })
}

/// The demo model written as `name` in a fresh folder of this test's.
fn demo_as(test: &str, name: &str) -> PathBuf {
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), test);
    let path = dir.join(name);
    std::fs::write(&path, studio_document::demo::DEMO_MDL).unwrap();
    path
}

fn open(h: &mut Harness<'_, StudioApp>, path: &Path) {
    h.state_mut().state.apply(Command::Open(path.to_path_buf()));
    h.run_steps(2);
}

#[test]
fn a_view_model_opens_at_the_players_eye_with_the_games_fov() {
    let path = demo_as("camera-view-model", "v_demo.mdl");
    let mut h = harness(StudioApp::new(Settings::default(), Some(path)));
    h.run_steps(2);
    let camera = h.state().state.camera;
    assert_eq!(camera.mode, CameraMode::FirstPerson, "a v_ model opens in first person");
    assert_eq!(camera.eye(), Vec3::ZERO, "at the view origin");
    assert!(camera.forward().abs_diff_eq(Vec3::X, 1e-6), "looking down +X");
    assert!((camera.game_fov() - 90.0).abs() < 1e-3, "Half-Life's 90: {}", camera.game_fov());

    // The Camera section, opened: first person offers the crosshair and guidelines.
    h.get_by_label("Camera").click();
    h.run_steps(2);
    assert!(h.state().state.settings.crosshair);
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Guidelines").click();
    h.run_steps(2);
    assert!(h.state().state.settings.guidelines);

    // The FOV slider counts as the game does.
    slider(&h, "FOV").set_value_accesskit(70.0);
    h.run_steps(2);
    assert!((h.state().state.camera.game_fov() - 70.0).abs() < 0.01);

    // Orbit from the Camera section frames the model; first person comes back at the game's FOV.
    h.get_by_label("Orbit").click();
    h.run_steps(2);
    let orbit = h.state().state.camera;
    assert_eq!(orbit.mode, CameraMode::Orbit);
    assert!(orbit.eye().length() > 10.0, "round the model, not at its eye");
    h.get_by_label("First person").click();
    h.run_steps(2);
    let back = h.state().state.camera;
    assert_eq!(back.mode, CameraMode::FirstPerson);
    assert!((back.game_fov() - 90.0).abs() < 1e-3);

    // Reset view gives a view model its eye back after looking round.
    h.state_mut().state.camera.orbit(40.0, 10.0);
    h.state_mut().state.apply(Command::ResetView);
    assert!(h.state().state.camera.forward().abs_diff_eq(Vec3::X, 1e-6));

    // Any other model opens in orbit.
    open(&mut h, &demo_as("camera-world-model", "demo.mdl"));
    assert_eq!(h.state().state.camera.mode, CameraMode::Orbit);
}

#[test]
fn axis_keys_orthographic_free_look_a_saved_view_and_hidden_panels() {
    let path = demo_as("camera-controls", "demo.mdl");
    let mut h = harness(StudioApp::new(Settings::default(), Some(path.clone())));
    h.run_steps(2);
    if h.state().state.playing {
        h.state_mut().state.apply(Command::TogglePlay);
    }

    // Keys 1–6: front, back, left, right, top, bottom; the model stays framed.
    let expected = [(egui::Key::Num1, Vec3::X), (egui::Key::Num4, -Vec3::Y), (egui::Key::Num5, Vec3::Z)];
    for (key, side) in expected {
        h.key_press(key);
        h.run_steps(2);
        let camera = h.state().state.camera;
        let towards = (camera.eye() - camera.target).normalize();
        assert!(towards.abs_diff_eq(side, 1e-4), "{key:?}: the eye is on {towards}");
    }

    // Orthographic from the Camera section.
    h.get_by_label("Camera").click();
    h.run_steps(2);
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Orthographic").click();
    h.run_steps(2);
    assert!(h.state().state.camera.orthographic);
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Orthographic").click();
    h.run_steps(2);

    // Free look starts at the orbit eye; W flies towards what is looked at, D to the right.
    h.key_press(egui::Key::Num1);
    h.run_steps(2);
    let eye = h.state().state.camera.eye();
    h.get_by_label("Free look").click();
    h.run_steps(2);
    assert_eq!(h.state().state.camera.mode, CameraMode::FreeLook);
    assert!((h.state().state.camera.eye() - eye).length() < 1e-3);
    h.key_down(egui::Key::W);
    h.run_steps(4);
    h.key_up(egui::Key::W);
    h.run_steps(1);
    let flown = h.state().state.camera.eye();
    assert!(flown.x < eye.x - 1.0, "from the front, forward is −X: {eye} → {flown}");
    assert!((flown.y - eye.y).abs() < 1e-3, "no sideways drift");
    // In free look the arrows fly rather than step frames.
    let frame = h.state().state.frame;
    h.key_down(egui::Key::ArrowRight);
    h.run_steps(3);
    h.key_up(egui::Key::ArrowRight);
    h.run_steps(1);
    assert_eq!(h.state().state.frame, frame);
    assert!(h.state().state.camera.eye().y > flown.y + 1.0, "right is +Y when facing −X");

    // A view saved for the model comes back when it opens again.
    h.state_mut().state.apply(Command::SaveView);
    let saved = h.state().state.camera;
    assert_eq!(h.state().state.settings.saved_views.len(), 1);
    h.state_mut().state.apply(Command::SetCameraMode(CameraMode::Orbit));
    open(&mut h, &path);
    assert_eq!(h.state().state.camera, saved, "opening the model restores its view");
    h.state_mut().state.apply(Command::ResetView);
    assert_eq!(h.state().state.camera.mode, CameraMode::Orbit);
    h.state_mut().state.apply(Command::RestoreView);
    assert_eq!(h.state().state.camera, saved);

    // The View menu's axis views and modes.
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Axis view").click();
    h.run_steps(2);
    h.get_by_label("Back (2)").click();
    h.run_steps(2);
    let camera = h.state().state.camera;
    assert!((camera.eye() - camera.target).normalize().abs_diff_eq(-Vec3::X, 1e-4));
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_role_and_label(egui::accesskit::Role::RadioButton, "Free look").click();
    h.run_steps(2);
    assert_eq!(h.state().state.camera.mode, CameraMode::FreeLook);

    // Ctrl+H hides the side and bottom panels; again shows them.
    assert!(h.query_by_label("Display").is_some());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::H);
    h.run_steps(2);
    assert!(h.state().state.panels_hidden);
    assert!(h.query_by_label("Display").is_none(), "the right panel is gone");
    assert!(h.state().layout.viewport.width() > 1300.0, "the viewport takes the window");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::H);
    h.run_steps(2);
    assert!(h.query_by_label("Display").is_some());
}
