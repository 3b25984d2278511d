//! The way to a sequence through the model's transition graph, as the games' monsters and NPCs
//! take it (Half-Life's `CBaseAnimating::FindTransition`, Source's `FindTransitionSequence`):
//! choosing a sequence while playing first plays each sequence the graph puts between the one
//! shown and the one chosen, once, forwards or backwards as the graph says, then the one
//! chosen. A model without a graph (most of them) goes straight there. Each step blends in as
//! any change of sequence does.

use super::AppState;

/// The sequences still to play on the way to the one chosen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Route {
    /// The sequence chosen, played last.
    pub goal: usize,
    /// The steps after the one playing, in order: a sequence and whether it plays backwards.
    pub steps: std::collections::VecDeque<(usize, bool)>,
}

impl AppState {
    /// The path from the sequence shown to `goal` when it is to be followed (the setting on,
    /// playing, another sequence): its first step is returned and the rest kept in
    /// `self.route`. Otherwise `goal` itself, forwards, and no route.
    fn plan_route(&mut self, goal: usize) -> (usize, bool) {
        self.route = None;
        if !(self.settings.transition_graph && self.playing) {
            return (goal, false);
        }
        let mut path: std::collections::VecDeque<(usize, bool)> = match self.source.as_deref() {
            Some(view) => {
                if view.doc.sequence == goal || goal >= view.doc.num_sequences() {
                    return (goal, false);
                }
                view.doc.transition_path(goal).into()
            }
            None => {
                let model = self.model();
                if self.sequence == goal || goal >= model.sequences.len() {
                    return (goal, false);
                }
                studio_pose::playback::transition_path(model, self.sequence, goal)
                    .into_iter()
                    .map(|(s, d)| (s, d == studio_pose::playback::Direction::Backward))
                    .collect()
            }
        };
        let Some(first) = path.pop_front() else { return (goal, false) };
        if !path.is_empty() {
            self.route = Some(Route { goal, steps: path });
        }
        first
    }

    /// Chooses `goal`: through the transition graph when that is followed, else straight.
    pub(super) fn choose_sequence(&mut self, goal: usize) {
        let (sequence, backwards) = self.plan_route(goal);
        self.enter_sequence(sequence, backwards);
    }

    /// After a step of the route ended: the next one (the last is the sequence chosen).
    pub(super) fn next_step(&mut self) {
        let Some(route) = self.route.as_mut() else { return };
        let Some((sequence, backwards)) = route.steps.pop_front() else {
            self.route = None;
            return;
        };
        if route.steps.is_empty() {
            self.route = None;
        }
        self.enter_sequence(sequence, backwards);
    }

    /// Whether the step playing has reached its end (its last frame or cycle forwards, its
    /// first backwards), or never will (one frame, or a rate of 0), so that the route goes on.
    pub(super) fn step_ended(&mut self) -> bool {
        if self.route.is_none() {
            return false;
        }
        match self.source.as_deref_mut() {
            Some(view) => {
                let doc = &mut view.doc;
                let rate = doc.cycle_rate();
                !(rate.is_finite() && rate > 0.0)
                    || if doc.reverse { doc.cycle <= 0.0 } else { doc.cycle >= 1.0 }
            }
            None => {
                let Some(seq) = self.model().sequences.get(self.sequence) else { return true };
                let last = seq.frames() as f32 - 1.0;
                let moves = last > 0.0 && seq.fps.is_finite() && seq.fps > 0.0;
                !moves || if self.reverse { self.frame <= 0.0 } else { self.frame >= last }
            }
        }
    }

    /// Shows `sequence` from its start, or from its end when it plays `backwards`, the one
    /// left blending out as the setting says.
    fn enter_sequence(&mut self, sequence: usize, backwards: bool) {
        let blend = self.settings.blend_transitions && self.playing;
        if let Some(view) = self.source.as_deref_mut() {
            let doc = &mut view.doc;
            if sequence >= doc.num_sequences() {
                return;
            }
            doc.select_sequence(sequence, blend);
            doc.reverse = backwards;
            if backwards {
                doc.cycle = 1.0;
            }
            self.looping = doc.looping();
        } else {
            let Some(seq) = self.model().sequences.get(sequence) else { return };
            let (looping, last) = (seq.is_looping(), (seq.frames() as f32 - 1.0).max(0.0));
            if sequence != self.sequence {
                self.leave_sequence();
            }
            self.sequence = sequence;
            self.looping = looping;
            self.reverse = backwards;
            self.frame = if backwards { last } else { 0.0 };
            self.loops = 0.0;
        }
        self.event_log.clear();
        self.dirty = true;
    }
}
