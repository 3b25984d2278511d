//! Commands about an open Source model's pose and choices: sequence, cycle, pose parameters,
//! controllers, flexes, eyes, hit box set, LOD, autoplay, selections and game folders.

use super::{AppState, Level};
use crate::app::command::Command;

impl AppState {
    /// Carries out a command on the open Source model; false for commands that are not
    /// about its pose (opening files, playing, the camera).
    pub(super) fn apply_source(&mut self, command: &Command) -> bool {
        if let Command::SelectSequence(goal) = *command
            && self.source.is_some()
        {
            self.choose_sequence(goal);
            self.evaluate();
            return true;
        }
        let Some(view) = self.source.as_deref_mut() else { return false };
        let doc = &mut view.doc;
        match *command {
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
}
