//! `studioview decompile MODEL --out DIR`: finds the model and its companions (loose or in an
//! archive) and hands them to studio-decompile, which makes the files.

use std::path::Path;
use std::process::ExitCode;

use studio_decompile::{DecompileError, Decompiled, stem_of};

/// Decompiles the model at `path` (a file or `archive:path`), with a Source model's include
/// models when `include_models` is set, telling `progress` the share done.
pub fn decompile_path(
    path: &Path,
    include_models: bool,
    progress: &mut dyn FnMut(f32),
) -> Result<Decompiled, DecompileError> {
    let stem = stem_of(path);
    match studio_document::model_files::source_load(path) {
        Some(Ok(loaded)) => {
            let phy = studio_document::model_files::load_phy(path).map_err(DecompileError::Phy)?;
            studio_decompile::source::decompile_with(
                &loaded.model,
                phy.as_ref(),
                &stem,
                include_models,
                progress,
            )
        }
        Some(Err(error)) => Err(DecompileError::Load(error.to_string())),
        None => {
            let loaded = studio_document::model_files::goldsrc_load(path)
                .map_err(|e| DecompileError::Load(e.to_string()))?;
            studio_decompile::goldsrc::decompile(&loaded.model, &stem, progress)
        }
    }
}

/// `studioview decompile MODEL --out DIR [--include-models] [--check STUDIOMDL]`.
pub fn run(path: &Path, out: &Path, include_models: bool, check: Option<&Path>) -> ExitCode {
    let started = std::time::Instant::now();
    let result = decompile_path(path, include_models, &mut |_| {})
        .and_then(|files| files.write_to(out).map(|()| files));
    let files = match result {
        Ok(files) => files,
        Err(error) => {
            eprintln!("error {}: {error}", path.display());
            return ExitCode::FAILURE;
        }
    };
    for warning in &files.warnings {
        eprintln!("warning {}: {warning}", path.display());
    }
    crate::stdout::out!(
        "wrote {} files ({} bytes) to {} in {:.2} s\n",
        files.files.len(),
        files.size(),
        out.display(),
        started.elapsed().as_secs_f64()
    );
    match check {
        None => ExitCode::SUCCESS,
        Some(studiomdl) => run_check(path, out, studiomdl),
    }
}

/// `--check`: builds the decompiled QC in `out` with `studiomdl` and prints the comparison of
/// what it wrote with the model at `path` (`studio_decompile::rebuild`); fails when they differ
/// beyond what the QC's comments say studiomdl cannot give back.
fn run_check(path: &Path, out: &Path, studiomdl: &Path) -> ExitCode {
    if studio_document::model_files::source_load(path).is_some() {
        eprintln!(
            "error {}: --check builds Half-Life models with Half-Life's studiomdl; a Source model needs the \
             Source SDK's, which runs on Windows",
            path.display()
        );
        return ExitCode::FAILURE;
    }
    let original = match studio_document::model_files::goldsrc_load(path) {
        Ok(loaded) => loaded.model,
        Err(error) => {
            eprintln!("error {error}");
            return ExitCode::FAILURE;
        }
    };
    let stem = stem_of(path);
    let built = match studio_decompile::rebuild::compile(studiomdl, out, &stem) {
        Ok(built) => built,
        Err(message) => {
            eprintln!("error {}: {message}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let rebuilt = match studio_model::load(&built) {
        Ok(loaded) => loaded.model,
        Err(error) => {
            eprintln!("error the rebuilt model: {error}");
            return ExitCode::FAILURE;
        }
    };
    let layout = studio_decompile::goldsrc::layout(&original);
    let report = studio_decompile::rebuild::compare(&original, &layout, &rebuilt);
    crate::stdout::out!("compiled {} with {}\n{}", built.display(), studiomdl.display(), report.text());
    if report.differences.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}
