//! The pose evaluator: sequence, frame, blend, controllers and mouth in; model-space bone
//! matrices, hit box corners and attachment points out (`StudioSetupBones` and
//! `StudioCalcAttachments`; semantics in `../shared/reference/README.md`).

use std::sync::Arc;

use glam::{Affine3A, Vec3A};
use studio_model::Model;
use studio_model::motion::{STUDIO_X, STUDIO_Y, STUDIO_Z};

use crate::blend::{BlendPlan, exact_slerp, plan, slerp_bones, slerp_table_poses};
use crate::controllers::ControllerBytes;
use crate::math::{bone_matrix, concat_bone};
use crate::sample::{Adjustments, BoneSetup, LocalPose, TablePose, keyframe, sample_runs, sample_table};
use crate::table::{Place, SequenceTable, build};

/// What to evaluate: the entity state a game client would hold.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PoseRequest {
    /// Sequence index.
    pub sequence: usize,
    /// Frame in frame units, used as given (see [`crate::playback`] for wrapping and clamping).
    pub frame: f32,
    /// The two blending bytes.
    pub blend: [u8; 2],
    /// The four user controller bytes and the mouth byte.
    pub controllers: ControllerBytes,
}

/// Why a pose could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoseError {
    /// The model has no such sequence.
    #[error("there is no sequence {sequence} (the model has {count})")]
    NoSuchSequence {
        /// The index asked for.
        sequence: usize,
        /// How many sequences there are.
        count: usize,
    },
    /// The sequence's group file is missing or unusable.
    #[error("sequence {sequence} is unavailable: its sequence group {group} could not be loaded")]
    Unavailable {
        /// The sequence.
        sequence: usize,
        /// Its group.
        group: usize,
    },
}

/// An evaluated pose, in model space. Reused from pose to pose without allocating.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pose {
    /// Each bone's model-space transform.
    pub bones: Vec<Affine3A>,
    /// Each hit box's 8 corners: corner k takes `bbmax` on axis i when bit i of k is set.
    pub hitboxes: Vec<[Vec3A; 8]>,
    /// Each attachment's point.
    pub attachments: Vec<Vec3A>,
}

impl Pose {
    /// A pose sized for `model`.
    pub fn new(model: &Model) -> Self {
        Self {
            bones: vec![Affine3A::IDENTITY; model.bones.len()],
            hitboxes: vec![[Vec3A::ZERO; 8]; model.hitboxes.len()],
            attachments: vec![Vec3A::ZERO; model.attachments.len()],
        }
    }
}

/// How a sequence is sampled: from its table, or (when it has none) from its runs.
#[derive(Debug)]
enum Source {
    Table(SequenceTable),
    Runs,
}

/// Evaluates poses of one model. Each sequence's table is built on first use and kept; after
/// that, evaluating a pose allocates nothing.
#[derive(Debug)]
pub struct PoseEvaluator {
    model: Arc<Model>,
    sources: Vec<Option<Source>>,
    setup: Vec<BoneSetup>,
    /// Each bone's parent, `usize::MAX` for a root.
    parents: Vec<usize>,
    blends: [LocalPose; 4],
    /// The main pose while overlays are mixed into it.
    mixed: LocalPose,
    /// The blends sampled from a table, in its layout.
    table_blends: [TablePose; 4],
    adj: Adjustments,
    table_bytes: usize,
    table_budget: usize,
}

/// Tables for all sequences together may take this much plus [`TABLE_BUDGET_PER_BYTE`] times
/// the model's animation data; sequences beyond it are evaluated from their runs. With every
/// sequence built, the Natural Selection models in `../shared` need 0.4 to 6.9 times their file's
/// size (bones stored four to a group repeat a constant bone's key in each keyframe's row).
pub const TABLE_BUDGET_BASE: usize = 64 << 20;
/// See [`TABLE_BUDGET_BASE`].
pub const TABLE_BUDGET_PER_BYTE: usize = 8;

impl PoseEvaluator {
    /// An evaluator for `model`; no table is built yet.
    pub fn new(model: Arc<Model>) -> Self {
        let bones = model.bones.len();
        Self {
            sources: (0..model.sequences.len()).map(|_| None).collect(),
            setup: model.bones.iter().map(BoneSetup::new).collect(),
            parents: model.bones.iter().map(|b| b.parent.unwrap_or(usize::MAX)).collect(),
            blends: std::array::from_fn(|_| LocalPose::new(bones)),
            mixed: LocalPose::new(bones),
            table_blends: Default::default(),
            adj: Adjustments::new(model.bone_controllers.len()),
            table_bytes: 0,
            table_budget: TABLE_BUDGET_BASE.saturating_add(
                model
                    .sequence_groups
                    .iter()
                    .map(|g| g.data_len())
                    .sum::<usize>()
                    .saturating_mul(TABLE_BUDGET_PER_BYTE),
            ),
            model,
        }
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }

    /// Builds a sequence's table now rather than on its first pose.
    pub fn prepare(&mut self, sequence: usize) -> Result<(), PoseError> {
        let model = &self.model;
        let seq = model
            .sequences
            .get(sequence)
            .ok_or(PoseError::NoSuchSequence { sequence, count: model.sequences.len() })?;
        if seq.animation.is_none() {
            return Err(PoseError::Unavailable { sequence, group: seq.group });
        }
        if self.sources[sequence].is_none() {
            let table = build(model, seq).filter(|t| self.table_bytes + t.bytes() <= self.table_budget);
            self.sources[sequence] = Some(match table {
                Some(table) => {
                    self.table_bytes += table.bytes();
                    for blend in &mut self.table_blends {
                        blend.fit(&table);
                    }
                    Source::Table(table)
                }
                None => Source::Runs,
            });
        }
        Ok(())
    }

    /// Builds every available sequence's table.
    pub fn prepare_all(&mut self) {
        for sequence in 0..self.sources.len() {
            let _ = self.prepare(sequence);
        }
    }

    /// Bytes held by the tables built so far.
    pub fn cache_bytes(&self) -> usize {
        self.table_bytes
    }

    /// Whether a sequence is sampled from a table (after [`Self::prepare`]).
    pub fn is_tabled(&self, sequence: usize) -> bool {
        matches!(self.sources.get(sequence), Some(Some(Source::Table(_))))
    }

    /// Evaluates a pose into `pose` (sized for this model by [`Pose::new`]): bones, hit box
    /// corners and attachments.
    pub fn evaluate(&mut self, request: &PoseRequest, pose: &mut Pose) -> Result<(), PoseError> {
        self.evaluate_bones(request, pose)?;
        pose.place_points(&self.model);
        Ok(())
    }

    /// Evaluates only the bone matrices, leaving hit boxes and attachments as they were: what a
    /// renderer that draws boxes from the bone matrices needs each frame (and what Valve's
    /// `StudioSetupBones` computes).
    pub fn evaluate_bones(&mut self, request: &PoseRequest, pose: &mut Pose) -> Result<(), PoseError> {
        self.prepare(request.sequence)?;
        let plan = self.plan_of(request);
        self.evaluate_with(request, plan, pose, false)
    }

    /// Evaluates the bones of one blend animation of the sequence alone (`request.blend` is
    /// not used): what an export writes as one animation per blend. A blend past the
    /// sequence's count is its last.
    pub fn evaluate_blend(
        &mut self,
        request: &PoseRequest,
        blend: usize,
        pose: &mut Pose,
    ) -> Result<(), PoseError> {
        self.prepare(request.sequence)?;
        let count = self.model.sequences[request.sequence].animation.as_ref().map_or(1, |a| a.num_blends());
        self.evaluate_with(request, BlendPlan::Single(blend.min(count.saturating_sub(1))), pose, false)?;
        pose.place_points(&self.model);
        Ok(())
    }

    fn plan_of(&self, request: &PoseRequest) -> BlendPlan {
        let sequence = &self.model.sequences[request.sequence];
        plan(sequence.animation.as_ref().map_or(1, |a| a.num_blends()), request.blend)
    }

    /// Evaluates straight from the run-length data, ignoring any table: Valve's own path, for
    /// checking the tables against.
    pub fn evaluate_from_runs(&mut self, request: &PoseRequest, pose: &mut Pose) -> Result<(), PoseError> {
        self.prepare(request.sequence)?;
        let plan = self.plan_of(request);
        self.evaluate_with(request, plan, pose, true)?;
        pose.place_points(&self.model);
        Ok(())
    }

    fn evaluate_with(
        &mut self,
        request: &PoseRequest,
        plan: BlendPlan,
        pose: &mut Pose,
        from_runs: bool,
    ) -> Result<(), PoseError> {
        self.local_with(request, plan, from_runs)?;
        model_space(&self.parents, &self.blends[0], &mut pose.bones);
        Ok(())
    }

    /// Evaluates a pose with other poses mixed over it, in order: each overlay's sequence at its
    /// own frame, blend and controllers, weighed in by Valve's `StudioSlerpBones` (rotations
    /// slerped, positions mixed linearly, by the overlay's weight, 0 to 1). The Half-Life
    /// client mixes the sequence left in a transition this way (`StudioSetupBones`: the old
    /// sequence at the frame it was left, weighed 1 − (time since the change) / 0.2); layers
    /// are the same mix at a weight the user sets. Overlays of weight 0 are passed over.
    pub fn evaluate_overlaid(
        &mut self,
        request: &PoseRequest,
        overlays: &[Overlay],
        pose: &mut Pose,
    ) -> Result<(), PoseError> {
        self.prepare(request.sequence)?;
        let plan = self.plan_of(request);
        self.local_with(request, plan, false)?;
        let mut any = false;
        for overlay in overlays.iter().filter(|o| o.weight > 0.0) {
            let weight = overlay.weight.min(1.0);
            if !any {
                std::mem::swap(&mut self.mixed, &mut self.blends[0]);
                any = true;
            }
            self.prepare(overlay.request.sequence)?;
            let plan = self.plan_of(&overlay.request);
            self.local_with(&overlay.request, plan, false)?;
            slerp_bones(&mut self.mixed, &self.blends[0], weight, exact_slerp);
        }
        let local = if any { &self.mixed } else { &self.blends[0] };
        model_space(&self.parents, local, &mut pose.bones);
        pose.place_points(&self.model);
        Ok(())
    }

    /// The local pose of `request` into `self.blends[0]`.
    fn local_with(
        &mut self,
        request: &PoseRequest,
        plan: BlendPlan,
        from_runs: bool,
    ) -> Result<(), PoseError> {
        let model = &*self.model;
        let sequence = &model.sequences[request.sequence];
        let (k, s) = keyframe(sequence, request.frame);
        self.adj.set(&model.bone_controllers, request.controllers);

        let animations: &[usize] = match &plan {
            BlendPlan::Single(a) => std::slice::from_ref(a),
            BlendPlan::Two(a, _) => a,
            BlendPlan::Four(a, _) => a,
        };
        match &self.sources[request.sequence] {
            Some(Source::Table(table)) if !from_runs => {
                let (first_slot, other_slots) = self.table_blends.split_first_mut().expect("four slots");
                for (j, &animation) in animations.iter().enumerate() {
                    let (slot, earlier) = match j {
                        0 => (&mut *first_slot, None),
                        _ => (&mut other_slots[j - 1], Some((animations[0], &*first_slot))),
                    };
                    sample_table(&self.setup, table, animation, k, s, &self.adj, earlier, slot);
                }
                if let Some(place) = table.motion_place() {
                    for slot in &mut self.table_blends[..animations.len()] {
                        for axis in extracted_axes(sequence) {
                            match place {
                                Place::Group(g, lane) => slot.groups[g].position[axis][lane] = 0.0,
                                Place::Single(i) => slot.positions[i][axis] = 0.0,
                            }
                        }
                    }
                }
                let (groups, singles) = (table.groups().len(), table.singles().len());
                let [first, second, third, fourth] = &mut self.table_blends;
                mix(plan, first, second, third, fourth, |a, b, w| {
                    slerp_table_poses(a, b, groups, singles, w)
                });
                first.scatter(table, &mut self.blends[0]);
            }
            _ => {
                for (j, &animation) in animations.iter().enumerate() {
                    sample_runs(model, sequence, animation, k, s, &self.adj.values, &mut self.blends[j]);
                }
                if let Some(bone) = sequence.motion_bone {
                    for slot in &mut self.blends[..animations.len()] {
                        for axis in extracted_axes(sequence) {
                            slot.positions[bone][axis] = 0.0;
                        }
                    }
                }
                let [first, second, third, fourth] = &mut self.blends;
                mix(plan, first, second, third, fourth, |a, b, w| slerp_bones(a, b, w, exact_slerp));
            }
        }
        Ok(())
    }
}

/// A pose mixed over another ([`PoseEvaluator::evaluate_overlaid`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Overlay {
    /// Its sequence, frame, blend and controllers.
    pub request: PoseRequest,
    /// How much of it, 0 to 1.
    pub weight: f32,
}

/// The Half-Life client's sequence transition (`StudioSetupBones`): how much of the sequence
/// left shows `elapsed` seconds after the change (1 − elapsed / 0.2, down to 0).
pub fn transition_weight(elapsed: f32) -> f32 {
    if elapsed.is_finite() { (1.0 - elapsed / TRANSITION_SECONDS).clamp(0.0, 1.0) } else { 0.0 }
}

/// How long the Half-Life client blends from the sequence left (`StudioSetupBones`: 0.2 s).
pub const TRANSITION_SECONDS: f32 = 0.2;

/// Motion extraction: the axes of the motion bone's position that stay at the origin.
fn extracted_axes(sequence: &studio_model::Sequence) -> impl Iterator<Item = usize> {
    let motion_type = sequence.motion_type;
    [STUDIO_X, STUDIO_Y, STUDIO_Z]
        .into_iter()
        .enumerate()
        .filter(move |&(_, flag)| motion_type & flag != 0)
        .map(|(axis, _)| axis)
}

/// Mixes the sampled animations into `first` as `plan` says.
fn mix<P>(
    plan: BlendPlan,
    first: &mut P,
    second: &P,
    third: &mut P,
    fourth: &P,
    slerp_bones: impl Fn(&mut P, &P, f32),
) {
    match plan {
        BlendPlan::Single(_) => {}
        BlendPlan::Two(_, w) => slerp_bones(first, second, w),
        BlendPlan::Four(_, [w0, w1]) => {
            slerp_bones(first, second, w0);
            slerp_bones(third, fourth, w0);
            slerp_bones(first, third, w1);
        }
    }
}

/// Walks the hierarchy once: `parents[i]` is bone i's parent, or `usize::MAX` for a root (the
/// parser keeps parents before children; a parent that is not is read as none).
fn model_space(parents: &[usize], local: &LocalPose, bones: &mut [Affine3A]) {
    let n = parents.len().min(local.rotations.len()).min(local.positions.len()).min(bones.len());
    for i in 0..n {
        let (q, pos, parent) = (local.rotations[i], local.positions[i], parents[i]);
        bones[i] = if parent < i { concat_bone(&bones[parent], q, pos) } else { bone_matrix(q, pos) };
    }
}

impl Pose {
    /// Places the hit box corners and attachment points on the current bone matrices.
    pub fn place_points(&mut self, model: &Model) {
        for (corners, hitbox) in self.hitboxes.iter_mut().zip(&model.hitboxes) {
            // The corner at bbmin, then each axis's edge added where bit `axis` of k is set: the
            // same points as transforming each corner, for a quarter of the work.
            let m = &self.bones[hitbox.bone];
            let size = hitbox.bbmax - hitbox.bbmin;
            let (x, y, z) = (m.matrix3.x_axis * size.x, m.matrix3.y_axis * size.y, m.matrix3.z_axis * size.z);
            let c0 = m.transform_point3a(hitbox.bbmin.into());
            let (c1, c2, c4) = (c0 + x, c0 + y, c0 + z);
            let (c3, c5, c6) = (c1 + y, c1 + z, c2 + z);
            *corners = [c0, c1, c2, c3, c4, c5, c6, c3 + z];
        }
        for (point, attachment) in self.attachments.iter_mut().zip(&model.attachments) {
            *point = self.bones[attachment.bone].transform_point3a(attachment.org.into());
        }
    }
}
