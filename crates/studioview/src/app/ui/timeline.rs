//! The timeline: a slider over the sequence's frames with its events marked, the event log and
//! the messages.

use super::Commands;
use crate::app::command::Command;
use crate::app::state::{AppState, Level};

/// The timeline slider and event markers.
pub fn timeline_ui(ui: &mut egui::Ui, state: &mut AppState, commands: &mut Commands) {
    let Some(sequence) = state.model().sequences.get(state.sequence).cloned() else {
        ui.label("no sequences");
        return;
    };
    let last = (sequence.frames() as f32 - 1.0).max(0.0);
    ui.horizontal(|ui| {
        ui.label(format!("{}  frame {:.2} / {}", sequence.label, state.frame, last));
    });
    let mut frame = state.frame;
    let width = ui.available_width().max(100.0);
    ui.spacing_mut().slider_width = width - 80.0;
    let response = ui.add(egui::Slider::new(&mut frame, 0.0..=last.max(f32::EPSILON)).text("Frame"));
    if response.changed() {
        commands.push(Command::SetFrame(frame));
    }
    // Event markers under the slider's track.
    let rect = response.rect;
    let track = egui::Rect::from_min_size(rect.min, egui::vec2(ui.spacing().slider_width, rect.height()));
    for event in &sequence.events {
        if last > 0.0 {
            let x = track.left() + track.width() * (event.frame as f32 / last).clamp(0.0, 1.0);
            ui.painter().vline(
                x,
                track.bottom()..=track.bottom() + 5.0,
                egui::Stroke::new(2.0, egui::Color32::ORANGE),
            );
        }
    }
}

/// The event log and messages.
pub fn log_ui(ui: &mut egui::Ui, state: &AppState) {
    ui.columns(2, |columns| {
        columns[0].label(egui::RichText::new("Events").strong());
        egui::ScrollArea::vertical().id_salt("events").stick_to_bottom(true).show(&mut columns[0], |ui| {
            for line in &state.event_log {
                ui.label(line);
            }
        });
        columns[1].label(egui::RichText::new("Messages").strong());
        egui::ScrollArea::vertical().id_salt("messages").stick_to_bottom(true).show(&mut columns[1], |ui| {
            for (level, text) in &state.messages {
                let colour = match level {
                    Level::Info => ui.visuals().text_color(),
                    Level::Warning => egui::Color32::YELLOW,
                    Level::Error => egui::Color32::from_rgb(255, 90, 90),
                };
                ui.label(egui::RichText::new(text).color(colour));
            }
        });
    });
}
