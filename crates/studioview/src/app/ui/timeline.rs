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
    super::fit::label(ui, format!("{}  frame {:.2} / {}", sequence.label, state.frame, last));
    let mut frame = state.frame;
    let range = 0.0..=last.max(f32::EPSILON);
    // The number first, then the track over the width left beside its "Frame" label, so
    // nothing is pushed past the panel's edge.
    let (response, track_width) = ui
        .horizontal(|ui| {
            let typed =
                ui.add(egui::DragValue::new(&mut frame).range(range.clone()).speed(0.05).max_decimals(2));
            let font = egui::TextStyle::Body.resolve(ui.style());
            let label = super::fit::width(ui.ctx(), "Frame".into(), &font);
            let track_width =
                (ui.available_width() - label - 2.0 * ui.spacing().item_spacing.x - 4.0).max(40.0);
            ui.spacing_mut().slider_width = track_width;
            let slider = ui.add(egui::Slider::new(&mut frame, range).show_value(false).text("Frame"));
            // The number is named by the slider's label.
            let typed = typed.labelled_by(slider.id);
            if typed.changed() || slider.changed() {
                commands.push(Command::SetFrame(frame));
            }
            (slider, track_width)
        })
        .inner;
    // Event markers under the slider's track.
    let rect = response.rect;
    let track = egui::Rect::from_min_size(rect.min, egui::vec2(track_width, rect.height()));
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
        // Full width (not shrunk to the text, which made each line wrap letter by letter).
        let scroll =
            |salt| egui::ScrollArea::vertical().id_salt(salt).stick_to_bottom(true).auto_shrink(false);
        scroll("events").show(&mut columns[0], |ui| {
            for line in &state.event_log {
                super::fit::label(ui, line.as_str());
            }
        });
        columns[1].label(egui::RichText::new("Messages").strong());
        scroll("messages").show(&mut columns[1], |ui| {
            for (level, text) in &state.messages {
                let colour = match level {
                    Level::Info => ui.visuals().text_color(),
                    Level::Warning => egui::Color32::YELLOW,
                    Level::Error => egui::Color32::from_rgb(255, 90, 90),
                };
                super::fit::colored_label(ui, text.as_str(), Some(colour));
            }
        });
    });
}
