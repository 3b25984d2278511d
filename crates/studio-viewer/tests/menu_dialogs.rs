//! File menu items that open a file dialog (egui_kittest): the menu closes first, a frame without
//! it is drawn, and only then is the dialog shown. A dialog blocks the window while it is open,
//! and the menu would otherwise be left open behind it. Where no dialog can be shown, as on CI,
//! the viewer says so.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use studio_viewer::app::StudioApp;
use studio_viewer::app::settings::Settings;
use studio_viewer::app::state::Level;
use studio_viewer::app::ui::menu::{FileDialog, dialog_available};

#[test]
fn a_file_dialog_opens_after_its_menu_has_closed() {
    let items = [
        ("Open… (Ctrl+O)", FileDialog::Open),
        ("Save As…", FileDialog::SaveAs),
        ("Export glTF…", FileDialog::Export),
        ("Decompile…", FileDialog::Decompile),
    ];
    for (label, dialog) in items {
        let mut h = Harness::builder().with_size(egui::vec2(1200.0, 800.0)).build_ui_state(
            |ui, app: &mut StudioApp| app.show(ui, None),
            StudioApp::new(Settings::default(), None),
        );
        h.run_steps(2);
        h.get_by_label("File").click();
        h.run_steps(2);
        h.get_by_label_contains(label).click();
        h.run_steps(1);
        assert_eq!(h.state().state.dialog_due.map(|d| d.dialog), Some(dialog), "{label}: asked for");
        h.run_steps(1);
        assert!(h.query_by_label_contains(label).is_none(), "{label}: the menu is closed");
        assert_eq!(
            h.state().state.dialog_due.map(|d| d.dialog),
            Some(dialog),
            "{label}: not shown until a frame without the menu is drawn"
        );
        if dialog_available() {
            // A real dialog would block the test: only the order is checked here.
            h.state_mut().state.dialog_due = None;
            continue;
        }
        let errors_before = h.state().state.messages.len();
        h.run_steps(1);
        assert_eq!(h.state().state.dialog_due, None, "{label}: shown");
        let (level, text) = h.state().state.messages.last().cloned().expect("a message");
        assert!(h.state().state.messages.len() > errors_before, "{label}: a new message");
        assert_eq!(level, Level::Error, "{text}");
        assert!(text.starts_with("no file dialog is available here"), "{label}: {text}");
    }
}
