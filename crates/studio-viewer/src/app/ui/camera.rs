//! The camera's controls (the Display panel's Camera section and the View menu): orbit, first
//! person or free look, the field of view, orthographic, axis views, the view saved per model,
//! and the first-person crosshair and guidelines drawn over the viewport.

use studio_render::{AxisView, CameraMode};

use super::Commands;
use crate::app::command::Command;
use crate::app::settings::FREE_LOOK_SPEEDS;
use crate::app::state::AppState;
use crate::app::view::FOV_RANGE;

/// Each mode's name in the menus.
pub fn mode_name(mode: CameraMode) -> &'static str {
    match mode {
        CameraMode::Orbit => "Orbit",
        CameraMode::FirstPerson => "First person",
        CameraMode::FreeLook => "Free look",
    }
}

/// The Camera section: mode, field of view, projection, speed and the first-person marks.
/// Closed until opened (and remembered so): every widget shown costs a software renderer time
/// in each frame while a sequence plays (measure.py on the soldier: this section and the Light
/// section open cost 6 points of a core at 32 frames per second).
pub fn camera_ui(ui: &mut egui::Ui, state: &mut AppState, commands: &mut Commands) {
    egui::CollapsingHeader::new("Camera")
        .default_open(false)
        .show(ui, |ui| camera_fields(ui, state, commands));
}

/// The Camera section's fields.
fn camera_fields(ui: &mut egui::Ui, state: &mut AppState, commands: &mut Commands) {
    let camera = state.camera;
    ui.horizontal(|ui| {
        for mode in [CameraMode::Orbit, CameraMode::FirstPerson, CameraMode::FreeLook] {
            if ui.selectable_label(camera.mode == mode, mode_name(mode)).clicked() {
                commands.push(Command::SetCameraMode(mode));
            }
        }
    });
    let mut fov = camera.game_fov().round();
    let slider = egui::Slider::new(&mut fov, FOV_RANGE).suffix("°").text("FOV");
    let response = ui.add(slider).on_hover_text(
        "Field of view as the games count it: across a 4:3 screen (wider screens show more \
         at the sides). Half-Life draws view models at 90, Source games at viewmodel_fov 54.",
    );
    if response.changed() {
        commands.push(Command::SetFov(fov));
    }
    let mut ortho = camera.orthographic;
    if ui.checkbox(&mut ortho, "Orthographic").changed() {
        commands.push(Command::SetOrthographic(ortho));
    }
    let s = &mut state.settings;
    match camera.mode {
        CameraMode::FirstPerson => {
            ui.horizontal(|ui| {
                ui.checkbox(&mut s.crosshair, "Crosshair");
                ui.checkbox(&mut s.guidelines, "Guidelines");
            });
        }
        CameraMode::FreeLook => {
            ui.add(
                egui::Slider::new(&mut s.free_look_speed, FREE_LOOK_SPEEDS)
                    .logarithmic(true)
                    .suffix(" u/s")
                    .text("Speed"),
            )
            .on_hover_text("W A S D or the arrows fly, E and Q rise and sink, Shift is faster; drag to look");
        }
        CameraMode::Orbit => {}
    }
}

/// A menu item that pushes `command` when clicked, and closes the menu.
fn item(ui: &mut egui::Ui, enabled: bool, label: &str, command: Command, commands: &mut Commands) {
    if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
        commands.push(command);
        ui.close();
    }
}

/// The View menu's camera items.
pub fn view_menu(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    item(ui, true, "Frame the model (F)", Command::FrameModel, commands);
    item(ui, true, "Reset view", Command::ResetView, commands);
    ui.separator();
    for mode in [CameraMode::Orbit, CameraMode::FirstPerson, CameraMode::FreeLook] {
        if ui.radio(state.camera.mode == mode, mode_name(mode)).clicked() {
            commands.push(Command::SetCameraMode(mode));
            ui.close();
        }
    }
    let ortho = state.camera.orthographic;
    let projection = if ortho { "Perspective" } else { "Orthographic" };
    item(ui, true, projection, Command::SetOrthographic(!ortho), commands);
    ui.menu_button("Axis view", |ui| {
        for (key, view) in AxisView::ALL.into_iter().enumerate() {
            let name = view.name();
            let label = format!("{}{} ({})", name[..1].to_ascii_uppercase(), &name[1..], key + 1);
            item(ui, true, &label, Command::SetAxisView(view), commands);
        }
    });
    ui.separator();
    item(ui, state.path().is_some(), "Save view for this model", Command::SaveView, commands);
    item(ui, state.saved_view().is_some(), "Restore saved view", Command::RestoreView, commands);
    ui.separator();
    let panels = if state.panels_hidden { "Show panels (Ctrl+H)" } else { "Hide panels (Ctrl+H)" };
    item(ui, true, panels, Command::TogglePanels, commands);
    if ui.button("Fullscreen (F11)").clicked() {
        let fullscreen = ui.ctx().input(|i| i.viewport().fullscreen.unwrap_or(false));
        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Fullscreen(!fullscreen));
        ui.close();
    }
}

/// First person: the crosshair at the centre and the guidelines through it, over `rect`.
pub fn first_person_marks(ui: &egui::Ui, rect: egui::Rect, state: &AppState) {
    if state.camera.mode != CameraMode::FirstPerson {
        return;
    }
    let painter = ui.painter_at(rect);
    let centre = rect.center();
    if state.settings.guidelines {
        let stroke = egui::Stroke::new(1.0, egui::Color32::from_rgba_unmultiplied(255, 255, 255, 70));
        painter.line_segment([egui::pos2(rect.left(), centre.y), egui::pos2(rect.right(), centre.y)], stroke);
        painter.line_segment([egui::pos2(centre.x, rect.top()), egui::pos2(centre.x, rect.bottom())], stroke);
    }
    if state.settings.crosshair {
        // Four arms with a gap, as the games' default crosshairs are drawn.
        let stroke = egui::Stroke::new(2.0, egui::Color32::from_rgb(60, 255, 60));
        let (gap, arm) = (4.0, 10.0);
        for dir in [egui::vec2(1.0, 0.0), egui::vec2(-1.0, 0.0), egui::vec2(0.0, 1.0), egui::vec2(0.0, -1.0)]
        {
            painter.line_segment([centre + dir * gap, centre + dir * (gap + arm)], stroke);
        }
    }
}
