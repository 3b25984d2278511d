//! What finding the games and opening a model through a game's search path cost:
//! `cargo bench -p studio-document --bench installs`.
//!
//! - `discovery/30_games`: a generated Steam folder with 30 apps in two libraries (20 Source
//!   games, each `gameinfo.txt` with a dozen search path lines, and a Half-Life install with 10
//!   mods): finding Steam, its libraries, manifests and games, and every game's search path.
//! - `open/…`: skeleton48 with its two materials in a mod whose search path mounts a `custom/*`
//!   folder, the mod's folder and an HL2 archive of 50,000 files; loading the model and
//!   resolving its materials through the search path (`search_path`), against the same files in a
//!   plain game folder searched by the folder rule (`folder_rule`, as before game installs);
//!   each as the viewer opens a model (the places opened once, `installs::shared`) and `unshared`
//!   (the model's files and its materials each opening them, as before).

#![allow(missing_docs)]

use std::path::{Path, PathBuf};

use criterion::{Criterion, criterion_group, criterion_main};
use studio_games::testing::{put, put_vpk};
use studio_games::{Installs, Locations, Preferences};

const BASE: &str = "studioview-installs-bench";

/// A Steam folder below `root` with 30 games in two libraries.
fn library(root: &Path) -> Locations {
    let home = root.join("home");
    let steam = home.join(".local/share/Steam");
    let locations = Locations { home: Some(home), ..Locations::default() };
    if steam.join("steamapps/libraryfolders.vdf").is_file() {
        return locations;
    }
    let second = root.join("lib2");
    put(
        &steam,
        "steamapps/libraryfolders.vdf",
        format!(
            "\"libraryfolders\" {{ \"0\" {{ \"path\" \"{}\" }} \"1\" {{ \"path\" \"{}\" }} }}",
            steam.display(),
            second.display()
        )
        .as_bytes(),
    );
    for i in 0..20u32 {
        let library = if i % 2 == 0 { &steam } else { &second };
        let id = 1000 + i;
        put(
            library,
            &format!("steamapps/appmanifest_{id}.acf"),
            format!(
                "\"AppState\" {{ \"appid\" \"{id}\" \"name\" \"Game {i}\" \"installdir\" \"Game {i}\" }}"
            )
            .as_bytes(),
        );
        let mut lines = String::from("game+mod game{i}/custom/*\ngame+game_write |gameinfo_path|.\n");
        for n in 0..10 {
            lines.push_str(&format!("game |all_source_engine_paths|hl2/hl2_part{n}.vpk\n"));
        }
        lines.push_str("game |all_source_engine_paths|hl2\n");
        let gameinfo = format!(
            "\"GameInfo\" {{ game \"Game {i}\" FileSystem {{ SteamAppId {id} SearchPaths {{ {} }} }} }}",
            lines.replace("{i}", &i.to_string())
        );
        let install = library.join(format!("steamapps/common/Game {i}"));
        put(&install, &format!("game{i}/gameinfo.txt"), gameinfo.as_bytes());
        for n in 0..3 {
            put(&install, &format!("game{i}/custom/pack{n}/materials/x.vmt"), b"x");
        }
        put(&install, "hl2/materials/x.vmt", b"x");
    }
    put(
        &steam,
        "steamapps/appmanifest_70.acf",
        br#""AppState" { "appid" "70" "name" "Half-Life" "installdir" "Half-Life" }"#,
    );
    for m in 0..10 {
        put(
            &steam,
            &format!("steamapps/common/Half-Life/mod{m}/liblist.gam"),
            b"game \"Mod\"\nfallback_dir \"valve\"\n",
        );
    }
    put(&steam, "steamapps/common/Half-Life/valve/liblist.gam", b"game \"Half-Life\"\n");
    locations
}

/// The mod (with its 50,000-file HL2 archive) and the plain game folder holding the same files:
/// (the mod's model, the plain folder's model).
fn models(shared: &Path, root: &Path) -> (PathBuf, PathBuf) {
    let install = root.join("install");
    let modded = install.join("mod/models/fixture/skeleton48.mdl");
    let plain = root.join("plain/models/fixture/skeleton48.mdl");
    if modded.is_file() && plain.is_file() {
        return (modded, plain);
    }
    let vmt =
        |t: &str| format!(r#""VertexLitGeneric" {{ "$basetexture" "models/fixture/{t}" }}"#).into_bytes();
    let texture = studio_material::write::vtf(4, (4, 4), 2, 1, &[vec![9; 48], vec![9; 12], vec![9; 3]], None);
    let names: Vec<String> =
        (0..50_000).map(|i| format!("materials/filler/f{}/item{i}.vmt", i % 100)).collect();
    let (vmt_a, vmt_b) = (vmt("a"), vmt("b"));
    let mut files: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"x"[..])).collect();
    files.push(("materials/models/fixture/fixture_skin_b.vmt", &vmt_b));
    files.push(("materials/models/fixture/a.vtf", &texture));
    files.push(("materials/models/fixture/b.vtf", &texture));
    for (folder, archive) in
        [(install.join("hl2"), "hl2_misc_dir.vpk"), (root.join("plain"), "pak01_dir.vpk")]
    {
        put_vpk(&folder, archive, &files);
    }
    put(
        &install,
        "mod/gameinfo.txt",
        br#""GameInfo" { game "Bench" FileSystem { SteamAppId 1 SearchPaths {
            game+mod mod/custom/*
            game+game_write |gameinfo_path|.
            game |all_source_engine_paths|hl2/hl2_misc.vpk
            game |all_source_engine_paths|hl2 } } }"#,
    );
    for n in 0..3 {
        put(&install, &format!("mod/custom/pack{n}/materials/other.vmt"), b"x");
    }
    for folder in [install.join("mod"), root.join("plain")] {
        put(&folder, "materials/models/fixture/fixture_skin_a.vmt", &vmt_a);
        for file in ["skeleton48.mdl", "skeleton48.vvd", "skeleton48.dx90.vtx"] {
            let bytes = std::fs::read(shared.join("fixtures/source/models/fixture").join(file)).unwrap();
            put(&folder, &format!("models/fixture/{file}"), &bytes);
        }
    }
    (modded, plain)
}

fn installs(c: &mut Criterion) {
    let root = std::env::temp_dir().join(BASE);
    let locations = library(&root);
    let mut group = c.benchmark_group("discovery");
    group.sample_size(20);
    group.bench_function("30_games", |b| {
        b.iter(|| {
            let installs = Installs::discover(&locations, &[]);
            assert_eq!(installs.games.len(), 31, "{:?}", installs.problems);
            for game in &installs.games {
                let list = installs.search_path(&game.folder, &Preferences::default()).unwrap();
                assert!(!list.entries.is_empty());
            }
        })
    });
    group.finish();

    let Some(shared) = studio_testing::shared() else { return };
    let (modded, plain) = models(&shared, &root);
    let mut group = c.benchmark_group("open");
    group.sample_size(20);
    for (name, model) in [("search_path", &modded), ("folder_rule", &plain)] {
        let open = || {
            let loaded = studio_document::model_files::source_load(model).unwrap().unwrap();
            let resolved = studio_document::materials::resolve(&loaded.model, model, &[]);
            assert!(resolved.found.iter().all(|f| f.problem.is_none()), "{:?}", resolved.messages);
        };
        // As the viewer and the commands open a model: the game's places opened once for its
        // files and its materials.
        group.bench_function(format!("50000_archived/{name}"), |b| {
            b.iter(|| studio_document::installs::shared(open))
        });
        // Each opening its own (as before game installs).
        group.bench_function(format!("50000_archived/{name}/unshared"), |b| b.iter(open));
    }
    group.finish();
}

criterion_group!(benches, installs);
criterion_main!(benches);
