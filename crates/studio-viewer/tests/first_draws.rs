//! The viewport's first draws while the shader warm-up runs, on the software renderer: neither
//! the mesh nor the ground grid (drawn by the mesh's pipeline) until the helper has the mesh's
//! shaders ready, then both, without waiting for the helper to exit. (The first frame, the background alone,
//! passes before the harness hands over; `viewport.rs` tests the choice.) This test binary, run
//! again as [`stand_in_helper`], stands in for the helper, moving on when the test creates a
//! file, so each stage is seen for as many frames as the test likes (on every system: no shell).

use std::path::Path;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::wgpu::{WgpuTestRenderer, create_render_state, default_wgpu_setup};
use studio_viewer::app::StudioApp;
use studio_viewer::app::settings::Settings;
use studio_viewer::app::warmup::{MESH_READY, Warmup};

/// The viewport's pixels in the last rendered window: how many differ from the background and
/// are not the ground grid's, and how many have the ground grid's colour.
fn viewport_pixels(h: &mut Harness<'_, StudioApp>) -> (usize, usize) {
    let image = h.render().expect("the window renders");
    let rect = h.state().viewport_rect();
    let background = studio_render::RenderOptions::default().background;
    let near = |a: [u8; 3], b: [u8; 3], by: u8| a.iter().zip(b).all(|(&x, y)| x.abs_diff(y) <= by);
    let (mut model, mut grid) = (0, 0);
    for (x, y, pixel) in image.enumerate_pixels() {
        if !rect.shrink(2.0).contains(egui::pos2(x as f32, y as f32)) {
            continue;
        }
        let rgb = [pixel[0], pixel[1], pixel[2]];
        let on_grid = near(rgb, studio_render::GRID_COLOR, 2);
        model += usize::from(!near(rgb, background, 24) && !on_grid);
        grid += usize::from(on_grid);
    }
    (model, grid)
}

/// Renders frames until `done` says so of the viewport's pixels, for at most five seconds.
fn frames_until(h: &mut Harness<'_, StudioApp>, done: impl Fn((usize, usize)) -> bool) -> (usize, usize) {
    let mut pixels = viewport_pixels(h);
    for _ in 0..500 {
        if done(pixels) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
        h.step();
        pixels = viewport_pixels(h);
    }
    pixels
}

/// The variable that makes [`stand_in_helper`] the helper: the folder of its two files.
const STAND_IN: &str = "STUDIOVIEW_STAND_IN_HELPER";

/// Waits until `file` exists, for a minute at most, so that a failed test leaves no helper
/// behind for long.
fn wait_for(file: &Path) {
    for _ in 0..6000 {
        if file.exists() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Not a test: the stand-in helper, when the test below runs this binary with [`STAND_IN`] set.
/// As the real helper, it reads the settings line, then says [`MESH_READY`] (here once the test
/// creates `ready`), then exits (once it creates `exit`). Run as a test, it returns at once.
#[test]
fn stand_in_helper() {
    use std::io::{BufRead, Write};
    let Some(dir) = std::env::var_os(STAND_IN) else { return };
    let dir = Path::new(&dir);
    let mut settings = String::new();
    let _ = std::io::stdin().lock().read_line(&mut settings);
    wait_for(&dir.join("ready"));
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{MESH_READY}").and_then(|()| stdout.flush());
    wait_for(&dir.join("exit"));
}

#[test]
fn the_viewport_shows_mesh_and_grid_once_the_mesh_is_compiled() {
    // CI installs Mesa, so there the lack of an adapter fails below.
    if studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none() {
        eprintln!("note: no graphics adapter; skipping");
        return;
    }
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "first-draws");
    let (ready, exit) = (dir.join("ready"), dir.join("exit"));
    let mut helper = std::process::Command::new(std::env::current_exe().expect("this test's path"));
    helper.args(["--exact", "stand_in_helper", "--nocapture", "--quiet"]).env(STAND_IN, &dir);
    // Waited for as long as the test takes: each stage ends when the test says.
    let warmup = Warmup::start(helper, Duration::from_secs(600)).expect("start the stand-in helper");

    let render_state =
        create_render_state(default_wgpu_setup(), eframe::egui_wgpu::RendererOptions::PREDICTABLE);
    let state = render_state.clone();
    // Handed to the viewer before its first frame, as the viewer's start does.
    let mut warmup = Some(warmup);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1024.0, 700.0))
        .renderer(WgpuTestRenderer::from_render_state(render_state))
        .build_ui_state(
            move |ui, app: &mut StudioApp| {
                if let Some(warmup) = warmup.take() {
                    app.warm_up(warmup, ui.ctx());
                }
                app.show(ui, Some(&state));
            },
            StudioApp::new(Settings::default(), None),
        );
    h.run_steps(3);

    let (model, grid) = viewport_pixels(&mut h);
    assert_eq!((model, grid), (0, 0), "mesh and grid wait for the mesh's shaders");
    assert!(h.state().viewport_holding(), "the warm-up is still going");

    // The helper says the mesh is ready and goes on running (tearing down): the viewport does not
    // wait for it to end.
    std::fs::write(&ready, "").unwrap();
    let (model, grid) = frames_until(&mut h, |(model, _)| model > 0);
    assert!(model > 2000, "once the mesh is ready the viewport shows it ({model} pixels)");
    assert!(grid > 500, "and the grid ({grid} pixels)");
    assert!(!h.state().viewport_holding(), "the warm-up is over");
    std::fs::write(&exit, "").unwrap();
}
