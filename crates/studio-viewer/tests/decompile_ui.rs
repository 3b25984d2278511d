//! File ▸ Decompile… in the viewer (egui_kittest): the menu offers it, the command writes the
//! shown model's sources on a thread while the window keeps drawing, and the log says where
//! they went; a second decompile while one runs is refused with a warning.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use studio_viewer::app::StudioApp;
use studio_viewer::app::command::Command;
use studio_viewer::app::settings::Settings;
use studio_viewer::app::state::Level;

#[test]
fn the_viewer_decompiles_the_shown_model_into_a_folder() {
    let mut h = Harness::builder().with_size(egui::vec2(1200.0, 800.0)).build_ui_state(
        |ui, app: &mut StudioApp| app.show(ui, None),
        StudioApp::new(Settings::default(), None),
    );
    h.run_steps(2);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Decompile…");

    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "decompile-ui").join("demo src");
    h.state_mut().state.apply(Command::Decompile(dir.clone()));
    h.state_mut().state.apply(Command::Decompile(dir.clone()));
    let warned = h
        .state()
        .state
        .messages
        .iter()
        .any(|(level, text)| *level == Level::Warning && text.contains("still running"));
    assert!(warned || h.state().state.decompiling.is_none(), "a second decompile waits for the first");
    let started = std::time::Instant::now();
    while h.state().state.decompiling.is_some() {
        assert!(started.elapsed().as_secs() < 60, "the decompile finishes");
        h.run_steps(1);
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let (level, text) = h.state().state.messages.last().cloned().expect("a message");
    assert_eq!(level, Level::Info, "{text}");
    assert!(text.starts_with(&format!("decompiled into {}", dir.display())), "{text}");
    let qc = std::fs::read_to_string(dir.join("demo.qc")).expect("the QC is written");
    assert!(qc.contains("$sequence"), "{qc}");
    let model = studio_document::demo::demo_model().expect("the demo model");
    let smds = std::fs::read_dir(&dir)
        .expect("the folder")
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().extension().is_some_and(|x| x == "smd")))
        .count();
    let blends: usize = model.sequences.iter().map(|s| s.num_blends.max(1)).sum();
    assert!(smds > blends, "{smds} SMD files for {blends} blends and the references");
}
