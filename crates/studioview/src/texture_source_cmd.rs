//! `studioview texture export|uvmap` for a Source model: its materials' textures found as the
//! game finds them (the model's game folder and `--game` folders), written as PNG.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use studio_edit::texture::UvMapOptions;
use studio_source::SourceModel;

use crate::texture_cmd::fail;

/// The material called `name`: its name exactly or in another case, its last path part, or its
/// number.
fn find_material(model: &SourceModel, name: &str) -> Result<usize, String> {
    let names: Vec<&str> = model.textures.iter().map(|t| t.name.as_str()).collect();
    let last = |n: &str| n.rsplit(['/', '\\']).next().unwrap_or(n).to_owned();
    names
        .iter()
        .position(|n| n.eq_ignore_ascii_case(name))
        .or_else(|| names.iter().position(|n| last(n).eq_ignore_ascii_case(name)))
        .or_else(|| name.parse::<usize>().ok().filter(|&i| i < names.len()))
        .ok_or_else(|| format!("no material {name:?}; the model has: {}", names.join(", ")))
}

/// `texture export` of a Source model: every material's textures, or one material's.
pub fn run_export(
    path: &Path,
    model: &SourceModel,
    out: &Path,
    name: Option<&str>,
    games: &[PathBuf],
) -> ExitCode {
    let only = match name.map(|n| find_material(model, n)) {
        None => None,
        Some(Ok(index)) => Some(index),
        Some(Err(error)) => return fail(path, error),
    };
    let resolved = studio_document::materials::resolve(model, path, games);
    match studio_edit::texture::source::write_all(&resolved.found, out, only) {
        Ok((written, notes)) => {
            for note in notes {
                eprintln!("warning {}: {note}", path.display());
            }
            for (target, index) in written {
                crate::stdout::outln!("{}: {}", target.display(), resolved.found[index].name);
            }
            ExitCode::SUCCESS
        }
        Err(error) => fail(path, error),
    }
}

/// `texture uvmap` of a Source model: the UV layout of one material over its base texture's size.
pub fn run_uv_map(
    path: &Path,
    model: &SourceModel,
    name: &str,
    out: &Path,
    options: &UvMapOptions,
    games: &[PathBuf],
) -> ExitCode {
    let index = match find_material(model, name) {
        Ok(index) => index,
        Err(error) => return fail(path, error),
    };
    let resolved = studio_document::materials::resolve(model, path, games);
    let found = &resolved.found[index];
    let Some(vtf) = found.vtf.as_ref() else {
        let why = found.problem.clone().unwrap_or_else(|| "it names no texture".to_owned());
        return fail(path, format!("material {}: no texture to size the UV map by: {why}", found.name));
    };
    let render = studio_render::source::render_model(model, resolved.materials.clone());
    let (width, height, pixels) = match studio_edit::texture::source::uv_map(&render, index, vtf, options) {
        Ok(map) => map,
        Err(error) => return fail(path, error),
    };
    if let Err(error) =
        studio_document::png_file::write_png(out, &studio_render::RgbaImage { width, height, pixels })
    {
        return fail(out, error);
    }
    crate::stdout::outln!("{}: UV map of {} ({width} × {height})", out.display(), found.name);
    ExitCode::SUCCESS
}
