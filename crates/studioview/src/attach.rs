//! `render --attach MODEL`: a model drawn on the rendered one by bone merge (a `p_` or `w_`
//! weapon in a player's hand), either format: its first sequence plays on its own clock, and
//! each of its bones named as one of the model's takes that bone's place
//! (studio-document's `bone_merge`).

use std::path::Path;
use std::sync::Arc;

use glam::Affine3A;
use studio_document::bone_merge::BoneMerge;
use studio_document::source_doc::SourceDoc;
use studio_pose::{Pose, PoseEvaluator, PoseRequest};
use studio_render::{FramePose, RenderModel};

enum Kind {
    Gold { model: Arc<studio_model::Model>, evaluator: Box<PoseEvaluator>, pose: Pose, sequence: usize },
    Source(Box<SourceDoc>),
}

/// A model attached to the one rendered.
pub struct Attached {
    kind: Kind,
    merge: BoneMerge,
    /// The model as the renderer takes it.
    pub render: RenderModel,
}

impl Attached {
    /// Loads the model at `path` to attach to a model whose bones are named `parent`; Source
    /// materials are looked up in its game and `games`.
    pub fn load(path: &Path, parent: &[&str], games: &[std::path::PathBuf]) -> Result<Self, String> {
        let name = path.display();
        if let Some(loaded) = studio_document::model_files::source_load(path) {
            let loaded = loaded.map_err(|e| format!("--attach {name}: {e}"))?;
            let doc = SourceDoc::new(loaded.model, path.to_path_buf(), loaded.companions);
            let merge = BoneMerge::new(doc.model.bones.iter().map(|b| (b.name.as_str(), b.parent)), parent);
            let materials = studio_document::materials::resolve(&doc.model, path, games);
            for line in &materials.messages {
                eprintln!("note: --attach {name}: {line}");
            }
            let render = studio_render::source::render_model(&doc.model, materials.materials);
            return Ok(Self { kind: Kind::Source(Box::new(doc)), merge, render });
        }
        let model = Arc::new(
            studio_document::model_files::goldsrc_load(path)
                .map_err(|e| format!("--attach {name}: {e}"))?
                .model,
        );
        let merge = BoneMerge::new(model.bones.iter().map(|b| (b.name.as_str(), b.parent)), parent);
        let sequence = model.sequences.iter().position(|s| s.animation.is_some()).unwrap_or(0);
        let render = studio_render::goldsrc::render_model(&model);
        let (evaluator, pose) = (Box::new(PoseEvaluator::new(model.clone())), Pose::new(&model));
        Ok(Self { kind: Kind::Gold { model, evaluator, pose, sequence }, merge, render })
    }

    /// How many of its bones follow one of the model's.
    pub fn matched(&self) -> usize {
        self.merge.matched()
    }

    /// Poses it `seconds` into its first sequence, merged onto the model's world bones `parent`.
    pub fn pose(&mut self, seconds: f32, parent: &[Affine3A]) -> Result<(), String> {
        match &mut self.kind {
            Kind::Gold { model, evaluator, pose, sequence } => {
                if let Some(seq) = model.sequences.get(*sequence) {
                    let frame = studio_pose::playback::frame_at(seq, f64::from(seconds), 1.0);
                    let request = PoseRequest { sequence: *sequence, frame, ..PoseRequest::default() };
                    evaluator.evaluate_bones(&request, pose).map_err(|e| e.to_string())?;
                }
                self.merge.apply(&mut pose.bones, parent);
                pose.place_points(model);
            }
            Kind::Source(doc) => {
                let rate = doc.cycle_rate();
                let cycle = seconds * rate;
                doc.cycle = if cycle.is_finite() { cycle.rem_euclid(1.0) } else { 0.0 };
                doc.evaluate();
                self.merge.apply(&mut doc.frame.bones, parent);
                let sequence_box = doc.sequence(doc.sequence).map(|s| (s.bbmin, s.bbmax));
                let set = doc.hitbox_set;
                doc.frame.place(&doc.model, set, sequence_box);
            }
        }
        Ok(())
    }

    /// Its pose as the renderer takes it.
    pub fn frame_pose(&self) -> FramePose<'_> {
        match &self.kind {
            Kind::Gold { model, pose, sequence, .. } => {
                studio_render::goldsrc::frame_pose(model, pose, Some(*sequence))
            }
            Kind::Source(doc) => doc.frame.frame_pose(),
        }
    }
}
