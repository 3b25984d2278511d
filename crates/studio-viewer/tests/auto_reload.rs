//! The viewer reloads the open model when its file changes on disk (kittest): a recompiled
//! model comes back where the user left it (camera, sequence, frame, sliders), a broken write
//! shows its error and keeps the last good model, the viewer's own save reloads nothing, and
//! the setting turns it off.

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use studio_viewer::app::StudioApp;
use studio_viewer::app::command::Command;
use studio_viewer::app::settings::Settings;

fn harness(app: StudioApp) -> Harness<'static, StudioApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui, None), app)
}

/// The demo model with its first sequence's rate changed: what a recompile writes.
fn recompiled(fps: f32) -> Vec<u8> {
    let mut model = studio_document::demo::demo_model().unwrap();
    model.sequences[0].fps = fps;
    studio_model::write(&model).unwrap().main
}

/// Moves the first hit box's far corner by `by` along X.
fn moved_hitbox(state: &studio_viewer::app::state::AppState, by: f32) -> Command {
    use studio_edit::{Change, GoldRecord};
    let before = state.model().hitboxes[0].clone();
    let mut after = before.clone();
    after.bbmax.x += by;
    Command::edit_gold(
        "move",
        Change::Set { before: GoldRecord::Hitbox(0, before), after: GoldRecord::Hitbox(0, after) },
    )
}

/// Runs frames until `done`, or fails after 20 s (the watcher reports a file once it has been
/// quiet for 0.3 s).
fn wait_for(h: &mut Harness<'_, StudioApp>, what: &str, done: impl Fn(&StudioApp) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(start.elapsed() < Duration::from_secs(20), "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
}

/// Writes `bytes` over `path` as a compiler would: a new file put in its place.
fn write_over(path: &Path, bytes: &[u8]) {
    let new = path.with_extension("new");
    std::fs::write(&new, bytes).unwrap();
    std::fs::rename(&new, path).unwrap();
}

/// Frames for a while, for a change that must not reload.
fn idle(h: &mut Harness<'_, StudioApp>) {
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
}

#[test]
fn a_recompiled_model_reloads_where_it_was_left_and_a_broken_one_keeps_the_last() {
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "auto-reload");
    let path = dir.join("model.mdl");
    std::fs::write(&path, recompiled(30.0)).unwrap();
    let mut h = harness(StudioApp::new(Settings::default(), Some(path.clone())));
    h.run_steps(2);
    assert!(h.state().state.watch.is_watching(), "the open model's file is watched");

    // Where the modder left it: a sequence, a frame, paused, a turned camera.
    let sequences = h.state().state.model().sequences.len();
    let sequence = sequences - 1;
    let state = &mut h.state_mut().state;
    state.apply(Command::SelectSequence(sequence));
    state.apply(Command::SetFrame(2.5));
    if state.playing {
        state.apply(Command::TogglePlay);
    }
    state.camera.orbit(33.0, 12.0);
    let camera = state.camera;
    let load_id = state.scene_identity().0;
    h.run_steps(1);

    // A recompile writes the file anew.
    write_over(&path, &recompiled(12.0));
    wait_for(&mut h, "the reload", |app| app.state.scene_identity().0 != load_id);
    let state = &h.state().state;
    assert_eq!(state.model().sequences[0].fps, 12.0, "the new file is shown");
    assert_eq!(state.sequence, sequence);
    assert!((state.frame - 2.5).abs() < 1e-6);
    assert!(!state.playing);
    assert_eq!(state.camera, camera, "the camera stays");
    assert!(state.messages.iter().any(|(_, m)| m.contains("reloaded")));

    // A broken write: its error shows and the last good model stays.
    let load_id = state.scene_identity().0;
    let bones = state.model().bones.len();
    write_over(&path, b"IDST\x0a\0\0\0 this is not a model");
    wait_for(&mut h, "the error", |app| app.state.last_error().is_some());
    let state = &h.state().state;
    assert_eq!(state.scene_identity().0, load_id, "nothing new loaded");
    assert_eq!(state.model().bones.len(), bones);
    assert_eq!(state.model().sequences[0].fps, 12.0);
    assert!(state.last_error().unwrap().contains("model.mdl"), "{:?}", state.last_error());

    // The next good write loads again.
    write_over(&path, &recompiled(20.0));
    wait_for(&mut h, "the reload after the error", |app| app.state.scene_identity().0 != load_id);
    assert_eq!(h.state().state.model().sequences[0].fps, 20.0);
    assert_eq!(h.state().state.camera, camera);
}

#[test]
fn the_viewers_own_save_reloads_nothing_and_the_setting_turns_it_off() {
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "auto-reload-own-save");
    let path = dir.join("model.mdl");
    std::fs::write(&path, recompiled(30.0)).unwrap();
    let mut h = harness(StudioApp::new(Settings::default(), Some(path.clone())));
    h.run_steps(2);

    // An edit, saved from the viewer: its undo history stays (no reload).
    let state = &mut h.state_mut().state;
    let edit = moved_hitbox(state, 1.0);
    state.apply(edit);
    state.apply(Command::Save);
    let load_id = state.scene_identity().0;
    idle(&mut h);
    let state = &h.state().state;
    assert_eq!(state.scene_identity().0, load_id, "the viewer's own save is not reloaded");
    assert_eq!(state.undo_redo_names().0, Some("move"), "the edit can still be undone");

    // Unsaved edits are not thrown away by a change on disk.
    let state = &mut h.state_mut().state;
    let edit = moved_hitbox(state, 2.0);
    state.apply(edit);
    let edited = state.model().hitboxes[0].clone();
    write_over(&path, &recompiled(10.0));
    wait_for(&mut h, "the warning", |app| {
        app.state.messages.iter().any(|(_, m)| m.contains("unsaved edits here"))
    });
    assert_eq!(h.state().state.scene_identity().0, load_id);
    assert_eq!(h.state().state.model().hitboxes[0], edited);

    // Turned off, nothing is watched.
    h.state_mut().state.apply(Command::Undo);
    h.state_mut().state.apply(Command::Undo);
    h.state_mut().state.apply(Command::SetAutoReload(false));
    assert!(!h.state().state.watch.is_watching());
    write_over(&path, &recompiled(11.0));
    idle(&mut h);
    assert_eq!(h.state().state.scene_identity().0, load_id);
}
