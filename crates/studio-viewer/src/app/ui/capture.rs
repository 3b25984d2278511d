//! File ▸ Capture animation…: the window that sets a capture up (size, rate, length, a
//! transparent background) and starts it, and the progress window with Cancel while it runs.

use super::Commands;
use crate::app::capture_job::{CaptureLength, CaptureSettings, MAX_FRAMES};
use crate::app::command::Command;
use crate::app::state::AppState;

/// The capture window, while it is open.
pub fn window(ctx: &egui::Context, state: &mut AppState, viewport: egui::Vec2) {
    let Some(mut settings) = state.capture_window else { return };
    let mut open = true;
    let mut start = false;
    egui::Window::new("Capture animation").open(&mut open).collapsible(false).resizable(false).show(
        ctx,
        |ui| {
            settings_ui(ui, &mut settings, viewport);
            ui.horizontal(|ui| {
                let running = state.capturing.is_some();
                start = ui
                    .add_enabled(!running, egui::Button::new("Capture…"))
                    .on_hover_text("Choose the file: .gif, .png (animated) or .webp")
                    .clicked();
            });
        },
    );
    state.capture_window = open.then_some(settings);
    if start {
        super::menu::ask(ctx, state, super::menu::FileDialog::Capture);
    }
}

fn settings_ui(ui: &mut egui::Ui, s: &mut CaptureSettings, viewport: egui::Vec2) {
    ui.horizontal(|ui| {
        let label = ui.label("size");
        ui.add(egui::DragValue::new(&mut s.size.0).range(16..=4096).suffix(" px")).labelled_by(label.id);
        ui.label("×");
        ui.add(egui::DragValue::new(&mut s.size.1).range(16..=4096).suffix(" px"));
        if ui.small_button("viewport").on_hover_text("The viewport's size").clicked() {
            s.size = (viewport.x.round().max(16.0) as u32, viewport.y.round().max(16.0) as u32);
        }
    });
    ui.horizontal(|ui| {
        let label = ui.label("frames a second");
        ui.add(egui::DragValue::new(&mut s.fps).range(1.0..=100.0).speed(0.5)).labelled_by(label.id);
    });
    ui.horizontal(|ui| {
        let mut one_loop = matches!(s.length, CaptureLength::OneLoop);
        ui.radio_value(&mut one_loop, true, "one loop of the sequence");
        ui.radio_value(&mut one_loop, false, "seconds:");
        let mut seconds = match s.length {
            CaptureLength::Seconds(x) => x,
            CaptureLength::OneLoop => 2.0,
        };
        let most = MAX_FRAMES as f32 / s.fps.max(1.0);
        ui.add_enabled(!one_loop, egui::DragValue::new(&mut seconds).range(0.1..=most).speed(0.1));
        s.length = if one_loop { CaptureLength::OneLoop } else { CaptureLength::Seconds(seconds) };
    });
    ui.checkbox(&mut s.transparent, "transparent background (no ground)");
    ui.weak("From the current frame, with the camera and display choices as they are.");
}

/// The progress of the capture running, with Cancel.
pub fn progress(ctx: &egui::Context, state: &AppState, commands: &mut Commands) {
    let Some(job) = &state.capturing else { return };
    egui::Window::new("Capturing")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-16.0, -60.0))
        .show(ctx, |ui| {
            ui.label(format!("Frame {} of {} into {}", job.done(), job.frames, job.path.display()));
            let share = job.done() as f32 / job.frames.max(1) as f32;
            ui.add(egui::ProgressBar::new(share).show_percentage().desired_width(320.0));
            if ui.button("Cancel capture").clicked() {
                commands.push(Command::CancelCapture);
            }
        });
}
