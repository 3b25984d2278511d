//! A Source mod model in the synthetic Steam install (studio-games' `testing`): its materials
//! come from four entries of the mod's search path (a `custom/*` folder that overrides the mod's
//! own copy, `|gameinfo_path|.`, `|all_source_engine_paths|hl2/hl2_textures.vpk` and a `mount`
//! of an app in the second library), as `info --json` reports them; `games --json` lists every
//! game; and `check`, `render` and `info` take `--game DIR` for a model found elsewhere.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod steam_mod;

use steam_mod::mod_with_model;
use studio_games::testing::steam_tree;

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

/// `studioview ARGS` with discovery pointed at the tree: its home folder, and its Steam folder
/// named with `--steam` (the registry cannot be stood in for in a child process).
fn studioview(tree: &studio_games::testing::SteamTree, args: &[&std::ffi::OsStr]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_studioview"));
    command.args(args).arg("--steam").arg(&tree.steam);
    if let Some(home) = &tree.locations.home {
        command.env("HOME", home);
    }
    studio_testing::process::output(&mut command)
}

fn json(output: &Output) -> serde_json::Value {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn info_says_which_search_path_entry_supplied_each_material() {
    let Some(shared) = studio_testing::shared() else { return };
    let (tree, model) = mod_with_model(&shared, "installs-info");
    let info = json(&studioview(&tree, &["info".as_ref(), model.as_os_str(), "--json".as_ref()]));
    let materials = info["materials"].as_array().unwrap();
    let text = |v: &serde_json::Value| v.as_str().unwrap_or("null").to_owned();
    let a = &materials[0];
    assert_eq!(text(&a["name"]), "fixture_skin_a");
    assert_eq!(
        PathBuf::from(text(&a["vmt"])),
        tree.source_mod.join("custom/a_override/materials/models/fixture/fixture_skin_a.vmt")
    );
    assert_eq!(text(&a["search_path"]), "game+mod  momentum/custom/* (a_override)");
    // One separator: on Windows the search path's places are written with `\`.
    let slashes = |t: String| t.replace('\\', "/");
    let tf = tree.library2.join("steamapps/common/Team Fortress 2/tf");
    assert_eq!(
        slashes(text(&a["vtf"])),
        slashes(format!("{}:materials/models/fixture/green.vtf", tf.join("tf2_textures_dir.vpk").display()))
    );
    assert_eq!(text(&a["vtf_search_path"]), "mount 440 tf vpk tf2_textures_dir");
    let b = &materials[1];
    assert_eq!(
        PathBuf::from(text(&b["vmt"])),
        tree.source_mod.join("materials/models/fixture/fixture_skin_b.vmt")
    );
    assert_eq!(text(&b["search_path"]), "game+game_write  |gameinfo_path|.");
    assert_eq!(text(&b["vtf_search_path"]), "game  |all_source_engine_paths|hl2/hl2_textures.vpk");
    assert!(text(&b["vtf"]).ends_with("hl2_textures_dir.vpk:materials/models/fixture/blue.vtf"));
    // Every place looked, in order: the head mount first, then the custom folder.
    let tried: Vec<String> = b["tried"].as_array().unwrap().iter().map(text).collect();
    assert!(
        tried[0].contains("cstrike_pak_dir.vpk:materials/models/fixture/fixture_skin_b.vmt"),
        "{tried:?}"
    );
    assert!(tried[1].contains("a_override"), "{tried:?}");
    assert_eq!(PathBuf::from(text(&info["search_path"]["game"])), tree.source_mod);
    assert_eq!(info["search_path"]["places"].as_array().unwrap().len(), 10);
}

#[test]
fn games_lists_every_game_of_both_libraries() {
    let tree = steam_tree(&scratch("installs-games"));
    let listed = json(&studioview(&tree, &["games".as_ref(), "--json".as_ref()]));
    let games: Vec<(String, String, Option<u64>, String, String)> = listed["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["name"].as_str().unwrap().to_owned(),
                g["engine"].as_str().unwrap().to_owned(),
                g["app_id"].as_u64(),
                g["folder"].as_str().unwrap().to_owned(),
                g["library"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let common = |library: &Path, app: &str, folder: &str| {
        library.join("steamapps").join("common").join(app).join(folder).display().to_string()
    };
    let (one, two) = (tree.steam.display().to_string(), tree.library2.display().to_string());
    assert_eq!(
        games,
        [
            (
                "Counter-Strike".into(),
                "goldsrc".into(),
                Some(70),
                common(&tree.steam, "Half-Life", "cstrike"),
                one.clone()
            ),
            (
                "Condition Zero".into(),
                "goldsrc".into(),
                Some(70),
                common(&tree.steam, "Half-Life", "czero"),
                one.clone()
            ),
            (
                "Half-Life".into(),
                "goldsrc".into(),
                Some(70),
                common(&tree.steam, "Half-Life", "valve"),
                one.clone()
            ),
            (
                "Momentum Mod".into(),
                "source".into(),
                Some(669270),
                common(&tree.steam, "Momentum Mod", "momentum"),
                one
            ),
            (
                "Counter-Strike: Source".into(),
                "source".into(),
                Some(240),
                common(&tree.library2, "Counter-Strike Source", "cstrike"),
                two.clone()
            ),
            (
                "Team Fortress 2".into(),
                "source".into(),
                Some(440),
                common(&tree.library2, "Team Fortress 2", "tf"),
                two
            ),
        ]
    );
    assert_eq!(listed["problems"].as_array().unwrap().len(), 0, "{listed}");
    assert_eq!(listed["steam"][0]["libraries"].as_array().unwrap().len(), 2);
    let text = studioview(&tree, &["games".as_ref()]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("6 games"));
}

#[test]
fn a_model_found_elsewhere_takes_a_games_search_path_with_game() {
    let Some(shared) = studio_testing::shared() else { return };
    let (tree, model) = mod_with_model(&shared, "installs-elsewhere");
    let elsewhere = scratch("installs-elsewhere-model").join("models/fixture");
    std::fs::create_dir_all(&elsewhere).unwrap();
    for file in ["skeleton48.mdl", "skeleton48.vvd", "skeleton48.dx90.vtx"] {
        studio_testing::copy(model.with_file_name(file), elsewhere.join(file)).unwrap();
    }
    let copy = elsewhere.join("skeleton48.mdl");
    let without = json(&studioview(&tree, &["info".as_ref(), copy.as_os_str(), "--json".as_ref()]));
    assert!(without["materials"][0]["vmt"].is_null());
    let game = tree.source_mod.as_os_str();
    let with = json(&studioview(
        &tree,
        &["info".as_ref(), copy.as_os_str(), "--json".as_ref(), "--game".as_ref(), game],
    ));
    assert_eq!(
        with["materials"][1]["vtf_search_path"],
        "game  |all_source_engine_paths|hl2/hl2_textures.vpk"
    );
    let checked = studioview(&tree, &["check".as_ref(), copy.as_os_str(), "--game".as_ref(), game]);
    assert!(checked.status.success(), "{}", String::from_utf8_lossy(&checked.stdout));
    // render: no checkerboard with the game's search path, and the textures' colours drawn.
    let png = scratch("installs-elsewhere-render").join("out.png");
    std::fs::create_dir_all(png.parent().unwrap()).unwrap();
    let rendered = studioview(
        &tree,
        &[
            "render".as_ref(),
            copy.as_os_str(),
            "--out".as_ref(),
            png.as_os_str(),
            "--game".as_ref(),
            game,
            "--size".as_ref(),
            "320x240".as_ref(),
        ],
    );
    let stderr = String::from_utf8_lossy(&rendered.stderr);
    if !rendered.status.success() && std::env::var_os("CI").is_none() {
        eprintln!("note: render failed here ({stderr}); skipping its check");
        return;
    }
    assert!(rendered.status.success(), "{stderr}");
    assert!(!stderr.contains("checkerboard"), "{stderr}");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&png).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    reader.next_frame(&mut pixels).unwrap();
    let near = |p: &[u8], rgb: [i32; 3]| (0..3).all(|i| (i32::from(p[i]) - rgb[i]).abs() <= 40);
    let channels = pixels.len() / (320 * 240);
    let count = |rgb| pixels.chunks(channels).filter(|p| near(p, rgb)).count();
    let (green, blue, red) = (count([0, 255, 0]), count([0, 0, 255]), count([255, 0, 0]));
    assert!(green + blue > 300 && red == 0, "green {green}, blue {blue}, red {red}");
}
