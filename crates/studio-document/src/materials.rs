//! A Source model's materials for drawing: each texture name looked up in the model's game
//! folder (the folder above its `models/`, or its archive's) and the folders the user adds, loose
//! or in their archives ([`studio_material::find_material`]). What cannot be found or read draws
//! the magenta and black checkerboard, and its note names every path tried.

use std::path::{Path, PathBuf};

use studio_material::{GameFolders, Material};
use studio_render::{Blend, Image, RenderMaterial};
use studio_source::SourceModel;

/// The materials of a model, one per texture, and what was found out on the way.
#[derive(Debug, Default)]
pub struct Resolved {
    /// One per texture of the model, in order.
    pub materials: Vec<RenderMaterial>,
    /// What was found for each, in order.
    pub found: Vec<Material>,
    /// Lines for the messages panel: one per material that draws as the checkerboard, and one
    /// per archive that could not be read.
    pub messages: Vec<String>,
    /// The game folders searched.
    pub folders: Vec<PathBuf>,
    /// The places searched, in order: the search path entry that put each there, and its path.
    pub places: Vec<(String, PathBuf)>,
    /// The game whose search path leads, if the model is in one.
    pub game: Option<PathBuf>,
}

/// The folders below `materials/` a model's materials are looked up in: its `cdmaterials`, or
/// the top when it names none.
pub fn material_folders(model: &SourceModel) -> Vec<String> {
    if model.material_paths.is_empty() { vec![String::new()] } else { model.material_paths.clone() }
}

/// The materials of `model` (read from `path`), looked up in its game folder and `extra`.
pub fn resolve(model: &SourceModel, path: &Path, extra: &[PathBuf]) -> Resolved {
    let search = crate::installs::search(path, extra);
    let games: GameFolders = search.folders;
    let mut resolved = Resolved {
        folders: games.roots.clone(),
        places: games.places.iter().map(|p| (p.entry.clone(), games.place_path(p).to_owned())).collect(),
        game: search.game,
        ..Resolved::default()
    };
    resolved.messages.extend(search.problems);
    resolved.messages.extend(search.list.notes.iter().map(|n| format!("search path: {n}")));
    resolved.messages.extend(games.broken_archives.iter().map(|e| format!("archive not read: {e}")));
    let material_folders = material_folders(model);
    for texture in &model.textures {
        let found = studio_material::find_material(&games, &material_folders, &texture.name);
        if let Some(problem) = &found.problem {
            resolved.messages.push(format!(
                "material {}: drawn as a checkerboard: {problem} (tried {})",
                texture.name,
                found.tried.join(", ")
            ));
        }
        for problem in &found.extra_problems {
            resolved.messages.push(format!("material {}: {problem}", texture.name));
        }
        resolved.materials.push(render_material(&found));
        resolved.found.push(found);
    }
    resolved
}

/// How a found material is drawn: its texture (or the checkerboard when it has none) and the
/// flags of its `.vmt`.
pub fn render_material(found: &Material) -> RenderMaterial {
    let iris_is_base = found.shading.as_ref().is_some_and(|s| s.iris_is_base);
    let image = match &found.vtf {
        Some(vtf) => Some(Image { width: vtf.width, height: vtf.height, rgba: vtf.rgba.clone() }),
        // EyeRefract draws its iris alone: white under it, which the opaque iris covers.
        None if iris_is_base && found.problem.is_none() => None,
        None => Some(Image::checkerboard()),
    };
    let image_of = |vtf: &Option<studio_material::Vtf>| {
        vtf.as_ref().map(|v| Image { width: v.width, height: v.height, rgba: v.rgba.clone() })
    };
    let mut material = RenderMaterial {
        name: found.name.clone(),
        image,
        normal_map: image_of(&found.extra.bump_map),
        light_warp: image_of(&found.extra.light_warp),
        iris: image_of(&found.extra.iris).map(|mut iris| {
            if iris_is_base {
                iris.rgba.chunks_exact_mut(4).for_each(|texel| texel[3] = 255);
            }
            iris
        }),
        ..RenderMaterial::default()
    };
    if let Some(s) = &found.shading {
        material.blend = if s.additive {
            Blend::Additive
        } else if s.translucent {
            Blend::Translucent
        } else {
            Blend::Opaque
        };
        material.alpha_test = s.alpha_test.unwrap_or(0.0);
        material.double_sided = s.no_cull;
        material.self_illum = s.self_illum;
        material.phong = s.phong.map(|p| studio_render::scene::PhongParams {
            exponent: p.exponent,
            boost: p.boost,
            fresnel_ranges: p.fresnel_ranges,
        });
        material.reflective = s.env_map;
        material.tint = std::array::from_fn(|i| s.color[i] * s.color2[i]);
    }
    material
}
