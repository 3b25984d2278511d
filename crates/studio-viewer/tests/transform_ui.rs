//! The Edit tab's Transform section with egui_kittest: a scale and turn typed and applied as one
//! undoable edit, and normals flipped.

mod common;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use studio_viewer::app::StudioApp;

fn field<'h>(h: &'h Harness<'_, StudioApp>, label: &'static str) -> egui_kittest::Node<'h> {
    h.get_by(move |n| n.role() == Role::SpinButton && n.label().is_some_and(|l| l == label))
}

#[test]
fn a_typed_transform_applies_as_one_edit_and_undoes() {
    let mut h = paused(common::harness(1400.0, 1400.0));
    let original = h.state().state.model().as_ref().clone();
    common::tab(&h, "Edit");
    h.run_steps(2);
    field(&h, "scale").set_value_accesskit(2.0);
    h.run_steps(1);
    field(&h, "turn about z°").set_value_accesskit(90.0);
    h.run_steps(1);
    h.get_by_label("Apply transform").click();
    h.run_steps(2);
    let eye = original.header.eye_position * 2.0;
    let moved = h.state().state.model().header.eye_position;
    assert!((moved - glam::Vec3::new(-eye.y, eye.x, eye.z)).length() < 1e-3, "{moved} from {eye}");
    assert_eq!(h.state().state.loaded.history.undo_name(), Some("Transform model (×2, 90°)"));
    // The fields are back at rest, so nothing applies twice.
    assert!(h.get_by_label("Apply transform").accesskit_node().is_disabled());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(*h.state().state.model().as_ref(), original);
    // Flip normals: one edit.
    h.get_by_label("Flip normals").click();
    h.run_steps(2);
    let n = |m: &studio_model::Model| m.body_parts[0].submodels[0].normals[0];
    assert_eq!(n(h.state().state.model()), -n(&original));
}

/// The harness with playback paused, two more frames drawn.
fn paused(mut h: egui_kittest::Harness<'static, StudioApp>) -> egui_kittest::Harness<'static, StudioApp> {
    h.state_mut().state.playing = false;
    h.run_steps(2);
    h
}
