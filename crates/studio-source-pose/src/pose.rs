//! A sequence's pose as the engine's bone setup computes it (source-bonesetup.md, "Pipeline for
//! a viewer"): defaults, the sequence accumulated at its cycle (its blend grid, weight list,
//! delta and world-space merging and autolayers), then bone-to-model matrices.

use glam::{Affine3A, Quat, Vec3, Vec4};
use studio_source::{Animation, STUDIO_AL_POSE, STUDIO_DELTA, STUDIO_LOOPING, SourceModel};

use crate::rig::{AnimRef, Rig, SeqRef};
use crate::table::Tables;

use crate::decode::{BoneBase, position, rotation};
use crate::quaternion::{mult, nlerp, normalize, scale, slerp};

/// `STUDIO_POST`.
const STUDIO_POST: i32 = 0x10;
/// `STUDIO_WORLD`: the sequence blends in model space.
const STUDIO_WORLD: i32 = 0x4000;
/// `STUDIO_ALLZEROS`.
const STUDIO_ALLZEROS: i32 = 0x20;
/// `STUDIO_CYCLEPOSE`.
const STUDIO_CYCLEPOSE: i32 = 0x80;
/// `STUDIO_LOCAL`.
const STUDIO_LOCAL: i32 = 0x200;
/// `STUDIO_AL_SPLINE`.
const STUDIO_AL_SPLINE: i32 = 0x40;
/// `STUDIO_AL_XFADE`.
const STUDIO_AL_XFADE: i32 = 0x80;
/// `STUDIO_AL_NOBLEND`.
const STUDIO_AL_NOBLEND: i32 = 0x200;
/// `STUDIO_AL_LOCAL`.
const STUDIO_AL_LOCAL: i32 = 0x1000;
/// How deep layers of layers are followed: real models nest one or two.
const MAX_LAYER_DEPTH: usize = 8;

/// Local positions and rotations of every bone.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalPose {
    /// Positions relative to the parent.
    pub positions: Vec<Vec3>,
    /// Rotations relative to the parent.
    pub rotations: Vec<Quat>,
}

impl LocalPose {
    /// Every bone at its default.
    pub fn defaults(model: &SourceModel) -> Self {
        let mut pose = Self { positions: Vec::new(), rotations: Vec::new() };
        pose.set_defaults(model);
        pose
    }

    /// Every bone back to its default, in the room the pose already has.
    pub fn set_defaults(&mut self, model: &SourceModel) {
        self.positions.clear();
        self.positions.extend(model.bones.iter().map(|b| b.position));
        self.rotations.clear();
        self.rotations.extend(model.bones.iter().map(|b| b.quaternion));
    }

    /// This pose made a copy of `other`, in the room it already has.
    pub fn copy_from(&mut self, other: &LocalPose) {
        self.positions.clear();
        self.positions.extend_from_slice(&other.positions);
        self.rotations.clear();
        self.rotations.extend_from_slice(&other.rotations);
    }
}

/// Poses, matrices and lock records a pose evaluation borrows and gives back: once the first
/// poses have been evaluated, evaluating allocates nothing.
#[derive(Debug, Default)]
pub struct Scratch {
    poses: Vec<LocalPose>,
    matrices: Vec<Vec<Affine3A>>,
    locks: Vec<Vec<crate::ik_lock::Recorded>>,
}

impl Scratch {
    /// A pose at the defaults.
    fn pose(&mut self, model: &SourceModel) -> LocalPose {
        let mut pose = self.poses.pop().unwrap_or(LocalPose { positions: Vec::new(), rotations: Vec::new() });
        pose.set_defaults(model);
        pose
    }

    /// A pose back.
    fn give(&mut self, pose: LocalPose) {
        self.poses.push(pose);
    }

    /// An empty list of matrices.
    pub(crate) fn matrices(&mut self) -> Vec<Affine3A> {
        let mut m = self.matrices.pop().unwrap_or_default();
        m.clear();
        m
    }

    /// A list of matrices back.
    pub(crate) fn give_matrices(&mut self, m: Vec<Affine3A>) {
        self.matrices.push(m);
    }

    /// An empty list of lock records.
    pub(crate) fn locks(&mut self) -> Vec<crate::ik_lock::Recorded> {
        let mut l = self.locks.pop().unwrap_or_default();
        l.clear();
        l
    }

    /// A list of lock records back.
    pub(crate) fn give_locks(&mut self, l: Vec<crate::ik_lock::Recorded>) {
        self.locks.push(l);
    }
}

/// What every step of one evaluation reads.
#[derive(Clone, Copy)]
struct Ctx<'r, 'a> {
    rig: &'r Rig<'a>,
    params: &'r [f32],
    /// The decoded animations, where built.
    tables: Option<&'r Tables>,
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
        let ctx = Ctx { rig: &self.rig, params: request.params, tables: Some(&self.tables) };
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
    if let Some(time) = request.autoplay {
        autoplay(ctx, scratch, pose, time);
    }
    if let Some(inputs) = request.controllers {
        controllers(model, &inputs, pose);
    }
    matrices_into(model, pose, out);
}

/// `CalcAutoplaySequences`: the model's autoplay IK locks recorded, every `STUDIO_AUTOPLAY`
/// sequence accumulated with weight 1 at the cycle its rate gives the real-time clock `time`
/// (the fraction of time × cycles per second), then the locks solved.
fn autoplay(ctx: Ctx<'_, '_>, scratch: &mut Scratch, pose: &mut LocalPose, time: f32) {
    let rig = ctx.rig;
    if rig.autoplay().is_empty() {
        return;
    }
    let model = rig.render();
    let locks = crate::ik_lock::record(model, &model.ik_autoplay_locks, pose, scratch);
    for &sequence in rig.autoplay() {
        let Some(seq) = rig.sequence(sequence) else { continue };
        let cycle = time * crate::playback::cycle_rate(rig, seq, ctx.params);
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
    /// The real-time clock in seconds for the `STUDIO_AUTOPLAY` sequences, which then play on
    /// top of the sequence (`CalcAutoplaySequences`); `None` leaves them out, as the
    /// references do.
    pub autoplay: Option<f32>,
}

/// The bone-to-model transform of every render bone for `request` (a combined sequence and the
/// combined pose parameters of `rig`).
pub fn evaluate(rig: &Rig<'_>, request: &SourceRequest<'_>) -> Vec<Affine3A> {
    let model = rig.render();
    let (mut pose, mut out) = (LocalPose::defaults(model), Vec::with_capacity(model.bones.len()));
    let ctx = Ctx { rig, params: request.params, tables: None };
    pose_into(ctx, &mut Scratch::default(), &mut pose, request, &mut out);
    out
}

/// `CalcBoneAdj` (source-bonesetup.md, "Bone controllers"): each controller's value
/// v = (1 − n)·start + n·end for its input's normalised n; X, Y, Z add v to the bone's local
/// position, XR, YR, ZR turn its rotation by v degrees about that axis first.
pub fn controllers(model: &SourceModel, inputs: &[f32; 5], pose: &mut LocalPose) {
    for c in &model.bone_controllers {
        let (Ok(bone), Some(&n)) =
            (usize::try_from(c.bone), usize::try_from(c.input).ok().and_then(|i| inputs.get(i)))
        else {
            continue;
        };
        if bone >= pose.positions.len() {
            continue;
        }
        let v = (1.0 - n) * c.start + n * c.end;
        let turn = |axis: Vec3| Quat::from_axis_angle(axis, v.to_radians());
        match c.kind & 0x3F {
            0x01 => pose.positions[bone].x += v,
            0x02 => pose.positions[bone].y += v,
            0x04 => pose.positions[bone].z += v,
            0x08 => pose.rotations[bone] = normalize(Vec4::from(mult(turn(Vec3::X), pose.rotations[bone]))),
            0x10 => pose.rotations[bone] = normalize(Vec4::from(mult(turn(Vec3::Y), pose.rotations[bone]))),
            0x20 => pose.rotations[bone] = normalize(Vec4::from(mult(turn(Vec3::Z), pose.rotations[bone]))),
            _ => {}
        }
    }
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

/// The cycle a sequence reads its animations at (source-bonesetup.md, "Cycle").
fn sequence_cycle(rig: &Rig<'_>, seq: SeqRef<'_>, params: &[f32], cycle: f32) -> f32 {
    let sequence = seq.seq;
    if sequence.flags & STUDIO_CYCLEPOSE != 0 {
        return rig.cycle_pose(seq).and_then(|p| params.get(p)).copied().unwrap_or(0.0);
    }
    if sequence.flags & STUDIO_LOOPING != 0 {
        if !(0.0..1.0).contains(&cycle) {
            let c = cycle - cycle.floor();
            return if c.is_finite() { c } else { 0.0 };
        }
        cycle
    } else {
        cycle.clamp(0.0, 1.0)
    }
}

/// `AccumulatePose`: merges combined sequence `sequence` at `cycle` with weight `w` into `pose`.
fn accumulate(
    ctx: Ctx<'_, '_>,
    scratch: &mut Scratch,
    pose: &mut LocalPose,
    sequence: usize,
    cycle: f32,
    w: f32,
    depth: usize,
) {
    let rig = ctx.rig;
    let Some(seq) = rig.sequence(sequence) else { return };
    if depth > MAX_LAYER_DEPTH || w <= 0.0 {
        return;
    }
    let model = rig.render();
    let locks = crate::ik_lock::record(model, &seq.seq.ik_locks, pose, scratch);
    let cycle = sequence_cycle(rig, seq, ctx.params, cycle);
    let mut private = scratch.pose(model);
    let flags = seq.seq.flags;
    if grid(ctx, scratch, seq, cycle, &mut private) {
        if flags & STUDIO_LOCAL != 0 {
            for layer in seq.seq.layers.iter().filter(|l| l.flags & STUDIO_AL_LOCAL != 0) {
                layer_into(ctx, scratch, seq, &mut private, layer, cycle, 1.0, depth, true);
            }
        }
        if flags & STUDIO_WORLD != 0 {
            merge_world(rig, seq, pose, &private, w, scratch);
        } else {
            merge(rig, seq, pose, &private, w);
        }
    }
    scratch.give(private);
    let local_parent = flags & STUDIO_LOCAL != 0;
    for layer in seq.seq.layers.iter().filter(|l| !(local_parent && l.flags & STUDIO_AL_LOCAL != 0)) {
        layer_into(ctx, scratch, seq, pose, layer, cycle, w, depth, false);
    }
    crate::ik_lock::solve(model, &locks, pose, scratch);
    scratch.give_locks(locks);
}

/// One autolayer of `parent` at its cycle `cycle` and weight `w` (source-bonesetup.md,
/// "Autolayers").
#[allow(clippy::too_many_arguments)]
fn layer_into(
    ctx: Ctx<'_, '_>,
    scratch: &mut Scratch,
    parent: SeqRef<'_>,
    pose: &mut LocalPose,
    layer: &studio_source::AutoLayer,
    cycle: f32,
    w: f32,
    depth: usize,
    local: bool,
) {
    let (rig, params) = (ctx.rig, ctx.params);
    // The layer's sequence is local to its parent's group.
    let Some(target) = usize::try_from(layer.sequence).ok().and_then(|s| rig.local_sequence(parent.group, s))
    else {
        return;
    };
    let (start, peak, tail, end) = (layer.start, layer.peak, layer.tail, layer.end);
    if ![start, peak, tail, end].iter().all(|v| v.is_finite()) {
        // A NaN range: always on at weight w, frame 0.
        accumulate(ctx, scratch, pose, target, 0.0, w, depth + 1);
        return;
    }
    if start == end {
        accumulate(ctx, scratch, pose, target, cycle, w, depth + 1);
        return;
    }
    let pose_driven = layer.flags & STUDIO_AL_POSE != 0 && !local;
    let x = if pose_driven {
        let pose_param = usize::try_from(layer.pose).ok().and_then(|p| rig.param(parent.group, p));
        match pose_param.and_then(|p| Some((p, rig.pose_parameters.get(p)?))) {
            Some((p, desc)) => crate::params::real(desc, params.get(p).copied().unwrap_or(0.0)),
            None => 0.0,
        }
    } else {
        cycle
    };
    if x < start || x >= end {
        return;
    }
    let weight = layer_weight(layer, x, w);
    let layer_cycle = if pose_driven { cycle } else { (cycle - start) / (end - start) };
    accumulate(ctx, scratch, pose, target, layer_cycle, weight, depth + 1);
}

/// A layer's weight at index `x` (in its range) for a parent weight `w`: the ramp in from start
/// to peak and out from tail to end, smoothed with `STUDIO_AL_SPLINE`, cross-faded with
/// `STUDIO_AL_XFADE`, or not blended with `STUDIO_AL_NOBLEND`.
fn layer_weight(layer: &studio_source::AutoLayer, x: f32, w: f32) -> f32 {
    let (start, peak, tail, end) = (layer.start, layer.peak, layer.tail, layer.end);
    let mut f = if x < peak && start != peak {
        (x - start) / (peak - start)
    } else if x > tail && end != tail {
        (end - x) / (end - tail)
    } else {
        1.0
    };
    if layer.flags & STUDIO_AL_SPLINE != 0 {
        f = 3.0 * f * f - 2.0 * f * f * f;
    }
    if layer.flags & STUDIO_AL_XFADE != 0 && x > tail {
        f * w / (1.0 - w + f * w)
    } else if layer.flags & STUDIO_AL_NOBLEND != 0 {
        f
    } else {
        w * f
    }
}

/// `SlerpBones`: merges the private pose `q2`/`p2` into `pose` with weight `w` per bone.
fn merge(rig: &Rig<'_>, seq: SeqRef<'_>, pose: &mut LocalPose, private: &LocalPose, w: f32) {
    let delta = seq.seq.flags & STUDIO_DELTA != 0;
    let post = seq.seq.flags & STUDIO_POST != 0;
    for i in 0..rig.render().bones.len() {
        let s = (w * rig.weight(seq, i)).min(1.0);
        if s <= 0.0 {
            continue;
        }
        let (q1, q2) = (pose.rotations[i], private.rotations[i]);
        let (p1, p2) = (pose.positions[i], private.positions[i]);
        if delta {
            let scaled = scale(q2, s);
            let q = if post { mult(q1, scaled) } else { mult(scaled, q1) };
            pose.rotations[i] = normalize(Vec4::from(q));
            pose.positions[i] = p1 + p2 * s;
        } else if s >= 1.0 {
            // The engine slerps from q2 by 0 here, which gives q2 within a rounding: a copy,
            // without the arc cosine and three sines (the references agree to 1e-7).
            pose.rotations[i] = q2;
            pose.positions[i] = p2;
        } else {
            pose.rotations[i] = slerp(q2, q1, 1.0 - s);
            pose.positions[i] = p1 * (1.0 - s) + p2 * s;
        }
    }
}

/// `WorldSpaceSlerp` (source-bonesetup.md, "World-space blending"): merges the private pose
/// into `pose` in model space. Each bone with weight s2 > 0 (its parent's s1) takes pose 2's
/// local values when s1 = s2 = 1; otherwise its model-space rotation is slerped from pose 1's to
/// pose 2's by s2 at pose 1's model-space position and brought back relative to its parent's
/// blended matrix, with the local position lerped (a root keeps pose 1's). No fixture has such
/// a sequence: the unit test below pins the rule on a hand-made chain.
fn merge_world(
    rig: &Rig<'_>,
    seq: SeqRef<'_>,
    pose: &mut LocalPose,
    private: &LocalPose,
    w: f32,
    scratch: &mut Scratch,
) {
    let model = rig.render();
    let mut src = scratch.matrices();
    matrices_into(model, pose, &mut src);
    let mut target = scratch.matrices();
    matrices_into(model, private, &mut target);
    // The blended model-space matrices, parents first (a bone not blended follows its parent).
    let mut dest = scratch.matrices();
    for (i, bone) in model.bones.iter().enumerate() {
        let parent = bone.parent.and_then(|p| dest.get(p).copied());
        let weight = |b: usize| (w * rig.weight(seq, b)).min(1.0);
        let s2 = weight(i);
        let s1 = bone.parent.map_or(s2, weight);
        let local =
            |pose: &LocalPose| Affine3A::from_rotation_translation(pose.rotations[i], pose.positions[i]);
        let blended = if s2 <= 0.0 {
            None
        } else if s1 >= 1.0 && s2 >= 1.0 {
            pose.rotations[i] = private.rotations[i];
            pose.positions[i] = private.positions[i];
            None
        } else {
            let q1 = Quat::from_mat3a(&src[i].matrix3).normalize();
            let q2 = Quat::from_mat3a(&target[i].matrix3).normalize();
            let world = Affine3A::from_rotation_translation(slerp(q1, q2, s2), src[i].translation.into());
            match parent {
                Some(parent) => {
                    let back = parent.inverse() * world;
                    pose.rotations[i] = Quat::from_mat3a(&back.matrix3).normalize();
                    pose.positions[i] = pose.positions[i] * (1.0 - s2) + private.positions[i] * s2;
                }
                None => pose.rotations[i] = Quat::from_mat3a(&world.matrix3).normalize(),
            }
            Some(world)
        };
        let matrix = blended.unwrap_or_else(|| match parent {
            Some(parent) => parent * local(pose),
            None => local(pose),
        });
        dest.push(matrix);
    }
    scratch.give_matrices(src);
    scratch.give_matrices(target);
    scratch.give_matrices(dest);
}

/// The cell index and fraction of grid axis `axis` (source-bonesetup.md, "Blend grid").
pub(crate) fn grid_axis(rig: &Rig<'_>, seq: SeqRef<'_>, params: &[f32], axis: usize) -> (usize, f32) {
    let (group, seq) = (seq.group, seq.seq);
    let size = seq.grid[axis];
    let Some(p) = seq.params[axis].and_then(|p| rig.param(group, p)) else { return (0, 0.0) };
    let Some(desc) = rig.pose_parameters.get(p) else { return (0, 0.0) };
    if size < 2 {
        return (0, 0.0);
    }
    let value = params.get(p).copied().unwrap_or(0.0);
    if seq.pose_keys.is_empty() {
        let ls = (seq.param_start[axis] - desc.start) / (desc.end - desc.start);
        let le = (seq.param_end[axis] - desc.start) / (desc.end - desc.start);
        let mut f = ((value - ls) / (le - ls)).clamp(0.0, 1.0);
        if f.is_nan() {
            f = 0.0;
        }
        if size > 2 {
            let scaled = f * (size - 1) as f32;
            let index = (scaled.floor() as usize).min(size - 2);
            (index, scaled - index as f32)
        } else {
            (0, f)
        }
    } else {
        let r = crate::params::real(desc, value);
        let stride = seq.grid[0];
        let keys = seq.pose_keys.get(axis * stride..).unwrap_or_default();
        key_cell(keys, size, r)
    }
}

/// The cell and fraction of real value `r` between an axis' pose keys (at least 2 of `size`):
/// the first pair whose fraction is not past 1, clamped to [0, 1].
fn key_cell(keys: &[f32], size: usize, r: f32) -> (usize, f32) {
    let key = |k: usize| keys.get(k).copied().unwrap_or(0.0);
    let mut index = 0;
    let mut f = (r - key(0)) / (key(1) - key(0));
    while index < size - 2 && f > 1.0 {
        index += 1;
        f = (r - key(index)) / (key(index + 1) - key(index));
    }
    (index, if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) })
}

/// Evaluates the blend grid into `out`; false when the sequence contributes nothing (an
/// ALLZEROS animation alone).
fn grid(ctx: Ctx<'_, '_>, scratch: &mut Scratch, seq: SeqRef<'_>, cycle: f32, out: &mut LocalPose) -> bool {
    let (rig, params) = (ctx.rig, ctx.params);
    let [g0, g1] = seq.seq.grid;
    if g0 == 0 || g1 == 0 {
        return false;
    }
    // Grid entries are local to the sequence's group.
    let cell = |x: usize, y: usize| rig.grid_cell(seq, x, y);
    let all_zeros = |a: Option<AnimRef<'_>>| a.is_some_and(|a| a.animation.flags & STUDIO_ALLZEROS != 0);
    let (i0, s0) = grid_axis(rig, seq, params, 0);
    let (i1, s1) = grid_axis(rig, seq, params, 1);
    let calc = |a: Option<AnimRef<'_>>, pose: &mut LocalPose, scratch: &mut Scratch| {
        if let Some(a) = a {
            animation_into(ctx, scratch, seq, a, cycle, pose);
        }
    };
    // The second animation goes into a borrowed copy of the first.
    let blend_two = |a: Option<AnimRef<'_>>,
                     b: Option<AnimRef<'_>>,
                     s: f32,
                     pose: &mut LocalPose,
                     scratch: &mut Scratch| {
        calc(a, pose, scratch);
        let mut second = scratch.pose(rig.render());
        second.copy_from(pose);
        calc(b, &mut second, scratch);
        blend(rig, seq, pose, &second, s);
        scratch.give(second);
    };
    if !(0.001..=0.999).contains(&s0) {
        let x = if s0 > 0.999 { i0 + 1 } else { i0 };
        if s1 < 0.001 {
            if all_zeros(cell(x, i1)) {
                return false;
            }
            calc(cell(x, i1), out, scratch);
        } else if s1 > 0.999 {
            calc(cell(x, i1 + 1), out, scratch);
        } else {
            blend_two(cell(x, i1), cell(x, i1 + 1), s1, out, scratch);
        }
    } else if s1 < 0.001 {
        let (a, b) = (cell(i0, i1), cell(i0 + 1, i1));
        if all_zeros(b) {
            calc(a, out, scratch);
            scale_toward_identity(rig, seq, out, 1.0 - s0);
        } else if all_zeros(a) {
            calc(b, out, scratch);
            scale_toward_identity(rig, seq, out, s0);
        } else {
            blend_two(a, b, s0, out, scratch);
        }
    } else if s1 > 0.999 {
        blend_two(cell(i0, i1 + 1), cell(i0 + 1, i1 + 1), s0, out, scratch);
    } else {
        // The triangle blend: the cell cut along a checkerboard diagonal.
        let ((c0, c1, c2), [w0, w1, w2]) = triangle(i0, i1, s0, s1);
        let corner = |(dx, dy): (usize, usize)| cell(i0 + dx, i1 + dy);
        if w1 == 0.0 {
            blend_two(corner(c0), corner(c2), w2 / (w0 + w2), out, scratch);
        } else {
            blend_two(corner(c0), corner(c1), w1 / (w0 + w1), out, scratch);
            let mut third = scratch.pose(rig.render());
            third.copy_from(out);
            calc(corner(c2), &mut third, scratch);
            blend(rig, seq, out, &third, w2);
            scratch.give(third);
        }
    }
    true
}

/// A cell corner as (dx, dy).
type Corner = (usize, usize);

/// The triangle of cell (`i0`, `i1`) that (`s0`, `s1`) lies in, cut along a diagonal that
/// alternates like a checkerboard, and the corners' weights (w1 below 0.001 is 0).
fn triangle(i0: usize, i1: usize, s0: f32, s1: f32) -> ((Corner, Corner, Corner), [f32; 3]) {
    let (corners, w0, w1) = if (i0 + i1).is_multiple_of(2) {
        if s0 > s1 {
            (((0, 0), (1, 0), (1, 1)), 1.0 - s0, s0 - s1)
        } else {
            (((1, 1), (0, 1), (0, 0)), s0, s1 - s0)
        }
    } else if s0 + s1 > 1.0 {
        (((1, 0), (1, 1), (0, 1)), 1.0 - s1, s0 + s1 - 1.0)
    } else {
        (((0, 1), (0, 0), (1, 0)), s1, 1.0 - s0 - s1)
    };
    let w1 = if w1 < 0.001 { 0.0 } else { w1 };
    (corners, [w0, w1, 1.0 - w0 - w1])
}

/// "Blending two poses (inside one sequence)": `pose` toward `other` by `s`, for the bones the
/// sequence weights.
fn blend(rig: &Rig<'_>, seq: SeqRef<'_>, pose: &mut LocalPose, other: &LocalPose, s: f32) {
    if s <= 0.0 {
        return;
    }
    for i in 0..rig.render().bones.len() {
        if rig.weight(seq, i) <= 0.0 {
            continue;
        }
        if s >= 1.0 {
            pose.rotations[i] = other.rotations[i];
            pose.positions[i] = other.positions[i];
        } else {
            pose.positions[i] = pose.positions[i] * (1.0 - s) + other.positions[i] * s;
            pose.rotations[i] = nlerp(other.rotations[i], pose.rotations[i], 1.0 - s);
        }
    }
}

/// "Scaled by t": every weighted bone toward identity.
fn scale_toward_identity(rig: &Rig<'_>, seq: SeqRef<'_>, pose: &mut LocalPose, t: f32) {
    for i in 0..rig.render().bones.len() {
        if rig.weight(seq, i) <= 0.0 {
            continue;
        }
        pose.positions[i] *= t;
        let q = pose.rotations[i];
        let w = if q.w < 0.0 { q.w * t - (1.0 - t) } else { q.w * t + (1.0 - t) };
        pose.rotations[i] = normalize(Vec4::new(q.x * t, q.y * t, q.z * t, w));
    }
}

/// The zero-frame data of `animation` at frame `frame` (fractional) into the bones with saved
/// frames that the sequence weights: Hermite-interpolated between the stored frames.
fn zero_frames_into(
    rig: &Rig<'_>,
    seq: SeqRef<'_>,
    group: usize,
    animation: &Animation,
    frame: f32,
    pose: &mut LocalPose,
) {
    let model = rig.group(group);
    let Some(zero) = animation.zero_frames else { return };
    let Ok(count) = usize::try_from(zero.count) else { return };
    if count == 0 {
        return;
    }
    let bytes: &[u8] = &model.data.mdl;
    let Some(mut at) =
        i64::try_from(animation.offset).ok().and_then(|o| usize::try_from(o + i64::from(zero.index)).ok())
    else {
        return;
    };
    // Which stored frames and how far between them. One stored frame is the pose whatever the
    // span (`CalcZeroframeData` reads the span only in its branch for two or more).
    let (i, t) = if count == 1 {
        (0, 0.0)
    } else {
        let Some(span) = u16::try_from(zero.span).ok().filter(|&s| s > 0) else { return };
        let span = f32::from(span);
        let mut i = (frame / span).floor().max(0.0) as usize;
        let mut t = ((frame - i as f32 * span) / span).clamp(0.0, 1.0);
        if i >= count - 1 {
            i = count - 2;
            t = 1.0;
        }
        (i, t)
    };
    let picks = [i.saturating_sub(1), i, (i + 1).min(count - 1)];
    let b1 = 2.0 * t * t * t - 3.0 * t * t + 1.0;
    let b2 = 1.0 - b1;
    let b3 = t * t * t - 2.0 * t * t + t;
    let b4 = t * t * t - t * t;
    // The animation's own model's bones, in its order; each lands on its render bone.
    for (local, bone) in model.bones.iter().enumerate() {
        let render = rig.render_bone(group, local);
        let (has_pos, has_rot) = (
            bone.flags & studio_source::BONE_HAS_SAVEFRAME_POS != 0,
            bone.flags & studio_source::BONE_HAS_SAVEFRAME_ROT != 0,
        );
        let used = render.filter(|&b| rig.weight(seq, b) > 0.0);
        if has_pos {
            let read = |k: usize| -> Option<Vec3> {
                let from = at.checked_add(6 * k)?;
                Some(studio_source::vector48(bytes.get(from..from + 6)?.try_into().ok()?))
            };
            if let (Some(b), [Some(p0), Some(p1), Some(p2)]) = (used, picks.map(read)) {
                pose.positions[b] =
                    if count == 1 { p1 } else { p1 * b1 + p2 * b2 + (p1 - p0) * b3 + (p2 - p1) * b4 };
            }
            at = at.saturating_add(6 * count);
        }
        if has_rot {
            let read = |k: usize| -> Option<Quat> {
                let from = at.checked_add(8 * k)?;
                Some(studio_source::quaternion64(bytes.get(from..from + 8)?.try_into().ok()?))
            };
            if let (Some(b), [Some(q0), Some(q1), Some(q2)]) = (used, picks.map(read)) {
                pose.rotations[b] = if count == 1 {
                    q1
                } else {
                    let (q0, q1) = (
                        Vec4::from(crate::quaternion::align(q2, q0)),
                        Vec4::from(crate::quaternion::align(q2, q1)),
                    );
                    let q2 = Vec4::from(q2);
                    normalize(q1 * b1 + q2 * b2 + (q1 - q0) * b3 + (q2 - q1) * b4)
                };
            }
            at = at.saturating_add(8 * count);
        }
    }
}

/// The section entry holding `frame` of an animation of `frames` frames cut every
/// `section_frames`, and the frame within it: the last frame is stored alone.
fn section_of(frames: u32, section_frames: u32, frame: u32) -> (usize, u32) {
    if frames > section_frames && frame == frames - 1 {
        ((frames / section_frames + 1) as usize, 0)
    } else {
        let section = frame / section_frames;
        (section as usize, frame - section * section_frames)
    }
}

/// `CalcAnimation`: one animation at `cycle` into `pose`, for the bones the sequence weights.
fn animation_into(
    ctx: Ctx<'_, '_>,
    scratch: &mut Scratch,
    seq: SeqRef<'_>,
    anim: AnimRef<'_>,
    cycle: f32,
    pose: &mut LocalPose,
) {
    let (rig, group, animation) = (ctx.rig, anim.group, anim.animation);
    // Records name bones of the animation's model; defaults and scales are that model's.
    let model = rig.group(group);
    let frames = animation.frames.max(1);
    let position_in = cycle * (frames - 1) as f32;
    let mut frame = (position_in.floor().max(0.0) as u32).min(frames - 1);
    let mut s = position_in - frame as f32;
    if frame >= frames - 1 {
        frame = frames - 1;
        s = 0.0;
    }
    let delta = animation.flags & STUDIO_DELTA != 0;
    // The chain holding `frame`, and the frame within it (source-animdata.md, "Sections").
    let (chain, local, entry) = if animation.section_frames == 0 {
        (animation.chains.first().and_then(Option::as_ref), frame, 0)
    } else {
        let sf = animation.section_frames;
        let (mut section, mut local) = section_of(frames, sf, frame);
        // An unavailable section: the last frame of the nearest earlier one that is there.
        loop {
            match animation.chains.get(section).and_then(Option::as_ref) {
                Some(chain) => break (Some(chain), local, section),
                // The fraction is kept: the reference interpolates from that last frame.
                None if section > 0 => {
                    section -= 1;
                    local = sf.saturating_sub(1);
                }
                None => break (None, 0, 0),
            }
        }
    };
    // Every bone the sequence weights starts at its default in the sequence's model.
    let seq_model = rig.group(seq.group);
    for i in 0..pose.rotations.len() {
        if rig.weight(seq, i) <= 0.0 {
            continue;
        }
        let Some(bone) = rig.group_bone(seq.group, i).and_then(|b| seq_model.bones.get(b)) else { continue };
        (pose.rotations[i], pose.positions[i]) =
            if delta { (Quat::IDENTITY, Vec3::ZERO) } else { (bone.quaternion, bone.position) };
    }
    let Some(chain) = chain else {
        // No chain: the zero-frame data over those defaults (source-animdata.md).
        zero_frames_into(rig, seq, group, animation, position_in, pose);
        return;
    };
    let bytes = model.chain_bytes(chain);
    let table = ctx.tables.and_then(|t| t.chain(group, anim.index, entry));
    for (r, record) in chain.records.iter().enumerate() {
        let Some(i) = rig.render_bone(group, record.bone) else { continue };
        if rig.weight(seq, i) <= 0.0 {
            continue;
        }
        if let Some((rotation, position)) = table.and_then(|t| t.sample(r, local, s)) {
            (pose.rotations[i], pose.positions[i]) = (rotation, position);
            continue;
        }
        let bone = &model.bones[record.bone];
        let base = BoneBase::of(bone);
        pose.rotations[i] = rotation(bytes, record, &base, local, s);
        pose.positions[i] = position(bytes, record, &base, local, s);
    }
    if !animation.local_hierarchy.is_empty() {
        local_hierarchy_into(ctx, scratch, anim, (frame, s), cycle, pose);
    }
}

/// The weight of a local hierarchy at `cycle` (source-animdata.md, "Local hierarchy"): 1, or,
/// when its ramp is shorter than the whole cycle (tail − peak < 1), 0 outside [start, end) and
/// the ramp in and out with the ease curve 3t² − 2t³.
fn hierarchy_weight([start, peak, tail, end]: [f32; 4], cycle: f32) -> f32 {
    let ramped = tail - peak < 1.0;
    if !ramped {
        return 1.0;
    }
    if cycle < start || cycle >= end {
        return 0.0;
    }
    let f = if cycle < peak && start != peak {
        (cycle - start) / (peak - start)
    } else if cycle > tail && end != tail {
        (end - cycle) / (end - tail)
    } else {
        1.0
    };
    3.0 * f * f - 2.0 * f * f * f
}

/// `CalcLocalHierarchyAnimation` (source-animdata.md, "Local hierarchy"): each re-parented bone
/// takes the transform its compressed streams give at frame − iStart (positions lerped, angles
/// blended by the fraction) relative to its new parent, brought back into its own parent's
/// space, slerped in by the hierarchy's weight. No fixture has one (the spec's one sample was
/// not checked either): the unit tests pin these rules on hand-made data.
fn local_hierarchy_into(
    ctx: Ctx<'_, '_>,
    scratch: &mut Scratch,
    anim: AnimRef<'_>,
    (frame, s): (u32, f32),
    cycle: f32,
    pose: &mut LocalPose,
) {
    let rig = ctx.rig;
    let model = rig.render();
    let group_model = rig.group(anim.group);
    let mut world = scratch.matrices();
    for h in &anim.animation.local_hierarchy {
        let Some(compressed) = h.compressed else { continue };
        let Some(bone) = rig.render_bone(anim.group, h.bone) else { continue };
        let new_parent = match h.new_parent {
            Some(p) => match rig.render_bone(anim.group, p) {
                Some(p) => Some(p),
                None => continue,
            },
            None => None,
        };
        let weight = hierarchy_weight(h.ramp, cycle);
        let Ok(at) = u32::try_from(i64::from(frame) - i64::from(h.first_frame)) else { continue };
        if weight <= 0.0 {
            continue;
        }
        let bytes = group_model.file_bytes(compressed.file);
        let value = |k: usize| {
            compressed.streams[k].map_or((0.0, 0.0), |start| {
                let (v1, v2) = crate::decode::values(bytes, start, at);
                (v1 * compressed.scale[k], v2 * compressed.scale[k])
            })
        };
        let [x, y, z, rx, ry, rz] = std::array::from_fn(value);
        let (p1, p2) = (Vec3::new(x.0, y.0, z.0), Vec3::new(x.1, y.1, z.1));
        let (a1, a2) = (Vec3::new(rx.0, ry.0, rz.0), Vec3::new(rx.1, ry.1, rz.1));
        let interpolate = s > 0.0001;
        let position = if interpolate { p1 * (1.0 - s) + p2 * s } else { p1 };
        let rotation = if interpolate && a1 != a2 {
            nlerp(crate::quaternion::from_euler(a1), crate::quaternion::from_euler(a2), s)
        } else {
            crate::quaternion::from_euler(a1)
        };
        matrices_into(model, pose, &mut world);
        let local = Affine3A::from_rotation_translation(rotation, position);
        let target = match new_parent.and_then(|p| world.get(p)) {
            Some(parent) => *parent * local,
            None => local,
        };
        let back = match model.bones.get(bone).and_then(|b| b.parent).and_then(|p| world.get(p)) {
            Some(parent) => parent.inverse() * target,
            None => target,
        };
        let (q, p) = (Quat::from_mat3a(&back.matrix3).normalize(), Vec3::from(back.translation));
        if weight >= 1.0 {
            (pose.rotations[bone], pose.positions[bone]) = (q, p);
        } else {
            pose.rotations[bone] = slerp(pose.rotations[bone], q, weight);
            pose.positions[bone] = pose.positions[bone].lerp(p, weight);
        }
    }
    scratch.give_matrices(world);
}

#[cfg(test)]
mod tests {
    use super::*;
    use studio_source::{Bone, BoneController};

    fn bone(name: &str) -> Bone {
        Bone {
            name: name.to_owned(),
            parent: None,
            controllers: [None; 6],
            position: Vec3::new(1.0, 2.0, 3.0),
            quaternion: Quat::IDENTITY,
            rotation: Vec3::ZERO,
            position_scale: Vec3::ONE,
            rotation_scale: Vec3::ONE,
            pose_to_bone: [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]],
            alignment: Quat::IDENTITY,
            flags: 0,
            procedural: None,
            surface_prop: String::new(),
            contents: 0,
        }
    }

    #[test]
    fn the_triangle_blend_in_both_halves_of_a_cell() {
        // Even cell (0, 0): below the diagonal s0 > s1 the corners are (0,0), (1,0), (1,1).
        let (corners, w) = triangle(0, 0, 0.75, 0.25);
        assert_eq!(corners, ((0, 0), (1, 0), (1, 1)));
        assert_eq!(w, [0.25, 0.5, 0.25]);
        // Above it: (1,1), (0,1), (0,0).
        let (corners, w) = triangle(0, 0, 0.25, 0.75);
        assert_eq!(corners, ((1, 1), (0, 1), (0, 0)));
        assert_eq!(w, [0.25, 0.5, 0.25]);
        // Odd cell (1, 0): the other diagonal.
        assert_eq!(triangle(1, 0, 0.75, 0.5).0, ((1, 0), (1, 1), (0, 1)));
        assert_eq!(triangle(1, 0, 0.25, 0.5).0, ((0, 1), (0, 0), (1, 0)));
        // On the diagonal the middle corner has no weight.
        assert_eq!(triangle(0, 0, 0.5, 0.5).1, [0.5, 0.0, 0.5]);
    }

    #[test]
    fn the_last_frame_of_a_sectioned_animation_is_stored_alone() {
        // 30 frames every 8: frame 29 is entry 30 / 8 + 1 = 4, local frame 0; frame 24 is
        // section 3, local 0; frame 8 starts section 1.
        assert_eq!(section_of(30, 8, 29), (4, 0));
        assert_eq!(section_of(30, 8, 28), (3, 4));
        assert_eq!(section_of(30, 8, 8), (1, 0));
        assert_eq!(section_of(30, 8, 7), (0, 7));
        // No longer than a section: the last frame is in section 0.
        assert_eq!(section_of(5, 8, 4), (0, 4));
    }

    #[test]
    fn pose_keys_pick_their_cell() {
        // blend9's aim_yaw keys: -45, 0, 30.
        let keys = [-45.0, 0.0, 30.0];
        assert_eq!(key_cell(&keys, 3, -22.5), (0, 0.5));
        assert_eq!(key_cell(&keys, 3, 15.0), (1, 0.5));
        assert_eq!(key_cell(&keys, 3, 0.0), (0, 1.0), "a key exactly: the end of the first cell");
        assert_eq!(key_cell(&keys, 3, 45.0), (1, 1.0), "past the last key: clamped");
        assert_eq!(key_cell(&keys, 3, -90.0), (0, 0.0));
    }

    #[test]
    fn a_layers_ramp() {
        let layer = |flags| studio_source::AutoLayer {
            sequence: 0,
            pose: 0,
            flags,
            start: 0.1,
            peak: 0.3,
            tail: 0.6,
            end: 0.9,
        };
        let close = |a: f32, b: f32| (a - b).abs() < 1e-6;
        // Linear in from start to peak, full between, out from tail to end; times the parent's.
        assert!(close(layer_weight(&layer(0), 0.2, 1.0), 0.5));
        assert!(close(layer_weight(&layer(0), 0.45, 0.8), 0.8));
        assert!(close(layer_weight(&layer(0), 0.75, 1.0), 0.5));
        // Spline: 3f² − 2f³ of the same ramp.
        assert!(close(layer_weight(&layer(STUDIO_AL_SPLINE), 0.15, 1.0), 3.0 * 0.0625 - 2.0 * 0.015625));
        // No blend: the ramp alone, whatever the parent's weight.
        assert!(close(layer_weight(&layer(STUDIO_AL_NOBLEND), 0.2, 0.3), 0.5));
        // Cross-fade past the tail: f·w / (1 − w + f·w).
        assert!(close(layer_weight(&layer(STUDIO_AL_XFADE), 0.75, 0.5), 0.25 / 0.75));
    }

    #[test]
    fn controllers_move_and_turn_their_bones() {
        let shared = studio_testing::shared();
        let Some(shared) = shared else { return };
        let bytes = studio_testing::read(&shared, "fixtures/source/models/fixture/skeleton48.mdl");
        let mut model = studio_source::parse_mdl(&bytes).unwrap();
        model.bones = vec![bone("a"), bone("b")];
        model.bone_controllers = vec![
            BoneController { bone: 0, kind: 0x01, start: -2.0, end: 2.0, rest: 0, input: 1 },
            BoneController { bone: 1, kind: 0x20, start: -90.0, end: 90.0, rest: 0, input: 0 },
        ];
        let mut pose = LocalPose::defaults(&model);
        // Input 1 at 1: +2 on x; input 0 at 0.75: 45 degrees about z.
        controllers(&model, &[0.75, 1.0, 0.0, 0.0, 0.0], &mut pose);
        assert_eq!(pose.positions[0], Vec3::new(3.0, 2.0, 3.0));
        assert!(pose.rotations[1].abs_diff_eq(Quat::from_rotation_z(45f32.to_radians()), 1e-6));
    }

    #[test]
    fn world_space_merging_slerps_model_space_rotations() {
        let Some(shared) = studio_testing::shared() else { return };
        let bytes = studio_testing::read(&shared, "fixtures/source/models/fixture/skeleton48.mdl");
        let mut model = studio_source::parse_mdl(&bytes).unwrap();
        // A root and its child, one unit up.
        let mut child = bone("child");
        child.parent = Some(0);
        child.position = Vec3::new(0.0, 0.0, 1.0);
        model.bones = vec![bone("root"), child];
        let mut sequence = model.sequences[0].clone();
        sequence.flags |= STUDIO_WORLD;
        sequence.weights = vec![1.0, 1.0];
        let rig = Rig::new(&model);
        let seq = SeqRef { group: 0, seq: &sequence };
        let mut scratch = Scratch::default();
        // Pose 1: the root turned 90° about z; pose 2: everything at rest, the child moved.
        let base = || {
            let mut pose = LocalPose::defaults(&model);
            pose.rotations[0] = Quat::from_rotation_z(90f32.to_radians());
            pose
        };
        let mut other = LocalPose::defaults(&model);
        other.positions[1] = Vec3::new(0.0, 0.0, 3.0);

        // Full weight: every bone takes pose 2's local values.
        let mut pose = base();
        merge_world(&rig, seq, &mut pose, &other, 1.0, &mut scratch);
        assert!(
            pose.rotations[0].abs_diff_eq(Quat::IDENTITY, 1e-6)
                && pose.rotations[1].abs_diff_eq(Quat::IDENTITY, 1e-6)
        );
        assert_eq!(pose.positions[1], Vec3::new(0.0, 0.0, 3.0));

        // Half weight: in model space the root turns half way back (45°); the child's
        // model-space rotation, also 90° in pose 1 and 0° in pose 2, lands on 45° too, so its
        // local rotation relative to the blended root is the identity; its local position is
        // lerped, the root's stays pose 1's.
        let mut pose = base();
        merge_world(&rig, seq, &mut pose, &other, 0.5, &mut scratch);
        let half = Quat::from_rotation_z(45f32.to_radians());
        assert!(pose.rotations[0].abs_diff_eq(half, 1e-6), "{}", pose.rotations[0]);
        assert!(pose.rotations[1].abs_diff_eq(Quat::IDENTITY, 1e-6), "{}", pose.rotations[1]);
        assert_eq!(pose.positions[0], Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(pose.positions[1], Vec3::new(0.0, 0.0, 2.0));
        // A plain slerp of the local rotations would have left the child as it was and given the
        // same root: the difference shows with a child that turns on its own.
        let mut pose = base();
        pose.rotations[1] = Quat::from_rotation_x(90f32.to_radians());
        merge_world(&rig, seq, &mut pose, &other, 0.5, &mut scratch);
        let world1 = Quat::from_rotation_z(90f32.to_radians()) * Quat::from_rotation_x(90f32.to_radians());
        let expected_world = slerp(world1, Quat::IDENTITY, 0.5);
        let world = pose.rotations[0] * pose.rotations[1];
        assert!(
            world.abs_diff_eq(expected_world, 1e-5) || world.abs_diff_eq(-expected_world, 1e-5),
            "{world} {expected_world}"
        );
    }

    #[test]
    fn a_local_hierarchys_weight_ramps_only_within_the_cycle() {
        assert_eq!(hierarchy_weight([0.0, 0.0, 1.0, 1.0], 0.3), 1.0, "tail − peak = 1: always full");
        let ramp = [0.2, 0.4, 0.6, 0.8];
        assert_eq!(hierarchy_weight(ramp, 0.1), 0.0);
        assert_eq!(hierarchy_weight(ramp, 0.8), 0.0);
        assert_eq!(hierarchy_weight(ramp, 0.5), 1.0);
        // Half way up the ramp: 3·0.25 − 2·0.125 = 0.5; a quarter: 3/16 − 2/64.
        assert!((hierarchy_weight(ramp, 0.3) - 0.5).abs() < 1e-6);
        assert!((hierarchy_weight(ramp, 0.75) - (3.0 / 16.0 - 2.0 / 64.0)).abs() < 1e-6);
    }

    /// A value stream holding `value` for every frame: one run of one value.
    fn constant_stream(value: i16) -> Vec<u8> {
        let mut bytes = vec![1, 255];
        bytes.extend_from_slice(&value.to_le_bytes());
        bytes
    }

    #[test]
    fn a_local_hierarchy_reparents_its_bone_for_the_animation() {
        let Some(shared) = studio_testing::shared() else { return };
        let bytes = studio_testing::read(&shared, "fixtures/source/models/fixture/skeleton48.mdl");
        let mut model = studio_source::parse_mdl(&bytes).unwrap();
        // root → arm → hand, each one unit along x from its parent.
        let mut arm = bone("arm");
        arm.parent = Some(0);
        arm.position = Vec3::X;
        let mut hand = bone("hand");
        hand.parent = Some(1);
        hand.position = Vec3::X;
        model.bones = vec![bone("root"), arm, hand];
        // The hand's transform from the root: 5 units along y (stream 1, scale 1) and a quarter
        // turn about z (stream 5: 100 × scale π/200).
        let mut data = Vec::new();
        let mut stream = |values: Vec<u8>| {
            let at = data.len() as u64;
            data.extend(values);
            Some(at)
        };
        let streams = [None, stream(constant_stream(5)), None, None, None, stream(constant_stream(100))];
        model.data.mdl = std::sync::Arc::from(data);
        let scale = [1.0, 1.0, 1.0, 1.0, 1.0, std::f32::consts::PI / 200.0];
        let compressed =
            studio_source::CompressedError { file: studio_source::FileRole::Mdl, scale, streams };
        let mut animation = model.animations[0].clone();
        animation.local_hierarchy = vec![studio_source::LocalHierarchy {
            bone: 2,
            new_parent: Some(0),
            ramp: [0.0, 0.0, 1.0, 1.0],
            first_frame: 0,
            compressed: Some(compressed),
        }];
        let rig = Rig::new(&model);
        let anim = AnimRef { group: 0, index: 0, animation: &animation };
        let ctx = Ctx { rig: &rig, params: &[], tables: None };
        let mut scratch = Scratch::default();
        let mut pose = LocalPose::defaults(&model);
        // The arm bent a quarter turn about z: without the hierarchy the hand would follow it.
        pose.rotations[1] = Quat::from_rotation_z(90f32.to_radians());
        local_hierarchy_into(ctx, &mut scratch, anim, (0, 0.0), 0.0, &mut pose);
        let mut world = Vec::new();
        matrices_into(&model, &pose, &mut world);
        let expected = world[0]
            * Affine3A::from_rotation_translation(
                Quat::from_rotation_z(90f32.to_radians()),
                Vec3::new(0.0, 5.0, 0.0),
            );
        assert!(world[2].abs_diff_eq(expected, 1e-5), "{:?} vs {expected:?}", world[2]);

        // Half weight: half way from the hand's own local transform to the re-parented one.
        animation.local_hierarchy[0].ramp = [0.0, 0.5, 0.5, 1.0];
        let anim = AnimRef { group: 0, index: 0, animation: &animation };
        let mut half = LocalPose::defaults(&model);
        half.rotations[1] = Quat::from_rotation_z(90f32.to_radians());
        let before = (half.rotations[2], half.positions[2]);
        local_hierarchy_into(ctx, &mut scratch, anim, (0, 0.0), 0.25, &mut half);
        let full = (pose.rotations[2], pose.positions[2]);
        assert!(half.rotations[2].abs_diff_eq(slerp(before.0, full.0, 0.5), 1e-6));
        assert!(half.positions[2].abs_diff_eq(before.1.lerp(full.1, 0.5), 1e-5));
        // Before its first frame it does nothing.
        animation.local_hierarchy[0].first_frame = 3;
        let anim = AnimRef { group: 0, index: 0, animation: &animation };
        let mut early = LocalPose::defaults(&model);
        local_hierarchy_into(ctx, &mut scratch, anim, (1, 0.0), 0.25, &mut early);
        assert_eq!(early.positions[2], Vec3::X);
    }
}
