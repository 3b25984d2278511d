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
    let marks = sequence.events.iter().filter(|_| last > 0.0).map(|e| e.frame as f32 / last);
    let track = Track { label: "Frame", end: last, speed: 0.05, decimals: 2 };
    if let Some(frame) = scrubber(ui, &track, state.frame, marks) {
        commands.push(Command::SetFrame(frame));
    }
}

/// What a [`scrubber`] runs over.
pub struct Track {
    /// The slider's label.
    pub label: &'static str,
    /// The last value (the first is 0).
    pub end: f32,
    /// The number box's drag speed.
    pub speed: f64,
    /// Decimals the number box shows.
    pub decimals: usize,
}

/// A number box, then a slider over the width left beside its label (so nothing is pushed past
/// the panel's edge), with a marker under the track at each of `marks` (0 to 1 along it).
/// Returns the value the user set, if they moved either.
pub fn scrubber(
    ui: &mut egui::Ui,
    track: &Track,
    value: f32,
    marks: impl Iterator<Item = f32>,
) -> Option<f32> {
    let mut value = value;
    let range = 0.0..=track.end.max(f32::EPSILON);
    let (response, track_width, changed) = ui
        .horizontal(|ui| {
            let typed = ui.add(
                egui::DragValue::new(&mut value)
                    .range(range.clone())
                    .speed(track.speed)
                    .max_decimals(track.decimals),
            );
            let font = egui::TextStyle::Body.resolve(ui.style());
            let label = super::fit::width(ui.ctx(), track.label.into(), &font);
            let track_width =
                (ui.available_width() - label - 2.0 * ui.spacing().item_spacing.x - 4.0).max(40.0);
            ui.spacing_mut().slider_width = track_width;
            let slider = ui.add(egui::Slider::new(&mut value, range).show_value(false).text(track.label));
            // The number is named by the slider's label.
            let typed = typed.labelled_by(slider.id);
            let changed = typed.changed() || slider.changed();
            (slider, track_width, changed)
        })
        .inner;
    let rect = response.rect;
    let line = egui::Rect::from_min_size(rect.min, egui::vec2(track_width, rect.height()));
    for mark in marks {
        let x = line.left() + line.width() * mark.clamp(0.0, 1.0);
        ui.painter().vline(
            x,
            line.bottom()..=line.bottom() + 5.0,
            egui::Stroke::new(2.0, egui::Color32::ORANGE),
        );
    }
    changed.then_some(value)
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
            // A new message scrolls into view (sticking to the bottom alone misses the first
            // message that overflows the list), at once: an animated scroll is a few more
            // frames, each of which redraws the window, and the first message comes as the
            // viewer starts.
            let seen = ui.scope_id().with("messages seen");
            let count = state.messages.len();
            let before = ui.ctx().data_mut(|d| {
                let before = d.get_temp::<usize>(seen);
                d.insert_temp(seen, count);
                before
            });
            if before != Some(count) {
                ui.scroll_to_cursor_animation(
                    Some(egui::Align::BOTTOM),
                    egui::style::ScrollAnimation::none(),
                );
            }
        });
    });
}
