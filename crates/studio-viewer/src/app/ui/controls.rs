//! Blend sliders (in the blend's own units and range) and controller sliders (degrees or
//! units; RLOOP controllers a full turn; the mouth).

use studio_model::motion::motion_flags_text;

use super::{Commands, byte_to_value, value_to_byte};
use crate::app::command::Command;
use crate::app::state::AppState;

/// The blend sliders of the current sequence, when it has more than one blend.
pub fn blends_ui(ui: &mut egui::Ui, state: &mut AppState, commands: &mut Commands) {
    let Some(sequence) = state.model().sequences.get(state.sequence).cloned() else { return };
    if sequence.num_blends < 2 {
        return;
    }
    ui.heading("Blends");
    // Two axes for 4-way and 9-way grids, one otherwise.
    let axes = if matches!(sequence.num_blends, 4 | 9) { 2 } else { 1 };
    for axis in 0..axes {
        let (start, end) = (sequence.blend_start[axis], sequence.blend_end[axis]);
        let mut value = byte_to_value(state.blend[axis], start, end);
        let (low, high) = if start <= end { (start, end) } else { (end, start) };
        let label = format!("Blend {axis} ({})", motion_flags_text(sequence.blend_type[axis]));
        let slider =
            egui::Slider::new(&mut value, low..=high.max(low + f32::EPSILON)).text(label).suffix("°");
        if ui.add(slider).changed() {
            commands.push(Command::SetBlend(axis, value_to_byte(value, start, end)));
        }
    }
}

/// One slider per controller and the mouth.
pub fn controllers_ui(ui: &mut egui::Ui, state: &mut AppState, commands: &mut Commands) {
    let model = state.model().clone();
    if model.bone_controllers.is_empty() {
        return;
    }
    ui.heading("Controllers");
    for (i, controller) in model.bone_controllers.iter().enumerate() {
        let bone = model.bones.get(controller.bone).map_or("?", |b| b.name.as_str());
        let unit = if controller.is_rotation() { "°" } else { " units" };
        let byte = state.controllers.get(i).copied().unwrap_or(0);
        match controller.input() {
            Some(studio_model::ControllerInput::Mouth) => {
                let mut mouth = state.mouth;
                let label = format!("Mouth ({bone})");
                if ui.add(egui::Slider::new(&mut mouth, 0..=64).text(label)).changed() {
                    commands.push(Command::SetMouth(mouth));
                }
            }
            Some(studio_model::ControllerInput::User(slot)) => {
                let label = format!("Controller {slot}: {} {bone}", motion_flags_text(controller.kind));
                if controller.is_rloop() {
                    // A full turn from start, 256 steps.
                    let mut degrees = f32::from(byte) * 360.0 / 256.0;
                    if ui.add(egui::Slider::new(&mut degrees, 0.0..=358.6).text(label).suffix("°")).changed()
                    {
                        commands.push(Command::SetController(
                            i,
                            ((degrees * 256.0 / 360.0).round() as u32 % 256) as u8,
                        ));
                    }
                } else {
                    let (start, end) = (controller.start, controller.end);
                    let (low, high) = if start <= end { (start, end) } else { (end, start) };
                    let mut value = byte_to_value(byte, start, end);
                    let slider = egui::Slider::new(&mut value, low..=high.max(low + f32::EPSILON))
                        .text(label)
                        .suffix(unit);
                    if ui.add(slider).changed() {
                        commands.push(Command::SetController(i, value_to_byte(value, start, end)));
                    }
                }
            }
            None => {
                ui.label(format!("controller {i} on {bone} reads no input"));
            }
        }
    }
    if ui.button("Reset controllers").clicked() {
        commands.push(Command::ResetControllers);
    }
}
