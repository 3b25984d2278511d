//! `load` finds companion files beside the main file whatever their case, as real installs need.

mod common;

use std::path::Path;

use studio_model::{GroupStatus, TextureSource, WarningKind, load};

#[test]
fn companions_are_found_case_insensitively() {
    let Some(shared) = common::shared() else { return };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("loader-case");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    studio_testing::copy(shared.join("fixtures/groups.mdl"), dir.join("Groups.MDL")).unwrap();
    studio_testing::copy(shared.join("fixtures/groupsT.mdl"), dir.join("groupst.mdl")).unwrap();
    studio_testing::copy(shared.join("fixtures/groups01.mdl"), dir.join("GROUPS01.MDL")).unwrap();
    let loaded = load(&dir.join("Groups.MDL")).unwrap();
    assert_eq!(loaded.companions, [dir.join("groupst.mdl"), dir.join("GROUPS01.MDL")]);
    assert_eq!(loaded.model.texture_source, TextureSource::TextureFile);
    assert_eq!(loaded.model.sequence_groups[1].status, GroupStatus::Loaded);
    assert!(loaded.model.warnings.is_empty());

    // Without the group file, its sequences are unavailable and the message names the file.
    std::fs::remove_file(dir.join("GROUPS01.MDL")).unwrap();
    let loaded = load(&dir.join("Groups.MDL")).unwrap();
    assert_eq!(
        loaded.model.warnings[0].kind,
        WarningKind::MissingGroupFile { group: 1, expected: "Groups01.mdl".into() }
    );
    assert!(loaded.model.sequences[1].animation.is_none());
}

#[test]
fn unreadable_main_file_is_an_io_error() {
    let error = load(Path::new("/nonexistent/dir/model.mdl")).unwrap_err();
    assert!(matches!(error, studio_model::LoadError::Io { .. }));
    assert!(error.to_string().starts_with("/nonexistent/dir/model.mdl: "), "{error}");
}
