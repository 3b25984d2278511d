//! Compiling the viewport's shaders in a helper process while the window opens.
//!
//! Mesa's software Vulkan driver (lavapipe) compiles a pipeline's shaders with LLVM when a draw
//! first uses it, on its queue's one thread. The first frame on a fresh machine thus compiled
//! the mesh, the grid and egui's own shaders one after the other: about 300 ms of a 0.46 s start
//! on the soldier. What LLVM makes goes to Mesa's shader cache on disk, which every process
//! reads before compiling. So the viewer starts a helper, `studioview warm-shaders`, as it
//! starts itself. The helper opens the model as the viewer will, with default settings, and
//! draws its mesh once, small, with the viewport's formats; then it reads the viewer's stored
//! settings from its standard input and, if they draw the mesh differently (a wireframe,
//! both sides), draws their mesh too. It then says [`MESH_READY`] on its standard output and
//! goes on to the overlays the settings show (the ground grid, hit boxes…), which would have
//! kept the model from the screen longer: the grid's pipeline alone takes lavapipe 60–80 ms to
//! compile, about as long as any pipeline however simple its shaders. Meanwhile the viewer
//! opens its window and compiles egui's shaders: the two compile on two processors. The
//! viewport holds its first draw (showing the background) until the mesh is ready, draws the
//! mesh alone until the helper has exited, and then everything, each time finding its shaders
//! in the cache.
//!
//! A process rather than a thread: what LLVM allocates while compiling stays in the allocator
//! of the thread that compiled, and a second device's queue thread kept 12 MiB of the viewer's
//! memory for good; a process gives it all back when it exits.
//!
//! On a GPU, whose driver compiles pipelines when they are made and in milliseconds, the
//! helper is stopped as soon as the viewer's adapter is known (and stops itself on finding
//! one). Where Mesa's cache is turned off the helper's work is lost and the first draw compiles
//! as before, at most [`HOLD_LIMIT`] later.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
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

/// The line the helper writes once the mesh's shaders are in the cache.
pub const MESH_READY: &str = "mesh ready";

/// Side of the image the helper draws, in pixels: what it compiles does not depend on it.
const SIZE: u32 = 64;

/// How far the warm-up has come, as the viewport sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The mesh's shaders are being compiled: the viewport shows its background.
    Compiling = 0,
    /// The mesh's shaders are ready, the overlays' are being compiled: the viewport draws the
    /// mesh without overlays.
    Mesh = 1,
    /// All compiled, or the helper is gone or has taken longer than its limit: the viewport
    /// draws everything.
    Done = 2,
}

impl Stage {
    /// The stage stored in [`Warmup::stage`]'s atomic.
    fn from_u8(value: u8) -> Self {
        match value {
            0 => Self::Compiling,
            1 => Self::Mesh,
            _ => Self::Done,
        }
    }
}

/// The helper process, seen from the viewer.
pub struct Warmup {
    started: Instant,
    /// How long the viewport waits for it at most: [`HOLD_LIMIT`] for the helper.
    limit: Duration,
    /// The [`Stage`] the helper has reached, as a `u8`.
    reached: Arc<AtomicU8>,
    /// The process until [`Self::tell`] hands it to the thread that waits for it.
    child: Option<Child>,
}

impl Warmup {
    /// Starts the helper on `model` (the demo model when `None`). `None` where it cannot start.
    pub fn spawn(model: Option<&Path>) -> Option<Self> {
        let exe = std::env::current_exe().ok()?;
        let mut command = std::process::Command::new(exe);
        command.arg(SUBCOMMAND).args(model);
        Self::start(command, HOLD_LIMIT)
    }

    /// Starts `command` as the helper, to be waited for at most `limit`: it reads the settings
    /// line on its standard input, and writes [`MESH_READY`] and exits as the helper does.
    /// `None` where it cannot start.
    pub fn start(mut command: std::process::Command, limit: Duration) -> Option<Self> {
        let child =
            command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().ok()?;
        let reached = Arc::new(AtomicU8::new(Stage::Compiling as u8));
        Some(Self { started: Instant::now(), limit, reached, child: Some(child) })
    }

    /// Sends the helper the viewer's `settings`, and has a thread follow it (its
    /// [`MESH_READY`], its exit), asking `ctx` for a repaint at each stage.
    pub fn tell(&mut self, settings: &Settings, ctx: &egui::Context) {
        let Some(mut child) = self.child.take() else { return };
        if let Some(mut stdin) = child.stdin.take() {
            let line = serde_json::to_string(settings).unwrap_or_default();
            // A helper that has exited already reads nothing; the wait below sees it.
            let _ = writeln!(stdin, "{line}");
        }
        let (reached, ctx) = (self.reached.clone(), ctx.clone());
        let waiter = std::thread::Builder::new().name("shader warm-up".into()).spawn(move || {
            // The helper writes one line; anything else it might write is read and passed over
            // until it closes its end.
            if let Some(stdout) = child.stdout.take() {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if line == MESH_READY {
                        reached.store(Stage::Mesh as u8, Ordering::Release);
                        ctx.request_repaint();
                    }
                }
            }
            let _ = child.wait();
            reached.store(Stage::Done as u8, Ordering::Release);
            ctx.request_repaint();
        });
        if waiter.is_err() {
            self.reached.store(Stage::Done as u8, Ordering::Release);
        }
    }

    /// How far the helper has come; [`Stage::Done`] once it has taken longer than its limit.
    /// Before then, a repaint is asked for at the limit; the helper's progress asks for one
    /// sooner.
    pub fn stage(&self, ctx: &egui::Context) -> Stage {
        let reached = Stage::from_u8(self.reached.load(Ordering::Acquire));
        if reached == Stage::Done {
            return reached;
        }
        match self.limit.checked_sub(self.started.elapsed()) {
            Some(left) if !left.is_zero() => {
                ctx.request_repaint_after(left);
                reached
            }
            _ => Stage::Done,
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
    // The default view's mesh first: the settings come as the viewer's window opens, after
    // this has started, and seldom draw the mesh differently.
    let defaults = helper.state.render_options();
    let first = defaults.without_overlays();
    helper.draw(&first);
    let mut line = String::new();
    // Nothing to read (the viewer closed its end) or no settings: the default view.
    let options = if std::io::stdin().lock().read_line(&mut line).is_ok()
        && let Ok(settings) = serde_json::from_str::<Settings>(&line)
    {
        helper.state.settings = settings;
        helper.state.render_options()
    } else {
        defaults
    };
    let mesh = options.without_overlays();
    if mesh != first {
        helper.draw(&mesh);
    }
    // A viewer that has gone reads nothing; the helper has nothing left to do for it.
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{MESH_READY}").and_then(|()| stdout.flush()).is_err() {
        return std::process::ExitCode::SUCCESS;
    }
    // The overlays; the mesh's shaders are in the cache now.
    helper.draw(&options);
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
