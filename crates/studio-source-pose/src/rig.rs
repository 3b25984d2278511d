//! A model with its include models as the engine combines them into one (source-bonesetup.md,
//! "Include models (virtual model)"): the render model's bones; sequences, animations and pose
//! parameters gathered from every group, each group's entries matched by name against those of
//! the groups before it (within one group, entries that share a name stay apart).

use studio_source::{Animation, PoseParameter, STUDIO_CYCLEPOSE, Sequence, SourceModel};

/// `STUDIO_OVERRIDE`: a placeholder for a sequence of an include model.
const STUDIO_OVERRIDE: i32 = 0x800;
/// `STUDIO_AUTOPLAY`: a sequence the engine plays on every pose, on a real-time clock.
pub const STUDIO_AUTOPLAY: i32 = 0x8;

/// The combined model a pose is computed on.
#[derive(Debug)]
pub struct Rig<'a> {
    /// The render model, borrowed or shared.
    root: Root<'a>,
    /// Group 0 is the render model, then its loaded include models in order: per group ≥ 1,
    /// its index in the render model's `includes`.
    includes: Vec<usize>,
    /// Each combined sequence: its group and its index there.
    sequences: Vec<(usize, usize)>,
    /// The combined pose parameters (ranges widened over the groups that share a name).
    pub pose_parameters: Vec<PoseParameter>,
    /// Per group, each local pose parameter's combined index.
    params: Vec<Vec<usize>>,
    /// Per group, each render bone's bone in that group (by name).
    bones: Vec<Vec<Option<usize>>>,
    /// Per group, each of its bones' render bone.
    render_bones: Vec<Vec<Option<usize>>>,
    /// Per group, each local animation's (group, index) after the merge by name.
    animations: Vec<Vec<(usize, usize)>>,
    /// Per group, each local sequence's combined index: its own, or that of the earlier
    /// group's sequence of its label (`masterSeq`).
    local_sequences: Vec<Vec<usize>>,
    /// The combined sequences with `STUDIO_AUTOPLAY` (`GetAutoplayList`).
    autoplay: Vec<usize>,
}

/// The render model a rig is built on: borrowed (a pose computed and done with) or shared (an
/// evaluator that lives as long as the model does, such as the viewer's).
#[derive(Debug)]
enum Root<'a> {
    Borrowed(&'a SourceModel),
    Shared(std::sync::Arc<SourceModel>),
}

impl Root<'_> {
    fn get(&self) -> &SourceModel {
        match self {
            Root::Borrowed(model) => model,
            Root::Shared(model) => model,
        }
    }
}

/// An animation of the combined model: its group, its index there, and itself.
#[derive(Clone, Copy, Debug)]
pub struct AnimRef<'a> {
    /// Its group.
    pub group: usize,
    /// Its index in the group's model.
    pub index: usize,
    /// The animation.
    pub animation: &'a Animation,
}

/// A sequence of the combined model with the group it comes from.
#[derive(Clone, Copy, Debug)]
pub struct SeqRef<'a> {
    /// Its group.
    pub group: usize,
    /// The sequence.
    pub seq: &'a Sequence,
}

impl Rig<'static> {
    /// The combined model of a shared model: a rig that can live as long as the model does.
    pub fn shared(model: std::sync::Arc<SourceModel>) -> Self {
        Self::build(Root::Shared(model))
    }
}

impl<'a> Rig<'a> {
    /// The combined model of `model` and its loaded include models.
    pub fn new(model: &'a SourceModel) -> Self {
        Self::build(Root::Borrowed(model))
    }

    fn build(root: Root<'a>) -> Self {
        let model = root.get();
        let mut groups = vec![model];
        groups.extend(model.includes.iter().flatten());
        let includes: Vec<usize> = model
            .includes
            .iter()
            .enumerate()
            .filter_map(|(i, include)| include.as_ref().map(|_| i))
            .collect();
        // `virtualmodel_t::AppendSequences`, `AppendPoseParameters` and `AppendAnimations`: a
        // group's entries are matched by name (ignoring case) against those of the groups
        // before it only; within one group every entry stays its own, whatever its name.
        let mut sequences: Vec<(usize, usize)> = Vec::new();
        let mut local_sequences = Vec::with_capacity(groups.len());
        for (g, group) in groups.iter().enumerate() {
            let earlier = sequences.len();
            let mut map = Vec::with_capacity(group.sequences.len());
            for (s, seq) in group.sequences.iter().enumerate() {
                let known = sequences[..earlier]
                    .iter()
                    .position(|&(kg, ks)| groups[kg].sequences[ks].label.eq_ignore_ascii_case(&seq.label));
                map.push(match known {
                    None => {
                        sequences.push((g, s));
                        sequences.len() - 1
                    }
                    Some(k) => {
                        // A placeholder (`STUDIO_OVERRIDE`) gives way to the later group's.
                        let (kg, ks) = sequences[k];
                        if groups[kg].sequences[ks].flags & STUDIO_OVERRIDE != 0 {
                            sequences[k] = (g, s);
                        }
                        k
                    }
                });
            }
            local_sequences.push(map);
        }
        let mut pose_parameters: Vec<PoseParameter> = Vec::new();
        let mut params = Vec::with_capacity(groups.len());
        for group in &groups {
            let earlier = pose_parameters.len();
            let mut map = Vec::with_capacity(group.pose_parameters.len());
            for p in &group.pose_parameters {
                match pose_parameters[..earlier]
                    .iter()
                    .position(|known| known.name.eq_ignore_ascii_case(&p.name))
                {
                    Some(i) => {
                        // The range widened to cover both.
                        let known = &mut pose_parameters[i];
                        let (low, high) = (known.start.min(known.end), known.start.max(known.end));
                        known.start = low.min(p.start).min(p.end);
                        known.end = high.max(p.start).max(p.end);
                        map.push(i);
                    }
                    None => {
                        map.push(pose_parameters.len());
                        pose_parameters.push(p.clone());
                    }
                }
            }
            params.push(map);
        }
        // The earlier group's animation of a name wins (no overriding).
        let mut combined: Vec<(usize, usize)> = Vec::new();
        let mut animations = Vec::with_capacity(groups.len());
        for (g, group) in groups.iter().enumerate() {
            let earlier = combined.len();
            let mut map = Vec::with_capacity(group.animations.len());
            for (local, animation) in group.animations.iter().enumerate() {
                let known = combined[..earlier]
                    .iter()
                    .find(|&&(kg, ki)| groups[kg].animations[ki].name.eq_ignore_ascii_case(&animation.name));
                map.push(match known {
                    Some(&entry) => entry,
                    None => {
                        combined.push((g, local));
                        (g, local)
                    }
                });
            }
            animations.push(map);
        }
        let bones: Vec<Vec<Option<usize>>> = groups
            .iter()
            .map(|group| {
                model
                    .bones
                    .iter()
                    .map(|render| group.bones.iter().position(|b| b.name.eq_ignore_ascii_case(&render.name)))
                    .collect()
            })
            .collect();
        let render_bones = groups
            .iter()
            .zip(&bones)
            .map(|(group, map)| {
                let mut back = vec![None; group.bones.len()];
                for (render, local) in map.iter().enumerate() {
                    if let Some(slot) = local.and_then(|l| back.get_mut(l)) {
                        *slot = Some(render);
                    }
                }
                back
            })
            .collect();
        let autoplay = (0..sequences.len())
            .filter(|&i| groups[sequences[i].0].sequences[sequences[i].1].flags & STUDIO_AUTOPLAY != 0)
            .collect();
        drop(groups);
        Self {
            autoplay,
            root,
            includes,
            sequences,
            pose_parameters,
            params,
            bones,
            render_bones,
            animations,
            local_sequences,
        }
    }

    /// The render model.
    pub fn render(&self) -> &SourceModel {
        self.root.get()
    }

    /// The combined sequences the engine plays on every pose (`STUDIO_AUTOPLAY`).
    pub fn autoplay(&self) -> &[usize] {
        &self.autoplay
    }

    /// Sequences of the combined model.
    pub fn num_sequences(&self) -> usize {
        self.sequences.len()
    }

    /// Combined sequence `index`.
    pub fn sequence(&self, index: usize) -> Option<SeqRef<'_>> {
        let &(group, s) = self.sequences.get(index)?;
        Some(SeqRef { group, seq: self.group(group).sequences.get(s)? })
    }

    /// The label of combined sequence `index`.
    pub fn label(&self, index: usize) -> Option<&str> {
        self.sequence(index).map(|s| s.seq.label.as_str())
    }

    /// The combined sequence a sequence of `group` names by its local index.
    pub fn local_sequence(&self, group: usize, local: usize) -> Option<usize> {
        self.local_sequences.get(group)?.get(local).copied()
    }

    /// Groups: the render model and its include models.
    pub fn num_groups(&self) -> usize {
        self.includes.len() + 1
    }

    /// The model of `group` (the render model past the last group: callers take groups from
    /// this rig's own maps, so that does not happen).
    pub fn group(&self, group: usize) -> &SourceModel {
        let root = self.root.get();
        match group.checked_sub(1) {
            None => root,
            Some(g) => self.includes.get(g).and_then(|&i| root.includes.get(i)?.as_ref()).unwrap_or(root),
        }
    }

    /// The animation a sequence of `group` names by its local index: its own, or an earlier
    /// group's animation of its name (no overriding), with that group.
    pub fn animation(&self, group: usize, local: usize) -> Option<AnimRef<'_>> {
        let &(g, i) = self.animations.get(group)?.get(local)?;
        Some(AnimRef { group: g, index: i, animation: self.group(g).animations.get(i)? })
    }

    /// The animation at cell (`x`, `y`) of `seq`'s blend grid, each clamped to the grid (its
    /// entries are local to the sequence's group).
    pub fn grid_cell(&self, seq: SeqRef<'_>, x: usize, y: usize) -> Option<AnimRef<'_>> {
        let [g0, g1] = seq.seq.grid;
        let entry = y.min(g1.checked_sub(1)?).checked_mul(g0)?.checked_add(x.min(g0.checked_sub(1)?))?;
        self.animation(seq.group, *seq.seq.animations.get(entry)?)
    }

    /// The combined index of `group`'s local pose parameter.
    pub fn param(&self, group: usize, local: usize) -> Option<usize> {
        self.params.get(group)?.get(local).copied()
    }

    /// The bone of `group` that render bone `bone` is.
    pub fn group_bone(&self, group: usize, bone: usize) -> Option<usize> {
        self.bones.get(group)?.get(bone).copied().flatten()
    }

    /// The render bone a bone of `group` is.
    pub fn render_bone(&self, group: usize, local: usize) -> Option<usize> {
        self.render_bones.get(group)?.get(local).copied().flatten()
    }

    /// The weight of render bone `bone` in `seq` (its group's bone of that name; 0 if none,
    /// 1 where the sequence stores no list).
    pub fn weight(&self, seq: SeqRef<'_>, bone: usize) -> f32 {
        let Some(local) = self.group_bone(seq.group, bone) else { return 0.0 };
        if seq.seq.weights.is_empty() { 1.0 } else { seq.seq.weights.get(local).copied().unwrap_or(0.0) }
    }

    /// The combined pose parameter a sequence's cycle comes from (`STUDIO_CYCLEPOSE`).
    pub fn cycle_pose(&self, seq: SeqRef<'_>) -> Option<usize> {
        if seq.seq.flags & STUDIO_CYCLEPOSE == 0 {
            return None;
        }
        self.param(seq.group, seq.seq.cycle_pose?)
    }
}
