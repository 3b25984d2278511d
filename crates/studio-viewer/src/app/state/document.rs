//! The open model's documents: a Half-Life model with its evaluator and edits, or a Source
//! model with its materials, search path and edits.

use std::path::PathBuf;
use std::sync::Arc;

use studio_model::Model;
use studio_pose::PoseEvaluator;

use studio_document::source_doc::SourceDoc;
use studio_edit::{GoldRecord, History, SourceRecord};

/// A loaded model with what is needed to pose it.
pub struct Loaded {
    /// The model.
    pub model: Arc<Model>,
    /// Where it came from (`None` for the bundled demo).
    pub path: Option<PathBuf>,
    /// Companion files read with it.
    pub companions: Vec<PathBuf>,
    /// Its pose evaluator (tables built as sequences are played).
    pub evaluator: PoseEvaluator,
    /// Its edits.
    pub history: History<GoldRecord>,
}

impl Loaded {
    /// `model`, read from `path` with `companions`, with no edits yet.
    pub fn new(model: Arc<Model>, path: Option<PathBuf>, companions: Vec<PathBuf>) -> Self {
        Self {
            evaluator: PoseEvaluator::new(model.clone()),
            model,
            path,
            companions,
            history: History::default(),
        }
    }
}

/// An open Source model: the document and its materials.
pub struct SourceView {
    /// The model and its pose.
    pub doc: SourceDoc,
    /// Its materials, one per texture.
    pub materials: Vec<studio_render::RenderMaterial>,
    /// What the lookup found for each material.
    pub found: Vec<studio_material::Material>,
    /// The game folders searched.
    pub folders: Vec<PathBuf>,
    /// The places searched, in order: the search path entry that put each there, and its path.
    pub places: Vec<(String, PathBuf)>,
    /// The game whose search path leads, if the model is in one.
    pub game: Option<PathBuf>,
    /// Counts material lookups, so the viewport uploads the model again after one.
    pub generation: u64,
    /// The model as its file on disk holds it: what edits are written into.
    pub saved: Arc<studio_source::SourceModel>,
    /// Its edits.
    pub history: History<SourceRecord>,
}

impl SourceView {
    /// Looks the materials up again in the model's game folder and `extra`, saying what is
    /// missing.
    pub(super) fn resolve(&mut self, extra: &[PathBuf]) -> Vec<String> {
        let resolved = studio_document::materials::resolve(&self.doc.model, &self.doc.path, extra);
        self.materials = resolved.materials;
        self.found = resolved.found;
        self.folders = resolved.folders;
        self.places = resolved.places;
        self.game = resolved.game;
        self.generation += 1;
        resolved.messages
    }
}
