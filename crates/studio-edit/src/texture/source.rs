//! A Source model's textures: each material's VTF files (any format the VTF reader decodes) as
//! PNG, and a material's UV layout. Writing VTFs back is not done.
//!
//! A material's textures are its `$basetexture` (written as `NAME.png`), and where it has them
//! its `$bumpmap` (`NAME_normal.png`), `$lightwarptexture` (`NAME_lightwarp.png`) and `$iris`
//! (`NAME_iris.png`), NAME being the material's file name. Each is the largest mip of its first
//! frame.

use std::path::{Path, PathBuf};

use studio_material::{Material, Vtf};
use studio_render::RenderModel;

use super::uv_map::{UvMapError, UvMapOptions, draw};

/// A material's textures that were found and read, each with the suffix of its file name.
pub fn material_textures(found: &Material) -> Vec<(&'static str, &Vtf)> {
    let extra = &found.extra;
    [
        ("", found.vtf.as_ref()),
        ("_normal", extra.bump_map.as_ref()),
        ("_lightwarp", extra.light_warp.as_ref()),
        ("_iris", extra.iris.as_ref()),
    ]
    .into_iter()
    .filter_map(|(suffix, vtf)| Some((suffix, vtf?)))
    .collect()
}

/// The file name a material's texture is written to: the material's own name (its last path
/// part), the suffix, `.png`. Characters a file name cannot hold become `_`.
pub fn file_name(material: &str, suffix: &str) -> String {
    let name = material.rsplit(['/', '\\']).next().unwrap_or_default();
    let name: String =
        name.chars().map(|c| if c.is_control() || r#"<>:"/\|?*"#.contains(c) { '_' } else { c }).collect();
    let name = if name.trim().is_empty() { "material".to_owned() } else { name };
    format!("{name}{suffix}.png")
}

/// The PNG of a decoded texture.
pub fn png_bytes(vtf: &Vtf) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, vtf.width, vtf.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(&vtf.rgba).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}

/// What [`write_all`] wrote: each file with its material's number, and one note for each
/// material with no texture found (saying why).
pub type Written = (Vec<(PathBuf, usize)>, Vec<String>);

/// Writes the textures of `materials` (all, or only number `only`) into `dir` as PNG.
pub fn write_all(materials: &[Material], dir: &Path, only: Option<usize>) -> Result<Written, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    let mut notes = Vec::new();
    let mut taken = std::collections::HashSet::new();
    for (index, found) in materials.iter().enumerate() {
        if only.is_some_and(|only| only != index) {
            continue;
        }
        let textures = material_textures(found);
        if textures.is_empty() {
            let why = found.problem.clone().unwrap_or_else(|| "it names no texture".to_owned());
            notes.push(format!("material {}: nothing written: {why}", found.name));
        }
        for (suffix, vtf) in textures {
            let mut file = file_name(&found.name, suffix);
            if !taken.insert(file.to_ascii_lowercase()) {
                file = format!("{index}_{file}");
                taken.insert(file.to_ascii_lowercase());
            }
            let target = dir.join(file);
            std::fs::write(&target, png_bytes(vtf)?).map_err(|e| format!("{}: {e}", target.display()))?;
            written.push((target, index));
        }
    }
    Ok((written, notes))
}

/// The UV layout of material `index` of a Source model drawn by `render` (its meshes whose skin
/// slot shows the material in some skin family, every level of detail's first), over a picture
/// the size of `texture` (texture coordinates 0–1 cover it), over the texture itself when the
/// options say so.
pub fn uv_map(
    render: &RenderModel,
    index: usize,
    texture: &Vtf,
    options: &UvMapOptions,
) -> Result<(u32, u32, Vec<u8>), UvMapError> {
    let slots: Vec<usize> = (0..render.skins.first().map_or(0, Vec::len))
        .filter(|&slot| render.skins.iter().any(|family| family.get(slot).copied().flatten() == Some(index)))
        .collect();
    let (w, h) = (texture.width as f32, texture.height as f32);
    let mut edges = Vec::new();
    for part in &render.body_parts {
        for submodel in &part.submodels {
            let Some(lod) = submodel.lods.first() else { continue };
            for mesh in lod.iter().filter(|m| slots.contains(&m.slot)) {
                let point = |i: u32| mesh.vertices.get(i as usize).map(|v| [v.texel[0] * w, v.texel[1] * h]);
                for triangle in &mesh.triangles {
                    for (a, b) in [(0, 1), (1, 2), (2, 0)] {
                        if let (Some(p), Some(q)) = (point(triangle[a]), point(triangle[b])) {
                            edges.push([p, q]);
                        }
                    }
                }
            }
        }
    }
    let background = options.over_texture.then_some(texture.rgba.as_slice());
    draw(texture.width, texture.height, background, edges, options)
}
