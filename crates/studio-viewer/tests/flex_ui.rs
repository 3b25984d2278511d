//! The Flex tab driven through its widgets with egui_kittest: a slider per controller in its
//! own range, grouped by the model's UI controls, the search, the reset, and the eyes' target;
//! the face's vertices follow (no GPU: the moving meshes' vertices are checked).

mod common;

use common::drop_file;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use studio_viewer::app::StudioApp;
use studio_viewer::app::settings::Settings;

fn sliders(h: &Harness<'_, StudioApp>) -> Vec<String> {
    h.get_all_by(|n| n.role() == egui::accesskit::Role::Slider)
        .filter_map(|n| n.accesskit_node().label())
        .collect()
}

#[test]
fn a_modder_works_the_face_in_the_flex_tab() {
    let Some(shared) = studio_testing::shared() else { return };
    let mut h = Harness::builder().with_size(egui::vec2(1400.0, 1000.0)).build_ui_state(
        |ui, app: &mut StudioApp| app.show(ui, None),
        StudioApp::new(Settings::default(), None),
    );
    h.run_steps(2);
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "flex-ui");
    drop_file(&mut h, studio_testing::source_face::write_face(&shared, &dir));
    h.run_steps(1);
    assert!(h.state().state.source.is_some(), "{:?}", h.state().state.last_error());
    h.get_by_label("Pause").click();
    h.get_by(|n| n.label().as_deref() == Some("Flex") && n.role() != egui::accesskit::Role::CheckBox).click();
    h.run_steps(2);
    let labels = sliders(&h);
    for name in ["jaw_drop", "left", "right", "eyes_updown", "close_lid", "nway_value"] {
        assert!(labels.iter().any(|l| l.contains(name)), "a slider for {name}: {labels:?}");
    }
    h.get_by_label("smile");
    h.get_by_label("Eyes (1)");

    let rest = h.state_mut().state.update_face();
    let rest_vertices = h.state().state.source.as_deref().unwrap().doc.frame.face.vertices[0].clone();
    // The smile's left slider (UI control "smile", stereo) sets left_smile, controller 1.
    h.get_by(|n| n.role() == egui::accesskit::Role::Slider && n.label().as_deref() == Some("left"))
        .set_value_accesskit(1.0);
    // jaw_drop runs 0 to 1: a value past it is held at its end.
    h.get_by(|n| {
        n.role() == egui::accesskit::Role::Slider && n.label().is_some_and(|l| l.contains("jaw_drop"))
    })
    .set_value_accesskit(0.75);
    h.run_steps(2);
    let flex = h.state().state.source.as_deref().unwrap().doc.flex.clone();
    assert_eq!((flex[0], flex[1], flex[2]), (0.75, 1.0, 0.0), "{flex:?}");
    let moved = h.state_mut().state.update_face();
    assert_ne!(moved, rest, "the face moved");
    let doc = &h.state().state.source.as_deref().unwrap().doc;
    assert_ne!(doc.frame.face.vertices[0], rest_vertices, "the flexed mesh's vertices follow");

    // The search keeps the groups that match.
    let search = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        n.role() == egui::accesskit::Role::TextInput && n.placeholder() == Some("search controllers")
    };
    h.get_by(search).click();
    h.run_steps(1);
    h.get_by(search).type_text("eyes");
    h.run_steps(2);
    let labels = sliders(&h);
    assert!(labels.iter().any(|l| l.contains("eyes_updown")), "{labels:?}");
    assert!(!labels.iter().any(|l| l.contains("jaw_drop")), "{labels:?}");

    h.get_by_label("Reset face").click();
    h.run_steps(2);
    let doc = &h.state().state.source.as_deref().unwrap().doc;
    assert!(doc.flex.iter().all(|&v| v == 0.0), "{:?}", doc.flex);
    h.state_mut().state.update_face();
    assert_eq!(h.state().state.source.as_deref().unwrap().doc.frame.face.vertices[0], rest_vertices);

    // The eyes look at the camera until a target is placed.
    assert!(h.state().state.source.as_deref().unwrap().doc.eye_target.is_none());
    h.get_by_label("Look at the camera").click();
    h.run_steps(2);
    assert!(h.state().state.source.as_deref().unwrap().doc.eye_target.is_some(), "a placed target");
}
