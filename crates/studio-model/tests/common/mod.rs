//! Shared helpers for tests that read `../shared`, which CI always has beside the checkout. A
//! user's fresh clone may not: then those tests say so and pass over it.

#![allow(dead_code)]

use std::path::PathBuf;

/// `../shared` beside the repository, if it is there.
pub fn shared() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    if dir.join("fixtures").is_dir() {
        Some(dir)
    } else {
        assert!(
            std::env::var_os("CI").is_none(),
            "../shared is missing, and CI must always have it"
        );
        eprintln!("note: ../shared is missing; skipping the tests that need its models");
        None
    }
}

/// The bytes of a file under `../shared`.
pub fn read(shared: &std::path::Path, path: &str) -> Vec<u8> {
    std::fs::read(shared.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every main model under `../shared` with its companions, as (name, main, textures, groups).
pub fn model_sets(shared: &std::path::Path) -> Vec<(String, Vec<u8>, Option<Vec<u8>>, Vec<Option<Vec<u8>>>)> {
    vec![
        ("blends".into(), read(shared, "fixtures/blends.mdl"), None, vec![]),
        ("controllers".into(), read(shared, "fixtures/controllers.mdl"), None, vec![]),
        ("rle".into(), read(shared, "fixtures/rle.mdl"), None, vec![]),
        (
            "groups".into(),
            read(shared, "fixtures/groups.mdl"),
            Some(read(shared, "fixtures/groupsT.mdl")),
            vec![Some(read(shared, "fixtures/groups01.mdl"))],
        ),
        ("soldier".into(), read(shared, "models/ns/soldier.mdl"), None, vec![]),
        ("alien4".into(), read(shared, "models/ns/alien4.mdl"), None, vec![]),
        ("hive".into(), read(shared, "models/ns/hive.mdl"), Some(read(shared, "models/ns/hivet.mdl")), vec![]),
        ("v_mg".into(), read(shared, "models/ns/v_mg.mdl"), None, vec![]),
    ]
}
