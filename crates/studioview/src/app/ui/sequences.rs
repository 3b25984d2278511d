//! The searchable sequence list and the playback controls.

use egui::RichText;

use super::Commands;
use crate::app::command::Command;
use crate::app::state::AppState;

/// The sequence list with its search box.
pub fn sequences_ui(ui: &mut egui::Ui, state: &mut AppState, search: &mut String, commands: &mut Commands) {
    ui.heading("Sequences");
    ui.add(egui::TextEdit::singleline(search).hint_text("search sequences").id_salt("sequence search"));
    let needle = search.to_lowercase();
    egui::ScrollArea::vertical().id_salt("sequence list").max_height(260.0).show(ui, |ui| {
        for (i, sequence) in state.model().sequences.iter().enumerate() {
            if !needle.is_empty() && !sequence.label.to_lowercase().contains(&needle) {
                continue;
            }
            let mut details = format!("{} frames, {} fps", sequence.num_frames, sequence.fps);
            if sequence.is_looping() {
                details.push_str(", loops");
            }
            if sequence.num_blends > 1 {
                details.push_str(&format!(", {} blends", sequence.num_blends));
            }
            if !sequence.events.is_empty() {
                details.push_str(&format!(", {} events", sequence.events.len()));
            }
            if sequence.animation.is_none() {
                details.push_str(", unavailable");
            }
            let response = ui
                .selectable_label(state.sequence == i, sequence.label.as_str())
                .on_hover_text(format!("#{i}, activity {}: {details}", sequence.activity));
            if response.clicked() {
                commands.push(Command::SelectSequence(i));
            }
        }
    });
}

/// Play/pause, stepping, speed, loop and movement.
pub fn playback_ui(ui: &mut egui::Ui, state: &mut AppState, commands: &mut Commands) {
    ui.horizontal(|ui| {
        if ui.button("< Step").clicked() {
            commands.push(Command::Step(-1));
        }
        if ui.button(if state.playing { "Pause" } else { "Play" }).clicked() {
            commands.push(Command::TogglePlay);
        }
        if ui.button("Step >").clicked() {
            commands.push(Command::Step(1));
        }
    });
    ui.add(egui::Slider::new(&mut state.settings.speed, 0.1..=4.0).logarithmic(true).text("Speed"));
    if let Some(sequence) = state.model().sequences.get(state.sequence).cloned() {
        let movement = sequence.linear_movement;
        if movement != glam::Vec3::ZERO {
            ui.label(format!(
                "linear movement {movement} over the sequence ({:.1} units/s)",
                studio_pose::playback::ground_speed(&sequence)
            ));
            if ui.checkbox(&mut state.settings.apply_movement, "Move along the ground").changed() {
                state.invalidate();
            }
        }
        ui.horizontal(|ui| {
            ui.checkbox(&mut state.looping, "Loop");
            ui.label(
                RichText::new(if sequence.is_looping() {
                    "(the sequence loops)"
                } else {
                    "(the sequence plays once)"
                })
                .weak(),
            );
        });
    }
}
