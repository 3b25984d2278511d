//! The light through the viewer's real widgets (kittest): Ctrl+drag in the viewport turns it
//! (a plain drag still orbits), the ambient slider starts at the model's engine's level and
//! sets its own, the colour and direction reset, and MSAA is a setting of its own.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use studio_viewer::app::StudioApp;
use studio_viewer::app::settings::Settings;

fn harness(app: StudioApp) -> Harness<'static, StudioApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui, None), app)
}

/// Drags across the viewport's middle by `by`, with `modifiers` held.
fn drag(h: &mut Harness<'_, StudioApp>, by: egui::Vec2, modifiers: egui::Modifiers) {
    let from = h.state().viewport_rect().center();
    h.event(egui::Event::ModifiersChanged(modifiers));
    h.hover_at(from);
    h.run_steps(1);
    h.drag_at(from);
    h.run_steps(1);
    for step in 1..=4 {
        h.hover_at(from + by * step as f32 / 4.0);
        h.run_steps(1);
    }
    h.drop_at(from + by);
    h.run_steps(1);
    h.event(egui::Event::ModifiersChanged(egui::Modifiers::NONE));
    h.run_steps(1);
}

#[test]
fn ctrl_drag_turns_the_light_and_the_section_sets_its_colour_ambient_and_msaa() {
    let mut h = harness(StudioApp::new(Settings::default(), None));
    h.run_steps(2);
    let (yaw, pitch) = (h.state().state.settings.light_yaw, h.state().state.settings.light_pitch);
    let camera = h.state().state.camera;

    // Ctrl+drag to the right and up: the light comes from further right and higher; the camera
    // stays.
    drag(&mut h, egui::vec2(50.0, -25.0), egui::Modifiers::COMMAND);
    let settings = &h.state().state.settings;
    assert!(settings.light_yaw > yaw + 10.0, "yaw {yaw} → {}", settings.light_yaw);
    assert!(settings.light_pitch > pitch + 5.0, "pitch {pitch} → {}", settings.light_pitch);
    assert_eq!(h.state().state.camera, camera, "Ctrl+drag leaves the camera");
    // A plain drag orbits and leaves the light.
    let light = (h.state().state.settings.light_yaw, h.state().state.settings.light_pitch);
    drag(&mut h, egui::vec2(50.0, 0.0), egui::Modifiers::NONE);
    assert_ne!(h.state().state.camera, camera, "a drag orbits");
    assert_eq!((h.state().state.settings.light_yaw, h.state().state.settings.light_pitch), light);
    // The render options carry it.
    assert_eq!(h.state().state.render_options().light.yaw_deg, light.0);

    // The Light section, opened: the ambient slider is the engine's (Half-Life's 32 of 255)
    // until it is moved.
    h.get_by_label("Light").click();
    h.run_steps(2);
    assert_eq!(h.state().state.settings.ambient, None);
    assert_eq!(
        h.state().state.render_options().light.ambient_for(studio_render::Engine::GoldSrc),
        32.0 / 255.0
    );
    let ambient = h.get_by(|node| {
        node.role() == egui::accesskit::Role::Slider && node.label().is_some_and(|l| l.contains("Ambient"))
    });
    ambient.set_value_accesskit(0.5);
    h.run_steps(2);
    assert_eq!(h.state().state.settings.ambient, Some(0.5));

    // Reset: white, from the default direction, the engine's ambient.
    h.state_mut().state.settings.light_color = [255, 0, 0];
    h.get_by_label("reset").click();
    h.run_steps(2);
    let settings = &h.state().state.settings;
    assert_eq!((settings.light_color, settings.ambient), ([255; 3], None));
    assert_eq!(settings.light_yaw, Settings::default().light_yaw);

    // MSAA: on by default where a GPU draws (no GPU here), then a choice of its own.
    assert_eq!(h.state().state.settings.msaa, None);
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "MSAA").click();
    h.run_steps(2);
    assert_eq!(h.state().state.settings.msaa, Some(false));
}
