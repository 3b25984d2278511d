//! A Source model's materials for drawing. Reading `.vmt`/`.vtf` files (loose or in `.vpk`
//! archives) is not built yet: every material draws the magenta and black checkerboard, and the
//! messages say which `.vmt` files it would be looked up as.

use std::path::{Path, PathBuf};

use studio_render::RenderMaterial;
use studio_source::SourceModel;

/// The materials of a model, one per texture, and what was found out on the way.
#[derive(Debug, Default)]
pub struct Resolved {
    /// One per texture of the model, in order.
    pub materials: Vec<RenderMaterial>,
    /// Lines for the messages panel.
    pub messages: Vec<String>,
}

/// The `.vmt` paths, relative to a game folder, that texture `name` is looked up as: one per
/// material folder (`cdmaterials`) of the model, in order.
pub fn candidates(model: &SourceModel, name: &str) -> Vec<String> {
    let name = name.replace('\\', "/");
    model
        .material_paths
        .iter()
        .map(|dir| {
            let dir = dir.replace('\\', "/");
            let dir = dir.trim_matches('/');
            if dir.is_empty() {
                format!("materials/{name}.vmt")
            } else {
                format!("materials/{dir}/{name}.vmt")
            }
        })
        .collect()
}

/// The materials of `model` (read from `path`), looked up in its game folder and `extra`.
pub fn resolve(model: &SourceModel, path: &Path, extra: &[PathBuf]) -> Resolved {
    let _ = (path, extra);
    let mut resolved = Resolved::default();
    for texture in &model.textures {
        resolved.materials.push(studio_render::source::missing_material(&texture.name));
        resolved.messages.push(format!(
            "material {}: drawn as a checkerboard (materials are not read yet; it would be {})",
            texture.name,
            candidates(model, &texture.name).join(" or ")
        ));
    }
    resolved
}
