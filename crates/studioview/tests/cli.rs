//! The command line as a user runs it: `check` and `info` on the shared models and on broken
//! files in a scratch folder.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use studio_testing::png_image::read_png;
use studio_testing::shared;

fn studioview(args: &[&str]) -> Output {
    studio_testing::process::output(Command::new(env!("CARGO_BIN_EXE_studioview")).args(args))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Whether rendering tests should pass over this machine: no graphics adapter, and not CI
/// (which installs Mesa, so there a missing adapter fails the test instead).
fn no_adapter_outside_ci() -> bool {
    let skip = studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none();
    if skip {
        eprintln!("note: no graphics adapter; skipping");
    }
    skip
}

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

#[test]
fn check_reports_every_shared_model_ok_and_skips_companions() {
    let Some(shared) = shared() else { return };
    // The Half-Life models: the fixtures' own folder (not its Source models below it, which
    // are another format) copied to a scratch folder, and the Natural Selection models.
    let fixtures = scratch("goldsrc-fixtures");
    studio_testing::copy_files(&shared.join("fixtures"), &fixtures, |path| {
        path.extension().is_some_and(|e| e == "mdl")
    });
    let ns = shared.join("models/ns");
    let out = studioview(&["check", fixtures.to_str().unwrap(), ns.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    let oks: Vec<&str> = lines.iter().filter(|l| l.starts_with("ok ")).copied().collect();
    assert_eq!(oks.len(), 8, "{stdout}");
    for name in ["groupsT.mdl", "groups01.mdl", "hivet.mdl"] {
        assert!(!stdout.contains(name), "{name} was checked as a main model:\n{stdout}");
    }
    assert!(lines.last().unwrap().starts_with("8 models: 8 ok, 0 with warnings, 0 failed"), "{stdout}");
}

#[test]
fn check_reports_a_broken_model_and_fails() {
    let Some(shared) = shared() else { return };
    let dir = scratch("check-broken");
    let good = std::fs::read(shared.join("fixtures/rle.mdl")).unwrap();
    std::fs::write(dir.join("good.mdl"), &good).unwrap();
    std::fs::write(dir.join("cut.mdl"), &good[..1000]).unwrap();
    let mut long = good.clone();
    long[72..76].copy_from_slice(&1i32.to_le_bytes());
    std::fs::write(dir.join("long.mdl"), &long).unwrap();
    let out = studioview(&["check", dir.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let cut = dir.join("cut.mdl");
    assert!(stdout.contains(&format!("error {}: sequence", cut.display())), "{stdout}");
    assert!(stdout.contains(&format!("warn {}: 1 warning(s)", dir.join("long.mdl").display())), "{stdout}");
    assert!(stdout.contains("header at byte 72: the header says 1 bytes, the file has 2664"), "{stdout}");
    assert!(stdout.contains(&format!("ok {}", dir.join("good.mdl").display())), "{stdout}");
    assert!(
        stdout.lines().last().unwrap().starts_with("3 models: 1 ok, 1 with warnings, 1 failed"),
        "{stdout}"
    );
}

#[test]
fn check_tells_companions_from_models_by_content() {
    let Some(shared) = shared() else { return };
    let dir = scratch("check-names");
    // soldier_100.mdl ends in two digits and soldier_1.mdl exists, but it is a model of its own;
    // v_mgt.mdl beside v_mg.mdl is not a texture file, since v_mg.mdl has its textures.
    for name in ["soldier_1.mdl", "soldier_100.mdl"] {
        studio_testing::copy(shared.join("fixtures/rle.mdl"), dir.join(name)).unwrap();
    }
    for name in ["v_mg.mdl", "v_mgt.mdl"] {
        studio_testing::copy(shared.join("models/ns/v_mg.mdl"), dir.join(name)).unwrap();
    }
    studio_testing::copy(shared.join("models/ns/hive.mdl"), dir.join("hive.mdl")).unwrap();
    studio_testing::copy(shared.join("models/ns/hivet.mdl"), dir.join("hivet.mdl")).unwrap();
    studio_testing::copy(shared.join("fixtures/groups01.mdl"), dir.join("other.mdl")).unwrap();
    let out = studioview(&["check", dir.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.lines().last().unwrap().starts_with("5 models: 5 ok"), "{stdout}");
    assert!(!stdout.contains("hivet.mdl") && !stdout.contains("other.mdl"), "{stdout}");
}

#[test]
fn help_names_both_formats() {
    let out = studioview(&["--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    assert!(
        help.starts_with("Viewer and command line for Valve studio models, Half-Life and Source"),
        "{help}"
    );
}

#[test]
fn check_of_a_missing_path_fails() {
    let out = studioview(&["check", "/nonexistent/model.mdl"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("error /nonexistent/model.mdl: no such file or folder"));
}

#[test]
fn info_json_describes_the_groups_fixture() {
    let Some(shared) = shared() else { return };
    let path = shared.join("fixtures/groups.mdl");
    let out = studioview(&["info", path.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((&info["format"], &info["version"]), (&serde_json::json!("goldsrc"), &serde_json::json!(10)));
    assert_eq!(info["name"], "groups");
    assert_eq!(info["counts"]["bones"], 12);
    assert_eq!(info["counts"]["skin_families"], 2);
    assert_eq!(info["companions"].as_array().unwrap().len(), 2);
    assert_eq!(info["sequences"][1]["name"], "walk");
    assert_eq!(info["sequences"][1]["group"], 1);
    assert_eq!(info["sequences"][1]["events"][0]["options"], "common/step1.wav");
    assert_eq!(info["hitboxes"][0]["group_name"], "head");
    assert_eq!(info["textures"][1]["flag_names"], "MASKED");
    assert_eq!(info["bones"][2]["parent"], 1);
    assert_eq!(info["warnings"].as_array().unwrap().len(), 0);
}

#[test]
fn info_json_describes_a_source_model() {
    let Some(shared) = shared() else { return };
    let path = shared.join("fixtures/source/models/fixture/anim48.mdl");
    let out = studioview(&["info", path.to_str().unwrap(), "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((&info["format"], &info["version"]), (&serde_json::json!("source"), &serde_json::json!(48)));
    assert_eq!(info["bones"].as_array().unwrap().len(), 15);
    assert_eq!(info["bones"][8]["name"], "r_arm_twist");
    assert_eq!(info["bones"][8]["procedural"], "quaternion interpolation");
    assert_eq!(info["bones"][3]["parent"], 2);
    assert_eq!(info["hitbox_sets"][0]["name"], "default");
    assert_eq!(info["hitbox_sets"][0]["hitboxes"][1]["name"], "hb_head");
    assert_eq!(info["attachments"][2]["flags"], 0x10000);
    assert_eq!(info["pose_parameters"][2]["loop"], 360.0);
    let blend9 = &info["sequences"][6];
    assert_eq!(blend9["name"], "blend9");
    assert_eq!(blend9["grid"], serde_json::json!([3, 3]));
    assert_eq!(blend9["params"][1]["name"], "aim_yaw");
    assert_eq!((&blend9["frames"], &blend9["looping"]), (&serde_json::json!(11), &serde_json::json!(true)));
    assert_eq!(info["sequences"][9]["layers"][0]["sequence"], 8);
    assert_eq!(info["sequences"][1]["events"][0]["name"], "AE_FIXTURE_BLINK");
    assert_eq!(info["animations"].as_array().unwrap().len(), 25);
    assert_eq!(info["body_parts"][1]["models"][1]["name"], "blank");
    assert_eq!(info["textures"], serde_json::json!(["fixture_skin_a", "fixture_skin_b"]));
    assert_eq!(info["material_paths"], serde_json::json!(["models/fixture/"]));
    assert_eq!(info["skins"], serde_json::json!([[0, 1], [1, 0]]));
    let text_out = studioview(&["info", path.to_str().unwrap()]);
    assert!(
        text(&text_out.stdout).contains("grid 3×3 move_x -1..1 aim_yaw -45..30"),
        "{}",
        text(&text_out.stdout)
    );
}

#[test]
fn check_reads_source_models_and_names_each_broken_files_defect() {
    let Some(shared) = shared() else { return };
    let out = studioview(&["check", shared.join("fixtures/source").to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    for model in ["anim48.mdl", "include48.mdl", "skeleton48.mdl"] {
        assert!(stdout.lines().any(|l| l.starts_with("ok ") && l.ends_with(model)), "{model}:\n{stdout}");
    }
    // Its .ani, .vvd and .vtx are not there.
    assert!(
        stdout.lines().any(|l| l.starts_with("warn ") && l.ends_with("anim48_noani.mdl: 3 warning(s)")),
        "{stdout}"
    );
    // An animation-only include model that a checked model includes is its companion.
    assert!(!stdout.contains("include48_anims.mdl"), "{stdout}");
    for defect in [
        "truncated_header.mdl: header (studiohdr_t) at byte 0 of the .mdl: 408 bytes needed here",
        "bone data of animation 1 at byte 26328 of the .mdl: 4 bytes needed here, but the file ends at byte 22232",
        "a run covers 0 frames with 0 values after 2 of the stream's 31 frames",
        "of the .vtx: checksum 1226152652 differs from the model's 323993750",
        "vertex 7 at byte 492 of the .vvd: bone is 40, but there is no bone 40",
    ] {
        assert!(stdout.contains(defect), "{defect}:\n{stdout}");
    }
    assert!(
        stdout.lines().last().unwrap().starts_with("9 models: 3 ok, 5 with warnings, 1 failed"),
        "{stdout}"
    );
}

#[test]
fn pose_of_a_source_model_matches_the_reference_and_refuses_frames() {
    let Some(shared) = shared() else { return };
    let model = shared.join("fixtures/source/models/fixture/anim48.mdl");
    let model = model.to_str().unwrap();
    let args = [
        "pose",
        model,
        "--seq",
        "blend9",
        "--cycle",
        "0.37",
        "--param",
        "move_x=0.3",
        "--param",
        "aim_yaw=-30",
    ];
    let out = studioview(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pose: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let reference: serde_json::Value =
        serde_json::from_slice(&std::fs::read(shared.join("reference/source/anim48.json")).unwrap()).unwrap();
    let expected = reference["poses"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| {
            p["label"] == "blend9"
                && p["cycle"] == 0.37
                && p["params"]["move_x"] == 0.3
                && p["params"]["spin"] == 90.0
        })
        .expect("the reference pose");
    // spin does not move blend9, so its default here matches the reference's 90.
    for (got, want) in pose["bones"].as_array().unwrap().iter().zip(expected["bones"].as_array().unwrap()) {
        for (g, w) in got.as_array().unwrap().iter().zip(want.as_array().unwrap()) {
            let (g, w) = (g.as_f64().unwrap(), w.as_f64().unwrap());
            assert!((g - w).abs() <= 1e-3 * w.abs().max(1.0), "{g} vs {w}");
        }
    }
    assert_eq!(pose["hitboxes"].as_array().unwrap().len(), 8);
    assert_eq!(pose["attachments"].as_array().unwrap().len(), 3);
    let out = studioview(&["pose", model, "--seq", "1", "--frame", "3"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("is a Source model: its poses are at a --cycle"),
        "{}",
        text(&out.stderr)
    );
    let out = studioview(&["pose", model, "--seq", "1", "--param", "bogus=1"]);
    assert!(text(&out.stderr).contains("no pose parameter \"bogus\" (the model has move_x, aim_yaw, spin)"));
    let rle = shared.join("fixtures/rle.mdl");
    let out = studioview(&["pose", rle.to_str().unwrap(), "--seq", "0", "--cycle", "0.5"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("is a Half-Life model: --cycle is for Source models"),
        "{}",
        text(&out.stderr)
    );
    // The clock: accepted for Source (no sequence of the fixture is STUDIO_REALTIME, so the pose
    // is the same), refused for Half-Life.
    let timed = studioview(&[&args[..], &["--time", "2.5"]].concat());
    assert!(timed.status.success(), "{}", text(&timed.stderr));
    assert_eq!(timed.stdout, out_pose_bytes(&args));
    let out = studioview(&["pose", rle.to_str().unwrap(), "--seq", "0", "--time", "1"]);
    assert!(text(&out.stderr).contains("--time is for Source models"), "{}", text(&out.stderr));
    let out = studioview(&["bench", model, "--poses", "300"]);
    let stdout = text(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("ns_per_bone") && stdout.contains("checksum"),
        "{stdout}"
    );
}

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    let Some(shared) = shared() else { return };
    let soldier = shared.join("models/ns/soldier.mdl");
    // `info --json` of the soldier is larger than a pipe holds, so the write meets the closed
    // pipe whether the reader goes before the command writes or while it waits to.
    let mut child = studio_testing::process::spawn(
        Command::new(env!("CARGO_BIN_EXE_studioview"))
            .args(["info", "--json", soldier.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn info_text_lists_controllers_and_blends() {
    let Some(shared) = shared() else { return };
    let out = studioview(&["info", shared.join("fixtures/controllers.mdl").to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert!(stdout.contains("XR|RLOOP"), "{stdout}");
    assert!(stdout.contains("(mouth)"), "{stdout}");
    let out = studioview(&["info", shared.join("fixtures/blends.mdl").to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(stdout.lines().any(|l| l.contains("aim4") && l.contains("blends 4")), "{stdout}");
}

#[test]
fn info_text_shows_a_negated_zero_as_zero() {
    let Some(shared) = shared() else { return };
    // The soldier's eye position is stored as (−0, 0, 0); the JSON keeps the exact value.
    let soldier = shared.join("models/ns/soldier.mdl");
    let out = studioview(&["info", soldier.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("eye position   [0, 0, 0]"), "{stdout}");
    // No number anywhere reads "-0" (a minus zero not followed by more digits).
    let negated_zero = stdout.match_indices("-0").any(|(at, _)| {
        let next = stdout[at + 2..].chars().next();
        !matches!(next, Some('.' | '0'..='9' | 'x'))
    });
    assert!(!negated_zero, "{stdout}");
    let out = studioview(&["info", soldier.to_str().unwrap(), "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let x = json["eye_position"][0].as_f64().unwrap();
    assert!(x == 0.0 && x.is_sign_negative(), "{x}");
}

#[test]
fn an_empty_model_and_an_early_version_say_what_they_are() {
    let dir = scratch("info-empty");
    let empty = dir.join("empty.mdl");
    std::fs::write(&empty, b"").unwrap();
    let out = studioview(&["info", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("the file is empty (0 bytes)"), "{}", text(&out.stderr));
    let old = dir.join("old.mdl");
    let mut bytes = b"IDST\x06\x00\x00\x00".to_vec();
    bytes.resize(300, 0);
    std::fs::write(&old, bytes).unwrap();
    let out = studioview(&["check", dir.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(
            "version 6 is an early Half-Life format; supported are 10 (Half-Life) and 44–49 (Source)"
        ),
        "{stdout}"
    );
}

#[test]
fn info_on_a_broken_file_prints_the_error_and_fails() {
    let dir = scratch("info-broken");
    let path = dir.join("junk.mdl");
    std::fs::write(&path, b"IDST\x0a\x00\x00\x00short").unwrap();
    let out = studioview(&["info", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("header at byte 0: 244 bytes needed here, but the file ends at byte 13")
    );
}

/// What `studioview ARGS` prints.
fn out_pose_bytes(args: &[&str]) -> Vec<u8> {
    studioview(args).stdout
}

/// Reads pose `index` of a reference file and checks `studioview pose` reproduces it.
fn check_pose_command(shared: &Path, model: &str, sequence: &str, index: usize) {
    let reference: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(shared.join(format!("reference/{model}.json"))).unwrap(),
    )
    .unwrap();
    let expected = &reference["poses"][index];
    let list = |key: &str| {
        expected[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap().to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let path = shared.join(format!("fixtures/{model}.mdl"));
    let out = studioview(&[
        "pose",
        path.to_str().unwrap(),
        "--seq",
        sequence,
        "--frame",
        &expected["frame"].to_string(),
        "--blend",
        &list("blend"),
        "--controller",
        &list("controller"),
        "--mouth",
        &expected["mouth"].to_string(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let ours: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for key in ["bones", "hitboxes", "attachments"] {
        let flat = |v: &serde_json::Value| -> Vec<f64> {
            let mut all = Vec::new();
            let mut stack = vec![v];
            while let Some(v) = stack.pop() {
                match v {
                    serde_json::Value::Array(items) => stack.extend(items.iter().rev()),
                    n => all.push(n.as_f64().unwrap()),
                }
            }
            all
        };
        let (a, r) = (flat(&ours[key]), flat(&expected[key]));
        assert_eq!(a.len(), r.len(), "{model} pose {index}: {key} count");
        for (i, (a, r)) in a.iter().zip(&r).enumerate() {
            assert!((a - r).abs() <= 1e-4 * r.abs().max(1.0), "{model} pose {index}: {key}[{i}] {a} vs {r}");
        }
    }
}

#[test]
fn pose_prints_the_reference_pose() {
    let Some(shared) = shared() else { return };
    // blends.json pose 151: aim4 (sequence 2) at frame 0.25, blend 77,200, controllers and mouth.
    check_pose_command(&shared, "blends", "aim4", 151);
    check_pose_command(&shared, "blends", "2", 151);
    // controllers.json pose 5: every controller and the mouth at their far end.
    check_pose_command(&shared, "controllers", "0", 5);
}

#[test]
fn pose_of_an_unknown_sequence_fails() {
    let Some(shared) = shared() else { return };
    let out = studioview(&["pose", shared.join("fixtures/rle.mdl").to_str().unwrap(), "--seq", "nosuch"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("has no sequence \"nosuch\""), "{}", text(&out.stderr));
}

#[test]
fn bench_prints_its_figures_and_the_workload_checksum() {
    let Some(shared) = shared() else { return };
    let path = shared.join("fixtures/blends.mdl");
    let out = studioview(&["bench", path.to_str().unwrap(), "--poses", "500"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let field = |name: &str| -> f64 {
        let line = stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("{name} in {stdout}"));
        line[name.len() + 1..].trim().parse().unwrap()
    };
    assert!(field("ns_per_pose") > 0.0 && field("ns_per_bone") > 0.0);
    // The same workload through the library gives the same checksum.
    let model = std::sync::Arc::new(studio_model::load(&path).unwrap().model);
    let evaluable = studio_pose::workload::evaluable(&model);
    let mut evaluator = studio_pose::PoseEvaluator::new(model.clone());
    let mut pose = studio_pose::Pose::new(&model);
    let mut checksum = 0.0;
    for i in 0..500 {
        evaluator.evaluate_bones(&studio_pose::workload::request(&model, &evaluable, i), &mut pose).unwrap();
        checksum += studio_pose::workload::checksum(&pose);
    }
    assert!((field("checksum") - checksum).abs() < 1e-3, "{stdout} vs {checksum}");
}

#[test]
fn render_writes_a_png_of_the_model() {
    let Some(shared) = shared() else { return };
    if no_adapter_outside_ci() {
        return;
    }
    let dir = scratch("render");
    let out = dir.join("soldier.png");
    let model = shared.join("models/ns/soldier.mdl");
    let result = studioview(&[
        "render",
        model.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--show",
        "mesh,hitboxes",
        "--size",
        "160x120",
        "--seq",
        "idle1",
    ]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (width, height, pixels) = read_png(&out);
    assert_eq!((width, height), (160, 120));
    let background = studio_render::RenderOptions::default().background;
    let at = |x: u32, y: u32| &pixels[((y * width + x) * 4) as usize..][..3];
    assert_eq!(at(0, 0), background, "the corner is background");
    assert_ne!(at(80, 60), background, "the model is in the middle");
    // Without a model, the bundled demo model is drawn.
    let demo = dir.join("demo.png");
    let result =
        studioview(&["render", "--out", demo.to_str().unwrap(), "--size", "160x120", "--seq", "walk"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (_, _, pixels) = read_png(&demo);
    assert_ne!(&pixels[((60 * 160 + 80) * 4)..][..3], background, "the demo model is in the middle");
    // Bad arguments are errors, not panics.
    let bad = studioview(&[
        "render",
        model.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--show",
        "nonsense",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(text(&bad.stderr).contains("unknown --show item"), "{}", text(&bad.stderr));
    let bad =
        studioview(&["render", model.to_str().unwrap(), "--out", out.to_str().unwrap(), "--size", "0x5"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn render_draws_a_source_model_with_its_pose_parameters_lods_and_hit_box_sets() {
    let Some(shared) = shared() else { return };
    if no_adapter_outside_ci() {
        return;
    }
    let dir = scratch("render-source");
    let model = shared.join("fixtures/source/models/fixture/anim48.mdl");
    let model = model.to_str().unwrap();
    let render = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["render", model, "--out", out.to_str().unwrap(), "--size", "160x120"];
        args.extend_from_slice(extra);
        (studioview(&args), out)
    };
    let (result, blend_left) =
        render("left.png", &["--seq", "blend9", "--param", "move_x=-1", "--cycle", "0.25"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    // Its materials are not found: the note names the .vmt files they would be.
    assert!(
        text(&result.stderr).contains("materials/models/fixture/fixture_skin_a.vmt"),
        "{}",
        text(&result.stderr)
    );
    let (result, blend_right) =
        render("right.png", &["--seq", "blend9", "--param", "move_x=1", "--cycle", "0.25"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (width, height, left) = read_png(&blend_left);
    assert_eq!((width, height), (160, 120));
    let background = studio_render::RenderOptions::default().background;
    assert_eq!(&left[..3], background, "the corner is background");
    assert_ne!(left, read_png(&blend_right).2, "move_x changes the pose");
    let (result, _) = render("lod1.png", &["--lod", "1", "--body", "1", "--skin", "1"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (result, _) =
        render("cheap.png", &["--hitbox-set", "cheap", "--show", "hitboxes,skeleton,attachments"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    // Mistakes are errors naming what there is.
    for (extra, says) in [
        (&["--lod", "2"][..], "has 2 LODs"),
        (&["--hitbox-set", "nope"][..], "no hit box set"),
        (&["--param", "lean=1"][..], "move_x, aim_yaw, spin"),
        (&["--frame", "2"][..], "--cycle"),
        (&["--seq", "nope"][..], "no sequence"),
    ] {
        let (result, _) = render("bad.png", extra);
        assert_eq!(result.status.code(), Some(1), "{extra:?}");
        assert!(text(&result.stderr).contains(says), "{extra:?}: {}", text(&result.stderr));
    }
}

#[test]
fn export_writes_gltf_and_refuses_what_it_cannot_do() {
    let Some(shared) = shared() else { return };
    let dir = scratch("export");
    let soldier = shared.join("models/ns/soldier.mdl");
    let out = dir.join("soldier.glb");
    let result = studioview(&[
        "export",
        soldier.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--seq",
        "idle1",
        "--seq",
        "0",
    ]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    assert!(text(&result.stdout).contains("2 animations"), "{}", text(&result.stdout));
    assert_eq!(&std::fs::read(&out).unwrap()[..4], b"glTF");
    let source = shared.join("fixtures/source/models/fixture/anim48.mdl");
    let result =
        studioview(&["export", source.to_str().unwrap(), "--out", dir.join("a.gltf").to_str().unwrap()]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    assert!(dir.join("a.bin").is_file());
    assert!(
        text(&result.stderr).contains("exported untextured"),
        "missing materials are named: {}",
        text(&result.stderr)
    );
    for (args, says) in [
        (vec!["export", soldier.to_str().unwrap(), "--out", "x.obj"], "must end in .glb or .gltf"),
        (vec!["export", soldier.to_str().unwrap(), "--out", "x.glb", "--seq", "nope"], "no sequence"),
        (vec!["export", source.to_str().unwrap(), "--out", "x.glb", "--lod", "5"], "LOD"),
        (vec!["export", soldier.to_str().unwrap(), "--out", "x.glb", "--scale", "0"], "--scale"),
    ] {
        let result = studioview(&args);
        assert_eq!(result.status.code(), Some(1), "{args:?}");
        assert!(text(&result.stderr).contains(says), "{args:?}: {}", text(&result.stderr));
    }
}

/// The white eye pixels of the demo critter in a render from `yaw` degrees, level with it: their
/// count and their spread across and down the image (standard deviations, pixels).
fn eye_pixels(dir: &Path, yaw: &str) -> (usize, f64, f64) {
    let out = dir.join(format!("front-{yaw}.png"));
    let result = studioview(&[
        "render",
        "--out",
        out.to_str().unwrap(),
        "--size",
        "480x480",
        "--seq",
        "idle",
        "--show",
        "mesh",
        "--yaw",
        yaw,
        "--pitch",
        "0",
    ]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (width, _, pixels) = read_png(&out);
    let white: Vec<(f64, f64)> = pixels
        .chunks(4)
        .enumerate()
        .filter(|(_, p)| p[0] > 200 && p[1] > 200 && p[2] > 200)
        .map(|(i, _)| ((i % width as usize) as f64, (i / width as usize) as f64))
        .collect();
    let n = white.len().max(1) as f64;
    let spread = |v: &dyn Fn(&(f64, f64)) -> f64| {
        let mean = white.iter().map(v).sum::<f64>() / n;
        (white.iter().map(|p| (v(p) - mean).powi(2)).sum::<f64>() / n).sqrt()
    };
    (white.len(), spread(&|p| p.0), spread(&|p| p.1))
}

#[test]
fn yaw_0_looks_at_the_models_face_and_180_at_its_back() {
    if no_adapter_outside_ci() {
        return;
    }
    let dir = scratch("front");
    // Studio models face +X. The demo's head box wears its face texture on every side, with
    // the eyes side by side along the texture's width: level on the front face (+X, whose
    // texture runs across the image), one above the other on the back (−X, whose texture runs
    // up it). Measured: front 230 pixels, spread 10.0 across and 7.1 down; back 166, 5.2 and 8.2.
    let (front, across, down) = eye_pixels(&dir, "0");
    assert!(front >= 40, "the eyes show from the front ({front} white pixels)");
    assert!(
        across > 1.2 * down,
        "the eyes are level from the front (spread {across:.1} across, {down:.1} down)"
    );
    let (back, across, down) = eye_pixels(&dir, "180");
    assert!(back >= 40, "the back of the head shows its texture ({back} white pixels)");
    assert!(
        down > across,
        "from behind the eyes are one above the other (spread {across:.1} across, {down:.1} down)"
    );
}

#[test]
fn render_says_nothing_when_it_succeeds() {
    if no_adapter_outside_ci() {
        return;
    }
    let dir = scratch("quiet");
    let out = dir.join("demo.png");
    // As on a machine without a desktop session.
    let result = studio_testing::process::output(
        Command::new(env!("CARGO_BIN_EXE_studioview"))
            .args(["render", "--out", out.to_str().unwrap(), "--size", "64x64"])
            .env_remove("XDG_RUNTIME_DIR")
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("DISPLAY"),
    );
    assert!(result.status.success(), "{}", text(&result.stderr));
    assert_eq!(text(&result.stderr), "", "nothing on stderr");
}

#[test]
fn pose_starts_controllers_at_their_neutral_settings() {
    let Some(shared) = shared() else { return };
    let model = shared.join("models/ns/soldier.mdl");
    let pose = |extra: &[&str]| {
        let mut args = vec!["pose", model.to_str().unwrap(), "--seq", "idle1"];
        args.extend_from_slice(extra);
        let out = studioview(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    // The soldier's spine controllers run −22.5°..22.5°: 127 is nearest 0°.
    assert_eq!(pose(&[]), pose(&["--controller", "127,127,127,127"]));
    assert_ne!(pose(&[]), pose(&["--controller", "0,0,0,0"]));
}

#[test]
fn info_json_lists_the_face_controllers_descriptions_and_eyeballs() {
    let Some(shared) = shared() else { return };
    let dir = scratch("info-face");
    let model = studio_testing::source_face::write_face(&shared, &dir);
    let out = studioview(&["info", "--json", model.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let controllers = info["flex_controllers"].as_array().unwrap();
    let (name, kind, min, max) = studio_testing::source_face::CONTROLLERS[3];
    assert_eq!(controllers.len(), studio_testing::source_face::CONTROLLERS.len());
    assert_eq!(controllers[3], serde_json::json!({"name": name, "type": kind, "min": min, "max": max}));
    let flexes = info["flexes"].as_array().unwrap();
    assert_eq!(flexes.len(), studio_testing::source_face::DESCS.len());
    assert_eq!(flexes[0]["name"], "jaw");
    assert!(flexes[0]["mesh_flexes"].as_u64().unwrap() >= 1, "{}", flexes[0]);
    let eyeballs = info["eyeballs"].as_array().unwrap();
    assert_eq!(eyeballs.len(), 1);
    assert_eq!(eyeballs[0]["name"], studio_testing::source_face::EYEBALL_NAME);
    assert_eq!(eyeballs[0]["iris_scale"], 2.0);
}

#[test]
fn render_flex_moves_the_face_and_names_what_the_model_has() {
    let Some(shared) = shared() else { return };
    if no_adapter_outside_ci() {
        return;
    }
    let dir = scratch("render-flex");
    let model = studio_testing::source_face::write_face(&shared, &dir);
    let render = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args =
            vec!["render", model.to_str().unwrap(), "--out", out.to_str().unwrap(), "--size", "200x150"];
        args.extend_from_slice(extra);
        (studioview(&args), out)
    };
    let (result, rest) = render("rest.png", &[]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (result, open) = render("open.png", &["--flex", "jaw_drop=1", "--flex", "LEFT_SMILE=1"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (result, zero) = render("zero.png", &["--flex", "jaw_drop=0"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (rest, open, zero) = (read_png(&rest).2, read_png(&open).2, read_png(&zero).2);
    assert_ne!(rest, open, "the jaw and smile move the mesh");
    assert_eq!(rest, zero, "a controller at rest draws the face at rest");
    for (extra, says) in [
        (&["--flex", "brow=1"][..], "jaw_drop, left_smile"),
        (&["--flex", "jaw_drop=2"][..], "runs from 0 to 1"),
        (&["--flex", "jaw_drop"][..], "NAME=VALUE"),
        (&["--flex", "eyes_updown=x"][..], "not a number"),
    ] {
        let (result, _) = render("bad.png", extra);
        assert_eq!(result.status.code(), Some(1), "{extra:?}");
        assert!(text(&result.stderr).contains(says), "{extra:?}: {}", text(&result.stderr));
    }
    let (result, _) = render_goldsrc_with_flex(&shared, &dir);
    assert_eq!(result.status.code(), Some(1));
    assert!(text(&result.stderr).contains("Source models"), "{}", text(&result.stderr));
}

fn render_goldsrc_with_flex(shared: &Path, dir: &Path) -> (Output, PathBuf) {
    let out = dir.join("gold.png");
    let model = std::fs::read_dir(shared.join("fixtures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "mdl"))
        .unwrap();
    let args = ["render", model.to_str().unwrap(), "--out", out.to_str().unwrap(), "--flex", "jaw_drop=1"];
    (studioview(&args), out)
}

/// The share of a quadrant's pixels (0 top left, 1 top right, 2 bottom left, 3 bottom right)
/// that differ from the background.
fn model_share(pixels: &[u8], width: u32, height: u32, quadrant: u32) -> f64 {
    let background = [48u8, 52, 60];
    let (x0, y0) = ((quadrant % 2) * width / 2, (quadrant / 2) * height / 2);
    let mut model = 0usize;
    for y in y0..y0 + height / 2 {
        for x in x0..x0 + width / 2 {
            let p = &pixels[((y * width + x) * 4) as usize..][..3];
            model += usize::from(p.iter().zip(background).any(|(&a, b)| a.abs_diff(b) > 24));
        }
    }
    model as f64 / f64::from(width / 2 * (height / 2))
}

/// The first row with a pixel that differs from the background.
fn top_row(pixels: &[u8], width: u32, height: u32) -> u32 {
    let background = [48u8, 52, 60];
    (0..height)
        .find(|y| {
            (0..width).any(|x| {
                let p = &pixels[((y * width + x) * 4) as usize..][..3];
                p.iter().zip(background).any(|(&a, b)| a.abs_diff(b) > 24)
            })
        })
        .unwrap_or(height)
}

#[test]
fn a_view_model_renders_from_the_players_eye_as_the_game_draws_it() {
    let Some(shared) = studio_testing::shared() else { return };
    if no_adapter_outside_ci() {
        return;
    }
    let dir = scratch("first-person");
    let model = shared.join("models/ns/v_mg.mdl");
    let render = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args =
            vec!["render", model.to_str().unwrap(), "--out", out.to_str().unwrap(), "--size", "320x240"];
        args.extend_from_slice(extra);
        let result = studioview(&args);
        assert!(result.status.success(), "{}", text(&result.stderr));
        read_png(&out)
    };
    // A v_ model is drawn from its origin looking down +X at Half-Life's 90°: the gun and the
    // hands in the lower right, nothing above the eye's level, no ground through the eye.
    // Measured: top left 0%, top right 0%, bottom left 4.5%, bottom right 45%.
    let (w, h, auto) = render("auto.png", &[]);
    assert_eq!(render("first-person.png", &["--camera", "first-person", "--fov", "90"]).2, auto);
    let share = |q| model_share(&auto, w, h, q);
    assert!(share(3) > 0.25, "the gun fills the lower right: {:.3}", share(3));
    assert!(share(0) < 0.001 && share(1) < 0.001, "nothing above the eye: {:.3} {:.3}", share(0), share(1));
    // A narrower field of view magnifies round the centre by the ratio of the tangents:
    // 60° against 90° is tan 45° / tan 30° = 1.73. Measured: the gun's top 19 and 33 rows
    // below the centre.
    let (_, _, narrow) = render("narrow.png", &["--fov", "60"]);
    let below = |pixels: &[u8]| f64::from(top_row(pixels, w, h)) - f64::from(h / 2);
    let ratio = below(&narrow) / below(&auto);
    assert!((1.55..1.95).contains(&ratio), "magnified {ratio:.2} times, not 1.73");
    // Orbit frames the whole model round the middle, above the centre too. Measured: 8.8%,
    // 0.3%, 5.4% and 1.4% from the default angles.
    let (_, _, orbit) = render("orbit.png", &["--camera", "orbit", "--show", "mesh"]);
    let above = model_share(&orbit, w, h, 0) + model_share(&orbit, w, h, 1);
    assert!(above > 0.03, "orbit shows the model above the centre: {above:.3}");
    // The options are checked.
    for bad in [
        &["--fov", "0"][..],
        &["--view", "sideways"],
        &["--camera", "free"],
        &["--view", "top", "--yaw", "3"],
    ] {
        let mut args = vec!["render", model.to_str().unwrap(), "--out", "x.png"];
        args.extend_from_slice(bad);
        assert!(!studioview(&args).status.success(), "{bad:?} is refused");
    }
}

#[test]
fn axis_views_and_orthographic_look_along_the_axes() {
    if no_adapter_outside_ci() {
        return;
    }
    let dir = scratch("axis-views");
    let render = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec!["render", "--out", out.to_str().unwrap(), "--size", "200x200", "--show", "mesh"];
        args.extend_from_slice(extra);
        let result = studioview(&args);
        assert!(result.status.success(), "{}", text(&result.stderr));
        read_png(&out).2
    };
    // The demo critter from the front is its front (eyes level), the same as --yaw 0 --pitch 0.
    let front = render("front.png", &["--view", "front"]);
    assert_eq!(front, render("yaw0.png", &["--yaw", "0", "--pitch", "0"]));
    // Each side gives another picture; orthographic changes the front's.
    let views =
        ["back", "left", "right", "top", "bottom"].map(|v| render(&format!("{v}.png"), &["--view", v]));
    for (i, a) in views.iter().enumerate() {
        assert_ne!(*a, front);
        for b in &views[i + 1..] {
            assert_ne!(a, b);
        }
    }
    assert_ne!(render("ortho.png", &["--view", "front", "--ortho"]), front);
}

/// The mean brightness (sum of the channels) of the pixels that differ from the background, in
/// the left and the right half of an image.
fn half_brightness(pixels: &[u8], width: u32) -> (f64, f64) {
    let background = [48u8, 52, 60];
    let mut sums = [(0.0, 0usize); 2];
    for (i, p) in pixels.chunks(4).enumerate() {
        if p.iter().zip(background).any(|(&a, b)| a.abs_diff(b) > 24) {
            let half = usize::from(i as u32 % width >= width / 2);
            sums[half].0 += f64::from(p[0]) + f64::from(p[1]) + f64::from(p[2]);
            sums[half].1 += 1;
        }
    }
    let mean = |(sum, n): (f64, usize)| sum / n.max(1) as f64;
    (mean(sums[0]), mean(sums[1]))
}

#[test]
fn the_light_turns_and_takes_its_colour_and_ambient_level() {
    if no_adapter_outside_ci() {
        return;
    }
    let dir = scratch("light");
    let render = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let mut args = vec![
            "render",
            "--out",
            out.to_str().unwrap(),
            "--size",
            "240x240",
            "--show",
            "mesh",
            "--view",
            "front",
        ];
        args.extend_from_slice(extra);
        let result = studioview(&args);
        assert!(result.status.success(), "{}", text(&result.stderr));
        read_png(&out).2
    };
    // The light's direction changes the picture (which side it lights is checked through the
    // shaders on a sphere: studio-render's tests/lighting.rs).
    let from_right = render("right.png", &["--light", "0,80"]);
    assert_ne!(from_right, render("left.png", &["--light", "0,-80"]));
    assert_ne!(from_right, render("default.png", &[]));
    // The ambient level lifts the whole model.
    let dark = half_brightness(&render("dark.png", &["--light", "0,-80", "--ambient", "0"]), 240).1;
    let bright = half_brightness(&render("bright.png", &["--light", "0,-80", "--ambient", "1"]), 240).1;
    assert!(bright > dark + 60.0, "ambient 0: {dark:.0}, 1: {bright:.0}");
    // The demo is green: under a red light (and no ambient) its green goes.
    let white = render("white.png", &["--ambient", "0"]);
    let red = render("red.png", &["--light-color", "255,0,0", "--ambient", "0"]);
    let model: Vec<usize> =
        (0..white.len() / 4).filter(|&i| white[i * 4..i * 4 + 3] != [48, 52, 60]).collect();
    let green = |image: &[u8]| model.iter().map(|&i| u64::from(image[i * 4 + 1])).sum::<u64>();
    assert!(
        green(&red) * 10 < green(&white),
        "green under red {}, under white {}",
        green(&red),
        green(&white)
    );
    for bad in
        [&["--light", "100,0"][..], &["--light", "north"], &["--light-color", "1,2"], &["--ambient", "2"]]
    {
        let mut args = vec!["render", "--out", "x.png"];
        args.extend_from_slice(bad);
        assert!(!studioview(&args).status.success(), "{bad:?} is refused");
    }
}

#[test]
fn render_shows_normals_the_player_hull_and_bone_weights() {
    if no_adapter_outside_ci() {
        return;
    }
    let dir = scratch("overlay-views");
    let render = |name: &str, show: &str| {
        let out = dir.join(name);
        let args = ["render", "--out", out.to_str().unwrap(), "--size", "160x120", "--show", show];
        let result = studioview(&args);
        assert!(result.status.success(), "{show}: {}", text(&result.stderr));
        read_png(&out).2
    };
    let mesh = render("mesh.png", "mesh");
    let views = ["mesh,normals", "mesh,hull", "mesh,weights", "mesh,weights:1"]
        .map(|show| render(&format!("{show}.png"), show));
    for (i, view) in views.iter().enumerate() {
        assert_ne!(*view, mesh, "{i} draws something more");
        for other in &views[i + 1..] {
            assert_ne!(view, other);
        }
    }
    let out = dir.join("bad.png");
    let refused = studioview(&["render", "--out", out.to_str().unwrap(), "--show", "weights:spine"]);
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("weights:BONE"), "{}", text(&refused.stderr));
}
