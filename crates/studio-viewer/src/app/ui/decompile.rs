//! The decompile's progress window: where the files go and a bar of the share done, shown
//! while File ▸ Decompile… runs.

use crate::app::state::AppState;

/// Shows the progress of the decompile running, if one is.
pub fn progress(ctx: &egui::Context, state: &AppState) {
    let Some(job) = &state.decompiling else { return };
    egui::Window::new("Decompiling")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::RIGHT_BOTTOM, egui::vec2(-16.0, -16.0))
        .show(ctx, |ui| {
            ui.label(format!("Writing the model's sources into {}", job.dir.display()));
            ui.add(egui::ProgressBar::new(job.progress()).show_percentage().desired_width(320.0));
        });
}
