//! The games the archive tests share, written to a scratch folder: a Source game (the fixtures
//! anim48 and include48 with their companions, `.ani`, include model and materials) and a
//! Half-Life game (NS's hive with its texture file, the soldier, and the groups fixture with its
//! texture and sequence group files), each loose, and both in each of three archives: a VPK
//! version 2 with a numbered archive, a VPK version 1 with its data in the directory file, and a
//! PAK.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use studio_archive::write::{VpkFile, pak, vpk};
use studio_material::write::vtf;

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

/// A 4×4 RGB888 texture of one colour with its mips.
fn solid(rgb: [u8; 3]) -> Vec<u8> {
    let mips: Vec<Vec<u8>> = [16, 4, 1].iter().map(|&n| rgb.repeat(n)).collect();
    vtf(4, (4, 4), 2, 1, &mips, None)
}

/// The files of both games, by path below the game folder.
pub struct Games {
    pub source: Vec<(String, Vec<u8>)>,
    pub goldsrc: Vec<(String, Vec<u8>)>,
}

pub fn files(shared: &Path) -> Games {
    let fixture = shared.join("fixtures/source/models/fixture");
    let mut source: Vec<(String, Vec<u8>)> = [
        "anim48.mdl",
        "anim48.vvd",
        "anim48.dx90.vtx",
        "anim48.ani",
        "include48.mdl",
        "include48.vvd",
        "include48.dx90.vtx",
        "include48_anims.mdl",
    ]
    .iter()
    .map(|f| (format!("models/fixture/{f}"), std::fs::read(fixture.join(f)).unwrap()))
    .collect();
    for (skin, rgb) in [("fixture_skin_a", [200, 40, 40]), ("fixture_skin_b", [40, 40, 200])] {
        let vmt = format!(r#""VertexLitGeneric" {{ "$basetexture" "models/fixture/{skin}" }}"#);
        source.push((format!("materials/models/fixture/{skin}.vmt"), vmt.into_bytes()));
        source.push((format!("materials/models/fixture/{skin}.vtf"), solid(rgb)));
    }
    let mut goldsrc: Vec<(String, Vec<u8>)> = ["hive.mdl", "hivet.mdl", "soldier.mdl"]
        .iter()
        .map(|f| (format!("models/{f}"), std::fs::read(shared.join("models/ns").join(f)).unwrap()))
        .collect();
    for f in ["groups.mdl", "groups01.mdl", "groupsT.mdl"] {
        goldsrc.push((format!("models/{f}"), std::fs::read(shared.join("fixtures").join(f)).unwrap()));
    }
    Games { source, goldsrc }
}

fn write_loose(root: &Path, files: &[(String, Vec<u8>)]) {
    for (relative, bytes) in files {
        studio_testing::write_below(root, relative, bytes);
    }
}

/// The games: `loose/hl2` (the Source files) and `loose/valve` (the Half-Life files) loose;
/// `vpk2/hl2` (version 2, data in `pak01_000.vpk`), `vpk1/hl2` (version 1, data in the
/// directory file) and `pak/valve` each with every file of both games in its archive. Returns
/// the scratch folder.
pub fn games(name: &str) -> Option<PathBuf> {
    let shared = studio_testing::shared()?;
    let games = files(&shared);
    let root = scratch(name);
    write_loose(&root.join("loose/hl2"), &games.source);
    write_loose(&root.join("loose/valve"), &games.goldsrc);
    let every: Vec<&(String, Vec<u8>)> = games.source.iter().chain(&games.goldsrc).collect();
    let entries: Vec<VpkFile<'_>> =
        every.iter().map(|(p, b)| VpkFile { path: p, bytes: b, preload: 16 }).collect();
    for (version, separate) in [(2, true), (1, false)] {
        let game = root.join(format!("vpk{version}/hl2"));
        std::fs::create_dir_all(&game).unwrap();
        let (dir, data) = vpk(version, &entries, separate);
        std::fs::write(game.join("pak01_dir.vpk"), dir).unwrap();
        if separate {
            std::fs::write(game.join("pak01_000.vpk"), data).unwrap();
        }
    }
    let game = root.join("pak/valve");
    std::fs::create_dir_all(&game).unwrap();
    let paked: Vec<(&str, &[u8])> = every.iter().map(|(p, b)| (p.as_str(), b.as_slice())).collect();
    std::fs::write(game.join("pak0.pak"), pak(&paked)).unwrap();
    Some(root)
}

/// The loose path of a model and its paths in the three archives.
pub fn paths(root: &Path, model: &str) -> (String, Vec<String>) {
    let source = model.starts_with("models/fixture");
    let loose = root.join(if source { "loose/hl2" } else { "loose/valve" }).join(model);
    let archived = ["vpk2/hl2/pak01_dir.vpk", "vpk1/hl2/pak01_dir.vpk", "pak/valve/pak0.pak"]
        .iter()
        .map(|archive| format!("{}:{model}", root.join(archive).display()))
        .collect();
    (loose.display().to_string(), archived)
}

/// `out` with the game folders' paths taken out, so that loose and archived runs compare.
pub fn without_paths(out: &str, root: &Path) -> String {
    // Windows writes paths with `\` (`\\` in JSON) where they were joined, `/` where the test
    // gave them so: one separator for the comparison.
    let slashes = |text: &str| {
        if cfg!(windows) { text.replace("\\\\", "/").replace('\\', "/") } else { text.to_owned() }
    };
    let mut out = slashes(out);
    for game in [
        "vpk2/hl2/pak01_dir.vpk:",
        "vpk1/hl2/pak01_dir.vpk:",
        "pak/valve/pak0.pak:",
        "loose/hl2/",
        "loose/valve/",
    ] {
        out = out.replace(&slashes(&root.join(game).display().to_string()), "GAME/");
    }
    out
}

/// Whether rendering tests should pass over this machine: no graphics adapter, and not CI
/// (which installs Mesa, so there a missing adapter fails the test instead).
pub fn no_adapter_outside_ci() -> bool {
    let skip = studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none();
    if skip {
        eprintln!("note: no graphics adapter; skipping");
    }
    skip
}
