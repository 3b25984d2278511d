//! The bundled demo model (`assets/demo.mdl`, built by the `studio-demo` crate), compiled into
//! the binary so that it is there wherever the binary goes.

use studio_model::Model;

/// The bytes of `assets/demo.mdl`.
pub const DEMO_MDL: &[u8] = include_bytes!("../../../assets/demo.mdl");

/// The demo model, parsed.
pub fn demo_model() -> Result<Model, String> {
    Model::parse(DEMO_MDL).map_err(|e| format!("the bundled demo model: {e}"))
}

/// The model at `path`, or the demo model when there is none.
pub fn load_or_demo(path: Option<&std::path::Path>) -> Result<Model, String> {
    match path {
        Some(path) => crate::model_files::goldsrc_load(path).map(|l| l.model).map_err(|e| e.to_string()),
        None => demo_model(),
    }
}
