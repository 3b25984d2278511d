//! A model with its include models as the engine combines them into one (source-bonesetup.md,
//! "Include models (virtual model)"): the render model's bones; sequences, animations and pose
//! parameters gathered from every group, with each group's local indices mapped by name.

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
    /// Per group, each local sequence's combined index, if its label survived.
    local_sequences: Vec<Vec<Option<usize>>>,
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
        let mut sequences: Vec<(usize, usize)> = Vec::new();
        let label = |(g, s): (usize, usize)| groups[g].sequences[s].label.to_ascii_lowercase();
        for (g, group) in groups.iter().enumerate() {
            for (s, seq) in group.sequences.iter().enumerate() {
                let name = seq.label.to_ascii_lowercase();
                match sequences.iter().position(|&known| label(known) == name) {
                    None => sequences.push((g, s)),
                    Some(i) => {
                        let (kg, ks) = sequences[i];
                        if groups[kg].sequences[ks].flags & STUDIO_OVERRIDE != 0 {
                            sequences[i] = (g, s);
                        }
                    }
                }
            }
        }
        let mut pose_parameters: Vec<PoseParameter> = Vec::new();
        let mut params = Vec::with_capacity(groups.len());
        for group in &groups {
            let mut map = Vec::with_capacity(group.pose_parameters.len());
            for p in &group.pose_parameters {
                match pose_parameters.iter().position(|known| known.name.eq_ignore_ascii_case(&p.name)) {
                    Some(i) => {
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
        // The first group's animation of each name wins (no overriding).
        let animations = groups
            .iter()
            .map(|group| {
                group
                    .animations
                    .iter()
                    .enumerate()
                    .map(|(local, animation)| {
                        groups
                            .iter()
                            .enumerate()
                            .find_map(|(g, model)| {
                                let i = model
                                    .animations
                                    .iter()
                                    .position(|a| a.name.eq_ignore_ascii_case(&animation.name))?;
                                Some((g, i))
                            })
                            .unwrap_or((0, local))
                    })
                    .collect()
            })
            .collect();
        let local_sequences = groups
            .iter()
            .map(|group| {
                group
                    .sequences
                    .iter()
                    .map(|seq| {
                        sequences.iter().position(|&known| label(known).eq_ignore_ascii_case(&seq.label))
                    })
                    .collect()
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
        self.local_sequences.get(group)?.get(local).copied().flatten()
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

    /// The animation a sequence of `group` names by its local index: the first group's animation
    /// with that name (no overriding), with that group.
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
