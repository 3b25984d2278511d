//! What the viewer's kittest files share: dropping a file onto the window.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui_kittest::Harness;
use studio_viewer::app::StudioApp;

/// A file dropped onto the window.
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
pub fn drop_file(h: &mut Harness<'_, StudioApp>, path: PathBuf) {
    h.input_mut().dropped_files.push(Arc::new(Dropped(path)));
    h.run_steps(2);
}
