//! A sequence's pose as the engine's bone setup computes it (source-bonesetup.md, "Pipeline for
//! a viewer"): defaults, the sequence accumulated at its cycle (`accumulate.rs`: its blend grid in
//! `grid.rs`, each animation in `animation.rs`, merged by `merge.rs`, its autolayers in
//! `layers.rs`), the autoplay sequences, the bone controllers, then bone-to-model matrices.

use glam::Affine3A;
use studio_source::SourceModel;

use crate::accumulate::accumulate;
use crate::rig::Rig;
use crate::table::Tables;

pub use crate::controllers::controllers;
pub use crate::local_pose::{LocalPose, Scratch};

/// What every step of one evaluation reads.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'r, 'a> {
    pub(crate) rig: &'r Rig<'a>,
    pub(crate) params: &'r [f32],
    /// The decoded animations, where built.
    pub(crate) tables: Option<&'r Tables>,
    /// The real-time clock in seconds (`flTime`).
    pub(crate) time: f32,
}

/// Evaluates poses of one combined model, reusing its buffers: after the first few poses,
/// [`SourceEvaluator::evaluate`] allocates nothing.
#[derive(Debug)]
pub struct SourceEvaluator<'a> {
    rig: Rig<'a>,
    tables: Tables,
    scratch: Scratch,
    pose: LocalPose,
}

impl SourceEvaluator<'static> {
    /// An evaluator that shares `model` (with its include models): one that lives as long as
    /// the model does, such as the viewer's.
    pub fn shared(model: std::sync::Arc<SourceModel>) -> Self {
        let pose = LocalPose::defaults(&model);
        Self::with_rig(Rig::shared(model), pose)
    }
}

impl<'a> SourceEvaluator<'a> {
    /// An evaluator of `model` with its include models.
    pub fn new(model: &'a SourceModel) -> Self {
        Self::with_rig(Rig::new(model), LocalPose::defaults(model))
    }

    fn with_rig(rig: Rig<'a>, pose: LocalPose) -> Self {
        let tables = Tables::build(&rig);
        Self { rig, tables, scratch: Scratch::default(), pose }
    }

    /// Bytes the decoded animations take.
    pub fn table_bytes(&self) -> usize {
        self.tables.bytes()
    }

    /// The combined model.
    pub fn rig(&self) -> &Rig<'a> {
        &self.rig
    }

    /// The bone-to-model transform of every render bone for `request`, into `out`.
    pub fn evaluate(&mut self, request: &SourceRequest<'_>, out: &mut Vec<Affine3A>) {
        let ctx =
            Ctx { rig: &self.rig, params: request.params, tables: Some(&self.tables), time: request.time };
        pose_into(ctx, &mut self.scratch, &mut self.pose, request, out);
    }
}

/// The pipeline for a viewer: defaults, the sequence accumulated with weight 1, the bone
/// controllers, then the matrices.
fn pose_into(
    ctx: Ctx<'_, '_>,
    scratch: &mut Scratch,
    pose: &mut LocalPose,
    request: &SourceRequest<'_>,
    out: &mut Vec<Affine3A>,
) {
    let model = ctx.rig.render();
    pose.set_defaults(model);
    accumulate(ctx, scratch, pose, request.sequence, request.cycle, 1.0, 0);
    for layer in request.layers.iter().filter(|l| l.weight > 0.0) {
        accumulate(ctx, scratch, pose, layer.sequence, layer.cycle, layer.weight, 0);
    }
    if request.autoplay {
        autoplay(ctx, scratch, pose);
    }
    if let Some(inputs) = request.controllers {
        controllers(model, &inputs, pose);
    }
    matrices_into(model, pose, out);
}

/// `CalcAutoplaySequences`: the model's autoplay IK locks recorded, every `STUDIO_AUTOPLAY`
/// sequence accumulated with weight 1 at the cycle its rate gives the real-time clock (the
/// fraction of time × cycles per second), then the locks solved.
fn autoplay(ctx: Ctx<'_, '_>, scratch: &mut Scratch, pose: &mut LocalPose) {
    let rig = ctx.rig;
    if rig.autoplay().is_empty() {
        return;
    }
    let model = rig.render();
    let locks = crate::ik_lock::record(model, &model.ik_autoplay_locks, pose, scratch);
    for &sequence in rig.autoplay() {
        let Some(seq) = rig.sequence(sequence) else { continue };
        let cycle = ctx.time * crate::playback::cycle_rate(rig, seq, ctx.params);
        let cycle = if cycle.is_finite() { cycle - cycle.trunc() } else { 0.0 };
        accumulate(ctx, scratch, pose, sequence, cycle, 1.0, 0);
    }
    crate::ik_lock::solve(model, &locks, pose, scratch);
    scratch.give_locks(locks);
}

/// A pose request: the sequence, its cycle, and every pose parameter normalised to 0–1.
#[derive(Clone, Debug)]
pub struct SourceRequest<'a> {
    /// The combined sequence.
    pub sequence: usize,
    /// The cycle, 0 to 1.
    pub cycle: f32,
    /// Each combined pose parameter, normalised ([`crate::params::normalise`]).
    pub params: &'a [f32],
    /// Each controller input (0–3, and 4 the mouth), normalised 0–1; `None` leaves the bone
    /// controllers at the value that means 0, which changes nothing.
    pub controllers: Option<[f32; 5]>,
    /// The real-time clock in seconds (the engine's `flTime`): the cycle of every
    /// `STUDIO_REALTIME` sequence, shown or layered, is the fraction of time × its cycles per
    /// second, and the autoplay sequences play on it. The references use 0.
    pub time: f32,
    /// Whether the `STUDIO_AUTOPLAY` sequences play on top of the sequence
    /// (`CalcAutoplaySequences`); the references leave them out.
    pub autoplay: bool,
    /// Sequences layered over it, in order (`C_BaseAnimatingOverlay::AccumulateLayers`): each
    /// accumulated at its cycle and weight after the sequence, before the autoplay sequences
    /// and the bone controllers.
    pub layers: &'a [SourceLayer],
}

/// A sequence layered over the one shown (an overlay layer of the engine's entity).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SourceLayer {
    /// The combined sequence.
    pub sequence: usize,
    /// Its cycle, 0 to 1.
    pub cycle: f32,
    /// Its weight, 0 to 1 (`AccumulatePose` clamps it).
    pub weight: f32,
}

/// The bone-to-model transform of every render bone for `request` (a combined sequence and the
/// combined pose parameters of `rig`).
pub fn evaluate(rig: &Rig<'_>, request: &SourceRequest<'_>) -> Vec<Affine3A> {
    let model = rig.render();
    let (mut pose, mut out) = (LocalPose::defaults(model), Vec::with_capacity(model.bones.len()));
    let ctx = Ctx { rig, params: request.params, tables: None, time: request.time };
    pose_into(ctx, &mut Scratch::default(), &mut pose, request, &mut out);
    out
}

/// `Studio_BuildMatrices`: parent × local for every bone, parents first, into `out` (in the
/// room it has).
pub fn matrices_into(model: &SourceModel, pose: &LocalPose, out: &mut Vec<Affine3A>) {
    out.clear();
    for (i, bone) in model.bones.iter().enumerate() {
        let local = Affine3A::from_rotation_translation(pose.rotations[i], pose.positions[i]);
        let world = match bone.parent.and_then(|p| out.get(p)) {
            Some(parent) => *parent * local,
            None => local,
        };
        out.push(world);
    }
}
