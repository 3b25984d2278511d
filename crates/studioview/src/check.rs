//! `studioview check PATH...`: validate models, one line each, and a summary.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use studio_bytes::files::FileSet;

use studio_document::model_files::{Games, is_archive_file, is_archived, is_mdl, models_in_archive};

/// Runs the command: exit code 0 when no model failed.
pub fn run(paths: &[PathBuf]) -> ExitCode {
    let started = Instant::now();
    let mut models = Vec::new();
    let mut failed = 0usize;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut broken = Vec::new();
    for path in paths {
        if path.is_dir() {
            collect(path, &mut models, &mut broken);
        } else if is_archive_file(path) {
            match models_in_archive(path) {
                Ok(inside) => models.extend(inside.into_iter().map(|m| (m, false))),
                Err(error) => broken.push(error),
            }
        } else if path.exists() || is_archived(path) {
            models.push((path.clone(), true));
        } else {
            failed += 1;
            let _ = writeln!(out, "error {}: no such file or folder", path.display());
        }
    }
    for error in &broken {
        failed += 1;
        let _ = writeln!(out, "error {error}");
    }
    let outcomes = check_all(&models);
    // Animation-only include models reached from a model checked here are its companions.
    let included: std::collections::HashSet<&Path> =
        outcomes.iter().flat_map(|o| &o.includes).map(PathBuf::as_path).collect();
    let (mut ok, mut warned, mut bytes, mut counted) = (0usize, 0usize, 0u64, 0usize);
    for outcome in &outcomes {
        if outcome.animation_only && included.contains(outcome.path.as_path()) {
            continue;
        }
        counted += 1;
        bytes += outcome.bytes;
        match &outcome.status {
            Status::Ok(warnings) if warnings.is_empty() => {
                ok += 1;
                let _ = writeln!(out, "ok {}", outcome.path.display());
            }
            Status::Ok(warnings) => {
                warned += 1;
                let _ = writeln!(out, "warn {}: {} warning(s)", outcome.path.display(), warnings.len());
                for warning in warnings {
                    let _ = writeln!(out, "  {warning}");
                }
            }
            Status::Failed(error) => {
                failed += 1;
                let _ = writeln!(out, "error {}: {error}", outcome.path.display());
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    let _ = writeln!(
        out,
        "{counted} models: {ok} ok, {warned} with warnings, {failed} failed ({:.1} MB in {:.3} s, {:.0} MB/s)",
        bytes as f64 / 1e6,
        secs,
        bytes as f64 / 1e6 / secs.max(1e-9),
    );
    let _ = out.flush();
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// Checks every model, on as many threads as the machine has, in the order given; each game's
/// archives are opened once.
fn check_all(models: &[(PathBuf, bool)]) -> Vec<Outcome> {
    let games = Games::default();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(models.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, Outcome)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((path, named)) = models.get(i) else { break };
                        if let Some(outcome) = check_one(&games, path, *named) {
                            mine.push((i, outcome));
                        }
                    }
                    mine
                })
            })
            .collect();
        // A worker that panicked (a bug: no input may make a reader panic) is not hidden.
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, outcome)| outcome).collect()
}

/// What checking one model found.
struct Outcome {
    path: PathBuf,
    status: Status,
    /// Bytes read: the model and its companions.
    bytes: u64,
    /// Where its include models were found.
    includes: Vec<PathBuf>,
    /// Whether it has no mesh (an animation-only include model, when another model includes it).
    animation_only: bool,
}

enum Status {
    /// Read, with these warnings.
    Ok(Vec<String>),
    /// Not usable.
    Failed(String),
}

/// Checks one `.mdl`, GoldSrc or Source, on disk or in an archive; `None` for a GoldSrc
/// companion file found in a folder or an archive (a texture or sequence group file), which is
/// read with its main file. A file named on the command line is checked as a model whatever it
/// is.
fn check_one(games: &Games, path: &Path, named: bool) -> Option<Outcome> {
    let outcome = |status, bytes, includes, animation_only| Outcome {
        path: path.to_owned(),
        status,
        bytes,
        includes,
        animation_only,
    };
    let failed = |error: String| Some(outcome(Status::Failed(error), 0, Vec::new(), false));
    let files = match games.files(path) {
        Ok(files) => files,
        Err(error) => return failed(error),
    };
    let bytes = match files.main() {
        Ok(bytes) => bytes,
        Err(error) => return failed(error.to_string()),
    };
    if studio_source::is_source_model(&bytes) {
        return Some(match studio_source::load_set(&files, &bytes) {
            Ok(loaded) => {
                let m = &loaded.model;
                let animation_only =
                    m.body_parts.iter().all(|p| p.models.iter().all(|m| m.meshes.is_empty()));
                let warnings = m.warnings.iter().map(ToString::to_string).collect();
                let includes = loaded.include_paths.iter().flatten().cloned().collect();
                outcome(Status::Ok(warnings), loaded.bytes_read, includes, animation_only)
            }
            Err(error) => outcome(Status::Failed(error.reason()), 0, Vec::new(), false),
        });
    }
    if !named && studio_document::model_files::is_companion(&files, &bytes) {
        return None;
    }
    Some(match studio_model::load_set(&files, &bytes) {
        Ok(loaded) => {
            let warnings = loaded.model.warnings.iter().map(ToString::to_string).collect();
            outcome(Status::Ok(warnings), loaded.bytes_read, Vec::new(), false)
        }
        Err(error) => outcome(Status::Failed(error.reason()), 0, Vec::new(), false),
    })
}

/// Adds the `.mdl` files under `dir`, sorted, loose and in the archives there (companion files
/// are told apart when read); an archive that cannot be read goes to `broken`.
fn collect(dir: &Path, models: &mut Vec<(PathBuf, bool)>, broken: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, models, broken);
        } else if is_mdl(&path) {
            models.push((path, false));
        } else if is_archive_file(&path) {
            match models_in_archive(&path) {
                Ok(inside) => models.extend(inside.into_iter().map(|m| (m, false))),
                Err(error) => broken.push(error),
            }
        }
    }
}
