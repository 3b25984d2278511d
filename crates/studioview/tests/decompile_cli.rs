//! `studioview decompile` from the command line: what it writes and says for a Half-Life and a
//! Source model (with `--include-models`), and that a model it cannot decompile whole gives an
//! error and leaves the folder unwritten.

use std::process::Command;

fn studioview(args: &[&str]) -> std::process::Output {
    studio_testing::process::output(Command::new(env!("CARGO_BIN_EXE_studioview")).args(args))
}

fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries.filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned())).collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn the_soldier_decompiles_to_a_qc_its_smds_and_bitmaps() {
    let Some(shared) = studio_testing::shared() else { return };
    let out = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "decompile-soldier").join("src");
    let model = shared.join("models/ns/soldier.mdl");
    let run = studioview(&["decompile", &model.to_string_lossy(), "--out", &out.to_string_lossy()]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let files = files_in(&out);
    assert!(stdout.starts_with(&format!("wrote {} files", files.len())), "{stdout}");
    assert!(files.contains(&"soldier.qc".to_owned()), "{files:?}");
    let bitmaps = files.iter().filter(|f| f.ends_with(".bmp")).count();
    let smds = files.iter().filter(|f| f.ends_with(".smd")).count();
    let loaded = studio_document::model_files::goldsrc_load(&model).expect("the soldier loads").model;
    let references =
        loaded.body_parts.iter().flat_map(|p| &p.submodels).filter(|s| !s.vertices.is_empty()).count();
    let blends: usize = loaded.sequences.iter().map(|s| s.num_blends.max(1)).sum();
    assert_eq!((bitmaps, smds), (loaded.textures.len(), references + blends), "{files:?}");
    let qc = std::fs::read_to_string(out.join("soldier.qc")).expect("the QC");
    for line in
        ["$modelname \"soldier.mdl\"", "$bodygroup", "$texturegroup", "$controller", "$hbox", "$attachment"]
    {
        assert!(qc.contains(line), "the QC has {line}");
    }
    assert_eq!(qc.matches("\n$sequence ").count(), loaded.sequences.len(), "a $sequence per sequence");
}

#[test]
fn a_model_missing_its_sequence_group_or_textures_is_refused_and_nothing_is_written() {
    let Some(shared) = studio_testing::shared() else { return };
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "decompile-groups");
    // groups.mdl with its texture file but not groups01.mdl.
    for name in ["groups.mdl", "groupsT.mdl"] {
        studio_testing::copy(shared.join("fixtures").join(name), dir.join(name)).expect("a copy");
    }
    let model = dir.join("groups.mdl");
    refused(&model, &["groups.mdl", "animation is not loaded"]);

    // With its sequence group but without its texture file.
    std::fs::remove_file(dir.join("groupsT.mdl")).expect("removed");
    studio_testing::copy(shared.join("fixtures/groups01.mdl"), dir.join("groups01.mdl")).expect("a copy");
    refused(&model, &["groups.mdl", "texture file"]);
}

/// Decompiling `model` into a folder beside it fails, says each of `says` on stderr, and
/// writes nothing.
fn refused(model: &std::path::Path, says: &[&str]) {
    let out = model.with_file_name("src");
    let run = studioview(&["decompile", &model.to_string_lossy(), "--out", &out.to_string_lossy()]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "refused: {stderr}");
    assert!(says.iter().all(|s| stderr.contains(s)), "{stderr}");
    assert!(!out.exists(), "nothing written: {:?}", files_in(&out));
}

#[test]
fn include_models_decompile_into_folders_of_their_own() {
    let Some(shared) = studio_testing::shared() else { return };
    let out = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "decompile-include").join("src");
    let model = shared.join("fixtures/source/models/fixture/include48.mdl");
    let run = studioview(&[
        "decompile",
        &model.to_string_lossy(),
        "--out",
        &out.to_string_lossy(),
        "--include-models",
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let qc = std::fs::read_to_string(out.join("include48.qc")).expect("the QC");
    assert!(qc.contains("$includemodel \"fixture/include48_anims.mdl\""), "{qc}");
    assert!(qc.contains("$declaresequence \"inc_run\""), "the placeholder sequence");
    let included = files_in(&out.join("include48_anims"));
    for name in ["include48_anims.qc", "inc_run.smd", "inc_idle.smd"] {
        assert!(included.contains(&(*name).to_owned()), "{included:?}");
    }
    // Each included animation file reads back.
    for name in included.iter().filter(|n| n.ends_with(".smd")) {
        let text = std::fs::read_to_string(out.join("include48_anims").join(name)).expect("an SMD");
        studio_smd::read(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    // Without the flag, only the model's own files.
    let own = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "decompile-include-own").join("src");
    assert!(
        studioview(&["decompile", &model.to_string_lossy(), "--out", &own.to_string_lossy()])
            .status
            .success()
    );
    assert!(!own.join("include48_anims").exists());
}

#[test]
fn check_builds_the_decompile_with_studiomdl_and_compares() {
    let Some(shared) = studio_testing::shared() else { return };
    let out = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "decompile-check").join("v_mg");

    // A Source model is refused: its compiler is another.
    let source = shared.join("fixtures/source/models/fixture/anim48.mdl");
    let anim48 = out.with_file_name("anim48");
    let any = shared.join("tools/studiomdl/studiomdl");
    let args = ["decompile", &source.to_string_lossy(), "--out", &anim48.to_string_lossy(), "--check"];
    let run = studioview(&[&args[..], &[&*any.to_string_lossy()]].concat());
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("Half-Life's studiomdl"));

    let Some(studiomdl) = studio_testing::studiomdl(&shared) else { return };
    let model = shared.join("models/ns/v_mg.mdl");
    let args = ["decompile", &model.to_string_lossy(), "--out", &out.to_string_lossy(), "--check"];
    let run = studioview(&[&args[..], &[&*studiomdl.to_string_lossy()]].concat());
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&run.stderr));
    assert!(out.join("v_mg.mdl").exists(), "studiomdl wrote the model in the folder");
    assert!(stdout.contains("poses: 191 compared"), "{stdout}");
    assert!(stdout.contains("the rebuilt model equals the original"), "{stdout}");
}
