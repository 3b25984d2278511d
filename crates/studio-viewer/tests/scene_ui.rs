//! The Sequences panel's scene choices with egui_kittest: the bind pose shown instead of the
//! sequence's, for a Half-Life model and a Source one.

mod common;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use studio_viewer::app::StudioApp;
use studio_viewer::app::settings::Settings;

fn harness() -> Harness<'static, StudioApp> {
    let mut h = Harness::builder().with_size(egui::vec2(1400.0, 1000.0)).build_ui_state(
        |ui, app: &mut StudioApp| app.show(ui, None),
        StudioApp::new(Settings::default(), None),
    );
    h.run_steps(2);
    h
}

#[test]
fn the_bind_pose_replaces_the_sequences_pose_while_it_is_on() {
    let mut h = harness();
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
