//! Finding a model's materials in its game folders: a texture name from the `.mdl` is looked up
//! as `materials/<material folder>/<name>.vmt` for each of the model's material folders, loose
//! in each game folder (any case) and then in each game's archives; the `.vmt`'s
//! `$basetexture` as `materials/<texture>.vtf` the same way. Every path tried is kept, so a
//! viewer can say where it looked.

use studio_archive::GameFolders;
use studio_bytes::files::Found;

use crate::vmt::{Shading, Vmt, parse_vmt};
use crate::vtf::{Vtf, parse_vtf};

/// Most `patch` materials followed, one including the next.
const MAX_PATCH_DEPTH: usize = 8;

/// A material as found: its `.vmt`, what it says, its base texture, and where all was looked.
#[derive(Debug, Default)]
pub struct Material {
    /// The name the model gives.
    pub name: String,
    /// Where the `.vmt` was found.
    pub vmt_origin: Option<String>,
    /// The search path entry that supplied the `.vmt` (`game+mod  |gameinfo_path|.`, or a game
    /// folder's path).
    pub search_path: Option<String>,
    /// The search path entry that supplied the base texture.
    pub vtf_search_path: Option<String>,
    /// The `.vmt`'s text.
    pub vmt_text: Option<String>,
    /// What it says (after any `patch`).
    pub shading: Option<Shading>,
    /// Where the base texture was found.
    pub vtf_origin: Option<String>,
    /// The base texture.
    pub vtf: Option<Vtf>,
    /// The `$bumpmap`, `$lightwarptexture` and `$iris` textures, where found and read; where
    /// not, the note says so in `extra_problems` and the material draws without it.
    pub extra: ExtraTextures,
    /// Why an extra texture is left out.
    pub extra_problems: Vec<String>,
    /// Every path tried.
    pub tried: Vec<String>,
    /// Why it cannot be drawn as the material says, if it cannot.
    pub problem: Option<String>,
}

/// The textures a material draws with besides its base texture.
#[derive(Debug, Default)]
pub struct ExtraTextures {
    /// `$bumpmap`.
    pub bump_map: Option<Vtf>,
    /// `$lightwarptexture`.
    pub light_warp: Option<Vtf>,
    /// `$iris`.
    pub iris: Option<Vtf>,
}

/// The texture `materials/<path>.vtf` from `games`.
fn find_texture(games: &GameFolders, path: &str, tried: &mut Vec<String>) -> Result<Vtf, String> {
    let texture = path.replace('\\', "/");
    let texture = texture.trim_start_matches('/').trim_end_matches(".vtf");
    match games.find(&format!("materials/{texture}.vtf"), tried)? {
        Some(f) => parse_vtf(&f.bytes).map_err(|e| format!("{}: {e}", f.origin.display())),
        None => Err(format!("{texture} was not found")),
    }
}

/// The material `name` of a model whose material folders (`cdmaterials`) are `folders_of_model`,
/// looked up in `games`.
pub fn find_material(games: &GameFolders, folders_of_model: &[String], name: &str) -> Material {
    let mut material = Material { name: name.to_owned(), ..Material::default() };
    let name = name.replace('\\', "/");
    let mut found = None;
    for folder in folders_of_model {
        let folder = folder.replace('\\', "/");
        let folder = folder.trim_matches('/');
        let relative = if folder.is_empty() {
            format!("materials/{name}.vmt")
        } else {
            format!("materials/{folder}/{name}.vmt")
        };
        match games.find_place(&relative, &mut material.tried) {
            Ok(Some((f, place))) => {
                material.search_path = Some(games.places[place].entry.clone());
                found = Some(f);
                break;
            }
            Ok(None) => {}
            Err(e) => {
                material.problem = Some(e);
                return material;
            }
        }
    }
    let Some(vmt_file) = found else {
        material.problem = Some("no .vmt was found".to_owned());
        return material;
    };
    material.vmt_origin = Some(vmt_file.origin.display().to_string());
    material.vmt_text = Some(String::from_utf8_lossy(&vmt_file.bytes).into_owned());
    let vmt = match read_vmt(games, &vmt_file, &mut material.tried, 0) {
        Ok(vmt) => vmt,
        Err(e) => {
            material.problem = Some(e);
            return material;
        }
    };
    let shading = vmt.shading();
    if let Some(texture) = &shading.base_texture {
        let texture = texture.replace('\\', "/");
        let texture = texture.trim_start_matches('/').trim_end_matches(".vtf");
        match games.find_place(&format!("materials/{texture}.vtf"), &mut material.tried) {
            Ok(Some((f, place))) => match parse_vtf(&f.bytes) {
                Ok(vtf) => {
                    material.vtf_search_path = Some(games.places[place].entry.clone());
                    material.vtf = Some(vtf);
                    material.vtf_origin = Some(f.origin.display().to_string());
                }
                Err(e) => material.problem = Some(format!("{}: {e}", f.origin.display())),
            },
            Ok(None) => material.problem = Some(format!("its $basetexture {texture} was not found")),
            Err(e) => material.problem = Some(e),
        }
    } else if !shading.iris_is_base {
        material.problem = Some("it has no $basetexture".to_owned());
    }
    for (key, path, slot) in [
        ("$bumpmap", &shading.bump_map, &mut material.extra.bump_map),
        ("$lightwarptexture", &shading.light_warp, &mut material.extra.light_warp),
        ("$iris", &shading.iris, &mut material.extra.iris),
    ] {
        let Some(path) = path else { continue };
        match find_texture(games, path, &mut material.tried) {
            Ok(vtf) => *slot = Some(vtf),
            Err(e) => material.extra_problems.push(format!("its {key} is left out: {e}")),
        }
    }
    material.shading = Some(shading);
    material
}

/// A `.vmt` with its `patch` includes applied.
fn read_vmt(games: &GameFolders, file: &Found, tried: &mut Vec<String>, depth: usize) -> Result<Vmt, String> {
    let vmt = parse_vmt(&file.bytes).map_err(|e| format!("{}: {e}", file.origin.display()))?;
    let Some(include) = vmt.include.clone() else { return Ok(vmt) };
    if depth >= MAX_PATCH_DEPTH {
        return Err(format!(
            "{}: patch materials include each other more than {MAX_PATCH_DEPTH} deep",
            file.origin.display()
        ));
    }
    let base = games
        .find(&include.replace('\\', "/"), tried)?
        .ok_or_else(|| format!("{}: its include {include} was not found", file.origin.display()))?;
    Ok(vmt.patched(&read_vmt(games, &base, tried, depth + 1)?))
}
