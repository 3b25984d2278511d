//! `studioview list GAME... [--json] [--filter TEXT]`: every model of the game folders given,
//! loose and inside their archives, one a line (path, format and version, size, bones,
//! sequences), or as JSON with each model's sequence names and activities too.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::stdout::outln;
use studio_viewer::catalog::{Entry, Summary, index};

/// Runs the command: exit code 0 unless a folder is missing or an archive could not be read.
pub fn run(games: &[PathBuf], json: bool, filter: Option<&str>) -> ExitCode {
    let filter = filter.map(str::to_ascii_lowercase);
    // The names are read when they are printed or searched.
    let names = json || filter.is_some();
    let mut failed = false;
    let mut listed: Vec<Entry> = Vec::new();
    for game in games {
        if !game.is_dir() {
            eprintln!("error {}: no such folder", game.display());
            failed = true;
            continue;
        }
        let (entries, broken) = index(game, names);
        for error in broken {
            eprintln!("error {error}");
            failed = true;
        }
        listed.extend(entries.into_iter().filter(|e| filter.as_deref().is_none_or(|f| e.matches(f))));
    }
    if json {
        let models: Vec<serde_json::Value> = listed.iter().map(entry_json).collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&serde_json::json!({ "models": models })).unwrap_or_default()
        );
    } else {
        for entry in &listed {
            match &entry.summary {
                Ok(s) => outln!(
                    "{}  {} {}  {} bytes  {} bones  {} sequences",
                    entry.path.display(),
                    s.format.name(),
                    s.version,
                    s.size,
                    s.bones,
                    s.sequences
                ),
                Err(error) => outln!("{}  error: {error}", entry.path.display()),
            }
        }
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}

fn entry_json(entry: &Entry) -> serde_json::Value {
    let mut value = serde_json::json!({
        "path": entry.path.display().to_string(),
        "relative": entry.relative,
        "archive": entry.archive.as_ref().map(|a| a.display().to_string()),
    });
    match &entry.summary {
        Ok(Summary { format, version, size, bones, sequences, names }) => {
            value["format"] = format.name().into();
            value["version"] = (*version).into();
            value["size"] = (*size).into();
            value["bones"] = (*bones).into();
            value["sequences"] = (*sequences).into();
            value["sequence_names"] = names
                .iter()
                .flatten()
                .map(|n| serde_json::json!({ "label": n.label, "activity": n.activity }))
                .collect();
        }
        Err(error) => value["error"] = error.clone().into(),
    }
    value
}
