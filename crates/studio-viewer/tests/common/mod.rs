//! What the viewer's kittest files share: dropping a file onto the window.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui_kittest::Harness;
use studio_viewer::app::StudioApp;

/// A file dropped onto the window.
#[allow(dead_code)] // Not every test file that shares this module drops files.
#[derive(Debug)]
pub struct Dropped(pub PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

/// Drops `path` onto the window and lets the viewer open it.
#[allow(dead_code)] // Not every test file that shares this module drops files.
pub fn drop_file(h: &mut Harness<'_, StudioApp>, path: PathBuf) {
    h.input_mut().dropped_files.push(Arc::new(Dropped(path)));
    h.run_steps(2);
}

/// The viewer showing the demo model in a window of `width × height`, two frames drawn.
#[allow(dead_code)] // Not every test file that shares this module uses it.
pub fn harness(width: f32, height: f32) -> Harness<'static, StudioApp> {
    let mut h = Harness::builder().with_size(egui::vec2(width, height)).build_ui_state(
        |ui, app: &mut StudioApp| app.show(ui, None),
        StudioApp::new(studio_viewer::app::settings::Settings::default(), None),
    );
    h.run_steps(2);
    h
}

/// Clicks the model panel's tab button named `name` (the button furthest right of that name:
/// not a menu or check box of the same name).
#[allow(dead_code)] // Not every test file that shares this module uses it.
pub fn tab(h: &Harness<'_, StudioApp>, name: &str) {
    use egui_kittest::kittest::{NodeT, Queryable};
    h.query_all_by_label(name)
        .filter(|n| n.accesskit_node().role() == egui::accesskit::Role::Button)
        .max_by(|a, b| a.rect().min.x.total_cmp(&b.rect().min.x))
        .expect("the tab")
        .click();
}

/// Captures one frame of what the viewport shows (File ▸ Capture animation… into a folder of PNG
/// frames, `size` square) and reads it back as RGBA pixels.
#[allow(dead_code)] // Not every test file that shares this module captures.
pub fn capture_frame(h: &mut Harness<'_, StudioApp>, folder: &Path, size: u32) -> Vec<u8> {
    use studio_viewer::app::capture_job::{CaptureLength, CaptureSettings};
    let mut settings = CaptureSettings::default();
    (settings.size, settings.fps, settings.length) = ((size, size), 10.0, CaptureLength::Seconds(0.1));
    h.state_mut().state.capture_window = Some(settings);
    let mut out = folder.to_path_buf().into_os_string();
    out.push("/");
    h.state_mut().state.apply(studio_viewer::app::command::Command::Capture(out.into()));
    let started = std::time::Instant::now();
    while h.state().state.capturing.is_some() {
        assert!(started.elapsed() < std::time::Duration::from_secs(60), "the capture did not end");
        h.run_steps(1);
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let frames: Vec<PathBuf> = std::fs::read_dir(folder).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(frames.len(), 1, "{}: one frame", folder.display());
    studio_testing::png_image::read_png(&frames[0]).2
}
