//! The viewer's shader warm-up helper (`studioview warm-shaders`): on a software renderer it
//! compiles the mesh's shaders the viewport's first draw uses into Mesa's shader cache, and
//! those the stored settings add, saying when they are there; run again, it finds all of it
//! there.
//!
//! Linux only: the helper exists for Mesa's software renderer, whose shader cache is found
//! through `XDG_CACHE_HOME`. Under Wine, the Windows build reaches Mesa through Wine's own
//! Vulkan and DX12 layers, and the cache is on the Linux side.

#![cfg(target_os = "linux")]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use studio_viewer::app::settings::Settings;

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

/// Runs the helper on the demo model with Mesa's cache under `cache`, writing `stdin` to it;
/// what it writes.
fn warm(cache: &Path, stdin: &str) -> String {
    let mut child = studio_testing::process::spawn(
        Command::new(env!("CARGO_BIN_EXE_studioview"))
            .arg(studio_viewer::app::warmup::SUBCOMMAND)
            .env("XDG_CACHE_HOME", cache)
            .env_remove("MESA_SHADER_CACHE_DIR")
            .env_remove("MESA_SHADER_CACHE_DISABLE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null()),
    );
    let mut input = child.stdin.take().expect("the helper's stdin");
    input.write_all(stdin.as_bytes()).expect("write the settings");
    drop(input);
    let mut output = String::new();
    child.stdout.take().expect("the helper's stdout").read_to_string(&mut output).expect("read the helper");
    assert!(child.wait().expect("wait for the helper").success());
    output
}

/// Renders the demo model with `show` (`render --show`), with Mesa's cache under `cache`; the
/// files in the cache then.
fn render(cache: &Path, show: &str) -> usize {
    let out = cache.join("render.png");
    let status = studio_testing::process::status(
        Command::new(env!("CARGO_BIN_EXE_studioview"))
            .args(["render", "--size", "64x64", "--show", show, "--out"])
            .arg(&out)
            .env("XDG_CACHE_HOME", cache)
            .env_remove("MESA_SHADER_CACHE_DIR")
            .env_remove("MESA_SHADER_CACHE_DISABLE")
            .stderr(Stdio::null()),
    );
    assert!(status.success(), "render --show {show} failed");
    cached(cache)
}

/// Files in Mesa's shader cache under `cache`.
fn cached(cache: &Path) -> usize {
    fn count(dir: &Path) -> usize {
        std::fs::read_dir(dir).map_or(0, |entries| {
            entries
                .flatten()
                .map(|e| if e.path().is_dir() { count(&e.path()) } else { usize::from(e.path().is_file()) })
                .sum()
        })
    }
    count(&cache.join("mesa_shader_cache"))
}

#[test]
fn the_helper_compiles_the_first_draw_and_what_stored_settings_add() {
    let software =
        studio_viewer::app::window_adapter().is_some_and(|(_, adapter)| studio_render::is_software(&adapter));
    let cache = scratch("warm-shaders-cache");
    if !software {
        // On a GPU the helper stops at once; CI installs Mesa's software renderer.
        assert!(std::env::var_os("CI").is_none(), "no software Vulkan adapter in CI");
        assert_eq!(warm(&cache, ""), "", "a helper on a GPU says nothing");
        eprintln!("note: no software adapter; the helper only checked that it stops");
        return;
    }
    let mesh_ready = format!("{}\n", studio_viewer::app::warmup::MESH_READY);
    // No settings (the viewer closed its end): the default view's shaders alone.
    assert_eq!(warm(&cache, ""), mesh_ready);
    let first = cached(&cache);
    assert!(first > 0, "the helper compiled nothing into Mesa's cache");
    // The same view again: all of it is in the cache already.
    let defaults = serde_json::to_string(&Settings::default()).unwrap();
    assert_eq!(warm(&cache, &format!("{defaults}\n")), mesh_ready);
    assert_eq!(cached(&cache), first, "the default view compiled again");
    // Overlays are the viewer's to compile (hit boxes here): nothing more.
    let hitboxes = Settings { hitboxes: true, ..Settings::default() };
    assert_eq!(warm(&cache, &format!("{}\n", serde_json::to_string(&hitboxes).unwrap())), mesh_ready);
    assert_eq!(cached(&cache), first, "the helper compiled an overlay");
    // Stored settings that draw a wireframe: its pipeline is compiled too.
    let wireframe = Settings { wireframe: true, ..Settings::default() };
    assert_eq!(warm(&cache, &format!("{}\n", serde_json::to_string(&wireframe).unwrap())), mesh_ready);
    assert!(cached(&cache) > first, "the stored settings' wireframe was not compiled");
}

#[test]
fn the_ground_grid_needs_no_code_of_its_own() {
    let software =
        studio_viewer::app::window_adapter().is_some_and(|(_, adapter)| studio_render::is_software(&adapter));
    if !software {
        assert!(std::env::var_os("CI").is_none(), "no software Vulkan adapter in CI");
        eprintln!("note: no software adapter; nothing is compiled at a first draw to count");
        return;
    }
    // Drawn by the mesh's pipeline (studio-render's grid.rs), the grid finds all its code among
    // what the mesh's draw compiled: the viewer can show it with the mesh, the moment the helper
    // has compiled the mesh.
    let cache = scratch("ground-grid-cache");
    let mesh = render(&cache, "mesh");
    assert!(mesh > 0, "the mesh compiled nothing into Mesa's cache");
    assert_eq!(render(&cache, "mesh,grid"), mesh, "the grid needed code of its own");
    // Not so the overlays: hit boxes compile their own.
    assert!(
        render(&cache, "mesh,grid,hitboxes") > mesh,
        "the hit boxes compiled nothing: is the cache in use?"
    );
}
