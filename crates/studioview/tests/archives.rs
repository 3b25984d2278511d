//! Models inside archives, through every command: the Source models (with their companions,
//! `.ani`, include model and materials) and the Half-Life models (with their texture and
//! sequence group files) in a VPK version 2 with a numbered archive, a VPK version 1 with its
//! data in the directory file, and a PAK, beside loose copies of the same files. `info`,
//! `check`, `pose`, `render`, `export`, `qc` and `list` give the same output for the archived
//! model as for the loose one (paths aside), and a broken archive is an error with a byte offset.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use studio_archive::write::{VpkFile, vpk};

mod archive_games;

use archive_games::{games, no_adapter_outside_ci, paths, without_paths};

fn studioview(args: &[&str]) -> Output {
    studio_testing::process::output(Command::new(env!("CARGO_BIN_EXE_studioview")).args(args))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

const MODELS: [&str; 5] = [
    "models/fixture/anim48.mdl",
    "models/fixture/include48.mdl",
    "models/hive.mdl",
    "models/soldier.mdl",
    "models/groups.mdl",
];

#[test]
fn info_pose_qc_and_check_give_the_same_for_archived_and_loose_models() {
    let Some(root) = games("archives-commands") else { return };
    for model in MODELS {
        let (loose, archived) = paths(&root, model);
        let info = studioview(&["info", "--json", &loose]);
        assert!(info.status.success(), "{loose}: {}", text(&info.stderr));
        let expected: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
        assert_eq!(
            expected["warnings"].as_array().map_or(0, Vec::len),
            0,
            "{model}: {}",
            expected["warnings"]
        );
        let seq = if model.contains("groups") { "1" } else { "0" };
        let at: [&str; 2] = if model.contains("fixture") { ["--cycle", "0.4"] } else { ["--frame", "2.5"] };
        let pose = studioview(&["pose", &loose, "--seq", seq, at[0], at[1]]);
        let qc = studioview(&["qc", &loose]);
        assert!(
            pose.status.success() && qc.status.success(),
            "{model}: {}{}",
            text(&pose.stderr),
            text(&qc.stderr)
        );
        for path in &archived {
            let got = studioview(&["info", "--json", path]);
            assert!(got.status.success(), "{path}: {}", text(&got.stderr));
            let got: serde_json::Value = serde_json::from_slice(&got.stdout).unwrap();
            // Where the materials were looked for differs with where the model is; what the
            // model says does not.
            let strip = |v: &serde_json::Value| {
                let mut v = v.clone();
                if let Some(object) = v.as_object_mut() {
                    object.remove("materials");
                    object.remove("search_path");
                }
                without_paths(&v.to_string(), &root)
            };
            assert_eq!(strip(&got), strip(&expected), "{path}");
            let archived_pose = studioview(&["pose", path, "--seq", seq, at[0], at[1]]);
            assert_eq!(text(&archived_pose.stdout), text(&pose.stdout), "{path}: the same pose");
            let archived_qc = studioview(&["qc", path]);
            assert_eq!(
                without_paths(&text(&archived_qc.stdout), &root),
                without_paths(&text(&qc.stdout), &root),
                "{path}"
            );
        }
    }
    for game in ["vpk2/hl2", "vpk1/hl2", "pak/valve"] {
        let out = studioview(&["check", root.join(game).to_str().unwrap()]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{game}: {stdout}");
        // The animation-only include is its including model's companion; the texture and group
        // files are the Half-Life models'.
        assert!(stdout.lines().last().unwrap().starts_with("5 models: 5 ok"), "{game}: {stdout}");
    }
}

#[test]
fn list_prints_every_model_of_a_game_loose_and_archived() {
    let Some(root) = games("archives-list") else { return };
    let out = studioview(&[
        "list",
        root.join("loose/valve").to_str().unwrap(),
        root.join("pak/valve").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = without_paths(&text(&out.stdout), &root);
    let lines: Vec<&str> = stdout.lines().collect();
    // Sorted, without the texture and group files: the three Half-Life models loose, then the
    // archive's six (the three Source models, include48's animation model among them, sort
    // first), its Half-Life ones the same as the loose ones.
    let soldier = "GAME/models/soldier.mdl  goldsrc 10";
    assert_eq!(lines.len(), 9, "{stdout}");
    assert!(lines[3].starts_with("GAME/models/fixture/anim48.mdl  source 48"), "{stdout}");
    assert!(lines[4].starts_with("GAME/models/fixture/include48.mdl  source 48"), "{stdout}");
    assert!(lines[5].starts_with("GAME/models/fixture/include48_anims.mdl  source 48"), "{stdout}");
    assert_eq!(lines[..3], lines[6..], "{stdout}");
    assert!(lines[2].starts_with(soldier) && lines[2].ends_with("sequences"), "{stdout}");
    let json =
        studioview(&["list", "--json", "--filter", "ACT_WALK", root.join("vpk2/hl2").to_str().unwrap()]);
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let models = value["models"].as_array().unwrap();
    // anim48's walk has ACT_WALK; include48's own sequences do not (its includes' do).
    assert_eq!(models.len(), 1, "{value}");
    assert_eq!(models[0]["relative"], "models/fixture/anim48.mdl");
    assert_eq!(models[0]["format"], "source");
    assert_eq!((models[0]["version"].as_i64(), models[0]["bones"].as_i64()), (Some(48), Some(15)));
    let names = models[0]["sequence_names"].as_array().unwrap();
    assert_eq!(names.len(), 15);
    assert_eq!(names[2], serde_json::json!({ "label": "walk", "activity": "ACT_WALK" }));
}

/// The pixels of a PNG file.
fn pixels(path: &Path) -> Vec<u8> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut buf).unwrap();
    buf
}

#[test]
fn render_and_export_draw_and_write_the_same_for_archived_and_loose_models() {
    if no_adapter_outside_ci() {
        return;
    }
    let Some(root) = games("archives-render") else { return };
    let out = root.join("out");
    std::fs::create_dir_all(&out).unwrap();
    for model in ["models/fixture/anim48.mdl", "models/hive.mdl"] {
        let (loose, archived) = paths(&root, model);
        let render = |path: &str, name: &str| {
            let png = out.join(format!("{name}.png"));
            let run = studioview(&["render", path, "--out", png.to_str().unwrap(), "--size", "160x120"]);
            assert!(run.status.success(), "{path}: {}", text(&run.stderr));
            pixels(&png)
        };
        let export = |path: &str, name: &str| {
            let glb = out.join(format!("{name}.glb"));
            let run = studioview(&["export", path, "--out", glb.to_str().unwrap()]);
            assert!(run.status.success(), "{path}: {}", text(&run.stderr));
            std::fs::read(glb).unwrap()
        };
        let expected = render(&loose, "loose");
        let coloured = expected.chunks(4).filter(|p| p[0] != p[1] || p[1] != p[2]).count();
        assert!(coloured > 500, "{model}: the textures draw ({coloured} coloured pixels)");
        let expected_glb = export(&loose, "loose");
        for (i, path) in archived.iter().enumerate() {
            assert!(render(path, &format!("archived{i}")) == expected, "{path}: the same pixels");
            assert!(export(path, &format!("archived{i}")) == expected_glb, "{path}: the same glTF");
        }
    }
}

#[test]
fn a_broken_archive_is_an_error_with_a_byte_offset() {
    let root = scratch("archives-broken");
    let game = root.join("hl2");
    std::fs::create_dir_all(&game).unwrap();
    let (mut dir, _) = vpk(2, &[VpkFile { path: "models/x.mdl", bytes: b"IDST", preload: 0 }], false);
    dir[8..12].copy_from_slice(&0x7FFF_FFFFu32.to_le_bytes());
    std::fs::write(game.join("pak01_dir.vpk"), dir).unwrap();
    let model = format!("{}:models/x.mdl", game.join("pak01_dir.vpk").display());
    for args in
        [vec!["info", model.as_str()], vec!["check", model.as_str()], vec!["list", game.to_str().unwrap()]]
    {
        let out = studioview(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let said = text(&out.stdout) + &text(&out.stderr);
        assert!(
            said.contains("pak01_dir.vpk: VPK header at byte 8: the tree of 2147483647 bytes runs past"),
            "{args:?}: {said}"
        );
    }
    // A model the archive does not hold.
    let (dir, _) = vpk(2, &[VpkFile { path: "models/x.mdl", bytes: b"IDST", preload: 0 }], false);
    std::fs::write(game.join("pak01_dir.vpk"), dir).unwrap();
    let out = studioview(&["info", &format!("{}:models/none.mdl", game.join("pak01_dir.vpk").display())]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("holds no models/none.mdl"), "{}", text(&out.stderr));
}
