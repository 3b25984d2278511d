//! Edits, undo and redo, saving, and the question asked before unsaved edits would be lost:
//! the part of [`AppState`] that changes the model rather than how it is shown.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use studio_pose::PoseEvaluator;

use super::command::{Command, DocEdit};
use super::state::{AppState, Level};
use studio_edit::{Change, GoldRecord, Records, SourceRecord, save};

impl AppState {
    /// Whether the open model has edits not saved.
    pub fn is_dirty(&self) -> bool {
        match &self.source {
            Some(view) => view.history.is_dirty(),
            None => self.loaded.history.is_dirty(),
        }
    }

    /// The names of the edits Undo and Redo would act on.
    pub fn undo_redo_names(&self) -> (Option<&str>, Option<&str>) {
        match &self.source {
            Some(view) => (view.history.undo_name(), view.history.redo_name()),
            None => (self.loaded.history.undo_name(), self.loaded.history.redo_name()),
        }
    }

    /// Whether `command` would throw away unsaved edits.
    pub(super) fn discards_edits(&self, command: &Command) -> bool {
        matches!(command, Command::Open(_) | Command::OpenDemo | Command::Reload | Command::Quit)
            && self.is_dirty()
    }

    /// Carries out the commands about editing; false for the others.
    pub(super) fn apply_editing(&mut self, command: &Command) -> bool {
        match command {
            Command::Edit { edit, merge } => self.edit(edit, *merge),
            Command::EndEdit => match self.source.as_deref_mut() {
                Some(view) => view.history.close(),
                None => self.loaded.history.close(),
            },
            Command::Undo => self.undo_redo(true),
            Command::Redo => self.undo_redo(false),
            Command::Save => match self.path().map(Path::to_path_buf) {
                Some(path) => {
                    self.save_to(&path);
                }
                None => self.say(Level::Error, "the demo model has no file yet: use File ▸ Save As…"),
            },
            Command::SaveAs(path) => {
                self.save_to(path);
            }
            Command::Quit => self.quit = true,
            Command::DiscardAndContinue => {
                if let Some(pending) = self.pending.take() {
                    self.discarding = true;
                    self.apply(pending);
                    self.discarding = false;
                }
            }
            Command::SaveAndContinue => {
                let saved = match self.path().map(Path::to_path_buf) {
                    Some(path) => self.save_to(&path),
                    None => false,
                };
                if saved {
                    if let Some(pending) = self.pending.take() {
                        self.apply(pending);
                    }
                } else {
                    self.pending = None;
                    self.say(Level::Error, "not saved, so nothing else was done");
                }
            }
            Command::CancelPending => self.pending = None,
            Command::SelectAttachment(a) => {
                let count = match &self.source {
                    Some(view) => view.doc.model.attachments.len(),
                    None => self.model().attachments.len(),
                };
                self.selected_attachment = a.filter(|&a| a < count);
            }
            _ => return false,
        }
        true
    }

    /// Carries out an edit and records it.
    fn edit(&mut self, edit: &DocEdit, merge: bool) {
        if !self.change(edit) {
            return self
                .say(Level::Error, "that edit does not fit the model (a bone or record that is not there)");
        }
        match (edit, self.source.as_deref_mut()) {
            (DocEdit::Gold(edit), None) => {
                self.loaded.history.push(edit.clone(), merge, <studio_model::Model as Records>::same_place)
            }
            (DocEdit::Source(edit), Some(view)) => {
                view.history.push(edit.clone(), merge, <studio_source::SourceModel as Records>::same_place)
            }
            _ => {}
        }
    }

    fn undo_redo(&mut self, undo: bool) {
        let edit = match self.source.as_deref_mut() {
            Some(view) => view.history.step(undo).map(DocEdit::Source),
            None => self.loaded.history.step(undo).map(DocEdit::Gold),
        };
        let Some(edit) = edit else { return };
        self.change(&edit);
        let name = match &edit {
            DocEdit::Gold(e) => &e.name,
            DocEdit::Source(e) => &e.name,
        };
        self.say(Level::Info, format!("{} {name}", if undo { "undid" } else { "redid" }));
    }

    /// Carries out an edit's change on the open model (false when it is of the other format or
    /// does not fit), uploading the model again when the renderer's copy changed.
    fn change(&mut self, edit: &DocEdit) -> bool {
        let (done, upload) = match edit {
            DocEdit::Gold(e) => (self.change_gold(&e.change), studio_model::Model::changes_upload(&e.change)),
            DocEdit::Source(e) => {
                (self.change_source(&e.change), studio_source::SourceModel::changes_upload(&e.change))
            }
        };
        if done && upload {
            self.scene_generation += 1;
        }
        done
    }

    /// Applies a change to the version 10 model: a new model and evaluator (the decoded tables
    /// are built again as sequences play), the selections kept in range.
    fn change_gold(&mut self, change: &Change<GoldRecord>) -> bool {
        if self.source.is_some() {
            return false;
        }
        let mut model = (*self.loaded.model).clone();
        if !model.apply(change) {
            return false;
        }
        let model = Arc::new(model);
        if self.pose.hitboxes.len() != model.hitboxes.len()
            || self.pose.attachments.len() != model.attachments.len()
        {
            self.pose = studio_pose::Pose::new(&model);
        }
        self.loaded.evaluator = PoseEvaluator::new(model.clone());
        if self.bind_pose {
            self.rest_bones = studio_document::export::goldsrc::rest_pose(&model).1;
        }
        self.loaded.model = model;
        self.selected_hitbox = self.selected_hitbox.filter(|&h| h < self.loaded.model.hitboxes.len());
        self.selected_attachment =
            self.selected_attachment.filter(|&a| a < self.loaded.model.attachments.len());
        self.invalidate();
        self.evaluate();
        true
    }

    /// Applies a change to the Source model.
    fn change_source(&mut self, change: &Change<SourceRecord>) -> bool {
        let Some(view) = self.source.as_deref_mut() else { return false };
        let mut model = (*view.doc.model).clone();
        if !model.apply(change) {
            return false;
        }
        view.doc.replace_model(Arc::new(model));
        let hitboxes = view.doc.model.hitbox_sets.get(view.doc.hitbox_set).map_or(0, |s| s.hitboxes.len());
        self.selected_hitbox = self.selected_hitbox.filter(|&h| h < hitboxes);
        self.selected_attachment = self.selected_attachment.filter(|&a| a < view.doc.model.attachments.len());
        self.invalidate();
        self.evaluate();
        true
    }

    /// Saves the open model to `path`; on success it becomes the open file. Says how it went.
    /// The first successful save over a file keeps a backup of it: a save that failed before
    /// writing leaves the next one to make it.
    pub(super) fn save_to(&mut self, path: &Path) -> bool {
        let backup = !self.backed_up.iter().any(|p| p == path);
        let result = match self.source.as_deref_mut() {
            Some(view) => {
                let doc = &mut view.doc;
                let saved =
                    save::save_source(&view.saved, &doc.model, &doc.path, &doc.companions, path, backup);
                saved.map(|saved| {
                    // The model as the file now holds it: the edited one, with the `.ani`
                    // renamed when saved under a new name.
                    if let Some(model) = saved.model {
                        doc.replace_model(Arc::new(model));
                    }
                    let mut on_disk = (*doc.model).clone();
                    on_disk.data.mdl = Arc::from(saved.bytes);
                    view.saved = Arc::new(on_disk);
                    doc.path = path.to_path_buf();
                    doc.companions = saved.companions;
                    view.history.mark_saved();
                    1 + doc.companions.len()
                })
            }
            None => {
                let from = self.loaded.path.clone();
                let saved = save::save_goldsrc(
                    &self.loaded.model,
                    path,
                    &self.loaded.companions,
                    from.as_deref(),
                    backup,
                );
                saved.map(|(written, renamed)| {
                    if let Some(renamed) = renamed {
                        let model = Arc::new(renamed);
                        self.loaded.evaluator = PoseEvaluator::new(model.clone());
                        self.loaded.model = model;
                    }
                    self.loaded.path = Some(path.to_path_buf());
                    self.loaded.companions = written[1..].to_vec();
                    self.loaded.history.mark_saved();
                    written.len()
                })
            }
        };
        match result {
            Ok(files) => {
                if backup {
                    self.backed_up.push(path.to_path_buf());
                }
                self.settings.remember(path.to_path_buf());
                self.say(Level::Info, format!("saved {} ({files} file(s))", path.display()));
                // What was written is what the watch compares with: the save reloads nothing.
                self.watch_files();
                true
            }
            Err(save::SaveError::Source(studio_source::EditWriteError::NeedsRebuild(what))) => {
                self.qc_offer = self.source.as_deref().map(|v| studio_decompile::qc::source(&v.doc.model));
                self.say(
                    Level::Error,
                    format!("not saved: {what} changed, which needs a QC rebuild; the QC lines are offered to copy"),
                );
                false
            }
            Err(error) => {
                self.say(Level::Error, format!("not saved: {error}"));
                false
            }
        }
    }
}

/// The default file name for Save As: the open file's, or `model.mdl`.
pub fn save_as_name(state: &AppState) -> PathBuf {
    state.path().and_then(Path::file_name).map_or_else(|| PathBuf::from("model.mdl"), PathBuf::from)
}
