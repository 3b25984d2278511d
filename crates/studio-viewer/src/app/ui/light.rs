//! The light's controls (the Display panel's Light section): its colour, the ambient level
//! (the model's engine's by default), the direction (Ctrl+drag in the viewport) and MSAA.

use studio_render::Engine;

use crate::app::state::AppState;

/// The Light section, closed until opened (as the Camera section, for the same reason).
pub fn light_ui(ui: &mut egui::Ui, state: &mut AppState, software: bool) {
    egui::CollapsingHeader::new("Light").default_open(false).show(ui, |ui| light_fields(ui, state, software));
}

/// The Light section's fields.
fn light_fields(ui: &mut egui::Ui, state: &mut AppState, software: bool) {
    let rule = if state.source.is_some() { Engine::Source } else { Engine::GoldSrc };
    let s = &mut state.settings;
    ui.horizontal(|ui| {
        ui.color_edit_button_srgb(&mut s.light_color);
        ui.label("Colour").on_hover_text(
            "Ctrl+drag in the viewport turns the light; it turns with the view. Half-Life models \
             are lit by the studio renderer's rule, Source models by an ambient cube and one light \
             (docs/lighting.md).",
        );
        if ui.small_button("reset").on_hover_text("White, from above right of the eye").clicked() {
            let light = studio_render::Light::default();
            s.set_light_direction(&light);
            s.light_color = [255; 3];
            s.ambient = None;
        }
    });
    let mut ambient = s.ambient.unwrap_or_else(|| rule.default_ambient());
    let slider = egui::Slider::new(&mut ambient, 0.0..=1.0).text("Ambient");
    let engine = match rule {
        Engine::GoldSrc => "Half-Life's 32 of 255",
        Engine::Source => "the Source model viewer's 0.3",
    };
    if ui.add(slider).on_hover_text(format!("The ambient level; by default {engine}")).changed() {
        s.ambient = Some(ambient);
    }
    let mut msaa = s.msaa.unwrap_or(!software);
    if ui
        .checkbox(&mut msaa, "MSAA")
        .on_hover_text(
            "Smooth edges (4 samples); off by default on a software renderer, where it costs the processor",
        )
        .changed()
    {
        s.msaa = Some(msaa);
    }
}
