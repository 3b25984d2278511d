//! The long jobs started from the File menu: exporting glTF, and decompiling on a thread
//! (File ▸ Decompile…), its end reported when the window polls it.

use std::path::PathBuf;
use std::sync::Arc;

use super::{AppState, Level};

impl AppState {
    /// Writes the shown model as glTF to `path`, saying how it went.
    pub(super) fn export(&mut self, path: &std::path::Path) {
        use studio_document::export::{ExportOptions, Progress, goldsrc, source, write};
        let shown = studio_document::shown::Shown {
            body: self.body,
            skin: self.skin,
            player_colours: self.player_colours.map(|c| (c.top, c.bottom)),
            lod: self.lod,
            game: self.settings.game_folders.clone(),
        };
        let options = ExportOptions { shown, ..ExportOptions::default() };
        let started = std::time::Instant::now();
        let result = match self.source.as_deref_mut() {
            Some(view) => source::export(&mut view.doc, &options, &mut Progress::new()),
            None => goldsrc::export(&self.loaded.model, &options, &mut Progress::new()),
        };
        match result.and_then(|(export, warnings)| Ok((write(&export, path)?, export, warnings))) {
            Ok((bytes, export, warnings)) => {
                for warning in warnings {
                    self.say(Level::Warning, warning);
                }
                self.say(
                    Level::Info,
                    format!(
                        "exported {}: {} animations, {bytes} bytes in {:.2} s",
                        path.display(),
                        export.animations.len(),
                        started.elapsed().as_secs_f64()
                    ),
                );
            }
            Err(e) => self.say(Level::Error, format!("export failed: {e}")),
        }
    }

    /// Starts writing the shown model's sources into `dir` (one decompile at a time).
    pub(super) fn start_decompile(&mut self, dir: PathBuf) {
        use crate::app::decompile_job::{DecompileJob, DecompileModel};
        if let Some(job) = &self.decompiling {
            let busy = format!("a decompile into {} is still running", job.dir.display());
            return self.say(Level::Warning, busy);
        }
        let model = match self.source.as_deref() {
            Some(view) => match studio_document::model_files::load_phy(&view.doc.path) {
                Ok(phy) => DecompileModel::Source(Arc::clone(&view.doc.model), phy),
                Err(error) => return self.say(Level::Error, format!("decompile failed: {error}")),
            },
            None => DecompileModel::Gold(Arc::clone(&self.loaded.model)),
        };
        let stem = self.path().map_or_else(|| "demo".to_owned(), studio_decompile::stem_of);
        self.say(Level::Info, format!("decompiling into {}…", dir.display()));
        self.decompiling = Some(DecompileJob::start(model, stem, dir));
    }

    /// Checks on the decompile running, saying how it ended once it has; whether one is still
    /// running (the window then draws again soon, for its progress bar).
    pub fn poll_decompile(&mut self) -> bool {
        let Some(job) = &self.decompiling else { return false };
        let Some(result) = job.poll() else { return true };
        let dir = job.dir.clone();
        self.decompiling = None;
        match result {
            Ok(done) => {
                for warning in &done.warnings {
                    self.say(Level::Warning, format!("decompile: {warning}"));
                }
                self.say(
                    Level::Info,
                    format!(
                        "decompiled into {}: {} files, {} bytes in {:.2} s",
                        dir.display(),
                        done.files,
                        done.bytes,
                        done.seconds
                    ),
                )
            }
            Err(error) => self.say(Level::Error, format!("decompile failed: {error}")),
        }
        false
    }
}

impl AppState {
    /// Starts recording the viewport into `path` with the capture window's choices (File ▸
    /// Capture animation…).
    pub(super) fn start_capture(&mut self, path: PathBuf) {
        use crate::app::capture_job::{CaptureJob, CaptureScene, Poser, SecondRecipe};
        use studio_document::muzzle_flash::FlashSprites;
        if let Some(job) = &self.capturing {
            let busy = format!("a capture into {} is still running", job.path.display());
            return self.say(Level::Warning, busy);
        }
        if studio_document::animation_file::AnimationFormat::of_path(&path).is_none() {
            let what =
                format!("{}: capture to .gif, .png (APNG), .webp, or a folder of PNG frames", path.display());
            return self.say(Level::Error, what);
        }
        let settings = self.capture_window.unwrap_or_default();
        let poser = match self.source.as_deref() {
            Some(view) => {
                let doc = &view.doc;
                let mut copy = studio_document::source_doc::SourceDoc::new(
                    doc.model.as_ref().clone(),
                    doc.path.clone(),
                    doc.companions.clone(),
                );
                copy.sequence = doc.sequence;
                copy.cycle = doc.cycle;
                copy.params = doc.params.clone();
                copy.controllers = doc.controllers.clone();
                copy.hitbox_set = doc.hitbox_set;
                copy.autoplay = doc.autoplay;
                copy.clock = doc.clock;
                copy.flex = doc.flex.clone();
                copy.eye_target = doc.eye_target;
                copy.layers = doc.layers.clone();
                copy.evaluate();
                Poser::Source(Box::new(copy))
            }
            None => Poser::Gold {
                model: Arc::clone(&self.loaded.model),
                request: studio_pose::PoseRequest {
                    sequence: self.sequence,
                    frame: self.frame,
                    blend: self.blend,
                    controllers: self.controller_bytes(),
                },
                layers: self.layers,
            },
        };
        let second = self.extras.second.as_ref().map(|second| {
            let parent = self.bone_names().iter().map(|(n, _)| (*n).to_owned()).collect();
            let sequence = match self.source.as_deref() {
                Some(view) => {
                    view.doc.evaluator.rig().label(view.doc.sequence).unwrap_or_default().to_owned()
                }
                None => {
                    self.model().sequences.get(self.sequence).map(|s| s.label.clone()).unwrap_or_default()
                }
            };
            let games = self.settings.game_folders.clone();
            SecondRecipe { path: second.path.clone(), parent, games, placement: second.placement, sequence }
        });
        let flashes = (self.settings.muzzle_flashes && self.source.is_none())
            .then(|| FlashSprites::new(self.loaded.path.as_deref(), &self.settings.game_folders));
        let (model, camera, options) = (self.render_model(), self.camera, self.render_options());
        let scene = CaptureScene { model, camera, options, second, flashes };
        let job = CaptureJob::start(path, settings, scene, poser);
        self.say(Level::Info, format!("capturing {} frames into {}…", job.frames, job.path.display()));
        self.capturing = Some(job);
    }

    /// Checks on the capture running, saying how it ended once it has; whether one is still
    /// running (the window then draws again soon, for its progress bar).
    pub fn poll_capture(&mut self) -> bool {
        let Some(job) = &self.capturing else { return false };
        let Some(result) = job.poll() else { return true };
        let path = job.path.clone();
        self.capturing = None;
        match result {
            Ok(done) => self.say(
                Level::Info,
                format!("captured {} frames into {} in {:.1} s", done.frames, path.display(), done.seconds),
            ),
            Err(error) => self.say(Level::Warning, format!("capture into {}: {error}", path.display())),
        }
        false
    }
}
