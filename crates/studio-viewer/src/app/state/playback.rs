//! The clock and the pose: the controller bytes, moving the clock on while playing (events
//! logged), and evaluating the pose when something changed.

use studio_pose::playback::{events_between, movement_at};
use studio_pose::{ControllerBytes, PoseRequest};

use super::{AppState, Level, MAX_LOG};

impl AppState {
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
        // A step of a route that cannot play (one frame, no rate) gives way at once.
        if self.step_ended() {
            self.next_step();
            self.evaluate();
        }
        if let Some(view) = self.source.as_deref_mut() {
            let speed = self.settings.speed.clamp(0.1, 4.0);
            let doc = &mut view.doc;
            let from = doc.cycle;
            // A step of a route plays once, then the next.
            let routing = self.route.is_some();
            doc.advance(dt, speed, &mut self.event_log, self.looping && !routing);
            if !self.looping && !routing && doc.cycle >= 1.0 && from < 1.0 {
                self.playing = false;
            }
            let excess = self.event_log.len().saturating_sub(MAX_LOG);
            self.event_log.drain(..excess);
            // A one-frame sequence (or a rate of 0) leaves the pose as it was: nothing to draw,
            // unless autoplay sequences play on top.
            if doc.cycle != from || doc.autoplay_playing() {
                self.revision += 1;
                self.pose_second();
            }
            self.play_event_sounds(from);
            if self.step_ended() {
                self.next_step();
                self.evaluate();
            }
            return;
        }
        self.advance_transition(dt);
        let model = self.model().clone();
        let Some(sequence) = model.sequences.get(self.sequence) else { return };
        let last = sequence.frames() as f32 - 1.0;
        if last <= 0.0 {
            return;
        }
        let from = self.frame;
        // A file's fps may be anything: NaN, infinite or huge steps go nowhere or wrap at once.
        let fps = if sequence.fps.is_finite() { sequence.fps.max(0.0) } else { 0.0 };
        let step = dt * fps * self.settings.speed.clamp(0.1, 4.0);
        let mut to = if self.reverse { from - step } else { from + step };
        if !to.is_finite() {
            to = from;
        }
        if self.route.is_some() {
            // A step of a route plays once (forwards or backwards), then the next.
            to = to.clamp(0.0, last);
        } else if self.looping {
            if to >= last {
                self.loops += (to / last).floor();
                to = to.rem_euclid(last);
            }
        } else if to >= last {
            to = last;
            self.playing = false;
        }
        for event in events_between(sequence, from, to).filter(|_| !self.reverse) {
            self.event_log.push(format!("frame {}: event {} {}", event.frame, event.event, event.options));
            if self.event_log.len() > MAX_LOG {
                self.event_log.remove(0);
            }
        }
        self.frame = to;
        self.dirty = true;
        self.evaluate();
        self.update_flashes(Some(from));
        self.play_event_sounds(from);
        if self.step_ended() {
            self.next_step();
            self.evaluate();
        }
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

    /// Which pose the viewport is showing: changes with every evaluation.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// How far the shown Half-Life sequence's linear movement has taken the model: the
    /// movement at the frame plus the whole loops played (`None` without a sequence).
    pub(super) fn travelled(&self) -> Option<glam::Vec3> {
        let sequence = self.loaded.model.sequences.get(self.sequence)?;
        Some(movement_at(sequence, self.frame) + sequence.linear_movement * self.loops)
    }

    /// Evaluates the pose if anything changed, then what is drawn with it: the second model,
    /// and (stopped) the flashes on the frame shown.
    pub fn evaluate(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        self.revision += 1;
        self.evaluate_pose();
        self.pose_second();
        if !self.playing {
            self.update_flashes(None);
        }
    }

    /// Evaluates the open model's pose.
    fn evaluate_pose(&mut self) {
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
        let (overlays, count) = self.overlays();
        let result = if count == 0 {
            self.loaded.evaluator.evaluate(&request, &mut self.pose)
        } else {
            self.loaded.evaluator.evaluate_overlaid(&request, &overlays[..count], &mut self.pose)
        };
        if let Err(error) = result {
            self.say(Level::Error, error.to_string());
            return;
        }
        if self.bind_pose && self.rest_bones.len() == self.pose.bones.len() {
            self.pose.bones.copy_from_slice(&self.rest_bones);
            self.pose.place_points(&self.loaded.model);
            return;
        }
        if self.settings.apply_movement
            && let Some(offset) = self.travelled()
        {
            for bone in &mut self.pose.bones {
                bone.translation += glam::Vec3A::from(offset);
            }
            self.pose.place_points(&self.loaded.model);
        }
    }

    /// Marks the pose stale (after a setting that changes it).
    pub fn invalidate(&mut self) {
        self.dirty = true;
    }
}
