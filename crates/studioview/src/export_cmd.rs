//! `studioview export MODEL --out FILE`: the model as glTF (studio-document's `export`).

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use studio_document::export::{ExportOptions, Progress, export_model, goldsrc, write};

/// `studioview export`.
pub fn run(model: Option<&Path>, out: &Path, options: &ExportOptions) -> ExitCode {
    studio_document::installs::shared(|| run_now(model, out, options))
}

/// [`run`], inside [`studio_document::installs::shared`]: the model's game opened once.
fn run_now(model: Option<&Path>, out: &Path, options: &ExportOptions) -> ExitCode {
    let known = out
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| matches!(e.to_ascii_lowercase().as_str(), "glb" | "gltf"));
    if !known {
        eprintln!("error: {}: the output must end in .glb or .gltf", out.display());
        return ExitCode::FAILURE;
    }
    let started = Instant::now();
    let mut progress = Progress::new();
    let result = match model {
        Some(path) => export_model(path, options, &mut progress),
        None => studio_document::demo::demo_model()
            .and_then(|m| goldsrc::export(&std::sync::Arc::new(m), options, &mut progress)),
    };
    let written = result.and_then(|(export, warnings)| {
        for warning in &warnings {
            eprintln!("warning: {warning}");
        }
        let bytes = write(&export, out)?;
        Ok((export, bytes))
    });
    progress.finish();
    match written {
        Ok((export, bytes)) => {
            crate::stdout::outln!(
                "wrote {}: {} bones, {} meshes, {} materials, {} animations, {bytes} bytes in {:.2} s",
                out.display(),
                export.bones.len(),
                export.meshes.len(),
                export.materials.len(),
                export.animations.len(),
                started.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
