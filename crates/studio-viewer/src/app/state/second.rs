//! What is drawn with the open model: a second model attached to it or beside it (File ▸
//! Attach model…, Compare with model…), and Half-Life's muzzle flashes on the frames that fire
//! them (studio-document's `second_model` and `muzzle_flash`).

use std::path::PathBuf;

use studio_document::muzzle_flash::{self, FlashSprites, MuzzleFlash};
use studio_document::second_model::SecondModel;

use super::{AppState, Level};

/// The second model and the flashes of the frame shown.
#[derive(Default)]
pub struct Extras {
    /// The second model, attached or beside.
    pub second: Option<SecondModel>,
    /// Counts second models loaded, so the viewport uploads a new one.
    pub second_id: u64,
    /// The flashes on the frame shown.
    pub flashes: Vec<MuzzleFlash>,
    /// The open model's flash sprites, read when first drawn.
    pub sprites: FlashSprites,
    /// Sprites already said to be missing.
    said: [bool; 3],
}

impl AppState {
    /// Loads `path` as a second model: attached to the open one by bone merge, or beside it.
    pub(super) fn load_second(&mut self, path: PathBuf, attach: bool) {
        let games = self.settings.game_folders.clone();
        let loaded = if attach {
            let names: Vec<String> = self.bone_names().iter().map(|(n, _)| (*n).to_owned()).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            SecondModel::attach(&path, &names, &games)
        } else {
            SecondModel::compare(&path, self.bounds(), &games)
        };
        match loaded {
            Ok(second) => {
                let how = if attach {
                    match second.matched() {
                        0 => "attached: none of its bones is named as one of the model's, so it stays where it is"
                            .to_owned(),
                        n => format!("attached: {n} of its bones follow the model's"),
                    }
                } else {
                    "beside the model, playing its sequence of the same name".to_owned()
                };
                self.say(Level::Info, format!("{}: {how}", path.display()));
                for note in &second.notes {
                    self.say(Level::Warning, format!("{}: {note}", path.display()));
                }
                self.extras.second = Some(second);
                self.extras.second_id += 1;
                self.invalidate();
            }
            Err(e) => self.say(Level::Error, e),
        }
    }

    /// Removes the second model.
    pub(super) fn remove_second(&mut self) {
        if self.extras.second.take().is_some() {
            self.extras.second_id += 1;
            self.invalidate();
        }
    }

    /// Poses the second model on the open one's pose, at the open one's clock and sequence.
    pub(super) fn pose_second(&mut self) {
        let Some(second) = self.extras.second.as_mut() else { return };
        let (seconds, name, bones) = match self.source.as_deref() {
            Some(view) => {
                let doc = &view.doc;
                let seconds = doc.clock;
                let name = doc.evaluator.rig().label(doc.sequence).unwrap_or_default();
                (seconds, name, doc.frame.bones.as_slice())
            }
            None => {
                let sequence = self.loaded.model.sequences.get(self.sequence);
                let fps = sequence.map_or(0.0, |s| s.fps);
                let seconds = if fps.is_finite() && fps > 0.0 { self.frame / fps } else { 0.0 };
                (seconds, sequence.map_or("", |s| s.label.as_str()), self.pose.bones.as_slice())
            }
        };
        if matches!(second.placement, studio_document::second_model::Placement::Beside(_)) {
            second.select_sequence(name);
        }
        if let Err(e) = second.pose(seconds, bones) {
            let path = second.path.display().to_string();
            self.say(Level::Error, format!("{path}: {e}"));
        }
    }

    /// The flashes of the frame shown: those fired moving from frame `from` (while playing), or
    /// those on the frame itself (stopped). Half-Life models only; none when turned off.
    pub(super) fn update_flashes(&mut self, from: Option<f32>) {
        self.extras.flashes.clear();
        // Played backwards (a step of a route), no event fires, as in the game.
        if !self.settings.muzzle_flashes || self.source.is_some() || (self.reverse && from.is_some()) {
            return;
        }
        let Some(sequence) = self.loaded.model.sequences.get(self.sequence) else { return };
        let loops = self.loops.max(0.0) as u64;
        self.extras.flashes = muzzle_flash::flashes_fired(sequence, self.sequence, from, self.frame, loops);
    }

    /// The open model's flash sprite `index`, read on first use; a missing one is said once.
    pub fn flash_sprite(&mut self, index: usize) -> Option<std::sync::Arc<studio_sprite::Sprite>> {
        match self.extras.sprites.sprite(index) {
            Ok(sprite) => Some(sprite),
            Err(e) => {
                if let Some(said) = self.extras.said.get_mut(index)
                    && !std::mem::replace(said, true)
                {
                    self.say(Level::Warning, format!("muzzle flash not drawn: {e}"));
                }
                None
            }
        }
    }

    /// Forgets the flash sprites (another model, other game folders).
    pub(super) fn reset_flash_sprites(&mut self) {
        self.extras.sprites = FlashSprites::new(self.loaded.path.as_deref(), &self.settings.game_folders);
        self.extras.said = [false; 3];
        self.extras.flashes.clear();
    }
}
