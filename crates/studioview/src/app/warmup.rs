//! Compiling the viewport's shaders in a helper process while the window opens.
//!
//! Mesa's software Vulkan driver (lavapipe) compiles a pipeline's shaders with LLVM when a draw
//! first uses it, on its queue's one thread. The first frame on a fresh machine thus compiled
//! the mesh, the grid and egui's own shaders one after the other: about 300 ms of a 0.46 s start
//! on the soldier. What LLVM makes goes to Mesa's shader cache on disk, which every process
//! reads before compiling. So the viewer starts a helper, `studioview warm-shaders`, as it
//! starts itself. The helper opens the model as the viewer will, with default settings, and
//! draws it once, small, with the viewport's formats; then it reads the viewer's stored
//! settings from its standard input and, if they show more (hit boxes, a wireframe), draws
//! again with them. Meanwhile the viewer opens its window and compiles egui's shaders: the two
//! compile on two processors. The viewport holds its first draw (showing the background) until
//! the helper has exited, and then finds its shaders in the cache.
//!
//! A process rather than a thread: what LLVM allocates while compiling stays in the allocator
//! of the thread that compiled, and a second device's queue thread kept 12 MiB of the viewer's
//! memory for good; a process gives it all back when it exits.
//!
//! On a GPU, whose driver compiles pipelines when they are made and in milliseconds, the
//! helper is stopped as soon as the viewer's adapter is known (and stops itself on finding
//! one). Where Mesa's cache is turned off the helper's work is lost and the first draw compiles
//! as before, at most [`HOLD_LIMIT`] later.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use eframe::wgpu;
use studio_render::{GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, RenderOptions, Renderer, Scene};

use crate::app::command::Command;
use crate::app::settings::Settings;
use crate::app::state::AppState;

/// The longest the viewport waits for the helper before drawing anyway.
pub const HOLD_LIMIT: Duration = Duration::from_millis(1500);

/// The helper's subcommand.
pub const SUBCOMMAND: &str = "warm-shaders";

/// Side of the image the helper draws, in pixels: what it compiles does not depend on it.
const SIZE: u32 = 64;

/// The helper process, seen from the viewer.
pub struct Warmup {
    started: Instant,
    done: Arc<AtomicBool>,
    /// The process until [`Self::tell`] hands it to the thread that waits for it.
    child: Option<Child>,
}

impl Warmup {
    /// Starts the helper on `model` (the demo model when `None`). `None` where it cannot start.
    pub fn spawn(model: Option<&Path>) -> Option<Self> {
        let exe = std::env::current_exe().ok()?;
        let mut command = std::process::Command::new(exe);
        command.arg(SUBCOMMAND).args(model).stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::null());
        let child = command.spawn().ok()?;
        Some(Self { started: Instant::now(), done: Arc::new(AtomicBool::new(false)), child: Some(child) })
    }

    /// Sends the helper the viewer's `settings`, and has a thread wait for it to exit and then
    /// ask `ctx` for a repaint.
    pub fn tell(&mut self, settings: &Settings, ctx: &egui::Context) {
        let Some(mut child) = self.child.take() else { return };
        if let Some(mut stdin) = child.stdin.take() {
            let line = serde_json::to_string(settings).unwrap_or_default();
            // A helper that has exited already reads nothing; the wait below sees it.
            let _ = writeln!(stdin, "{line}");
        }
        let (done, ctx) = (self.done.clone(), ctx.clone());
        let waiter = std::thread::Builder::new().name("shader warm-up".into()).spawn(move || {
            let _ = child.wait();
            done.store(true, Ordering::Release);
            ctx.request_repaint();
        });
        if waiter.is_err() {
            self.done.store(true, Ordering::Release);
        }
    }

    /// Whether the viewport should hold its first draw: the helper is still compiling, and
    /// has not taken longer than [`HOLD_LIMIT`]. While it holds, a repaint is asked for at
    /// the limit; the helper's exit asks for one sooner.
    pub fn holds(&self, ctx: &egui::Context) -> bool {
        if self.done.load(Ordering::Acquire) {
            return false;
        }
        match HOLD_LIMIT.checked_sub(self.started.elapsed()) {
            Some(left) if !left.is_zero() => {
                ctx.request_repaint_after(left);
                true
            }
            _ => false,
        }
    }
}

impl Drop for Warmup {
    /// A helper never told (the viewer found a GPU, or ends) is stopped.
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The helper: `studioview warm-shaders [MODEL]`. Exits at once unless the viewer's adapter is a
/// software renderer.
pub fn run_helper(model: Option<PathBuf>) -> std::process::ExitCode {
    let Some(mut helper) = Helper::new(model) else { return std::process::ExitCode::SUCCESS };
    let defaults = helper.state.render_options();
    helper.draw(&defaults);
    let mut line = String::new();
    // Nothing to read (the viewer closed its end) or no settings: the default view alone.
    if std::io::stdin().lock().read_line(&mut line).is_ok()
        && let Ok(settings) = serde_json::from_str::<Settings>(&line)
    {
        helper.state.settings = settings;
        let options = helper.state.render_options();
        if options != defaults {
            helper.draw(&options);
        }
    }
    std::process::ExitCode::SUCCESS
}

/// The helper's device, the model as the viewer opens it, and its renderer.
struct Helper {
    context: GpuContext,
    state: AppState,
    renderer: Renderer,
    gpu: studio_render::GpuModel,
    target: OffscreenTarget,
}

impl Helper {
    /// `None` unless the adapter the viewer's window takes is a software renderer.
    fn new(model: Option<PathBuf>) -> Option<Self> {
        let (instance, adapter) = crate::app::window_adapter()?;
        if !studio_render::is_software(&adapter) {
            return None;
        }
        let descriptor =
            wgpu::DeviceDescriptor { label: Some("shader warm-up device"), ..Default::default() };
        let (device, queue) = pollster::block_on(adapter.request_device(&descriptor)).ok()?;
        let context = GpuContext { instance, adapter, device, queue };
        let mut state = AppState::demo(Settings::default());
        if let Some(path) = model {
            state.apply(Command::Open(path));
        }
        state.evaluate();
        // The viewport's format and sample count: what the compiled shaders are keyed on.
        let samples = context.interactive_sample_count(OFFSCREEN_FORMAT);
        let mut renderer = Renderer::new(&context, OFFSCREEN_FORMAT, samples);
        let gpu = renderer.upload(&state.render_model());
        let target = OffscreenTarget::new(&context, SIZE, SIZE, samples);
        Some(Self { context, state, renderer, gpu, target })
    }

    /// Draws the model with `options` as the viewport will, and waits for it.
    fn draw(&mut self, options: &RenderOptions) {
        let scene = Scene { pose: self.state.frame_pose(), camera: &self.state.camera, options };
        // Reading the image back waits for the draw; the image itself is not needed.
        let _ =
            studio_render::render_image(&self.context, &mut self.renderer, &self.gpu, &self.target, &scene);
    }
}
