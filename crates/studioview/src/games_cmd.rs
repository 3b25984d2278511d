//! `studioview games [--json]`: the Steam folders, libraries and games found on this machine,
//! and what could not be read.

use std::process::ExitCode;

use serde_json::json;
use studio_games::Installs;

/// The JSON of what was found: `steam` (each folder with its libraries and apps), `games` (each
/// with `name`, `engine`, `app_id`, `folder`, `library`) and `problems`.
pub fn to_json(installs: &Installs) -> serde_json::Value {
    json!({
        "steam": installs.steam.iter().map(|s| json!({
            "folder": s.folder.display().to_string(),
            "libraries": s.libraries.iter().map(|l| json!({
                "path": l.path.display().to_string(),
                "apps": l.apps.iter().map(|a| json!({
                    "app_id": a.id, "name": a.name, "folder": a.folder.display().to_string(),
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "games": installs.games.iter().map(|g| json!({
            "name": g.name,
            "engine": g.engine.name(),
            "app_id": g.app_id,
            "folder": g.folder.display().to_string(),
            "library": g.library.as_ref().map(|l| l.display().to_string()),
        })).collect::<Vec<_>>(),
        "problems": installs.problems,
    })
}

/// The text of what was found.
pub fn to_text(installs: &Installs) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    if installs.steam.is_empty() {
        let _ = writeln!(s, "no Steam folder found (name one with --steam DIR)");
    }
    for steam in &installs.steam {
        let _ = writeln!(s, "Steam: {}", steam.folder.display());
        for library in &steam.libraries {
            let _ = writeln!(s, "  library {} ({} apps)", library.path.display(), library.apps.len());
            for app in &library.apps {
                let _ = writeln!(s, "    app {:>7}  {}  {}", app.id, app.name, app.folder.display());
            }
        }
    }
    let _ = writeln!(s, "{} games", installs.games.len());
    for game in &installs.games {
        let app = game.app_id.map_or_else(|| "-".to_owned(), |id| id.to_string());
        let _ =
            writeln!(s, "  {:<8} {:>7}  {}  {}", game.engine.name(), app, game.name, game.folder.display());
    }
    for problem in &installs.problems {
        let _ = writeln!(s, "problem: {problem}");
    }
    s
}

/// Runs the command.
pub fn run(as_json: bool) -> ExitCode {
    let installs = studio_document::installs::installs();
    if as_json {
        crate::stdout::outln!("{}", serde_json::to_string_pretty(&to_json(&installs)).unwrap_or_default());
    } else {
        crate::stdout::out!("{}", to_text(&installs));
    }
    ExitCode::SUCCESS
}
