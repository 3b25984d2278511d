//! `studioview export` and File ▸ Export glTF: a model as glTF 2.0 (issue 13), through
//! studio-gltf. The adapters fill an `ExportModel` from each format's model and pose evaluator
//! ([`goldsrc`], [`source`]); the geometry comes from the renderer's format-free model, so the
//! export shows the body, skin and LOD the viewer draws.

pub mod goldsrc;
pub mod source;

use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

use glam::{Affine3A, Vec3};
use studio_gltf::{AlphaMode, ExportMaterial, ExportMesh, ExportModel, ExportPrimitive, ExportVertex};
use studio_render::{Blend, RenderModel};

/// What to export.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// Body, skin, level of detail and game folders.
    pub shown: crate::shown::Shown,
    /// Sequences by number or name; all when empty.
    pub sequences: Vec<String>,
    /// Model units per glTF unit.
    pub scale: f32,
}

impl Default for ExportOptions {
    fn default() -> Self {
        Self { shown: Default::default(), sequences: Vec::new(), scale: 1.0 }
    }
}

/// A progress bar on the terminal, shown once an export has taken a second.
pub struct Progress {
    started: Instant,
    shown: bool,
    terminal: bool,
}

impl Progress {
    /// A bar that shows on a terminal's standard error.
    pub fn new() -> Self {
        Self { started: Instant::now(), shown: false, terminal: std::io::stderr().is_terminal() }
    }

    /// `done` of `total` animations exported.
    pub fn update(&mut self, done: usize, total: usize) {
        if !self.terminal || total == 0 || self.started.elapsed().as_secs_f32() < 1.0 {
            return;
        }
        self.shown = true;
        let filled = done * 30 / total;
        eprint!("\rexporting [{}{}] {done}/{total} animations", "#".repeat(filled), " ".repeat(30 - filled));
    }

    /// Ends the bar's line, if it showed.
    pub fn finish(&self) {
        if self.shown {
            eprintln!();
        }
    }
}

impl Default for Progress {
    fn default() -> Self {
        Self::new()
    }
}

/// The meshes of `render`: the submodel `body` chooses in each body part at `lod`, one
/// primitive per material of skin family `skin`, vertices taken to the bind pose by `bind`
/// (a vertex's position by its first bone, a rigid normal by its own bone), triangles turned
/// counter-clockwise.
pub fn meshes(
    render: &RenderModel,
    body: i32,
    lod: usize,
    skin: usize,
    names: &[String],
    bind: impl Fn(usize) -> Option<Affine3A>,
) -> Vec<ExportMesh> {
    let mut out = Vec::new();
    for (p, part) in render.body_parts.iter().enumerate() {
        let Some(choice) = part.submodel_index(body) else { continue };
        let Some(submodel) = part.submodels.get(choice) else { continue };
        let Some(meshes) = submodel.lods.get(lod).or(submodel.lods.last()) else { continue };
        let mut primitives: Vec<ExportPrimitive> = Vec::new();
        for mesh in meshes {
            let material = render.skins.get(skin).and_then(|f| *f.get(mesh.slot)?);
            let scale = material.and_then(|m| render.materials.get(m)).map_or([1.0, 1.0], |m| m.texel_scale);
            let vertex = |i: u32| -> Option<ExportVertex> {
                let v = mesh.vertices.get(i as usize)?;
                // GoldSrc vertices are in their bones' space, and `bind` takes them to the bind
                // pose; Source vertices are in it already, and `bind` gives nothing.
                let (mut position, mut normal) = (Vec3::from(v.position), Vec3::from(v.normal));
                if v.position_bones().chain(v.normal_bones()).any(|(b, _)| bind(usize::from(b)).is_some()) {
                    let at = |b: u8| bind(usize::from(b)).unwrap_or(Affine3A::IDENTITY);
                    position = v.position_bones().map(|(b, w)| at(b).transform_point3(position) * w).sum();
                    normal = v.normal_bones().map(|(b, w)| at(b).transform_vector3(normal) * w).sum();
                }
                Some(ExportVertex {
                    position,
                    normal,
                    uv: [v.texel[0] * scale[0], v.texel[1] * scale[1]],
                    joints: v.bones.map(u16::from),
                    weights: [v.weights[0], v.weights[1], v.weights[2], 0.0],
                })
            };
            let triangles: Vec<[ExportVertex; 3]> = mesh
                .triangles
                .iter()
                .filter_map(|t| Some([vertex(t[0])?, vertex(t[2])?, vertex(t[1])?]))
                .collect();
            match primitives.iter_mut().find(|p| p.material == material) {
                Some(primitive) => primitive.triangles.extend(triangles),
                None => primitives.push(ExportPrimitive { material, triangles }),
            }
        }
        primitives.retain(|p| !p.triangles.is_empty());
        if !primitives.is_empty() {
            let name = names.get(p).cloned().unwrap_or_else(|| format!("body part {p}"));
            out.push(ExportMesh { name, primitives });
        }
    }
    out
}

/// The renderer's materials as glTF materials: the texture, masked (alpha test) or blended
/// (translucent, and additive, which glTF lacks); `missing` ones untextured.
pub fn materials(render: &RenderModel, missing: &[bool]) -> Vec<ExportMaterial> {
    render
        .materials
        .iter()
        .enumerate()
        .map(|(i, m)| ExportMaterial {
            name: m.name.clone(),
            image: if missing.get(i).copied().unwrap_or(false) {
                None
            } else {
                m.image.as_ref().map(|img| (img.width, img.height, img.rgba.clone()))
            },
            alpha: match m.blend {
                Blend::Translucent | Blend::Additive => AlphaMode::Blend,
                Blend::Opaque if m.alpha_test > 0.0 => AlphaMode::Mask(m.alpha_test),
                Blend::Opaque => AlphaMode::Opaque,
            },
            double_sided: m.double_sided,
        })
        .collect()
}

/// Which of `count` sequences to export: the ones `wanted` names (by number, or by name through
/// `find`), or all.
pub fn chosen(
    count: usize,
    wanted: &[String],
    find: impl Fn(&str) -> Option<usize>,
) -> Result<Vec<usize>, String> {
    if wanted.is_empty() {
        return Ok((0..count).collect());
    }
    wanted.iter().map(|w| find(w).ok_or_else(|| format!("no sequence {w:?}"))).collect()
}

/// Writes `model` to `out`: `.glb` as one file, `.gltf` with a `.bin` beside it.
pub fn write(model: &ExportModel, out: &Path) -> Result<u64, String> {
    let document = studio_gltf::document(model).map_err(|e| e.to_string())?;
    let extension = out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let write = |path: &Path, bytes: &[u8]| {
        std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    };
    match extension.as_deref() {
        Some("glb") => {
            let bytes = studio_gltf::glb(&document).map_err(|e| e.to_string())?;
            write(out, &bytes)?;
            Ok(bytes.len() as u64)
        }
        Some("gltf") => {
            let bin = out.with_extension("bin");
            let bin_name = bin.file_name().and_then(|n| n.to_str()).unwrap_or("model.bin").to_owned();
            let json = studio_gltf::gltf_json(&document, &bin_name).map_err(|e| e.to_string())?;
            write(out, &json)?;
            write(&bin, &document.bin)?;
            Ok((json.len() + document.bin.len()) as u64)
        }
        _ => Err(format!("{}: the output must end in .glb or .gltf", out.display())),
    }
}

/// The export of the model at `path`, either format.
pub fn export_model(
    path: &Path,
    options: &ExportOptions,
    progress: &mut Progress,
) -> Result<(ExportModel, Vec<String>), String> {
    if let Some(loaded) = crate::model_files::source_load(path) {
        let loaded = loaded.map_err(|e| e.to_string())?;
        let mut doc = crate::source_doc::SourceDoc::new(loaded.model, path.to_path_buf(), loaded.companions);
        return source::export(&mut doc, options, progress);
    }
    let model = std::sync::Arc::new(crate::demo::load_or_demo(Some(path))?);
    goldsrc::export(&model, options, progress)
}
