//! A Source model open for viewing: the model with its include models, its evaluator, and what
//! the user chose (sequence, cycle, pose parameters in their own units, controllers, hit box
//! set, LOD, body, skin). The viewer and `studioview render` pose it the same way.

use std::path::PathBuf;
use std::sync::Arc;

use glam::Vec3;
use studio_render::scene::submodel_for_body;
use studio_render::source::SourceFrame;
use studio_render::source_face::SourceFace;
use studio_source::{STUDIO_AL_POSE, STUDIO_LOOPING, SourceModel};
use studio_source_pose::sequence_transitioner::SequenceTransitioner;
use studio_source_pose::{SourceEvaluator, SourceRequest, params, playback};

/// A sequence layered over the one shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DocLayer {
    /// The combined sequence.
    pub sequence: usize,
    /// Its weight, 0 to 1.
    pub weight: f32,
    /// Its cycle; `None`: the shown sequence's.
    pub cycle: Option<f32>,
}

/// An open Source model and the pose it shows.
pub struct SourceDoc {
    /// The model, with its include models and companions.
    pub model: Arc<SourceModel>,
    /// Where it came from.
    pub path: PathBuf,
    /// Companion files read with it.
    pub companions: Vec<PathBuf>,
    /// The evaluator of the combined model.
    pub evaluator: SourceEvaluator<'static>,
    /// The combined sequence shown.
    pub sequence: usize,
    /// Its cycle, 0 to 1.
    pub cycle: f32,
    /// Each combined pose parameter in its own units.
    pub params: Vec<f32>,
    /// Each bone controller's value in its own units.
    pub controllers: Vec<f32>,
    /// The hit box set shown.
    pub hitbox_set: usize,
    /// The frame: bones, skinning matrices, hit boxes, attachments.
    pub frame: SourceFrame,
    /// Whether the model's `STUDIO_AUTOPLAY` sequences play on top (as in the game).
    pub autoplay: bool,
    /// The real-time clock in seconds (moved on by playback): the autoplay sequences and every
    /// `STUDIO_REALTIME` sequence play on it.
    pub clock: f32,
    /// Each flex controller's value in its own range (`docs/flex.md`).
    pub flex: Vec<f32>,
    /// The flex controllers grouped as the Flex tab shows them, made once per model.
    pub flex_groups: Vec<crate::flex_groups::FlexGroup>,
    /// Where the eyes look, in model space; `None`: at the camera.
    pub eye_target: Option<Vec3>,
    /// Whole loops of the shown sequence played since it was chosen (for its movement).
    pub loops: f32,
    /// Show the bind pose (each bone where the mesh was bound to it) instead of the sequence.
    pub bind_pose: bool,
    /// Sequences layered over the one shown, as the engine layers an entity's overlays.
    pub layers: Vec<DocLayer>,
    /// The events the last [`Self::advance`] passed.
    pub fired: Vec<studio_source::Event>,
    /// The sequences left and still fading out (`CSequenceTransitioner`).
    pub transitions: SequenceTransitioner,
    /// The sequence plays backwards (a backward step of a transition path).
    pub reverse: bool,
    /// The layers' requests, made again at each evaluation (kept to reuse their room).
    layer_requests: Vec<studio_source_pose::SourceLayer>,
    /// Normalised pose parameters, reused.
    normalised: Vec<f32>,
}

impl SourceDoc {
    /// Opens `model` (read from `path` with `companions`), showing its first sequence at cycle 0
    /// with every pose parameter at its default.
    pub fn new(model: SourceModel, path: PathBuf, companions: Vec<PathBuf>) -> Self {
        let model = Arc::new(model);
        let evaluator = SourceEvaluator::shared(model.clone());
        let rig = evaluator.rig();
        let params = rig.pose_parameters.iter().map(|p| params::real(p, params::default_value(p))).collect();
        let normalised = vec![0.0; rig.pose_parameters.len()];
        let controllers = model.bone_controllers.iter().map(neutral_value).collect();
        let flex = model.flexes.controllers.iter().map(flex_neutral).collect();
        let frame = SourceFrame { face: SourceFace::new(&model), ..SourceFrame::default() };
        let flex_groups = crate::flex_groups::flex_groups(&model.flexes);
        let mut doc = Self {
            model,
            path,
            companions,
            evaluator,
            sequence: 0,
            cycle: 0.0,
            params,
            controllers,
            hitbox_set: 0,
            frame,
            autoplay: false,
            clock: 0.0,
            flex,
            flex_groups,
            eye_target: None,
            loops: 0.0,
            bind_pose: false,
            layers: Vec::new(),
            fired: Vec::new(),
            transitions: SequenceTransitioner::default(),
            reverse: false,
            layer_requests: Vec::new(),
            normalised,
        };
        doc.evaluate();
        doc
    }

    /// Shows `model`, an edited copy of the open one (the same bones, sequences and pose
    /// parameters), keeping what the user chose.
    pub fn replace_model(&mut self, model: Arc<SourceModel>) {
        self.evaluator = SourceEvaluator::shared(model.clone());
        self.frame.face = SourceFace::new(&model);
        if self.flex.len() != model.flexes.controllers.len() {
            self.flex = model.flexes.controllers.iter().map(flex_neutral).collect();
        }
        self.flex_groups = crate::flex_groups::flex_groups(&model.flexes);
        self.model = model;
        self.hitbox_set = self.hitbox_set.min(self.model.hitbox_sets.len().saturating_sub(1));
        self.transitions.clear();
        self.evaluate();
    }

    /// The way from the sequence shown to combined sequence `goal` through the model's
    /// transition graph (`FindTransitionSequence`), ending with `goal`: each sequence, and
    /// whether it plays backwards.
    pub fn transition_path(&self, goal: usize) -> Vec<(usize, bool)> {
        use studio_source_pose::transition::{Direction, transition_path};
        transition_path(self.evaluator.rig(), self.sequence, goal)
            .into_iter()
            .map(|(s, d)| (s, d == Direction::Backward))
            .collect()
    }

    /// Shows combined sequence `sequence` from cycle 0. With `blend`, the sequence left fades
    /// out as the Source client blends it (`MaintainSequenceTransitions`: over the shorter of
    /// its fade-out time and the new one's fade-in time, unless the new one has `STUDIO_SNAP`);
    /// without, every sequence still fading is dropped.
    pub fn select_sequence(&mut self, sequence: usize, blend: bool) {
        if sequence >= self.num_sequences() {
            return;
        }
        self.transitions.change(self.evaluator.rig(), sequence, blend);
        self.sequence = sequence;
        self.cycle = 0.0;
        self.loops = 0.0;
        self.reverse = false;
    }

    /// The main model's own index of combined sequence `combined` (`None` for a sequence of an
    /// include model).
    pub fn local_sequence(&self, combined: usize) -> Option<usize> {
        let rig = self.evaluator.rig();
        (0..self.model.sequences.len()).find(|&local| rig.local_sequence(0, local) == Some(combined))
    }

    /// Whether autoplay sequences play on top (turned on, and the model has some).
    pub fn autoplay_playing(&self) -> bool {
        self.autoplay && !self.evaluator.rig().autoplay().is_empty()
    }

    /// Combined sequences.
    pub fn num_sequences(&self) -> usize {
        self.evaluator.rig().num_sequences()
    }

    /// A combined sequence.
    pub fn sequence(&self, index: usize) -> Option<&studio_source::Sequence> {
        self.evaluator.rig().sequence(index).map(|s| s.seq)
    }

    /// Whether the shown sequence loops.
    pub fn looping(&self) -> bool {
        self.sequence(self.sequence).is_some_and(|s| s.flags & STUDIO_LOOPING != 0)
    }

    /// The combined pose parameters.
    pub fn pose_parameters(&self) -> &[studio_source::PoseParameter] {
        &self.evaluator.rig().pose_parameters
    }

    /// The combined pose parameters the shown sequence reads: its blend grid's axes, its layers'
    /// `STUDIO_AL_POSE` parameters and its cycle pose.
    pub fn used_parameters(&self) -> Vec<usize> {
        let rig = self.evaluator.rig();
        let Some(seq) = rig.sequence(self.sequence) else { return Vec::new() };
        let mut used: Vec<usize> =
            seq.seq.params.iter().flatten().filter_map(|&p| rig.param(seq.group, p)).collect();
        used.extend(rig.cycle_pose(seq));
        for layer in seq.seq.layers.iter().filter(|l| l.flags & STUDIO_AL_POSE != 0) {
            // The layer sequence's own group names its pose parameter, as in the bone setup.
            let target = usize::try_from(layer.sequence).ok().and_then(|s| rig.local_sequence(seq.group, s));
            let group = target.and_then(|t| rig.sequence(t)).map_or(seq.group, |t| t.group);
            if let Some(p) = usize::try_from(layer.pose).ok().and_then(|p| rig.param(group, p)) {
                used.push(p);
            }
        }
        used.sort_unstable();
        used.dedup();
        used
    }

    /// Cycles per second of the shown sequence at the current pose parameters.
    pub fn cycle_rate(&mut self) -> f32 {
        self.normalise();
        let rig = self.evaluator.rig();
        rig.sequence(self.sequence).map_or(0.0, |seq| playback::cycle_rate(rig, seq, &self.normalised))
    }

    /// How far the shown sequence's movement has taken the model: its animations' movement
    /// pieces at the cycle plus the loops played (`Studio_SeqMovement`), at the pose
    /// parameters of the last evaluation.
    pub fn movement(&self) -> Vec3 {
        let rig = self.evaluator.rig();
        rig.sequence(self.sequence).map_or(Vec3::ZERO, |seq| {
            let moved = playback::sequence_movement(rig, seq, &self.normalised, self.cycle + self.loops).0;
            if moved.is_finite() { moved } else { Vec3::ZERO }
        })
    }

    /// How fast the shown sequence moves the model, in units a second: its movement over a
    /// whole cycle at its rate (`GetSequenceGroundSpeed`: `Studio_SeqMovement` from cycle 0 to
    /// 1 over the sequence's duration), at the pose parameters of the last evaluation.
    pub fn ground_speed(&self) -> f32 {
        let rig = self.evaluator.rig();
        let Some(seq) = rig.sequence(self.sequence) else { return 0.0 };
        let at = |cycle| playback::sequence_movement(rig, seq, &self.normalised, cycle).0;
        let speed = (at(1.0) - at(0.0)).length() * playback::cycle_rate(rig, seq, &self.normalised);
        if speed.is_finite() { speed } else { 0.0 }
    }

    /// Frames of the shown sequence: those of its first animation (1 without one).
    pub fn frames(&self) -> usize {
        let rig = self.evaluator.rig();
        rig.sequence(self.sequence)
            .and_then(|seq| rig.grid_cell(seq, 0, 0))
            .map_or(1, |a| a.animation.frames.max(1) as usize)
    }

    /// Puts every flex controller at its neutral value: the face at rest.
    pub fn reset_flexes(&mut self) {
        for (value, controller) in self.flex.iter_mut().zip(&self.model.flexes.controllers) {
            *value = flex_neutral(controller);
        }
    }

    /// Poses the moving meshes (flexed faces, eyes) for the flex values, the pose last
    /// evaluated and body number `body`, the eyes looking at `eye_target` or else at `camera`
    /// (model space). Allocates nothing.
    pub fn update_face(&mut self, body: i32, camera: Vec3) {
        if self.frame.face.is_empty() {
            return;
        }
        let target = self.eye_target.unwrap_or(camera);
        let frame = &mut self.frame;
        frame.face.update(&self.model, &self.flex, (&frame.bones, &frame.skinning), body, target);
    }

    /// Every pose parameter at its default and every controller at its neutral value.
    pub fn reset_controls(&mut self) {
        let rig = self.evaluator.rig();
        for (value, p) in self.params.iter_mut().zip(&rig.pose_parameters) {
            *value = params::real(p, params::default_value(p));
        }
        for (value, controller) in self.controllers.iter_mut().zip(&self.model.bone_controllers) {
            *value = neutral_value(controller);
        }
    }

    /// Moves the cycle on by `dt` seconds at `speed` (back, when [`Self::reverse`]), wrapping
    /// round when `looping` and stopping at 1 (or 0) otherwise, and poses the model; adds the
    /// events crossed going forwards to `events`.
    pub fn advance(&mut self, dt: f32, speed: f32, events: &mut Vec<String>, looping: bool) {
        let rate = self.cycle_rate();
        let Some(seq) = self.evaluator.rig().sequence(self.sequence).map(|s| s.seq) else { return };
        let from = self.cycle;
        let step = rate * speed * dt;
        let next = if self.reverse { from - step } else { from + step };
        self.clock += speed * dt;
        if !self.clock.is_finite() || self.clock > 1.0e6 {
            self.clock = 0.0;
        }
        let to = if !next.is_finite() {
            from
        } else if looping {
            // Bounded: a file's absurd rate or a long stall cannot run the count away.
            self.loops = (self.loops + next.floor()).clamp(-1.0e6, 1.0e6);
            next - next.floor()
        } else {
            next.clamp(0.0, 1.0)
        };
        self.fired.clear();
        let reverse = self.reverse;
        for event in playback::events_between(seq, from, to).filter(|_| !reverse) {
            let name = if event.name.is_empty() { event.event.to_string() } else { event.name.clone() };
            events.push(format!("cycle {:.3}: event {name} {}", event.cycle, event.options));
            self.fired.push(event.clone());
        }
        self.cycle = to;
        self.evaluate();
    }

    fn normalise(&mut self) {
        let rig = self.evaluator.rig();
        for ((slot, p), &value) in self.normalised.iter_mut().zip(&rig.pose_parameters).zip(&self.params) {
            *slot = params::normalise(p, value);
        }
    }

    /// The controller inputs (0–3 and the mouth), normalised, from the controllers' values.
    fn controller_inputs(&self) -> [f32; 5] {
        let mut inputs = [0.0; 5];
        for (controller, &value) in self.model.bone_controllers.iter().zip(&self.controllers) {
            let range = controller.end - controller.start;
            let input = usize::try_from(controller.input).ok().and_then(|i| inputs.get_mut(i.min(4)));
            if let Some(slot) = input
                && range != 0.0
                && range.is_finite()
            {
                *slot = ((value - controller.start) / range).clamp(0.0, 1.0);
            }
        }
        inputs
    }

    /// Poses the model: bones, skinning matrices, hit boxes of the chosen set, attachments.
    /// Allocates nothing once the lists have grown to the model's size.
    pub fn evaluate(&mut self) {
        self.normalise();
        let controllers = (!self.model.bone_controllers.is_empty()).then(|| self.controller_inputs());
        let cycle = if self.cycle.is_finite() { self.cycle.clamp(0.0, 1.0) } else { 0.0 };
        self.layer_requests.clear();
        // The sequences left, as the engine accumulates them: after the sequence, before the
        // layers (`StandardBlendingRules`).
        let rig = self.evaluator.rig();
        let (rate, looping) = rig.sequence(self.sequence).map_or((0.0, false), |seq| {
            (playback::cycle_rate(rig, seq, &self.normalised), seq.seq.flags & STUDIO_LOOPING != 0)
        });
        self.transitions.update(self.sequence, cycle, rate, looping, self.clock);
        self.transitions.layers(self.clock, &mut self.layer_requests);
        self.layer_requests.extend(self.layers.iter().map(|l| studio_source_pose::SourceLayer {
            sequence: l.sequence,
            cycle: l.cycle.unwrap_or(cycle),
            weight: l.weight,
        }));
        let request = SourceRequest {
            sequence: self.sequence,
            cycle,
            params: &self.normalised,
            controllers,
            time: self.clock,
            autoplay: self.autoplay,
            layers: &self.layer_requests,
        };
        self.evaluator.evaluate(&request, &mut self.frame.bones);
        if self.bind_pose {
            for (slot, bone) in self.frame.bones.iter_mut().zip(&self.model.bones) {
                *slot = studio_source_pose::points::affine_3x4(&bone.pose_to_bone).inverse();
            }
        }
        let sequence_box = self.sequence(self.sequence).map(|s| (s.bbmin, s.bbmax));
        self.frame.place(&self.model, self.hitbox_set, sequence_box);
    }

    /// The box round the pose's bones, hit boxes and the skinned vertices of body `body`.
    pub fn bounds(&self, body: i32) -> (Vec3, Vec3) {
        let mut min = Vec3::splat(f32::INFINITY);
        let mut max = Vec3::splat(f32::NEG_INFINITY);
        let mut add = |p: Vec3| {
            if p.is_finite() {
                min = min.min(p);
                max = max.max(p);
            }
        };
        self.frame.bones.iter().for_each(|b| add(b.translation.into()));
        self.frame.hitboxes.iter().flatten().for_each(|&c| add(c.into()));
        if let Some(vertices) = &self.model.vertices {
            for part in &self.model.body_parts {
                let choice = submodel_for_body(part.base, part.models.len(), body);
                let Some(model) = choice.and_then(|c| part.models.get(c)) else { continue };
                let start = usize::try_from(model.vertex_index).unwrap_or(usize::MAX) / 48;
                let count = usize::try_from(model.num_vertices).unwrap_or(0);
                let range = start.checked_add(count).and_then(|end| vertices.vertices.get(start..end));
                for v in range.unwrap_or(&[]) {
                    let mut p = Vec3::ZERO;
                    for j in 0..usize::from(v.num_bones).min(3) {
                        if let Some(m) = self.frame.skinning.get(usize::from(v.bones[j])) {
                            p += m.transform_point3(v.position) * v.weights[j];
                        }
                    }
                    add(p);
                }
            }
        }
        if min.cmple(max).all() { (min, max) } else { self.model.header.hull }
    }
}

/// A flex controller's neutral value: 0 where its range holds 0 (the face at rest), else the
/// end nearer 0. The engine's own default is a normalised weight of 0, which is the range's
/// minimum: the same for the usual 0..1 ranges, but for a −1..1 one (eyes, a stereo balance)
/// the far end, which no viewer starts at.
pub fn flex_neutral(controller: &studio_source::FlexController) -> f32 {
    let (lo, hi) = controller.range();
    if !(lo.is_finite() && hi.is_finite()) { 0.0 } else { 0.0f32.clamp(lo, hi) }
}

/// A controller's neutral value: 0 in its own units where the range holds 0, else its start.
fn neutral_value(controller: &studio_source::BoneController) -> f32 {
    let (lo, hi) = (controller.start.min(controller.end), controller.start.max(controller.end));
    if lo <= 0.0 && 0.0 <= hi { 0.0 } else { controller.start }
}
