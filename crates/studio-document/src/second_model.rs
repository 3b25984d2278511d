//! A second model drawn with the open one, either format:
//!
//! - **attached** by bone merge (a `p_` or `w_` weapon in a player's hand): each of its bones
//!   named as one of the model's takes that bone's world transform ([`crate::bone_merge`]);
//! - **beside** it, to compare: the whole model moved sideways by an offset.
//!
//! It plays its own sequence on the open model's clock: the attached model its first
//! animated sequence (the game plays a weapon's own idle), the compared one the sequence of
//! the open one's name where it has one, so that two versions of a model play side by side.
//! The command line's `render --attach` and the viewer's Attach and Compare share it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Affine3A, Vec3};
use studio_pose::{Pose, PoseEvaluator, PoseRequest};
use studio_render::{FramePose, RenderModel};

use crate::bone_merge::BoneMerge;
use crate::source_doc::SourceDoc;

/// How the second model is placed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Placement {
    /// By bone merge onto the open model.
    Attached,
    /// Moved by this offset, beside the open model.
    Beside(Vec3),
}

enum Kind {
    Gold { model: Arc<studio_model::Model>, evaluator: Box<PoseEvaluator>, pose: Pose, sequence: usize },
    Source(Box<SourceDoc>),
}

/// A second model and its pose.
pub struct SecondModel {
    kind: Kind,
    merge: BoneMerge,
    /// How it is placed.
    pub placement: Placement,
    /// Where it was read from.
    pub path: PathBuf,
    /// The model as the renderer takes it.
    pub render: RenderModel,
    /// What looking its materials up said (Source), one line each.
    pub notes: Vec<String>,
}

impl SecondModel {
    /// Loads the model at `path` to attach to a model whose bones are named `parent`; Source
    /// materials are looked up in its game and `games`. Errors name the file.
    pub fn attach(path: &Path, parent: &[&str], games: &[PathBuf]) -> Result<Self, String> {
        Self::load(path, parent, games, Placement::Attached)
    }

    /// Loads the model at `path` to show beside one whose box is `beside`: moved along −y by
    /// both models' half widths and a tenth of the wider one between them.
    pub fn compare(path: &Path, beside: (Vec3, Vec3), games: &[PathBuf]) -> Result<Self, String> {
        let mut second = Self::load(path, &[], games, Placement::Attached)?;
        // Its own first pose, unmoved, measures it.
        second.pose(0.0, &[])?;
        let own = second.bounds();
        let width = |(lo, hi): (Vec3, Vec3)| if (hi - lo).is_finite() { (hi.y - lo.y).max(0.0) } else { 0.0 };
        let centre = |(lo, hi): (Vec3, Vec3)| if (hi - lo).is_finite() { (lo.y + hi.y) / 2.0 } else { 0.0 };
        let (a, b) = (width(beside), width(own));
        let gap = a.max(b) * 0.1;
        // From the open model's centre line to the second's: their half widths and the gap,
        // less how far the second's box sits off its own origin.
        let y = centre(beside) - (a + b) / 2.0 - gap - centre(own);
        second.placement = Placement::Beside(Vec3::new(0.0, y, 0.0));
        Ok(second)
    }

    fn load(path: &Path, parent: &[&str], games: &[PathBuf], placement: Placement) -> Result<Self, String> {
        let name = path.display();
        if let Some(loaded) = crate::model_files::source_load(path) {
            let loaded = loaded.map_err(|e| format!("{name}: {e}"))?;
            let doc = SourceDoc::new(loaded.model, path.to_path_buf(), loaded.companions);
            let merge = BoneMerge::new(doc.model.bones.iter().map(|b| (b.name.as_str(), b.parent)), parent);
            let materials = crate::materials::resolve(&doc.model, path, games);
            let render = studio_render::source::render_model(&doc.model, materials.materials);
            return Ok(Self {
                kind: Kind::Source(Box::new(doc)),
                merge,
                placement,
                path: path.to_path_buf(),
                render,
                notes: materials.messages,
            });
        }
        let model =
            Arc::new(crate::model_files::goldsrc_load(path).map_err(|e| format!("{name}: {e}"))?.model);
        let merge = BoneMerge::new(model.bones.iter().map(|b| (b.name.as_str(), b.parent)), parent);
        let sequence = model.sequences.iter().position(|s| s.animation.is_some()).unwrap_or(0);
        let render = studio_render::goldsrc::render_model(&model);
        let (evaluator, pose) = (Box::new(PoseEvaluator::new(model.clone())), Pose::new(&model));
        Ok(Self {
            kind: Kind::Gold { model, evaluator, pose, sequence },
            merge,
            placement,
            path: path.to_path_buf(),
            render,
            notes: Vec::new(),
        })
    }

    /// How many of its bones follow one of the open model's (0 when beside it).
    pub fn matched(&self) -> usize {
        match self.placement {
            Placement::Attached => self.merge.matched(),
            Placement::Beside(_) => 0,
        }
    }

    /// Plays the sequence named `name` (case ignored) from now on, when it has one; says
    /// whether it has.
    pub fn select_sequence(&mut self, name: &str) -> bool {
        match &mut self.kind {
            Kind::Gold { model, sequence, .. } => {
                match model.sequences.iter().position(|s| s.label.eq_ignore_ascii_case(name)) {
                    Some(found) => {
                        *sequence = found;
                        true
                    }
                    None => false,
                }
            }
            Kind::Source(doc) => {
                match crate::sequences::find_rig_sequence(doc.evaluator.rig(), name)
                    .filter(|_| name.parse::<usize>().is_err())
                {
                    Some(found) => {
                        doc.sequence = found;
                        true
                    }
                    None => false,
                }
            }
        }
    }

    /// The name of the sequence it plays.
    pub fn sequence_name(&self) -> String {
        match &self.kind {
            Kind::Gold { model, sequence, .. } => {
                model.sequences.get(*sequence).map(|s| s.label.clone()).unwrap_or_default()
            }
            Kind::Source(doc) => doc.evaluator.rig().label(doc.sequence).unwrap_or_default().to_owned(),
        }
    }

    /// Poses it `seconds` into its sequence (looping), placed on the open model whose world
    /// bones are `parent`.
    pub fn pose(&mut self, seconds: f32, parent: &[Affine3A]) -> Result<(), String> {
        let placement = self.placement;
        let place = |merge: &mut BoneMerge, bones: &mut [Affine3A]| match placement {
            Placement::Attached => merge.apply(bones, parent),
            Placement::Beside(offset) => {
                let moved = Affine3A::from_translation(offset);
                bones.iter_mut().for_each(|b| *b = moved * *b);
            }
        };
        match &mut self.kind {
            Kind::Gold { model, evaluator, pose, sequence } => {
                if let Some(seq) = model.sequences.get(*sequence) {
                    let frame = studio_pose::playback::frame_at(seq, f64::from(seconds), 1.0);
                    let request = PoseRequest { sequence: *sequence, frame, ..PoseRequest::default() };
                    evaluator.evaluate_bones(&request, pose).map_err(|e| e.to_string())?;
                }
                place(&mut self.merge, &mut pose.bones);
                pose.place_points(model);
            }
            Kind::Source(doc) => {
                let rate = doc.cycle_rate();
                let cycle = seconds * rate;
                doc.cycle = if cycle.is_finite() { cycle.rem_euclid(1.0) } else { 0.0 };
                doc.evaluate();
                place(&mut self.merge, &mut doc.frame.bones);
                let sequence_box = doc.sequence(doc.sequence).map(|s| (s.bbmin, s.bbmax));
                let set = doc.hitbox_set;
                doc.frame.place(&doc.model, set, sequence_box);
            }
        }
        Ok(())
    }

    /// Its world bones as last posed.
    pub fn bones(&self) -> &[Affine3A] {
        match &self.kind {
            Kind::Gold { pose, .. } => &pose.bones,
            Kind::Source(doc) => &doc.frame.bones,
        }
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

    /// The box round its pose as last posed: bones, hit boxes and the vertices of body 0.
    pub fn bounds(&self) -> (Vec3, Vec3) {
        match &self.kind {
            Kind::Gold { model, pose, .. } => crate::bounds::pose_bounds(model, pose, 0),
            Kind::Source(doc) => doc.bounds(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Option<PathBuf> {
        Some(studio_testing::shared()?.join(name))
    }

    #[test]
    fn a_compared_model_stands_beside_the_open_one_and_plays_its_sequence_by_name() {
        let Some(path) = fixture("models/ns/soldier.mdl") else { return };
        let open = ((Vec3::new(-20.0, -16.0, 0.0)), Vec3::new(20.0, 16.0, 72.0));
        let mut second = SecondModel::compare(&path, open, &[]).unwrap();
        let Placement::Beside(offset) = second.placement else { panic!("not beside") };
        assert!(offset.y < -16.0, "{offset}");
        assert_eq!(second.matched(), 0);
        assert!(second.select_sequence("RUN"));
        assert_eq!(second.sequence_name(), "run");
        assert!(!second.select_sequence("no such sequence"));
        assert_eq!(second.sequence_name(), "run");
        second.pose(0.5, &[]).unwrap();
        // Every bone lies right of the open model's box (towards −y) and the boxes do not meet.
        let (_, max) = second.bounds();
        assert!(max.y < open.0.y, "{max} against {}", open.0);
        // Moved, not merged: the same pose as attached to nothing, shifted by the offset.
        let moved = second.bones().to_vec();
        let mut alone = SecondModel::attach(&path, &[], &[]).unwrap();
        assert!(alone.select_sequence("run"));
        alone.pose(0.5, &[]).unwrap();
        for (m, a) in moved.iter().zip(alone.bones()) {
            assert!(m.abs_diff_eq(Affine3A::from_translation(offset) * *a, 1e-4));
        }
    }

    #[test]
    fn an_unreadable_model_is_an_error_naming_it() {
        let dir = std::env::temp_dir().join(format!("studioview-second-model-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("broken.mdl");
        std::fs::write(&path, b"IDST\x0a\0\0\0short").unwrap();
        let error = SecondModel::attach(&path, &["a"], &[]).err().unwrap();
        std::fs::remove_dir_all(&dir).ok();
        assert!(error.contains("broken.mdl"), "{error}");
    }
}
