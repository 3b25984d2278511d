//! Editing through the viewer's widgets with egui_kittest: dragging a hit box handle in the
//! viewport, typing an attachment's position, undo and redo from keys and the Edit menu, saving
//! as a new file and opening it again, and the question asked before unsaved edits are lost.

use std::path::PathBuf;

mod common;

use common::drop_file;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use studio_viewer::app::StudioApp;
use studio_viewer::app::command::Command;
use studio_viewer::app::settings::Settings;
use studio_viewer::app::ui::handles::{Handle, handle_positions};

fn harness() -> Harness<'static, StudioApp> {
    let mut h = Harness::builder().with_size(egui::vec2(1400.0, 1000.0)).build_ui_state(
        |ui, app: &mut StudioApp| app.show(ui, None),
        StudioApp::new(Settings::default(), None),
    );
    h.run_steps(2);
    // A still pose, so that handles stay where they were found.
    h.state_mut().state.playing = false;
    h.run_steps(2);
    h
}

/// The model panel's tab button named `name` (not the display check box or the menu of that
/// name: the button furthest right).
fn tab(h: &Harness<'_, StudioApp>, name: &str) {
    h.query_all_by_label(name)
        .filter(|n| n.accesskit_node().role() == Role::Button)
        .max_by(|a, b| a.rect().min.x.total_cmp(&b.rect().min.x))
        .expect("the tab")
        .click();
}

/// The menu bar's menu named `name` (the button highest up).
fn menu(h: &Harness<'_, StudioApp>, name: &str) {
    h.query_all_by_label(name)
        .min_by(|a, b| a.rect().min.y.total_cmp(&b.rect().min.y))
        .expect("the menu")
        .click();
}

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

#[test]
fn dragging_a_hit_box_handle_moves_its_face_and_undo_redo_put_it_back() {
    let mut h = harness();
    tab(&h, "Hit boxes");
    h.run_steps(2);
    // Pick hit box 0 in the list.
    h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with("0  ")))
        .next()
        .expect("hit box 0's row")
        .click();
    h.run_steps(3);
    assert_eq!(h.state().state.selected_hitbox, Some(0));
    let before = h.state().state.model().hitboxes[0].clone();

    // The +x face's handle, and the direction of the bone's x axis on screen.
    let rect = h.state().viewport_rect();
    let handles = handle_positions(&h.state().state, rect);
    assert_eq!(handles.len(), 14, "6 faces and 8 corners");
    let at = |handle| handles.iter().find(|(k, _)| *k == handle).unwrap().1;
    let (from, opposite) =
        (at(Handle::Face { axis: 0, max: true }), at(Handle::Face { axis: 0, max: false }));
    let direction = (from - opposite).normalized();
    let to = from + direction * 40.0;
    h.hover_at(from);
    h.run_steps(1);
    h.drag_at(from);
    h.run_steps(1);
    h.hover_at(from + direction * 20.0);
    h.run_steps(1);
    h.hover_at(to);
    h.run_steps(1);
    h.drop_at(to);
    h.run_steps(2);

    let state = &h.state().state;
    let after = state.model().hitboxes[0].clone();
    assert!(after.bbmax.x > before.bbmax.x + 0.5, "bbmax.x {} -> {}", before.bbmax.x, after.bbmax.x);
    assert_eq!((after.bbmax.y, after.bbmax.z, after.bbmin), (before.bbmax.y, before.bbmax.z, before.bbmin));
    assert_eq!(state.undo_redo_names().0, Some("Move hit box 0"), "one edit for the whole drag");
    assert_eq!(state.pose.hitboxes.len(), state.model().hitboxes.len());
    assert!(h.state().title().ends_with(" •"), "unsaved: {}", h.state().title());

    // Ctrl+Z puts it back, Ctrl+Shift+Z moves it again.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().state.model().hitboxes[0], before);
    assert!(!h.state().title().ends_with(" •"), "back to the file: {}", h.state().title());
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().state.model().hitboxes[0], after);
}

#[test]
fn an_attachment_typed_by_number_is_undone_from_the_menu_and_saved_as_a_new_file() {
    let mut h = harness();
    tab(&h, "Attachments");
    h.run_steps(2);
    h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with("0  ")))
        .next()
        .expect("attachment 0's row")
        .click();
    h.run_steps(2);
    assert_eq!(h.state().state.selected_attachment, Some(0));
    let before = h.state().state.model().attachments[0].clone();
    let point_before = h.state().state.pose.attachments[0];

    h.get_by_label("position x").set_value_accesskit(12.25);
    h.run_steps(2);
    let org = h.state().state.model().attachments[0].org;
    assert_eq!(org.x, 12.25);
    assert_eq!((org.y, org.z), (before.org.y, before.org.z));
    assert_ne!(h.state().state.pose.attachments[0], point_before, "the pose shows it at once");

    // Edit ▸ Undo names the edit.
    menu(&h, "Edit");
    h.run_steps(2);
    let undo =
        h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with("Undo"))).next().expect("Edit ▸ Undo");
    assert_eq!(undo.accesskit_node().label().as_deref(), Some("Undo Edit attachment 0 Ctrl+Z"));
    undo.click();
    h.run_steps(2);
    assert_eq!(h.state().state.model().attachments[0], before);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    h.run_steps(2);
    assert_eq!(h.state().state.model().attachments[0].org.x, 12.25, "Ctrl+Y redoes");

    // Save as a new file (the dialog's answer), open something else, open the file again.
    let path = scratch("edit-ui").join("edited.mdl");
    h.state_mut().state.apply(Command::SaveAs(path.clone()));
    h.run_steps(2);
    assert!(!h.state().state.is_dirty());
    assert!(h.state().title().contains("edited.mdl") && !h.state().title().ends_with(" •"));
    h.state_mut().state.apply(Command::OpenDemo);
    h.run_steps(1);
    drop_file(&mut h, path.clone());
    assert_eq!(h.state().state.path(), Some(path.as_path()));
    assert_eq!(h.state().state.model().attachments[0].org.x, 12.25);
}

#[test]
fn closing_with_unsaved_edits_asks_first() {
    let mut h = harness();
    tab(&h, "Edit");
    h.run_steps(2);
    h.get_by_label("eye z").set_value_accesskit(99.0);
    h.run_steps(2);
    assert_eq!(h.state().state.model().header.eye_position.z, 99.0);
    let close = |h: &mut Harness<'_, StudioApp>| {
        h.input_mut()
            .viewports
            .entry(egui::ViewportId::ROOT)
            .or_default()
            .events
            .push(egui::ViewportEvent::Close);
        h.run_steps(2);
    };
    close(&mut h);
    assert!(!h.state().state.quit);
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(!h.state().state.quit && h.state().state.pending.is_none());
    close(&mut h);
    h.get_by_label("Discard edits").click();
    h.run_steps(2);
    assert!(h.state().state.quit, "the window closes after discarding");
}
