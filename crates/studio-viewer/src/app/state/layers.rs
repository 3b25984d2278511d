//! Sequences mixed over the one shown (Half-Life models): up to four layers, each a sequence at
//! a weight, on the main clock or at a cycle of its own, and the blend from the sequence left
//! when another is chosen, as the game's client does (`StudioSetupBones`, 0.2 s). Both are
//! studio-pose's overlays.

use studio_pose::{Overlay, PoseRequest, TRANSITION_SECONDS, transition_weight};

use super::AppState;

/// How many layers a model can have shown over its sequence.
pub const MAX_LAYERS: usize = 4;

/// One layer: a sequence mixed over the one shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layer {
    /// The sequence; `None`: the slot is empty.
    pub sequence: Option<usize>,
    /// How much of it, 0 to 1.
    pub weight: f32,
    /// Whether it follows the shown sequence's cycle; otherwise it stays at `cycle`.
    pub main_clock: bool,
    /// Its own cycle, 0 to 1.
    pub cycle: f32,
}

impl Default for Layer {
    fn default() -> Self {
        Self { sequence: None, weight: 1.0, main_clock: true, cycle: 0.0 }
    }
}

/// The sequence being left and how long ago.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition {
    /// Its pose when it was left (its frame stays there).
    pub from: PoseRequest,
    /// Seconds since.
    pub elapsed: f32,
}

/// `layer` of a Half-Life `model` as an overlay of the pose `main`: at the main sequence's cycle
/// when it follows the main clock, else at its own; `None` for an empty slot.
pub fn layer_overlay(model: &studio_model::Model, main: &PoseRequest, layer: &Layer) -> Option<Overlay> {
    let sequence = layer.sequence?;
    let seq = model.sequences.get(sequence)?;
    let at = if layer.main_clock {
        let frames = model.sequences.get(main.sequence).map_or(1, |s| s.frames());
        if frames > 1 { (main.frame / (frames - 1) as f32).clamp(0.0, 1.0) } else { 0.0 }
    } else {
        layer.cycle.clamp(0.0, 1.0)
    };
    let frame = at * seq.frames().saturating_sub(1) as f32;
    Some(Overlay { request: PoseRequest { sequence, frame, ..*main }, weight: layer.weight.clamp(0.0, 1.0) })
}

impl AppState {
    /// The overlays of the pose: the sequence being left, then each layer in order. At most five,
    /// in a fixed array (nothing allocated a frame).
    pub(super) fn overlays(&self) -> ([Overlay; 1 + MAX_LAYERS], usize) {
        let mut out = [Overlay::default(); 1 + MAX_LAYERS];
        let mut count = 0;
        if let Some(t) = self.transition {
            out[count] = Overlay { request: t.from, weight: transition_weight(t.elapsed) };
            count += 1;
        }
        let main = PoseRequest {
            sequence: self.sequence,
            frame: self.frame,
            blend: self.blend,
            controllers: self.controller_bytes(),
        };
        for layer in &self.layers {
            if let Some(overlay) = layer_overlay(self.model(), &main, layer) {
                out[count] = overlay;
                count += 1;
            }
        }
        (out, count)
    }

    /// Hands the layers to a Source model's document, which evaluates them with its pose.
    pub(super) fn source_layers(&mut self) {
        let layers = self.layers;
        let Some(view) = self.source.as_deref_mut() else { return };
        view.doc.layers = layers
            .iter()
            .filter_map(|l| {
                Some(studio_document::source_doc::DocLayer {
                    sequence: l.sequence?,
                    weight: l.weight.clamp(0.0, 1.0),
                    cycle: (!l.main_clock).then_some(l.cycle.clamp(0.0, 1.0)),
                })
            })
            .collect();
    }

    /// Starts the blend from the sequence shown, about to be left for another.
    pub(super) fn leave_sequence(&mut self) {
        self.transition = (self.settings.blend_transitions && self.playing).then(|| Transition {
            from: PoseRequest {
                sequence: self.sequence,
                frame: self.frame,
                blend: self.blend,
                controllers: self.controller_bytes(),
            },
            elapsed: 0.0,
        });
    }

    /// Moves the blend from the sequence left on by `dt` seconds, ending it after 0.2 s.
    pub(super) fn advance_transition(&mut self, dt: f32) {
        if let Some(t) = &mut self.transition {
            t.elapsed += dt.max(0.0);
            if t.elapsed >= TRANSITION_SECONDS || !t.elapsed.is_finite() {
                self.transition = None;
            }
            self.dirty = true;
        }
    }
}
