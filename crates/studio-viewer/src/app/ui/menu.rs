//! The menu bar: File (open, demo, reload, model browser, next and previous model, recent files,
//! save, export, screenshot, quit), Edit (undo, redo, QC lines) and View.

use super::Commands;
use crate::app::command::Command;
use crate::app::state::{AppState, Level};

/// A file dialog asked for from a menu or its shortcut. A dialog blocks the window until it
/// closes, so it is shown once a frame without the menu has been drawn: otherwise the menu would
/// stay open behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileDialog {
    /// File ▸ Open…
    Open,
    /// File ▸ Save As… (and Save for the demo model)
    SaveAs,
    /// File ▸ Export glTF…
    Export,
    /// File ▸ Decompile…
    Decompile,
    /// The capture window's Capture… (File ▸ Capture animation…)
    Capture,
    /// File ▸ Attach model…
    Attach,
    /// File ▸ Compare with model…
    Compare,
}

/// A dialog asked for, and the frames drawn since.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DialogDue {
    /// The dialog.
    pub dialog: FileDialog,
    frames_drawn: u8,
}

/// Asks for `dialog` (from a menu that closes in this frame, or a shortcut), and for the frames
/// that show it.
pub fn ask(ctx: &egui::Context, state: &mut AppState, dialog: FileDialog) {
    state.dialog_due = Some(DialogDue { dialog, frames_drawn: 0 });
    ctx.request_repaint();
}

/// At the start of a frame: shows the dialog asked for once the frame after the menu's closing
/// has been drawn, or asks for that frame.
pub fn show_due_dialog(ctx: &egui::Context, state: &mut AppState, commands: &mut Commands) {
    let Some(due) = &mut state.dialog_due else { return };
    if due.frames_drawn == 0 {
        due.frames_drawn = 1;
        ctx.request_repaint();
        return;
    }
    let dialog = due.dialog;
    state.dialog_due = None;
    match dialog {
        FileDialog::Open => open_dialog(state, commands),
        FileDialog::SaveAs => save_as_dialog(state, commands),
        FileDialog::Export => export_dialog(state, commands),
        FileDialog::Decompile => decompile_dialog(state, commands),
        FileDialog::Capture => capture_dialog(state, commands),
        FileDialog::Attach => second_dialog(state, commands, true),
        FileDialog::Compare => second_dialog(state, commands, false),
    }
}

/// Whether a file dialog can be shown: always on Windows and macOS (their own dialogs); on
/// Linux and the BSDs, a desktop portal (D-Bus session) or zenity.
pub fn dialog_available() -> bool {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return true;
    }
    std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
        || std::env::var_os("PATH")
            .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join("zenity").is_file()))
}

/// Shows File ▸ Open's dialog, or says why there is none.
fn open_dialog(state: &mut AppState, commands: &mut Commands) {
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

/// Shows File ▸ Attach model's (`attach`) or Compare with model's dialog, or says why there is
/// none.
fn second_dialog(state: &mut AppState, commands: &mut Commands, attach: bool) {
    if !dialog_available() {
        let how = if attach { "render MODEL --attach WEAPON" } else { "render each model" };
        state.say(
            Level::Error,
            format!(
                "no file dialog is available here (no desktop portal and no zenity): use `studioview {how}`"
            ),
        );
        return;
    }
    let title = if attach { "Attach model (a p_ or w_ weapon)" } else { "Compare with model" };
    let mut dialog = rfd::FileDialog::new()
        .set_title(title)
        .add_filter("Studio model (Half-Life, Source)", &["mdl", "MDL"]);
    if let Some(dir) = state.path().and_then(std::path::Path::parent) {
        dialog = dialog.set_directory(dir);
    }
    if let Some(path) = dialog.pick_file() {
        commands.push(if attach { Command::Attach(path) } else { Command::Compare(path) });
    }
}

/// Shows File ▸ Export glTF's save dialog, or says why there is none.
fn export_dialog(state: &mut AppState, commands: &mut Commands) {
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

/// Shows File ▸ Decompile's folder dialog, or says why there is none.
fn decompile_dialog(state: &mut AppState, commands: &mut Commands) {
    if !dialog_available() {
        state.say(
            Level::Error,
            "no file dialog is available here (no desktop portal and no zenity): use `studioview decompile MODEL --out DIR`",
        );
        return;
    }
    let mut dialog = rfd::FileDialog::new().set_title("Decompile into folder");
    if let Some(dir) = state.path().and_then(std::path::Path::parent) {
        dialog = dialog.set_directory(dir);
    }
    if let Some(dir) = dialog.pick_folder() {
        commands.push(Command::Decompile(dir));
    }
}

/// Shows the capture's save dialog, or says why there is none.
fn capture_dialog(state: &mut AppState, commands: &mut Commands) {
    if !dialog_available() {
        state.say(
            Level::Error,
            "no file dialog is available here (no desktop portal and no zenity): use `studioview render MODEL --frames N --out FILE.gif`",
        );
        return;
    }
    let stem =
        state.path().and_then(|p| p.file_stem()).map_or("model".into(), |s| s.to_string_lossy().into_owned());
    if let Some(path) = rfd::FileDialog::new()
        .add_filter("Animated GIF", &["gif"])
        .add_filter("Animated PNG", &["png"])
        .add_filter("Animated WebP", &["webp"])
        .set_file_name(format!("{stem}.gif"))
        .save_file()
    {
        commands.push(Command::Capture(path));
    }
}

/// Shows File ▸ Save As's dialog, or says why there is none.
fn save_as_dialog(state: &mut AppState, commands: &mut Commands) {
    if !dialog_available() {
        state.say(Level::Error, "no file dialog is available here (no desktop portal and no zenity)");
        return;
    }
    let name = crate::app::editing::save_as_name(state);
    let mut dialog =
        rfd::FileDialog::new().add_filter("Studio model", &["mdl"]).set_file_name(name.to_string_lossy());
    if let Some(dir) = state.path().and_then(std::path::Path::parent) {
        dialog = dialog.set_directory(dir);
    }
    if let Some(path) = dialog.save_file() {
        commands.push(Command::SaveAs(path));
    }
}

/// File ▸ Save: over the open file, or Save As's dialog for the demo model.
pub fn save(ctx: &egui::Context, state: &mut AppState, commands: &mut Commands) {
    if state.path().is_some() {
        commands.push(Command::Save);
    } else {
        ask(ctx, state, FileDialog::SaveAs);
    }
}

/// The Edit menu: undo and redo with the edit's name, and QC lines to copy.
fn edit_menu(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    let (undo, redo) = state.undo_redo_names();
    let undo_label = undo.map_or("Undo".to_owned(), |n| format!("Undo {n}"));
    if ui.add_enabled(undo.is_some(), egui::Button::new(undo_label).shortcut_text("Ctrl+Z")).clicked() {
        commands.push(Command::Undo);
        ui.close();
    }
    let redo_label = redo.map_or("Redo".to_owned(), |n| format!("Redo {n}"));
    if ui.add_enabled(redo.is_some(), egui::Button::new(redo_label).shortcut_text("Ctrl+Shift+Z")).clicked() {
        commands.push(Command::Redo);
        ui.close();
    }
    ui.separator();
    if ui.button("Copy QC of the model").clicked() {
        let text = match state.source.as_deref() {
            Some(view) => studio_decompile::qc::source(&view.doc.model),
            None => studio_decompile::qc::goldsrc(state.model()),
        };
        ui.ctx().copy_text(text);
        ui.close();
    }
}

/// The menu bar.
pub fn menu_ui(ui: &mut egui::Ui, state: &mut AppState, commands: &mut Commands, screenshot: &mut bool) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            if ui.button("Open… (Ctrl+O)").clicked() {
                ask(ui.ctx(), state, FileDialog::Open);
                ui.close();
            }
            if ui.button("Open the demo model").clicked() {
                commands.push(Command::OpenDemo);
                ui.close();
            }
            if ui.add(egui::Button::new("Reload").shortcut_text("F5")).clicked() {
                commands.push(Command::Reload);
                ui.close();
            }
            let mut auto_reload = state.settings.auto_reload;
            if ui
                .checkbox(&mut auto_reload, "Reload when the file changes")
                .on_hover_text("After a recompile or another tool's save, reload the model where you left it")
                .changed()
            {
                commands.push(Command::SetAutoReload(auto_reload));
            }
            ui.separator();
            if ui.add(egui::Button::new("Model browser…").shortcut_text("Ctrl+B")).clicked() {
                commands.push(Command::ToggleBrowser);
                ui.close();
            }
            if ui.add_enabled(state.path().is_some(), egui::Button::new("Show in model browser")).clicked() {
                commands.push(Command::ShowInBrowser);
                ui.close();
            }
            let has_path = state.path().is_some();
            if ui
                .add_enabled(has_path, egui::Button::new("Next model in folder").shortcut_text("Page Down"))
                .clicked()
            {
                commands.push(Command::NextModel(1));
                ui.close();
            }
            if ui
                .add_enabled(has_path, egui::Button::new("Previous model in folder").shortcut_text("Page Up"))
                .clicked()
            {
                commands.push(Command::NextModel(-1));
                ui.close();
            }
            ui.separator();
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
            let marker = if state.is_dirty() { " •" } else { "" };
            if ui.add(egui::Button::new(format!("Save{marker}")).shortcut_text("Ctrl+S")).clicked() {
                save(ui.ctx(), state, commands);
                ui.close();
            }
            if ui.add(egui::Button::new("Save As…").shortcut_text("Ctrl+Shift+S")).clicked() {
                ask(ui.ctx(), state, FileDialog::SaveAs);
                ui.close();
            }
            ui.separator();
            if ui
                .button("Attach model…")
                .on_hover_text(
                    "Draw a p_ or w_ weapon, or any model, on this one by bone merge, as the games do",
                )
                .clicked()
            {
                ask(ui.ctx(), state, FileDialog::Attach);
                ui.close();
            }
            if ui
                .button("Compare with model…")
                .on_hover_text("Draw another model beside this one, on the same clock and camera")
                .clicked()
            {
                ask(ui.ctx(), state, FileDialog::Compare);
                ui.close();
            }
            if ui
                .add_enabled(state.extras.second.is_some(), egui::Button::new("Remove second model"))
                .clicked()
            {
                commands.push(Command::RemoveSecond);
                ui.close();
            }
            ui.separator();
            if ui.button("Export glTF…").clicked() {
                ask(ui.ctx(), state, FileDialog::Export);
                ui.close();
            }
            let idle = state.decompiling.is_none();
            if ui
                .add_enabled(idle, egui::Button::new("Decompile…"))
                .on_hover_text("Write the model's QC, SMD and texture files into a folder")
                .clicked()
            {
                ask(ui.ctx(), state, FileDialog::Decompile);
                ui.close();
            }
            if ui.button("Screenshot to PNG").clicked() {
                *screenshot = true;
                ui.close();
            }
            if ui
                .add_enabled(state.capturing.is_none(), egui::Button::new("Capture animation…"))
                .on_hover_text("Record the viewport to an animated GIF, PNG or WebP, or PNG frames")
                .clicked()
            {
                state.capture_window.get_or_insert_with(Default::default);
                ui.close();
            }
            ui.separator();
            if ui.button("Quit").clicked() {
                commands.push(Command::Quit);
                ui.close();
            }
        });
        ui.menu_button("Edit", |ui| edit_menu(ui, state, commands));
        ui.menu_button("View", |ui| super::camera::view_menu(ui, state, commands));
        let has_path = state.path().is_some();
        if ui
            .add_enabled(has_path, egui::Button::new("< Prev"))
            .on_hover_text("Previous model in folder (Page Up)")
            .clicked()
        {
            commands.push(Command::NextModel(-1));
        }
        if ui
            .add_enabled(has_path, egui::Button::new("Next >"))
            .on_hover_text("Next model in folder (Page Down)")
            .clicked()
        {
            commands.push(Command::NextModel(1));
        }
        if ui.button("Browse").on_hover_text("The model browser (Ctrl+B)").clicked() {
            commands.push(Command::ToggleBrowser);
        }
        let name = match state.path() {
            Some(path) => path.display().to_string(),
            None => "demo model".to_owned(),
        };
        super::fit::colored_label(ui, name, Some(ui.visuals().weak_text_color()));
    });
}
