//! The viewer's state, apart from the widgets that show it: the loaded model, its pose and
//! playback clock, the user's choices, messages. Widgets read it and send [`Command`]s.

use std::path::PathBuf;
use std::sync::Arc;

use glam::Vec3;
use studio_model::Model;
use studio_pose::playback::{events_between, movement_at};
use studio_pose::{ControllerBytes, Pose, PoseEvaluator, PoseRequest};
use studio_render::Camera;

use super::command::Command;
use super::settings::Settings;
use crate::edit::{GoldRecord, History, SourceRecord};
use crate::source_doc::SourceDoc;

/// Most lines kept in the event log and the message list.
const MAX_LOG: usize = 200;

/// A loaded model with what is needed to pose it.
pub struct Loaded {
    /// The model.
    pub model: Arc<Model>,
    /// Where it came from (`None` for the bundled demo).
    pub path: Option<PathBuf>,
    /// Companion files read with it.
    pub companions: Vec<PathBuf>,
    /// Its pose evaluator (tables built as sequences are played).
    pub evaluator: PoseEvaluator,
    /// Its edits.
    pub history: History<GoldRecord>,
}

impl Loaded {
    /// `model`, read from `path` with `companions`, with no edits yet.
    pub fn new(model: Arc<Model>, path: Option<PathBuf>, companions: Vec<PathBuf>) -> Self {
        Self {
            evaluator: PoseEvaluator::new(model.clone()),
            model,
            path,
            companions,
            history: History::default(),
        }
    }
}

/// An open Source model: the document and its materials.
pub struct SourceView {
    /// The model and its pose.
    pub doc: SourceDoc,
    /// Its materials, one per texture.
    pub materials: Vec<studio_render::RenderMaterial>,
    /// What the lookup found for each material.
    pub found: Vec<studio_material::Material>,
    /// The game folders searched.
    pub folders: Vec<PathBuf>,
    /// The places searched, in order: the search path entry that put each there, and its path.
    pub places: Vec<(String, PathBuf)>,
    /// The game whose search path leads, if the model is in one.
    pub game: Option<PathBuf>,
    /// Counts material lookups, so the viewport uploads the model again after one.
    pub generation: u64,
    /// The model as its file on disk holds it: what edits are written into.
    pub saved: Arc<studio_source::SourceModel>,
    /// Its edits.
    pub history: History<SourceRecord>,
}

impl SourceView {
    /// Looks the materials up again in the model's game folder and `extra`, saying what is
    /// missing.
    fn resolve(&mut self, extra: &[PathBuf]) -> Vec<String> {
        let resolved = crate::materials::resolve(&self.doc.model, &self.doc.path, extra);
        self.materials = resolved.materials;
        self.found = resolved.found;
        self.folders = resolved.folders;
        self.places = resolved.places;
        self.game = resolved.game;
        self.generation += 1;
        resolved.messages
    }
}

/// How serious a message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// Information.
    Info,
    /// A problem the model has but the viewer copes with.
    Warning,
    /// Something failed.
    Error,
}

/// Every controller's neutral setting: the one nearest 0 in its own units, where the game and
/// other viewers start (the file's `rest` byte is whatever the compiler wrote, 0 on most
/// models, which is the far end of a symmetric range).
fn rest_settings(model: &Model) -> Vec<u8> {
    model.bone_controllers.iter().map(studio_pose::controllers::neutral_byte).collect()
}

/// The mouth's neutral setting.
fn rest_mouth(model: &Model) -> u8 {
    studio_pose::neutral_bytes(&model.bone_controllers).mouth
}

/// The viewer's state.
pub struct AppState {
    /// What the command line chose of Steam folders and game folders; the settings add theirs.
    pub command_line: crate::installs::Context,
    /// The current Half-Life model (the demo model while a Source model is open).
    pub loaded: Loaded,
    /// The open Source model, when one is shown instead of `loaded`.
    pub source: Option<Box<SourceView>>,
    /// Its current pose, as the viewport draws it.
    pub pose: Pose,
    /// The sequence playing.
    pub sequence: usize,
    /// The current frame, fractional.
    pub frame: f32,
    /// Whether the clock runs.
    pub playing: bool,
    /// Whether playback wraps round (the sequence's own flag until the user changes it).
    pub looping: bool,
    /// Whole loops of linear movement travelled (for applied movement).
    pub loops: f32,
    /// Blend bytes.
    pub blend: [u8; 2],
    /// Controller settings, one per controller of the model.
    pub controllers: Vec<u8>,
    /// The mouth, 0–64.
    pub mouth: u8,
    /// The entity's body number (each body part's submodel).
    pub body: i32,
    /// Skin family.
    pub skin: usize,
    /// Level of detail (Source models).
    pub lod: usize,
    /// Highlighted bone.
    pub selected_bone: Option<usize>,
    /// The bone whose joint is under the pointer in the viewport (for the bone weights view).
    pub hovered_bone: Option<usize>,
    /// Highlighted hit box.
    pub selected_hitbox: Option<usize>,
    /// The camera.
    pub camera: Camera,
    /// Choices that persist.
    pub settings: Settings,
    /// Problems and notes, newest last.
    pub messages: Vec<(Level, String)>,
    /// Events that fired, newest last.
    pub event_log: Vec<String>,
    /// Highlighted attachment.
    pub selected_attachment: Option<usize>,
    /// A command that would throw away unsaved edits, waiting for the user to save, discard
    /// or cancel.
    pub pending: Option<Command>,
    /// The window should close now (the user quit, with nothing unsaved or after discarding).
    pub quit: bool,
    /// QC lines offered for edits that only a QC rebuild can save (Source).
    pub qc_offer: Option<String>,
    /// A file dialog a menu asked for, shown once the menu has closed.
    pub dialog_due: Option<crate::app::ui::menu::DialogDue>,
    /// The decompile running (File ▸ Decompile…).
    pub decompiling: Option<crate::app::decompile_job::DecompileJob>,
    /// Files already backed up (`.bak`) this session: only the first save over a file keeps one.
    pub backed_up: Vec<PathBuf>,
    /// The model browser.
    pub browser: crate::app::browser::Browser,
    /// The adapter the window draws with (`name (backend)`), once known.
    pub renderer: Option<String>,
    /// Counts loads, so the viewport knows a different model from an edited one.
    pub(crate) load_id: u64,
    /// Counts edits that change what the viewport uploads (texture flags).
    pub(crate) scene_generation: u64,
    /// Set while a command runs that the user chose to run despite unsaved edits.
    pub(super) discarding: bool,
    /// The side and bottom panels are hidden (View ▸ Hide panels).
    pub panels_hidden: bool,
    /// The open model's files, watched for changes on disk.
    pub watch: super::watch::Watch,
    /// Whether the pose must be evaluated again.
    dirty: bool,
    /// Counts pose evaluations, so the viewport can tell when to draw again.
    revision: u64,
}

impl AppState {
    /// A state showing `model`.
    pub fn new(loaded: Loaded, settings: Settings) -> Self {
        let pose = Pose::new(&loaded.model);
        let mut state = Self {
            command_line: crate::installs::context(),
            pose,
            loaded,
            source: None,
            sequence: 0,
            frame: 0.0,
            playing: false,
            looping: true,
            loops: 0.0,
            blend: [0, 0],
            controllers: Vec::new(),
            mouth: 0,
            body: 0,
            skin: 0,
            lod: 0,
            selected_bone: None,
            hovered_bone: None,
            selected_hitbox: None,
            camera: Camera::default(),
            settings,
            messages: Vec::new(),
            event_log: Vec::new(),
            selected_attachment: None,
            pending: None,
            quit: false,
            qc_offer: None,
            dialog_due: None,
            decompiling: None,
            backed_up: Vec::new(),
            browser: Default::default(),
            renderer: None,
            load_id: 0,
            scene_generation: 0,
            discarding: false,
            panels_hidden: false,
            watch: Default::default(),
            dirty: true,
            revision: 0,
        };
        state.reset_for_model();
        state.configure_installs();
        state
    }

    /// Keeps new game settings, tells the search paths, and has the browser find the games again.
    fn set_game_settings(&mut self, steam_folders: &[PathBuf], preferences: &studio_games::Preferences) {
        self.settings.steam_folders = steam_folders.to_vec();
        self.settings.game_language = preferences.language.clone();
        self.settings.low_violence = preferences.low_violence;
        self.settings.hd_models = preferences.hd_models;
        self.settings.addon_content = preferences.addon_content;
        self.configure_installs();
        self.browser.forget_games();
    }

    /// Tells the search paths what the command line and the settings chose.
    pub fn configure_installs(&self) {
        let mut context = self.command_line.clone();
        context.steam.extend(self.settings.steam_folders.iter().cloned());
        context.preferences = self.settings.preferences();
        crate::installs::configure(context);
    }

    /// The bundled demo model, ready to show.
    pub fn demo(settings: Settings) -> Self {
        let model = Arc::new(crate::demo::demo_model().unwrap_or_else(|_| Model::new(Default::default())));
        Self::new(Loaded::new(model, None, Vec::new()), settings)
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.loaded.model
    }

    /// Adds a message.
    pub fn say(&mut self, level: Level, text: impl Into<String>) {
        self.messages.push((level, text.into()));
        if self.messages.len() > MAX_LOG {
            self.messages.remove(0);
        }
    }

    /// The latest error, if the last thing said was one.
    pub fn last_error(&self) -> Option<&str> {
        self.messages.iter().rev().find(|(l, _)| *l == Level::Error).map(|(_, t)| t.as_str())
    }

    /// The file shown (`None` for the demo model).
    pub fn path(&self) -> Option<&std::path::Path> {
        match &self.source {
            Some(view) => Some(&view.doc.path),
            None => self.loaded.path.as_deref(),
        }
    }

    /// Names which model the viewport shows, and which lookup of its materials: changes when
    /// another is opened or its materials are looked up again.
    pub fn scene_identity(&self) -> (usize, u64) {
        match &self.source {
            Some(view) => (self.load_id as usize, view.generation + self.scene_generation),
            None => (self.load_id as usize, self.scene_generation),
        }
    }

    /// The shown model as the renderer takes it (built when the viewport uploads it).
    pub fn render_model(&self) -> studio_render::RenderModel {
        match &self.source {
            Some(view) => studio_render::source::render_model(&view.doc.model, view.materials.clone()),
            None => studio_render::goldsrc::render_model(&self.loaded.model),
        }
    }

    /// The current pose as the renderer takes it.
    pub fn frame_pose(&self) -> studio_render::FramePose<'_> {
        match &self.source {
            Some(view) => view.doc.frame.frame_pose(),
            None => studio_render::goldsrc::frame_pose(&self.loaded.model, &self.pose, Some(self.sequence)),
        }
    }

    /// Bone names and the bones' model-space transforms of the current pose.
    pub fn bone_names(&self) -> Vec<(&str, glam::Vec3)> {
        match &self.source {
            Some(view) => view
                .doc
                .model
                .bones
                .iter()
                .zip(&view.doc.frame.bones)
                .map(|(b, m)| (b.name.as_str(), m.translation.into()))
                .collect(),
            None => self
                .loaded
                .model
                .bones
                .iter()
                .zip(&self.pose.bones)
                .map(|(b, m)| (b.name.as_str(), m.translation.into()))
                .collect(),
        }
    }

    /// Attachment labels (Source: names; Half-Life: numbers) and points of the current pose.
    pub fn attachment_labels(&self) -> Vec<(String, glam::Vec3)> {
        match &self.source {
            Some(view) => view
                .doc
                .model
                .attachments
                .iter()
                .zip(&view.doc.frame.attachments)
                .map(|(a, &p)| (a.name.clone(), p.into()))
                .collect(),
            None => {
                self.pose.attachments.iter().enumerate().map(|(i, &p)| (i.to_string(), p.into())).collect()
            }
        }
    }

    fn reset_common(&mut self) {
        self.load_id += 1;
        self.selected_attachment = None;
        self.pending = None;
        self.qc_offer = None;
        self.frame = 0.0;
        self.loops = 0.0;
        self.body = 0;
        self.skin = 0;
        self.lod = 0;
        self.selected_bone = None;
        self.hovered_bone = None;
        self.selected_hitbox = None;
        self.event_log.clear();
    }

    fn reset_for_model(&mut self) {
        self.source = None;
        let model = self.loaded.model.clone();
        self.pose = Pose::new(&model);
        self.reset_common();
        self.sequence = model.sequences.iter().position(|s| s.animation.is_some()).unwrap_or(0);
        self.blend = [0, 0];
        self.controllers = rest_settings(&model);
        self.mouth = rest_mouth(&model);
        self.playing = !model.sequences.is_empty();
        self.looping = model.sequences.get(self.sequence).is_none_or(|s| s.is_looping());
        self.dirty = true;
        self.evaluate();
        self.place_camera_for_model();
        for warning in &model.warnings {
            self.messages.push((Level::Warning, warning.to_string()));
        }
    }

    /// The box round the current pose's bones, hit boxes and shown vertices.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        match &self.source {
            Some(view) => view.doc.bounds(self.body),
            None => crate::pose_cmd::pose_bounds(self.model(), &self.pose, 0),
        }
    }

    /// Shows a Source model read from `path`.
    fn open_source(&mut self, path: PathBuf, loaded: studio_source::LoadedSource) {
        let doc = SourceDoc::new(loaded.model, path.clone(), loaded.companions);
        self.settings.remember(path.clone());
        self.say(Level::Info, format!("opened {}", path.display()));
        for warning in &doc.model.warnings {
            self.messages.push((Level::Warning, warning.to_string()));
        }
        let looping = doc.looping();
        let saved = doc.model.clone();
        let mut view = SourceView {
            doc,
            materials: Vec::new(),
            found: Vec::new(),
            folders: Vec::new(),
            places: Vec::new(),
            game: None,
            generation: 0,
            saved,
            history: History::default(),
        };
        for note in view.resolve(&self.settings.game_folders) {
            self.say(Level::Warning, note);
        }
        self.source = Some(Box::new(view));
        self.reset_common();
        self.sequence = 0;
        self.looping = looping;
        self.playing = self.source.as_ref().is_some_and(|v| v.doc.num_sequences() > 0);
        self.dirty = true;
        self.evaluate();
        self.place_camera_for_model();
    }

    /// Loads a model from disk; on failure the current model stays and the error is shown.
    /// Its files are watched for changes once it is open.
    pub(super) fn open(&mut self, path: PathBuf) {
        let load_id = self.load_id;
        // The model's game opened once for its files and its materials.
        crate::installs::shared(|| self.open_now(path));
        if self.load_id != load_id {
            self.watch_files();
        }
    }

    /// [`Self::open`], inside [`crate::installs::shared`].
    fn open_now(&mut self, path: PathBuf) {
        match crate::model_files::source_load(&path) {
            Some(Ok(loaded)) => return self.open_source(path, loaded),
            Some(Err(error)) => return self.say(Level::Error, error.to_string()),
            None => {}
        }
        match crate::model_files::goldsrc_load(&path) {
            Ok(loaded) => {
                self.loaded = Loaded::new(Arc::new(loaded.model), Some(path.clone()), loaded.companions);
                self.settings.remember(path.clone());
                self.say(Level::Info, format!("opened {}", path.display()));
                self.reset_for_model();
            }
            Err(error) => self.say(Level::Error, error.to_string()),
        }
    }

    /// Writes the shown model as glTF to `path`, saying how it went.
    fn export(&mut self, path: &std::path::Path) {
        use crate::export::{ExportOptions, Progress, goldsrc, source, write};
        let shown = crate::shown::Shown {
            body: self.body,
            skin: self.skin,
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
    fn start_decompile(&mut self, dir: PathBuf) {
        use crate::app::decompile_job::{DecompileJob, DecompileModel};
        if let Some(job) = &self.decompiling {
            let busy = format!("a decompile into {} is still running", job.dir.display());
            return self.say(Level::Warning, busy);
        }
        let model = match self.source.as_deref() {
            Some(view) => match crate::decompile::load_phy(&view.doc.path) {
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

    /// Carries out a command on the open Source model; false for commands that are not
    /// about its pose (opening files, playing, the camera).
    fn apply_source(&mut self, command: &Command) -> bool {
        let Some(view) = self.source.as_deref_mut() else { return false };
        let doc = &mut view.doc;
        match *command {
            Command::SelectSequence(sequence) => {
                if sequence < doc.num_sequences() {
                    doc.sequence = sequence;
                    doc.cycle = 0.0;
                    self.looping = doc.looping();
                    self.event_log.clear();
                }
            }
            Command::SetCycle(cycle) => {
                doc.cycle = if cycle.is_finite() { cycle.clamp(0.0, 1.0) } else { 0.0 }
            }
            Command::Step(by) => {
                self.playing = false;
                let step = 1.0 / (doc.frames() as f32 - 1.0).max(1.0);
                doc.cycle = (doc.cycle + by as f32 * step).rem_euclid(1.0 + step).min(1.0);
            }
            Command::SetPoseParameter(i, value) => {
                if let Some(slot) = doc.params.get_mut(i)
                    && value.is_finite()
                {
                    *slot = value;
                }
            }
            Command::SetSourceController(i, value) => {
                if let Some(slot) = doc.controllers.get_mut(i)
                    && value.is_finite()
                {
                    *slot = value;
                }
            }
            Command::ResetControllers => doc.reset_controls(),
            Command::SetFlex(i, value) => {
                let range = doc.model.flexes.controllers.get(i).map(studio_source::FlexController::range);
                if let (Some(slot), Some((lo, hi))) = (doc.flex.get_mut(i), range)
                    && value.is_finite()
                    && lo <= hi
                {
                    *slot = value.clamp(lo, hi);
                }
            }
            Command::ResetFlexes => doc.reset_flexes(),
            Command::SetEyeTarget(target) => doc.eye_target = target.filter(|t| t.is_finite()),
            Command::SelectHitboxSet(set) => {
                if set < doc.model.hitbox_sets.len() {
                    doc.hitbox_set = set;
                    self.selected_hitbox = None;
                }
            }
            Command::SetGameFolders(ref folders) => {
                self.settings.game_folders = folders.clone();
                let notes = view.resolve(folders);
                let missing = notes.len();
                for note in notes {
                    self.say(Level::Warning, note);
                }
                self.say(Level::Info, format!("materials looked up again: {missing} problem(s)"));
                return true;
            }
            Command::SetLod(lod) => self.lod = lod.min(studio_render::source::lod_count(&doc.model) - 1),
            Command::SetAutoplay(on) => doc.autoplay = on,
            Command::SelectBone(bone) => self.selected_bone = bone.filter(|&b| b < doc.model.bones.len()),
            Command::SelectHitbox(hitbox) => {
                let count = doc.model.hitbox_sets.get(doc.hitbox_set).map_or(0, |s| s.hitboxes.len());
                self.selected_hitbox = hitbox.filter(|&h| h < count)
            }
            _ => return false,
        }
        self.dirty = true;
        self.evaluate();
        true
    }

    /// Carries out a command.
    pub fn apply(&mut self, command: Command) {
        if let Command::NextModel(step) = command {
            // The model next to this one, opened as any other (asking first about edits).
            match self.path().and_then(|p| crate::model_files::sibling(p, step)) {
                Some(path) => self.apply(Command::Open(path)),
                None => self.say(Level::Info, "no other model in this model's folder"),
            }
            return;
        }
        if !self.discarding && self.discards_edits(&command) {
            self.pending = Some(command);
            return;
        }
        if self.apply_editing(&command) {
            return;
        }
        if self.apply_source(&command) {
            return;
        }
        if self.apply_view(&command) {
            return;
        }
        let frames = |s: &Self| s.model().sequences.get(s.sequence).map_or(1, |q| q.frames());
        match command {
            Command::Open(path) => self.open(path),
            Command::ToggleBrowser => self.browser.open = !self.browser.open,
            Command::ShowInBrowser => match self.path().map(std::path::Path::to_path_buf) {
                Some(path) => self.browser.reveal(&path),
                None => self.browser.open = true,
            },
            Command::NextModel(_) => {}
            Command::OpenDemo => {
                let settings = std::mem::take(&mut self.settings);
                let messages = std::mem::take(&mut self.messages);
                let backed_up = std::mem::take(&mut self.backed_up);
                let browser = std::mem::take(&mut self.browser);
                let mut watch = std::mem::take(&mut self.watch);
                let load_id = self.load_id;
                *self = Self::demo(settings);
                self.messages = messages;
                self.backed_up = backed_up;
                self.browser = browser;
                // The demo model has no file: nothing to watch, but the waker stays.
                watch.stop();
                self.watch = watch;
                // Another model for the viewport, whatever the new state counted.
                self.load_id = load_id + 1;
            }
            Command::Reload => {
                if self.path().is_none() {
                    self.apply(Command::OpenDemo);
                } else {
                    self.reload_keeping_view();
                }
            }
            Command::SetAutoReload(on) => {
                self.settings.auto_reload = on;
                self.watch_files();
            }
            Command::SelectSequence(sequence) => {
                if let Some(looping) = self.model().sequences.get(sequence).map(|s| s.is_looping()) {
                    self.sequence = sequence;
                    self.looping = looping;
                    self.frame = 0.0;
                    self.loops = 0.0;
                    self.event_log.clear();
                    self.dirty = true;
                }
            }
            Command::SetFrame(frame) => {
                let last = (frames(self) as f32 - 1.0).max(0.0);
                self.frame = if frame.is_finite() { frame.clamp(0.0, last) } else { 0.0 };
                self.dirty = true;
            }
            Command::TogglePlay => self.playing = !self.playing,
            Command::Step(by) => {
                self.playing = false;
                let last = (frames(self) as f32 - 1.0).max(0.0);
                self.frame = (self.frame.floor() + by as f32).rem_euclid(last + 1.0).min(last);
                self.dirty = true;
            }
            Command::SetBlend(i, byte) => {
                if let Some(slot) = self.blend.get_mut(i) {
                    *slot = byte;
                    self.dirty = true;
                }
            }
            Command::SetController(i, byte) => {
                if let Some(slot) = self.controllers.get_mut(i) {
                    *slot = byte;
                    self.dirty = true;
                }
            }
            Command::SetMouth(byte) => {
                self.mouth = byte.min(64);
                self.dirty = true;
            }
            Command::ResetControllers => {
                self.controllers = rest_settings(self.model());
                self.mouth = rest_mouth(self.model());
                self.dirty = true;
            }
            Command::SelectBone(bone) => self.selected_bone = bone.filter(|&b| b < self.model().bones.len()),
            Command::SelectHitbox(hitbox) => {
                self.selected_hitbox = hitbox.filter(|&h| h < self.model().hitboxes.len())
            }
            Command::Export(path) => self.export(&path),
            Command::Decompile(dir) => self.start_decompile(dir),
            // Source models only (handled above while one is open).
            Command::SetCycle(_)
            | Command::SetPoseParameter(..)
            | Command::SetSourceController(..)
            | Command::SetFlex(..)
            | Command::ResetFlexes
            | Command::SetEyeTarget(_)
            | Command::SelectHitboxSet(_)
            | Command::SetAutoplay(_)
            | Command::SetLod(_) => {}
            Command::SetGameFolders(folders) => self.settings.game_folders = folders,
            Command::SetGameSettings { steam_folders, preferences } => {
                self.set_game_settings(&steam_folders, &preferences);
                let extra = self.settings.game_folders.clone();
                if let Some(view) = self.source.as_deref_mut() {
                    let notes = view.resolve(&extra);
                    self.say(Level::Info, format!("materials looked up again: {} problem(s)", notes.len()));
                    for note in notes {
                        self.say(Level::Warning, note);
                    }
                }
            }
            // Carried out by `apply_view` above.
            Command::FrameModel
            | Command::ResetView
            | Command::SetCameraMode(_)
            | Command::SetFov(_)
            | Command::SetOrthographic(_)
            | Command::SetAxisView(_)
            | Command::Fly { .. }
            | Command::SaveView
            | Command::RestoreView
            | Command::TogglePanels => {}
            // Carried out by `apply_editing` above.
            Command::SelectAttachment(_)
            | Command::Edit { .. }
            | Command::EndEdit
            | Command::Undo
            | Command::Redo
            | Command::Save
            | Command::SaveAs(_)
            | Command::Quit
            | Command::DiscardAndContinue
            | Command::SaveAndContinue
            | Command::CancelPending => {}
        }
        self.evaluate();
    }

    /// The controller bytes of the pose request: user controllers 0–3 take the setting of the
    /// controller that reads them.
    pub fn controller_bytes(&self) -> ControllerBytes {
        let mut user = [0u8; 4];
        for (controller, &byte) in self.model().bone_controllers.iter().zip(&self.controllers) {
            if let Some(studio_model::ControllerInput::User(i)) = controller.input() {
                user[i] = byte;
            }
        }
        ControllerBytes { user, mouth: self.mouth }
    }

    /// Moves the clock on by `dt` seconds while playing, logging the events passed.
    pub fn advance(&mut self, dt: f32) {
        if !self.playing {
            return;
        }
        if let Some(view) = self.source.as_deref_mut() {
            let speed = self.settings.speed.clamp(0.1, 4.0);
            let doc = &mut view.doc;
            let from = doc.cycle;
            doc.advance(dt, speed, &mut self.event_log, self.looping);
            if !self.looping && doc.cycle >= 1.0 && from < 1.0 {
                self.playing = false;
            }
            let excess = self.event_log.len().saturating_sub(MAX_LOG);
            self.event_log.drain(..excess);
            // A one-frame sequence (or a rate of 0) leaves the pose as it was: nothing to draw,
            // unless autoplay sequences play on top.
            if doc.cycle != from || doc.autoplay_playing() {
                self.revision += 1;
            }
            return;
        }
        let model = self.model().clone();
        let Some(sequence) = model.sequences.get(self.sequence) else { return };
        let last = sequence.frames() as f32 - 1.0;
        if last <= 0.0 {
            return;
        }
        let from = self.frame;
        // A file's fps may be anything: NaN, infinite or huge steps go nowhere or wrap at once.
        let fps = if sequence.fps.is_finite() { sequence.fps.max(0.0) } else { 0.0 };
        let mut to = from + dt * fps * self.settings.speed.clamp(0.1, 4.0);
        if !to.is_finite() {
            to = from;
        }
        if self.looping {
            if to >= last {
                self.loops += (to / last).floor();
                to = to.rem_euclid(last);
            }
        } else if to >= last {
            to = last;
            self.playing = false;
        }
        for event in events_between(sequence, from, to) {
            self.event_log.push(format!("frame {}: event {} {}", event.frame, event.event, event.options));
            if self.event_log.len() > MAX_LOG {
                self.event_log.remove(0);
            }
        }
        self.frame = to;
        self.dirty = true;
        self.evaluate();
    }

    /// Whether playback moves the pose: playing, and the sequence has more than one frame and
    /// a rate above 0. A one-frame sequence "plays" without anything to draw.
    pub fn animating(&mut self) -> bool {
        if !self.playing {
            return false;
        }
        match self.source.as_deref_mut() {
            Some(view) => view.doc.cycle_rate() > 0.0 || view.doc.autoplay_playing(),
            None => self
                .model()
                .sequences
                .get(self.sequence)
                .is_some_and(|s| s.frames() > 1 && s.fps.is_finite() && s.fps > 0.0),
        }
    }

    /// Poses the open Source model's flexed meshes and eyes (looking at the camera unless told
    /// otherwise) for the pose evaluated last; returns their revision, which moves when they do.
    pub fn update_face(&mut self) -> u64 {
        let (body, eye) = (self.body, self.camera.eye());
        match self.source.as_deref_mut() {
            Some(view) => {
                view.doc.update_face(body, eye);
                view.doc.frame.face.revision
            }
            None => 0,
        }
    }

    /// Which pose the viewport is showing: changes with every evaluation.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Evaluates the pose if anything changed.
    pub fn evaluate(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        self.revision += 1;
        if let Some(view) = self.source.as_deref_mut() {
            view.doc.evaluate();
            return;
        }
        let request = PoseRequest {
            sequence: self.sequence,
            frame: self.frame,
            blend: self.blend,
            controllers: self.controller_bytes(),
        };
        if self.model().sequences.is_empty() {
            return;
        }
        if let Err(error) = self.loaded.evaluator.evaluate(&request, &mut self.pose) {
            self.say(Level::Error, error.to_string());
            return;
        }
        if self.settings.apply_movement
            && let Some(sequence) = self.loaded.model.sequences.get(self.sequence)
        {
            let offset = movement_at(sequence, self.frame) + sequence.linear_movement * self.loops;
            for bone in &mut self.pose.bones {
                bone.translation += glam::Vec3A::from(offset);
            }
            self.pose.place_points(&self.loaded.model);
        }
    }

    /// How the viewport draws the current state.
    pub fn render_options(&self) -> studio_render::RenderOptions {
        let s = &self.settings;
        let mut options = studio_render::RenderOptions {
            mesh: s.mesh,
            lighting: true,
            flat: s.flat,
            wireframe: s.wireframe,
            double_sided: s.double_sided,
            opacity: 1.0,
            body: self.body,
            lod: self.lod,
            skin: if s.textures { self.skin } else { usize::MAX },
            xray: s.xray,
            background: s.background,
            game_shading: s.game_shading,
            light: s.light(),
            ..Default::default()
        };
        let overlay = &mut options.overlay;
        overlay.skeleton = s.skeleton;
        overlay.hitboxes = s.hitboxes;
        overlay.attachments = s.attachments;
        // In first person the ground would run through the eye: a line across the view.
        overlay.grid = s.ground && self.camera.mode != studio_render::CameraMode::FirstPerson;
        overlay.bounding_box = s.bounding_box;
        overlay.sequence_box = s.sequence_box;
        overlay.selected_bone = self.selected_bone;
        overlay.selected_hitbox = self.selected_hitbox;
        overlay.normals = s.normals;
        overlay.player_hull = s.player_hull;
        overlay.weights = match s.weights {
            super::settings::Weights::Off => studio_render::WeightView::Off,
            super::settings::Weights::PerBone => studio_render::WeightView::PerBone,
            super::settings::Weights::UnderCursor => match self.hovered_bone.or(self.selected_bone) {
                Some(bone) => studio_render::WeightView::Bone(bone),
                None => studio_render::WeightView::PerBone,
            },
        };
        options
    }

    /// Marks the pose stale (after a setting that changes it).
    pub fn invalidate(&mut self) {
        self.dirty = true;
    }
}
