//! `studioview check PATH...`: validate models, one line each, and a summary.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use studio_model::{companion_path, companions_needed, is_group_file, load};

/// Runs the command: exit code 0 when no model failed.
pub fn run(paths: &[PathBuf]) -> ExitCode {
    let started = Instant::now();
    let mut models = Vec::new();
    let mut failed = 0usize;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for path in paths {
        if path.is_dir() {
            collect(path, &mut models);
        } else if path.exists() {
            models.push(path.clone());
        } else {
            failed += 1;
            let _ = writeln!(out, "error {}: no such file or folder", path.display());
        }
    }
    let (mut ok, mut warned, mut bytes) = (0usize, 0usize, 0u64);
    for path in &models {
        if let Some(result) = crate::info::source_model(path) {
            match result {
                Ok(model) => {
                    bytes += std::fs::metadata(path).map_or(0, |m| m.len());
                    if model.warnings.is_empty() {
                        ok += 1;
                        let _ = writeln!(out, "ok {}", path.display());
                    } else {
                        warned += 1;
                        let _ = writeln!(out, "warn {}: {} warning(s)", path.display(), model.warnings.len());
                        for warning in &model.warnings {
                            let _ = writeln!(out, "  {warning}");
                        }
                    }
                }
                Err(error) => {
                    failed += 1;
                    let _ = writeln!(out, "error {error}");
                }
            }
            continue;
        }
        match load(path) {
            Ok(loaded) => {
                bytes += std::fs::metadata(path).map_or(0, |m| m.len());
                bytes += loaded
                    .companions
                    .iter()
                    .filter_map(|c| std::fs::metadata(c).ok())
                    .map(|m| m.len())
                    .sum::<u64>();
                if loaded.model.warnings.is_empty() {
                    ok += 1;
                    let _ = writeln!(out, "ok {}", path.display());
                } else {
                    warned += 1;
                    let _ =
                        writeln!(out, "warn {}: {} warning(s)", path.display(), loaded.model.warnings.len());
                    for warning in &loaded.model.warnings {
                        let _ = writeln!(out, "  {warning}");
                    }
                }
            }
            Err(error) => {
                failed += 1;
                let _ = writeln!(out, "error {}: {}", path.display(), error_text(&error));
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let _ = writeln!(
        out,
        "{} models: {ok} ok, {warned} with warnings, {failed} failed ({:.1} MB in {:.3} s, {:.0} MB/s)",
        models.len(),
        bytes as f64 / 1e6,
        secs,
        bytes as f64 / 1e6 / secs.max(1e-9),
    );
    let _ = out.flush();
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// The error without the path, which the line already names.
fn error_text(error: &studio_model::LoadError) -> String {
    match error {
        studio_model::LoadError::Io { source, .. } => source.to_string(),
        studio_model::LoadError::Parse { error, .. } => error.to_string(),
    }
}

/// Adds the main model files under `dir`, sorted, skipping companion files.
fn collect(dir: &Path, models: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, models);
        } else if is_mdl(&path) && !is_companion(&path) {
            models.push(path);
        }
    }
}

fn is_mdl(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("mdl"))
}

/// A sequence group file (it starts with `IDSQ`), or a texture file: `nameT.mdl` beside a
/// `name.mdl` that keeps its textures there. A name alone is not enough: `soldier_100.mdl` is
/// not a group file of `soldier_1.mdl`.
pub fn is_companion(path: &Path) -> bool {
    if read_head(path).is_some_and(|head| is_group_file(&head)) {
        return true;
    }
    let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { return false };
    let Some(main_stem) = stem.strip_suffix(['t', 'T']).filter(|s| !s.is_empty()) else { return false };
    let dir = path.parent().unwrap_or(Path::new(""));
    companion_path(dir, &format!("{main_stem}.mdl"))
        .and_then(|main| read_head(&main))
        .and_then(|head| companions_needed(&head).ok())
        .is_some_and(|needed| needed.texture_file)
}

/// The first 244 bytes of a file (a studio header), or fewer if it is shorter.
fn read_head(path: &Path) -> Option<Vec<u8>> {
    let mut head = Vec::with_capacity(244);
    std::fs::File::open(path).ok()?.take(244).read_to_end(&mut head).ok()?;
    Some(head)
}
