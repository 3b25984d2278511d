//! The synthetic Steam install (`studio_games::testing`): discovery from a home folder (or a
//! registry stand-in on Windows), and each file found where the engine would take it from.

use std::path::{Path, PathBuf};

use studio_archive::GameFolders;
use studio_games::testing::steam_tree;
use studio_games::{Engine, Installs, Preferences, game_of};

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

/// Where `relative` is found in `games`: the bytes (naming their place) and the search path entry.
fn found(games: &GameFolders, relative: &str) -> Option<(String, String)> {
    let (file, place) = games.find_place(relative, &mut Vec::new()).unwrap()?;
    Some((String::from_utf8_lossy(&file.bytes).into_owned(), games.places[place].entry.clone()))
}

#[test]
fn discovery_finds_both_libraries_and_every_game() {
    let tree = steam_tree(&scratch("discovery"));
    let installs = Installs::discover(&tree.locations, &[]);
    assert_eq!(installs.problems, Vec::<String>::new());
    assert_eq!(installs.steam.len(), 1);
    let libraries: Vec<&Path> = installs.steam[0].libraries.iter().map(|l| l.path.as_path()).collect();
    assert_eq!(libraries, [tree.steam.as_path(), tree.library2.as_path()]);
    let ids: Vec<Vec<u32>> =
        installs.steam[0].libraries.iter().map(|l| l.apps.iter().map(|a| a.id).collect()).collect();
    assert_eq!(ids, [vec![70, 669270], vec![240, 440]]);
    let games: Vec<(&str, Engine, Option<u32>, String)> = installs
        .games
        .iter()
        .map(|g| {
            (
                g.name.as_str(),
                g.engine,
                g.app_id,
                g.folder.file_name().unwrap().to_string_lossy().into_owned(),
            )
        })
        .collect();
    assert_eq!(
        games,
        [
            ("Counter-Strike", Engine::GoldSrc, Some(70), "cstrike".into()),
            ("Condition Zero", Engine::GoldSrc, Some(70), "czero".into()),
            ("Half-Life", Engine::GoldSrc, Some(70), "valve".into()),
            ("Momentum Mod", Engine::Source, Some(669270), "momentum".into()),
            ("Counter-Strike: Source", Engine::Source, Some(240), "cstrike".into()),
            ("Team Fortress 2", Engine::Source, Some(440), "tf".into()),
        ]
    );
    assert_eq!(installs.games[5].library.as_deref(), Some(tree.library2.as_path()));
    assert_eq!(installs.app_folder(440), Some(tree.library2.join("steamapps/common/Team Fortress 2")));
}

#[cfg(unix)]
#[test]
fn a_steam_folder_reached_by_two_names_is_read_once() {
    let tree = steam_tree(&scratch("two-names"));
    let Some(home) = tree.locations.home.clone() else { return };
    if cfg!(target_os = "macos") {
        return;
    }
    std::fs::create_dir_all(home.join(".steam")).unwrap();
    std::os::unix::fs::symlink(&tree.steam, home.join(".steam/steam")).unwrap();
    let installs = Installs::discover(&tree.locations, &[]);
    assert_eq!(installs.steam.len(), 1);
    assert_eq!(installs.steam[0].folder, home.join(".steam/steam"));
    assert_eq!(installs.games.len(), 6);
}

#[test]
fn the_source_mod_finds_each_file_where_the_engine_would() {
    let tree = steam_tree(&scratch("source-mod"));
    let installs = Installs::discover(&tree.locations, &[]);
    let list = installs.search_path(&tree.source_mod, &Preferences::default()).unwrap();
    assert_eq!(list.notes, Vec::<String>::new());
    let entries: Vec<&str> = list.entries.iter().map(|e| e.entry.as_str()).collect();
    assert_eq!(
        entries,
        [
            "mount 240 cstrike vpk cstrike_pak",
            "game+mod  momentum/custom/* (a_override)",
            "game+mod  momentum/custom/* (b_pack_dir.vpk)",
            "game+game_write  |gameinfo_path|.",
            "game  |all_source_engine_paths|hl2/hl2_textures.vpk",
            "game  |all_source_engine_paths|hl2/hl2_sound_vo_english.vpk",
            "game  |appid_440|tf/tf2_misc.vpk",
            "game  |all_source_engine_paths|hl2",
            "mount 440 tf vpk tf2_textures_dir",
            "mount 440 tf dir .",
        ]
    );
    let games = GameFolders::search(&list.entries);
    assert_eq!(games.broken_archives, Vec::<String>::new());
    let weapons = |name: &str| format!("materials/models/weapons/{name}");
    for (file, from, entry) in [
        ("override.vmt", "custom/a_override", "game+mod  momentum/custom/* (a_override)"),
        ("packed.vmt", "custom/b_pack_dir.vpk", "game+mod  momentum/custom/* (b_pack_dir.vpk)"),
        ("v_hand_sheet.vmt", "momentum", "game+game_write  |gameinfo_path|."),
        ("hands.vtf", "hl2/hl2_textures_dir.vpk", "game  |all_source_engine_paths|hl2/hl2_textures.vpk"),
        ("misc.vmt", "tf/tf2_misc_dir.vpk", "game  |appid_440|tf/tf2_misc.vpk"),
        ("hl2_loose.vmt", "hl2", "game  |all_source_engine_paths|hl2"),
        ("tf_thing.vtf", "tf/tf2_textures_dir.vpk", "mount 440 tf vpk tf2_textures_dir"),
        ("tf_loose.vmt", "tf", "mount 440 tf dir ."),
        ("css_thing.vmt", "cstrike/cstrike_pak_dir.vpk", "mount 240 cstrike vpk cstrike_pak"),
    ] {
        assert_eq!(found(&games, &weapons(file)), Some((from.to_owned(), entry.to_owned())), "{file}");
    }
    // `mod` alone is searched by request only; `game_lv` only in a low-violence build.
    assert_eq!(found(&games, &weapons("mod_only.vmt")), None);
    assert_eq!(found(&games, &weapons("gore.vmt")), None);
    assert_eq!(found(&games, "materials/lang.vmt").unwrap().0, "hl2/hl2_sound_vo_english_dir.vpk");
    let french = Preferences { language: "french".into(), low_violence: true, ..Preferences::default() };
    let games = GameFolders::search(&installs.search_path(&tree.source_mod, &french).unwrap().entries);
    assert_eq!(found(&games, "materials/lang.vmt").unwrap().0, "hl2/hl2_sound_vo_french_dir.vpk");
    assert_eq!(
        found(&games, &weapons("gore.vmt")).unwrap().1,
        "game_lv  |all_source_engine_paths|hl2/hl2_lv.vpk"
    );
    // A model's game is the nearest game folder above it, loose or archived.
    assert_eq!(game_of(&tree.source_mod.join("models/weapons/v_rocket.mdl")), Some(tree.source_mod.clone()));
    assert_eq!(
        game_of(&tree.source_mod.join("custom/b_pack_dir.vpk:models/x.mdl")),
        Some(tree.source_mod.clone())
    );
}

#[test]
fn the_half_life_mod_falls_back_to_its_fallback_then_valve_with_hd_first() {
    let tree = steam_tree(&scratch("goldsrc-mod"));
    let installs = Installs::discover(&tree.locations, &[]);
    let czero = tree.half_life.join("czero");
    let list = installs.search_path(&czero, &Preferences::default()).unwrap();
    let entries: Vec<&str> = list.entries.iter().map(|e| e.entry.as_str()).collect();
    assert_eq!(
        entries,
        ["czero_hd", "czero", "czero_downloads", "cstrike", "valve_hd", "valve", "valve/pak0.pak"]
    );
    let games = GameFolders::search(&list.entries);
    for (file, from) in [
        ("models/own.mdl", "czero_hd"),
        ("models/downloaded.mdl", "czero"),
        ("models/hostage.mdl", "cstrike"),
        ("models/player.mdl", "cstrike"),
        ("models/barney.mdl", "valve"),
        ("models/scientist.mdl", "valve/pak0.pak"),
    ] {
        assert_eq!(found(&games, file).map(|f| f.0), Some(from.to_owned()), "{file}");
    }
    // Valve's own game: HD first, then the loose files and the pak; without HD the pak's.
    let valve = tree.half_life.join("valve");
    let games = GameFolders::search(&installs.search_path(&valve, &Preferences::default()).unwrap().entries);
    assert_eq!(found(&games, "models/player.mdl").unwrap().0, "valve_hd");
    let no_hd = Preferences { hd_models: false, ..Preferences::default() };
    let games = GameFolders::search(&installs.search_path(&valve, &no_hd).unwrap().entries);
    assert_eq!(found(&games, "models/player.mdl").unwrap().0, "valve/pak0.pak");
}
