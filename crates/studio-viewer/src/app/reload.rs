//! Reloading the open model where the user left it: File ▸ Reload (F5), and the automatic
//! reload when its file or a companion changes on disk (a recompile, another tool's save).
//! The camera, the sequence (by name where it moved), the frame or cycle, playback, the
//! sliders and the choices of body, skin and LOD are kept wherever the new file still has
//! them. A file that no longer loads shows its error and the last good model stays.

use glam::Vec3;
use studio_render::Camera;

use super::state::{AppState, Level};

/// What the user had set, taken before a reload and put back after it.
struct Kept {
    camera: Camera,
    playing: bool,
    looping: bool,
    body: i32,
    skin: usize,
    lod: usize,
    selected_bone: Option<usize>,
    selected_hitbox: Option<usize>,
    selected_attachment: Option<usize>,
    format: KeptFormat,
}

/// The format's own settings.
enum KeptFormat {
    Gold {
        sequence: Option<String>,
        frame: f32,
        loops: f32,
        blend: [u8; 2],
        controllers: Vec<u8>,
        mouth: u8,
    },
    Source {
        sequence: usize,
        cycle: f32,
        clock: f32,
        params: Vec<f32>,
        controllers: Vec<f32>,
        flex: Vec<f32>,
        hitbox_set: usize,
        autoplay: bool,
        eye_target: Option<Vec3>,
    },
}

impl AppState {
    /// Loads the open file again, keeping what the user had set. False when it failed (the
    /// error said, the last good model kept) or there is no file.
    pub fn reload_keeping_view(&mut self) -> bool {
        let Some(path) = self.path().map(std::path::Path::to_path_buf) else { return false };
        let kept = self.keep();
        let load_id = self.load_id;
        self.open(path);
        if self.load_id == load_id {
            return false;
        }
        self.put_back(kept);
        true
    }

    /// Reloads the model if a watched file changed (and automatic reloading is on); a model
    /// with unsaved edits is left alone, with a message. Whether it reloaded.
    pub fn reload_if_changed(&mut self) -> bool {
        if !self.watch.changed() {
            return false;
        }
        if self.is_dirty() {
            self.say(
                Level::Warning,
                "the model's file changed on disk; it has unsaved edits here, so it was not \
                 reloaded (Reload, F5, takes the file's)",
            );
            // Not again for this change.
            self.watch.restamp();
            return false;
        }
        let reloaded = self.reload_keeping_view();
        if reloaded {
            self.say(Level::Info, "reloaded: its file changed on disk");
        } else {
            // The broken file stays watched: the next good write reloads.
            self.watch.restamp();
        }
        reloaded
    }

    /// Watches the open model's files when automatic reloading is on; stops otherwise.
    pub fn watch_files(&mut self) {
        if !self.settings.auto_reload {
            return self.watch.stop();
        }
        let mut files: Vec<std::path::PathBuf> =
            self.path().map(std::path::Path::to_path_buf).into_iter().collect();
        match self.source.as_deref() {
            Some(view) => files.extend(view.doc.companions.iter().cloned()),
            None => files.extend(self.loaded.companions.iter().cloned()),
        }
        if let Err(problem) = self.watch.watch(&files) {
            self.say(Level::Warning, format!("the model's files are not watched for changes: {problem}"));
        }
    }

    fn keep(&self) -> Kept {
        let format = match self.source.as_deref() {
            Some(view) => {
                let doc = &view.doc;
                KeptFormat::Source {
                    sequence: doc.sequence,
                    cycle: doc.cycle,
                    clock: doc.clock,
                    params: doc.params.clone(),
                    controllers: doc.controllers.clone(),
                    flex: doc.flex.clone(),
                    hitbox_set: doc.hitbox_set,
                    autoplay: doc.autoplay,
                    eye_target: doc.eye_target,
                }
            }
            None => KeptFormat::Gold {
                sequence: self.model().sequences.get(self.sequence).map(|s| s.label.clone()),
                frame: self.frame,
                loops: self.loops,
                blend: self.blend,
                controllers: self.controllers.clone(),
                mouth: self.mouth,
            },
        };
        Kept {
            camera: self.camera,
            playing: self.playing,
            looping: self.looping,
            body: self.body,
            skin: self.skin,
            lod: self.lod,
            selected_bone: self.selected_bone,
            selected_hitbox: self.selected_hitbox,
            selected_attachment: self.selected_attachment,
            format,
        }
    }

    fn put_back(&mut self, kept: Kept) {
        self.camera = kept.camera;
        self.body = kept.body;
        self.skin = kept.skin;
        self.lod = kept.lod;
        match (kept.format, self.source.as_deref_mut()) {
            (KeptFormat::Gold { sequence, frame, loops, blend, controllers, mouth }, None) => {
                let model = self.loaded.model.clone();
                let found = sequence.and_then(|name| model.sequences.iter().position(|s| s.label == name));
                if let Some(index) = found {
                    self.sequence = index;
                    let last = (model.sequences[index].frames() as f32 - 1.0).max(0.0);
                    self.frame = frame.clamp(0.0, last);
                    self.loops = loops;
                    self.playing = kept.playing;
                    self.looping = kept.looping;
                }
                self.blend = blend;
                if controllers.len() == model.bone_controllers.len() {
                    self.controllers = controllers;
                }
                self.mouth = mouth;
                self.selected_bone = kept.selected_bone.filter(|&b| b < model.bones.len());
                self.selected_hitbox = kept.selected_hitbox.filter(|&h| h < model.hitboxes.len());
                self.selected_attachment = kept.selected_attachment.filter(|&a| a < model.attachments.len());
            }
            (
                KeptFormat::Source {
                    sequence,
                    cycle,
                    clock,
                    params,
                    controllers,
                    flex,
                    hitbox_set,
                    autoplay,
                    eye_target,
                },
                Some(view),
            ) => {
                let doc = &mut view.doc;
                if sequence < doc.num_sequences() {
                    doc.sequence = sequence;
                    doc.cycle = cycle;
                    self.playing = kept.playing;
                    self.looping = kept.looping;
                }
                doc.clock = clock;
                if params.len() == doc.params.len() {
                    doc.params = params;
                }
                if controllers.len() == doc.controllers.len() {
                    doc.controllers = controllers;
                }
                if flex.len() == doc.flex.len() {
                    doc.flex = flex;
                }
                if hitbox_set < doc.model.hitbox_sets.len() {
                    doc.hitbox_set = hitbox_set;
                }
                doc.autoplay = autoplay;
                doc.eye_target = eye_target;
                self.lod = self.lod.min(studio_render::source::lod_count(&doc.model).saturating_sub(1));
                self.selected_bone = kept.selected_bone.filter(|&b| b < doc.model.bones.len());
                self.selected_attachment =
                    kept.selected_attachment.filter(|&a| a < doc.model.attachments.len());
            }
            // The file changed format: what it starts with.
            _ => {}
        }
        self.invalidate();
        self.evaluate();
    }
}
