//! Broken installs: a malformed gameinfo.txt, libraryfolders.vdf and .acf, a cycle of mounts, a
//! path that climbs out with `..`, a missing library and a manifest naming a folder that is not
//! there. Each gives a message naming the file (and the place in it) and the fallback; and every
//! reader survives truncation and mutation.

use std::path::{Path, PathBuf};

use studio_archive::GameFolders;
use studio_games::testing::{put, steam_tree};
use studio_games::{Installs, Preferences, gameinfo, liblist, steam};

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

/// `text` with one separator: Windows writes the paths it builds with `\\`.
fn slashes(text: impl AsRef<str>) -> String {
    text.as_ref().replace('\\', "/")
}

/// Whether one of `problems` starts with `file` (any separator) and holds `says`.
fn named(problems: &[String], file: &Path, says: &str) -> bool {
    let file = slashes(file.display().to_string());
    problems.iter().any(|p| slashes(p).starts_with(&file) && p.contains(says))
}

#[test]
fn a_malformed_gameinfo_names_its_offset_and_leaves_the_folder_rule() {
    let tree = steam_tree(&scratch("bad-gameinfo"));
    put(&tree.source_mod, "gameinfo.txt", b"\"GameInfo\"\n{\n\tgame \"Momentum Mod\n");
    let installs = Installs::discover(&tree.locations, &[]);
    // The game is still listed, by its folder's name, and the problem names the file.
    let game = installs.games.iter().find(|g| g.folder == tree.source_mod).unwrap();
    assert_eq!(game.name, "momentum");
    let file = tree.source_mod.join("gameinfo.txt");
    assert!(named(&installs.problems, &file, "KeyValues at byte 19"), "{:?}", installs.problems);
    let (games, list, problem) = installs.open(&tree.source_mod, &Preferences::default());
    assert!(problem.unwrap().contains("no closing quote"));
    assert!(list.entries.is_empty());
    // The fallback: the folder's own loose files.
    assert_eq!(games.roots, std::slice::from_ref(&tree.source_mod));
    let (file, _) =
        games.find_place("materials/models/weapons/v_hand_sheet.vmt", &mut Vec::new()).unwrap().unwrap();
    assert_eq!(file.bytes, b"momentum");
}

#[test]
fn malformed_steam_files_are_named_and_the_rest_is_kept() {
    let tree = steam_tree(&scratch("bad-steam"));
    put(&tree.steam, "steamapps/libraryfolders.vdf", b"\"libraryfolders\" { \"0\" { \"path\" ");
    put(&tree.steam, "steamapps/appmanifest_70.acf", b"\"AppState\" { \"appid\" \"70\" ");
    let installs = Installs::discover(&tree.locations, &[]);
    let vdf = tree.steam.join("steamapps/libraryfolders.vdf");
    let acf = tree.steam.join("steamapps/appmanifest_70.acf");
    assert!(named(&installs.problems, &vdf, "at byte"), "{:?}", installs.problems);
    assert!(named(&installs.problems, &acf, "at byte"), "{:?}", installs.problems);
    // The Steam folder is still a library, with its readable manifest.
    assert_eq!(installs.steam[0].libraries.len(), 1);
    assert_eq!(installs.steam[0].libraries[0].apps.iter().map(|a| a.id).collect::<Vec<_>>(), [669270]);
    assert_eq!(installs.games.iter().map(|g| g.name.as_str()).collect::<Vec<_>>(), ["Momentum Mod"]);
    // The mod's mounts of apps in the lost library are named, not fatal.
    let list = installs.search_path(&tree.source_mod, &Preferences::default()).unwrap();
    assert!(list.notes.iter().any(|n| n.contains("app 440 is not installed")), "{:?}", list.notes);
    assert!(list.notes.iter().any(|n| n.contains("mount 240")), "{:?}", list.notes);
}

#[test]
fn a_missing_library_and_a_manifest_without_its_folder_are_named() {
    let tree = steam_tree(&scratch("missing"));
    std::fs::remove_dir_all(&tree.library2).unwrap();
    std::fs::remove_dir_all(tree.steam.join("steamapps/common/Half-Life")).unwrap();
    let installs = Installs::discover(&tree.locations, &[]);
    let vdf = tree.steam.join("steamapps/libraryfolders.vdf").display().to_string();
    assert!(
        installs
            .problems
            .iter()
            .any(|p| p.starts_with(&vdf) && p.contains(&format!("{} is not there", tree.library2.display()))),
        "{:?}",
        installs.problems
    );
    assert!(
        installs
            .problems
            .iter()
            .any(|p| p.contains("appmanifest_70.acf") && p.contains("\"Half-Life\" is not there")),
        "{:?}",
        installs.problems
    );
    assert_eq!(installs.games.len(), 1);
    // A folder named on the command line that is not Steam's says so.
    let installs = Installs::discover(&steam::Locations::default(), &[scratch("not-steam")]);
    assert!(installs.problems[0].contains("not a Steam folder"), "{:?}", installs.problems);
}

#[test]
fn a_cycle_of_mounts_ends_and_climbing_out_is_refused() {
    let tree = steam_tree(&scratch("cycle"));
    // Team Fortress 2 mounts the mod's app, which mounts Team Fortress 2: mounts do not chain.
    let tf = tree.library2.join("steamapps/common/Team Fortress 2/tf");
    put(
        &tf,
        "gameinfo.txt",
        br#""GameInfo" { game "TF" FileSystem { SteamAppId 440 SearchPaths { game |gameinfo_path|.
            game |gameinfo_path|../../../../../../../../../../../../../../../../../../../../../../../../../../../x
            game |appid_0|x
            game |appid_12|x
            game |appid_|x } }
          mount { 669270 { "momentum" { "dir" "." "dir" "../../../.." } "../.." { "dir" "." } } 440 { "tf" { "dir" "." } } } }"#,
    );
    let installs = Installs::discover(&tree.locations, &[]);
    let list = installs.search_path(&tf, &Preferences::default()).unwrap();
    let entries: Vec<&str> = list.entries.iter().map(|e| e.entry.as_str()).collect();
    assert_eq!(entries, ["game  |gameinfo_path|.", "mount 669270 momentum dir ."]);
    for says in
        ["climbs above its root", "app 0 is not installed", "app 12 is not installed", "malformed |appid_N|"]
    {
        assert!(list.notes.iter().any(|n| n.contains(says)), "{says}: {:?}", list.notes);
    }
    assert_eq!(list.notes.iter().filter(|n| n.contains("climbs out")).count(), 2, "{:?}", list.notes);
    let games = GameFolders::search(&list.entries);
    assert_eq!(games.places.len(), 2);
}

#[test]
fn every_reader_survives_truncation_and_mutation() {
    let file = Path::new("gameinfo.txt");
    studio_testing::robust("gameinfo.txt", studio_games::testing::MOD_GAMEINFO.as_bytes(), |b| {
        gameinfo::parse(b, file).map(drop).map_err(|e| e.replace(&format!("{}: ", file.display()), ""))
    });
    let liblist_text = b"game \"Condition Zero\"\r\nfallback_dir \"cstrike\"\r\ngamedll \"dlls\\mp.dll\"\r\n";
    studio_testing::robust("liblist.gam", liblist_text, |b| {
        liblist::parse(b, Path::new("liblist.gam")).map(drop)
    });
    let vdf = br#""libraryfolders" { "0" { "path" "C:\\Steam" "apps" { "70" "1" } } "1" "D:\\Lib" }"#;
    studio_testing::robust("libraryfolders.vdf", vdf, |b| {
        steam::parse_library_folders(b, Path::new("libraryfolders.vdf")).map(drop)
    });
    let acf = br#""AppState" { "appid" "70" "name" "Half-Life" "installdir" "Half-Life" }"#;
    studio_testing::robust("appmanifest_70.acf", acf, |b| {
        steam::parse_manifest(b, Path::new("a.acf")).map(drop)
    });
}
