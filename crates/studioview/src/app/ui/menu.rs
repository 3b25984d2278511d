//! The menu bar: File (open, demo, reload, recent files, screenshot) and View.

use super::Commands;
use crate::app::command::Command;
use crate::app::state::{AppState, Level};

/// Whether a file dialog can be shown: a desktop portal (D-Bus session) or zenity.
pub fn dialog_available() -> bool {
    std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
        || std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join("zenity").is_file()))
}

/// Shows File ▸ Open's dialog, or says why there is none.
pub fn open_dialog(state: &mut AppState, commands: &mut Commands) {
    if !dialog_available() {
        state.say(
            Level::Error,
            "no file dialog is available here (no desktop portal and no zenity): drop a .mdl file onto the window, \
             or give its path on the command line",
        );
        return;
    }
    if let Some(path) =
        rfd::FileDialog::new().add_filter("Studio model (Half-Life, Source)", &["mdl", "MDL"]).pick_file()
    {
        commands.push(Command::Open(path));
    }
}

/// Shows File ▸ Export glTF's save dialog, or says why there is none.
pub fn export_dialog(state: &mut AppState, commands: &mut Commands) {
    if !dialog_available() {
        state.say(
            Level::Error,
            "no file dialog is available here (no desktop portal and no zenity): use `studioview export MODEL --out FILE.glb`",
        );
        return;
    }
    let stem =
        state.path().and_then(|p| p.file_stem()).map_or("model".into(), |s| s.to_string_lossy().into_owned());
    if let Some(path) = rfd::FileDialog::new()
        .add_filter("glTF binary", &["glb"])
        .add_filter("glTF with .bin", &["gltf"])
        .set_file_name(format!("{stem}.glb"))
        .save_file()
    {
        commands.push(Command::Export(path));
    }
}

/// The menu bar.
pub fn menu_ui(ui: &mut egui::Ui, state: &mut AppState, commands: &mut Commands, screenshot: &mut bool) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui.button("Open… (Ctrl+O)").clicked() {
                open_dialog(state, commands);
                ui.close();
            }
            if ui.button("Open the demo model").clicked() {
                commands.push(Command::OpenDemo);
                ui.close();
            }
            if ui.button("Reload").clicked() {
                commands.push(Command::Reload);
                ui.close();
            }
            ui.menu_button("Recent files", |ui| {
                if state.settings.recent.is_empty() {
                    ui.label("none yet");
                }
                for path in state.settings.recent.clone() {
                    if ui.button(path.display().to_string()).clicked() {
                        commands.push(Command::Open(path));
                        ui.close();
                    }
                }
            });
            ui.separator();
            if ui.button("Export glTF…").clicked() {
                export_dialog(state, commands);
                ui.close();
            }
            if ui.button("Screenshot to PNG").clicked() {
                *screenshot = true;
                ui.close();
            }
        });
        ui.menu_button("View", |ui| {
            if ui.button("Frame the model (F)").clicked() {
                commands.push(Command::FrameModel);
                ui.close();
            }
            if ui.button("Reset view").clicked() {
                commands.push(Command::ResetView);
                ui.close();
            }
        });
        let name = match state.path() {
            Some(path) => path.display().to_string(),
            None => "demo model".to_owned(),
        };
        super::fit::colored_label(ui, name, Some(ui.visuals().weak_text_color()));
    });
}
