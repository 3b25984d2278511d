//! `studioview texture export|import|rename|uvmap`: a model's textures without the window,
//! through studio-edit's texture tools, so that a batch can run them. Source models export and
//! map their materials' textures (`texture_source_cmd.rs`); the rest is for version 10 models.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use studio_edit::texture::{self, ImageFormat, UvMapOptions};
use studio_model::{Loaded, Model};

/// A Half-Life model and its companions; a Source model is refused with the reason.
pub(crate) fn load(path: &Path) -> Result<Loaded, String> {
    if let Some(source) = studio_document::model_files::source_load(path) {
        return Err(match source {
            Ok(_) => "this is a Source model: its textures are its materials' VTF files, which are exported and mapped but not written; this command is for Half-Life (version 10) models".to_owned(),
            Err(error) => error.to_string(),
        });
    }
    studio_document::model_files::goldsrc_load(path).map_err(|e| e.to_string())
}

/// The texture called `name`: its name exactly or in another case, or without its extension
/// (`body` for `body.bmp`), or its number.
pub fn find_texture(model: &Model, name: &str) -> Result<usize, String> {
    let textures = &model.textures;
    let stem = |n: &str| n.rsplit_once('.').map_or(n, |(stem, _)| stem).to_owned();
    let found = textures
        .iter()
        .position(|t| t.name == name)
        .or_else(|| textures.iter().position(|t| t.name.eq_ignore_ascii_case(name)))
        .or_else(|| textures.iter().position(|t| stem(&t.name).eq_ignore_ascii_case(name)))
        .or_else(|| name.parse::<usize>().ok().filter(|&i| i < textures.len()));
    found.ok_or_else(|| {
        let names: Vec<&str> = textures.iter().map(|t| t.name.as_str()).collect();
        if names.is_empty() {
            format!("no texture {name:?}: the model has no textures")
        } else {
            format!("no texture {name:?}; the model has: {}", names.join(", "))
        }
    })
}

/// The model at `path` and the number of its texture called `name`; failure said.
fn load_texture(path: &Path, name: &str) -> Result<(Loaded, usize), ExitCode> {
    let loaded = load(path).map_err(|error| fail(path, error))?;
    let index = find_texture(&loaded.model, name).map_err(|error| fail(path, error))?;
    Ok((loaded, index))
}

/// Says what failed at `path` and returns failure.
pub(crate) fn fail(path: &Path, message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error {}: {message}", path.display());
    ExitCode::FAILURE
}

/// `studioview texture export MODEL --out DIR [--format png|bmp] [--texture NAME]`: every
/// texture, or one, as an indexed image named after it.
pub fn run_export(
    path: &Path,
    out: &Path,
    format: ImageFormat,
    name: Option<&str>,
    games: &[PathBuf],
) -> ExitCode {
    if let Some(source) = studio_document::model_files::source_load(path) {
        return match source {
            Ok(_) if format != ImageFormat::Png => {
                fail(path, "a Source model's textures are exported as PNG")
            }
            Ok(loaded) => crate::texture_source_cmd::run_export(path, &loaded.model, out, name, games),
            Err(error) => fail(path, error),
        };
    }
    let loaded = match load(path) {
        Ok(loaded) => loaded,
        Err(error) => return fail(path, error),
    };
    let model = &loaded.model;
    let only = match name.map(|n| find_texture(model, n)) {
        None => None,
        Some(Ok(index)) => Some(index),
        Some(Err(error)) => return fail(path, error),
    };
    match texture::export::write_all(&model.textures, out, format, only) {
        Ok(written) => {
            for (target, index) in written {
                let texture = &model.textures[index];
                crate::stdout::outln!(
                    "{}: {} ({} × {})",
                    target.display(),
                    texture.name,
                    texture.width,
                    texture.height
                );
            }
        }
        Err(error) => return fail(path, error),
    }
    ExitCode::SUCCESS
}

/// `studioview texture import MODEL --texture NAME --image FILE --out NEW.mdl`: the image over
/// the texture, saved with its companions beside the new file as Save As does.
pub fn run_import(path: &Path, name: &str, image: &Path, out: &Path) -> ExitCode {
    let (loaded, index) = match load_texture(path, name) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let started = std::time::Instant::now();
    let picture = match texture::read_picture(image) {
        Ok(picture) => picture,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let (_, after, report) = match texture::import_picture(&loaded.model, index, picture) {
        Ok(imported) => imported,
        Err(error) => return fail(path, error),
    };
    let mut model = loaded.model;
    if !texture::import::set_texture_image(&mut model, index, &after) {
        return fail(path, "the imported texture does not fit the model");
    }
    let imported = started.elapsed();
    let backup = out.exists();
    match studio_edit::save::save_goldsrc(&model, out, &loaded.companions, Some(path), backup) {
        Ok((written, _)) => {
            crate::stdout::outln!(
                "imported {} over {} in {:.1} ms: {}",
                image.display(),
                model.textures[index].name,
                imported.as_secs_f64() * 1e3,
                report.summary()
            );
            for file in written {
                crate::stdout::outln!("wrote {}", file.display());
            }
            ExitCode::SUCCESS
        }
        Err(error) => fail(out, error),
    }
}

/// `studioview texture rename MODEL --texture NAME --to NEW --out NEW.mdl`.
pub fn run_rename(path: &Path, name: &str, to: &str, out: &Path) -> ExitCode {
    let (loaded, index) = match load_texture(path, name) {
        Ok(found) => found,
        Err(code) => return code,
    };
    if !texture::is_valid_name(to) {
        return fail(path, format!("{to:?} cannot be a texture's name: 1 to 63 printable ASCII characters"));
    }
    let mut model = loaded.model;
    let old = std::mem::replace(&mut model.textures[index].name, to.to_owned());
    match studio_edit::save::save_goldsrc(&model, out, &loaded.companions, Some(path), out.exists()) {
        Ok((written, _)) => {
            crate::stdout::outln!("renamed {old} to {to}");
            for file in written {
                crate::stdout::outln!("wrote {}", file.display());
            }
            ExitCode::SUCCESS
        }
        Err(error) => fail(out, error),
    }
}

/// `studioview texture uvmap MODEL --texture NAME --out FILE.png`: the texture's UV layout.
pub fn run_uv_map(
    path: &Path,
    name: &str,
    out: &Path,
    options: &UvMapOptions,
    games: &[PathBuf],
) -> ExitCode {
    if let Some(source) = studio_document::model_files::source_load(path) {
        return match source {
            Ok(loaded) => {
                crate::texture_source_cmd::run_uv_map(path, &loaded.model, name, out, options, games)
            }
            Err(error) => fail(path, error),
        };
    }
    let (loaded, index) = match load_texture(path, name) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let (width, height, pixels) = match texture::uv_map(&loaded.model, index, options) {
        Ok(map) => map,
        Err(error) => return fail(path, error),
    };
    let image = studio_render::RgbaImage { width, height, pixels };
    if let Err(error) = studio_document::png_file::write_png(out, &image) {
        return fail(out, error);
    }
    crate::stdout::outln!(
        "{}: UV map of {} ({width} × {height})",
        out.display(),
        loaded.model.textures[index].name
    );
    ExitCode::SUCCESS
}
