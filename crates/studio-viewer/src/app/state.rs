//! The viewer's state, apart from the widgets that show it: the loaded model, its pose and
//! playback clock, the user's choices, messages. Widgets read it and send [`Command`]s.

use std::path::PathBuf;
use std::sync::Arc;

use studio_model::Model;
use studio_pose::Pose;
use studio_render::Camera;

use super::command::Command;
use super::settings::Settings;
use studio_document::source_doc::SourceDoc;
use studio_edit::History;

mod document;
mod jobs;
pub mod layers;
mod playback;
pub mod route;
mod scene;
mod second;
mod sounds;
mod source_commands;

pub use document::{Loaded, SourceView};
pub use second::Extras;
pub use sounds::Sounds;

/// Most lines kept in the event log and the message list.
const MAX_LOG: usize = 200;

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
    pub command_line: studio_document::installs::Context,
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
    /// The bind pose is shown instead of the sequence's pose.
    pub bind_pose: bool,
    /// Sequences mixed over the one shown (Half-Life models).
    pub layers: [layers::Layer; layers::MAX_LAYERS],
    /// The blend from the sequence left, while it lasts.
    pub transition: Option<layers::Transition>,
    /// The sequences still to play on the way to the one chosen (the transition graph).
    pub route: Option<route::Route>,
    /// The Half-Life sequence shown plays backwards (a step of a route).
    pub reverse: bool,
    /// The version 10 model's bind pose, made when it is first shown.
    pub(crate) rest_bones: Vec<glam::Affine3A>,
    /// A player's colours on the model's `DM_Base` and `Remap` textures (none: as stored).
    pub player_colours: Option<studio_render::goldsrc::PlayerColours>,
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
    /// The capture running (File ▸ Capture animation…).
    pub capturing: Option<crate::app::capture_job::CaptureJob>,
    /// The capture window's choices; `Some` while the window is open.
    pub capture_window: Option<crate::app::capture_job::CaptureSettings>,
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
    /// A second model drawn with the open one, and the muzzle flashes of the frame shown.
    pub extras: Extras,
    /// The sounds of the model's events, and the output they play on.
    pub audio: Sounds,
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
            command_line: studio_document::installs::context(),
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
            player_colours: None,
            bind_pose: false,
            layers: Default::default(),
            transition: None,
            route: None,
            reverse: false,
            rest_bones: Vec::new(),
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
            capturing: None,
            capture_window: None,
            backed_up: Vec::new(),
            browser: Default::default(),
            renderer: None,
            load_id: 0,
            scene_generation: 0,
            discarding: false,
            panels_hidden: false,
            watch: Default::default(),
            extras: Extras::default(),
            audio: Sounds::default(),
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
        studio_document::installs::configure(context);
    }

    /// The bundled demo model, ready to show.
    pub fn demo(settings: Settings) -> Self {
        let model =
            Arc::new(studio_document::demo::demo_model().unwrap_or_else(|_| Model::new(Default::default())));
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

    fn reset_common(&mut self) {
        self.load_id += 1;
        self.bind_pose = false;
        self.layers = Default::default();
        self.transition = None;
        self.route = None;
        self.reverse = false;
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
        self.remove_second();
        self.reset_flash_sprites();
        self.reset_sounds();
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
        studio_document::installs::shared(|| self.open_now(path));
        if self.load_id != load_id {
            self.watch_files();
        }
    }

    /// [`Self::open`], inside [`studio_document::installs::shared`].
    fn open_now(&mut self, path: PathBuf) {
        match studio_document::model_files::source_load(&path) {
            Some(Ok(loaded)) => return self.open_source(path, loaded),
            Some(Err(error)) => return self.say(Level::Error, error.to_string()),
            None => {}
        }
        match studio_document::model_files::goldsrc_load(&path) {
            Ok(loaded) => {
                self.loaded = Loaded::new(Arc::new(loaded.model), Some(path.clone()), loaded.companions);
                self.settings.remember(path.clone());
                self.say(Level::Info, format!("opened {}", path.display()));
                self.reset_for_model();
            }
            Err(error) => self.say(Level::Error, error.to_string()),
        }
    }

    /// Carries out a command.
    pub fn apply(&mut self, command: Command) {
        if let Command::NextModel(step) = command {
            // The model next to this one, opened as any other (asking first about edits).
            match self.path().and_then(|p| studio_document::model_files::sibling(p, step)) {
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
            Command::SelectSequence(sequence) => self.choose_sequence(sequence),
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
            Command::Capture(path) => self.start_capture(path),
            Command::SetLayer(slot, layer) => {
                if let Some(s) = self.layers.get_mut(slot) {
                    *s = layer;
                    self.source_layers();
                    self.dirty = true;
                }
            }
            Command::SetBindPose(on) => {
                self.bind_pose = on;
                self.rest_bones = studio_document::export::goldsrc::rest_pose(&self.loaded.model).1;
                if let Some(view) = self.source.as_deref_mut() {
                    view.doc.bind_pose = on;
                }
                self.dirty = true;
            }
            Command::Attach(path) => self.load_second(path, true),
            Command::Compare(path) => self.load_second(path, false),
            Command::RemoveSecond => self.remove_second(),
            Command::SetEventSounds(on) => self.settings.event_sounds = on,
            Command::SetMuzzleFlashes(on) => {
                self.settings.muzzle_flashes = on;
                self.dirty = true;
            }
            Command::CancelCapture => {
                if let Some(job) = &self.capturing {
                    job.cancel();
                }
            }
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
            Command::SetGameFolders(folders) => {
                self.settings.game_folders = folders;
                self.reset_flash_sprites();
                self.reset_sounds();
                self.dirty = true;
            }
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
}
