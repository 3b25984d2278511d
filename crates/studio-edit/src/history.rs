//! Undo and redo: the edits made, each with its name and the record before and after, and
//! where the file on disk stands among them.

/// What an edit did to a list of records (or to a single one).
#[derive(Clone, Debug, PartialEq)]
pub enum Change<R> {
    /// A record changed from `before` to `after` (the same place).
    Set {
        /// The record as it was.
        before: R,
        /// The record as it is now.
        after: R,
    },
    /// A record was added at its place.
    Insert(R),
    /// A record was removed from its place.
    Remove(R),
}

impl<R: Clone> Change<R> {
    /// The change that undoes this one.
    pub fn inverse(&self) -> Self {
        match self {
            Change::Set { before, after } => Change::Set { before: after.clone(), after: before.clone() },
            Change::Insert(r) => Change::Remove(r.clone()),
            Change::Remove(r) => Change::Insert(r.clone()),
        }
    }
}

/// A model that records can be written into.
pub trait Records {
    /// One record, with its place.
    type Record: Clone + std::fmt::Debug + PartialEq;
    /// Carries out `change`; false (and nothing changed) when its place does not exist.
    fn apply(&mut self, change: &Change<Self::Record>) -> bool;
    /// Whether two records are at the same place (so that a drag's steps merge into one edit).
    fn same_place(a: &Self::Record, b: &Self::Record) -> bool;
    /// Whether `change` alters what the renderer took from the model when it was uploaded (so
    /// the viewport uploads it again); a box or attachment moved does not, its points come with
    /// each pose.
    fn changes_upload(change: &Change<Self::Record>) -> bool;
}

/// One edit as the user sees it in Edit ▸ Undo.
#[derive(Clone, Debug, PartialEq)]
pub struct Edit<R> {
    /// What the menus call it: "Move hit box 3", "Set fps of idle1".
    pub name: String,
    /// What it did.
    pub change: Change<R>,
}

/// The edits of one open model.
#[derive(Clone, Debug)]
pub struct History<R> {
    done: Vec<Edit<R>>,
    undone: Vec<Edit<R>>,
    /// How many edits were done when the file was last saved (`None`: a state that was undone
    /// past and then replaced, which no save holds).
    saved_at: Option<usize>,
    /// Whether the last edit is still open to merging (a drag in progress).
    open: bool,
}

impl<R> Default for History<R> {
    fn default() -> Self {
        Self { done: Vec::new(), undone: Vec::new(), saved_at: Some(0), open: false }
    }
}

/// Most edits kept: older ones drop off the bottom of the undo list.
const MAX_EDITS: usize = 1000;

impl<R: Clone + PartialEq> History<R> {
    /// Records an edit already carried out. With `merge`, a `Set` on the same place as the
    /// open last edit folds into it (the steps of one drag undo as one).
    pub fn push(&mut self, edit: Edit<R>, merge: bool, same_place: impl Fn(&R, &R) -> bool) {
        self.undone.clear();
        if merge
            && self.open
            && self.saved_at != Some(self.done.len())
            && let Some(last) = self.done.last_mut()
            && let (Change::Set { before, .. }, Change::Set { after, .. }) = (&last.change, &edit.change)
            && same_place(before, after)
            && last.name == edit.name
        {
            last.change = Change::Set { before: before.clone(), after: after.clone() };
            return;
        }
        if self.saved_at.is_some_and(|s| s > self.done.len()) {
            self.saved_at = None;
        }
        self.done.push(edit);
        self.open = merge;
        if self.done.len() > MAX_EDITS {
            self.done.remove(0);
            self.saved_at = self.saved_at.and_then(|s| s.checked_sub(1));
        }
    }

    /// Closes the last edit to merging (a drag ended).
    pub fn close(&mut self) {
        self.open = false;
    }

    /// The edit Undo would undo.
    pub fn undo_name(&self) -> Option<&str> {
        self.done.last().map(|e| e.name.as_str())
    }

    /// The edit Redo would redo.
    pub fn redo_name(&self) -> Option<&str> {
        self.undone.last().map(|e| e.name.as_str())
    }

    /// Takes the last edit off the done list: the caller applies its inverse.
    pub fn undo(&mut self) -> Option<Edit<R>> {
        self.open = false;
        let edit = self.done.pop()?;
        self.undone.push(edit.clone());
        Some(edit)
    }

    /// Takes the last edit off (`undo`) or the last undone one back: the edit to apply, its
    /// change already turned round for an undo.
    pub fn step(&mut self, undo: bool) -> Option<Edit<R>> {
        if undo {
            self.undo().map(|Edit { name, change }| Edit { name, change: change.inverse() })
        } else {
            self.redo()
        }
    }

    /// Takes the last undone edit back: the caller applies it again.
    pub fn redo(&mut self) -> Option<Edit<R>> {
        self.open = false;
        let edit = self.undone.pop()?;
        self.done.push(edit.clone());
        Some(edit)
    }

    /// Whether the model differs from the file last saved or opened.
    pub fn is_dirty(&self) -> bool {
        self.saved_at != Some(self.done.len())
    }

    /// Marks the current state as the one on disk.
    pub fn mark_saved(&mut self) {
        self.open = false;
        self.saved_at = Some(self.done.len());
    }

    /// Edits done, oldest first.
    pub fn done(&self) -> &[Edit<R>] {
        &self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(place: u8, before: i32, after: i32) -> Edit<(u8, i32)> {
        Edit {
            name: format!("set {place}"),
            change: Change::Set { before: (place, before), after: (place, after) },
        }
    }

    fn same(a: &(u8, i32), b: &(u8, i32)) -> bool {
        a.0 == b.0
    }

    #[test]
    fn undo_redo_and_the_saved_state() {
        let mut h = History::default();
        assert!(!h.is_dirty());
        h.push(set(1, 0, 5), false, same);
        assert!(h.is_dirty());
        assert_eq!(h.undo_name(), Some("set 1"));
        let undone = h.undo().unwrap();
        assert_eq!(undone.change.inverse(), Change::Set { before: (1, 5), after: (1, 0) });
        assert!(!h.is_dirty());
        assert_eq!(h.redo_name(), Some("set 1"));
        h.redo().unwrap();
        h.mark_saved();
        assert!(!h.is_dirty());
        h.undo();
        assert!(h.is_dirty());
        // A new edit after an undo drops the redo list; the saved state can no longer be reached.
        h.push(set(2, 0, 1), false, same);
        assert_eq!(h.redo_name(), None);
        h.undo();
        assert!(h.is_dirty());
    }

    #[test]
    fn a_drag_merges_into_one_edit_until_closed() {
        let mut h = History::default();
        h.push(set(1, 0, 1), true, same);
        h.push(set(1, 1, 2), true, same);
        h.push(set(1, 2, 3), true, same);
        assert_eq!(h.done().len(), 1);
        assert_eq!(h.done()[0].change, Change::Set { before: (1, 0), after: (1, 3) });
        h.close();
        h.push(set(1, 3, 4), true, same);
        assert_eq!(h.done().len(), 2);
        // Another place does not merge.
        h.push(set(2, 0, 1), true, same);
        assert_eq!(h.done().len(), 3);
    }
}
