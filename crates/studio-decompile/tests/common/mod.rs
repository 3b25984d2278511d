//! What the decompiler's tests share: the models they decompile.

#![allow(dead_code)]

use std::path::PathBuf;

use studio_model::Model;

/// The bundled demo model, `assets/demo.mdl`.
pub fn demo_model() -> Model {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../assets/demo.mdl");
    Model::parse(&std::fs::read(path).expect("assets/demo.mdl")).expect("the demo model parses")
}

/// The Half-Life models of `../shared/DIR` (sorted by name), loaded with their companions;
/// texture and sequence group files (`NAMEt.mdl`, `NAME01.mdl`) are read with their main file,
/// not on their own.
pub fn shared_models(dir: &str) -> Vec<(String, PathBuf, Model)> {
    let Some(shared) = studio_testing::shared() else { return Vec::new() };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(shared.join(dir))
        .expect("a model folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mdl"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let bytes = std::fs::read(&path).expect("a model file");
        let stem = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let texture_file = stem.len() > 1
            && stem.ends_with(['t', 'T'])
            && path.with_file_name(format!("{}.mdl", &stem[..stem.len() - 1])).exists();
        if studio_model::is_group_file(&bytes) || texture_file {
            continue;
        }
        let Ok(loaded) = studio_model::load(&path) else { continue };
        out.push((path.file_name().unwrap_or_default().to_string_lossy().into_owned(), path, loaded.model));
    }
    out
}

/// The demo, then every model of `../shared/fixtures` and `../shared/models/ns`.
pub fn models() -> Vec<(String, Model)> {
    let mut out = vec![("demo".to_owned(), demo_model())];
    for dir in ["fixtures", "models/ns"] {
        out.extend(shared_models(dir).into_iter().map(|(name, _, model)| (name, model)));
    }
    out
}
