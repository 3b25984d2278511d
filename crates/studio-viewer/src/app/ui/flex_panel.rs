//! The Flex tab of a Source model: a slider per flex controller in its own range, grouped as the
//! model names them ([`studio_document::flex_groups`], grouped once per model), with a search and a reset; then the eyes: looking
//! at the camera, or at a point the user places.

use egui::RichText;
use glam::Vec3;

use super::Commands;
use crate::app::command::Command;
use crate::app::state::SourceView;
use studio_document::flex_groups::group_matches;

/// How far in front of the eyes a placed target starts.
const TARGET_DISTANCE: f32 = 48.0;

/// The Flex tab.
pub fn flex_ui(ui: &mut egui::Ui, view: &SourceView, search: &mut String, commands: &mut Commands) {
    let doc = &view.doc;
    let flexes = &doc.model.flexes;
    ui.heading(format!("Flex controllers ({})", flexes.controllers.len()));
    if flexes.controllers.is_empty() {
        ui.label("This model has no flex controllers: its face does not move.");
    } else {
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(search)
                    .hint_text("search controllers")
                    .id_salt("flex search")
                    .desired_width(150.0),
            );
            if ui.button("Reset face").on_hover_text("every controller at rest").clicked() {
                commands.push(Command::ResetFlexes);
            }
        });
        let needle = search.to_lowercase();
        let mut shown = 0;
        for group in doc.flex_groups.iter().filter(|g| group_matches(flexes, g, &needle)) {
            shown += 1;
            let paired = group.sliders.len() > 1;
            if paired {
                ui.label(RichText::new(&group.name).strong());
            }
            for (label, c) in &group.sliders {
                let Some(controller) = flexes.controllers.get(*c) else { continue };
                let (low, high) = controller.range();
                if !(low.is_finite() && high.is_finite()) {
                    continue;
                }
                let mut value = doc.flex.get(*c).copied().unwrap_or(0.0);
                let slider = egui::Slider::new(&mut value, low..=high.max(low + f32::EPSILON)).text(label);
                let response = ui.horizontal(|ui| {
                    if paired {
                        ui.add_space(12.0);
                    }
                    ui.add(slider)
                });
                let hint = format!(
                    "{} ({}), {} to {}",
                    controller.name,
                    if controller.kind.is_empty() { "no type" } else { &controller.kind },
                    controller.min,
                    controller.max
                );
                if response.inner.on_hover_text(hint).changed() {
                    commands.push(Command::SetFlex(*c, value));
                }
            }
        }
        if shown == 0 {
            ui.label(format!("No controller matches {search:?}."));
        }
    }
    let eyes = &doc.frame.face.eyes;
    if eyes.is_empty() {
        return;
    }
    ui.separator();
    ui.heading(format!("Eyes ({})", eyes.len()));
    let mut camera = doc.eye_target.is_none();
    if ui
        .checkbox(&mut camera, "Look at the camera")
        .on_hover_text("as the game's eyes look at the player; off: at a point placed here")
        .changed()
    {
        let ahead = eyes.iter().map(|(_, s)| s.origin + s.forward * TARGET_DISTANCE).sum::<Vec3>()
            / eyes.len() as f32;
        commands.push(Command::SetEyeTarget((!camera).then_some(ahead)));
    }
    if let Some(target) = doc.eye_target {
        let mut t = target;
        ui.horizontal(|ui| {
            ui.label("target");
            let mut changed = false;
            for (axis, value) in ["x", "y", "z"].into_iter().zip([&mut t.x, &mut t.y, &mut t.z]) {
                changed |=
                    ui.add(egui::DragValue::new(value).prefix(format!("{axis} ")).speed(0.5)).changed();
            }
            if changed {
                commands.push(Command::SetEyeTarget(Some(t)));
            }
        });
    }
}
