//! Compiling the mesh's shaders in a helper process while the window opens.
//!
//! Mesa's software Vulkan driver (lavapipe) compiles a pipeline's shaders with LLVM when a draw
//! first uses it, on its queue's one thread: about 60–80 ms for any pipeline however simple,
//! 150 ms or more for the mesh's. The first frame on a fresh machine thus compiled the mesh,
//! the grid and egui's own shaders one after the other: about 300 ms of a 0.46 s start on the
//! soldier. What LLVM makes goes to Mesa's shader cache on disk, which every process reads
//! before compiling. So the viewer starts a helper, `studioview warm-shaders`, as it starts
//! itself, and the work is shared between two processors:
//! - the helper opens the model as the viewer will, with default settings, and draws its mesh
//!   once, small, with the viewport's formats (for a model without a mesh, its ground grid);
//!   then it reads the viewer's stored settings from its standard input and, if they draw the
//!   mesh differently (a wireframe, both sides), draws their mesh too. It then says
//!   [`MESH_READY`] on its standard output and exits;
//! - the viewer opens its window and compiles egui's shaders (and those of any overlay the
//!   stored settings show, hit boxes…): its viewport draws the background in the first frame
//!   (the one the window waits for), the overlays alone from the next until the mesh is ready,
//!   then everything, finding the mesh's shaders in the cache. The ground grid comes with the
//!   mesh: it is drawn by the mesh's pipeline and needs no code of its own (studio-render's
//!   `grid.rs`).
//!
//! The two lanes take about as long: in traced cold starts of the soldier the helper is done
//! 0.20–0.26 s after the start (medians of batches of 12), about when the viewer has compiled
//! egui's shaders. When the grid had a pipeline of its own, the viewer compiled it after egui's,
//! and model and grid showed 40–100 ms later (measure.py, medians of four batches of 8–10
//! interleaved cold starts, e.g. 0.321 against 0.261 s); when the helper compiled it after the
//! mesh, 54 ms later.
//!
//! A process rather than a thread: what LLVM allocates while compiling stays in the allocator
//! of the thread that compiled, and a second device's queue thread kept 12 MiB of the viewer's
//! memory for good; a process gives it all back when it exits.
//!
//! On a GPU, whose driver compiles pipelines when they are made and in milliseconds, the
//! helper is stopped as soon as the viewer's adapter is known (and stops itself on finding
//! one). Where Mesa's cache is turned off the helper's work is lost and the viewport's mesh
//! compiles as before, at most [`HOLD_LIMIT`] later.

use std::io::{BufRead, BufReader, Write};
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

/// The line the helper writes once the mesh's shaders are in the cache.
pub const MESH_READY: &str = "mesh ready";

/// How soon the viewport is repainted when the mesh is ready. Not zero: egui answers a
/// request for an immediate repaint with two frames ("to give some things time to settle"),
/// and the second, the same picture again, took a software renderer's processors for another
/// 30–40 ms.
const ONE_REPAINT: Duration = Duration::from_millis(1);

/// Side of the image the helper draws, in pixels: what it compiles does not depend on it.
const SIZE: u32 = 64;

/// How far the warm-up has come, as the viewport sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The helper is compiling the mesh's shaders: the viewport draws the overlays alone but
    /// the grid, which is the mesh's (after its first frame, the background).
    Compiling,
    /// The mesh's shaders are ready, or the helper is gone or has taken longer than its limit:
    /// the viewport draws everything.
    Done,
}

/// The helper process, seen from the viewer.
pub struct Warmup {
    started: Instant,
    /// How long the viewport waits for it at most: [`HOLD_LIMIT`] for the helper.
    limit: Duration,
    /// Whether the helper has said [`MESH_READY`] or exited.
    ready: Arc<AtomicBool>,
    /// The process until [`Self::tell`] hands it to the thread that waits for it.
    child: Option<Child>,
}

impl Warmup {
    /// Starts the helper on `model` (the demo model when `None`). `None` where it cannot start.
    pub fn spawn(model: Option<&Path>) -> Option<Self> {
        let exe = std::env::current_exe().ok()?;
        let mut command = std::process::Command::new(exe);
        command.arg(SUBCOMMAND).args(model);
        // Its work is only of use on lavapipe: the Vulkan loader need not open every other
        // driver installed (Intel's two and AMD's here, by strace), unless the user chose the
        // drivers already. The time saved was within the noise of a start.
        let chosen = ["VK_DRIVER_FILES", "VK_ICD_FILENAMES", "VK_LOADER_DRIVERS_SELECT"];
        if cfg!(target_os = "linux") && chosen.iter().all(|name| std::env::var_os(name).is_none()) {
            command.env("VK_LOADER_DRIVERS_SELECT", "*lvp*");
        }
        Self::start(command, HOLD_LIMIT)
    }

    /// Starts `command` as the helper, to be waited for at most `limit`: it reads the settings
    /// line on its standard input, and writes [`MESH_READY`] and exits as the helper does.
    /// `None` where it cannot start.
    pub fn start(mut command: std::process::Command, limit: Duration) -> Option<Self> {
        let child =
            command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().ok()?;
        let ready = Arc::new(AtomicBool::new(false));
        Some(Self { started: Instant::now(), limit, ready, child: Some(child) })
    }

    /// Sends the helper the viewer's `settings`, and has a thread follow it (its
    /// [`MESH_READY`], or its exit), asking `ctx` for a repaint when the mesh is ready.
    pub fn tell(&mut self, settings: &Settings, ctx: &egui::Context) {
        let Some(mut child) = self.child.take() else { return };
        if let Some(mut stdin) = child.stdin.take() {
            let line = serde_json::to_string(settings).unwrap_or_default();
            // A helper that has exited already reads nothing; the wait below sees it.
            let _ = writeln!(stdin, "{line}");
        }
        let (ready, ctx) = (self.ready.clone(), ctx.clone());
        let waiter = std::thread::Builder::new().name("shader warm-up".into()).spawn(move || {
            // The helper writes one line; anything else it might write is read and passed over
            // until it closes its end. A helper that ends without the line (it failed) ends the
            // wait as well: the viewport then compiles what it draws itself.
            if let Some(stdout) = child.stdout.take() {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if line == MESH_READY {
                        break;
                    }
                }
            }
            ready.store(true, Ordering::Release);
            ctx.request_repaint_after(ONE_REPAINT);
            let _ = child.wait();
        });
        if waiter.is_err() {
            self.ready.store(true, Ordering::Release);
        }
    }

    /// How far the helper has come; [`Stage::Done`] once it has taken longer than its limit.
    /// Before then, a repaint is asked for at the limit; the helper's progress asks for one
    /// sooner.
    pub fn stage(&self, ctx: &egui::Context) -> Stage {
        if self.ready.load(Ordering::Acquire) {
            return Stage::Done;
        }
        match self.limit.checked_sub(self.started.elapsed()) {
            Some(left) if !left.is_zero() => {
                ctx.request_repaint_after(left);
                Stage::Compiling
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
    // this has started, and seldom draw it differently.
    let first = helper.view();
    helper.draw(&first);
    let mut line = String::new();
    // Nothing to read (the viewer closed its end) or no settings: the default view.
    if std::io::stdin().lock().read_line(&mut line).is_ok()
        && let Ok(settings) = serde_json::from_str::<Settings>(&line)
    {
        helper.state.settings = settings;
        let mesh = helper.view();
        if mesh != first {
            helper.draw(&mesh);
        }
    }
    // A viewer that has gone reads nothing: a failed write changes nothing.
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{MESH_READY}").and_then(|()| stdout.flush());
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
        // The viewport's format and sample count: what the compiled shaders are keyed on. The
        // window is not open yet: its format is taken to be B8G8R8A8, the one every surface of
        // Mesa's software Vulkan driver offers (on X11 and Wayland).
        let backend = context.adapter.get_info().backend;
        let format = crate::app::ui::viewport::copied_format(backend, wgpu::TextureFormat::Bgra8Unorm);
        let samples = context.interactive_sample_count(format.unwrap_or(OFFSCREEN_FORMAT));
        let mut renderer = Renderer::new(&context, format.unwrap_or(OFFSCREEN_FORMAT), samples);
        let gpu = renderer.upload(&state.render_model());
        let target = match format {
            Some(format) => OffscreenTarget::for_window(&context, SIZE, SIZE, samples, format),
            None => OffscreenTarget::new(&context, SIZE, SIZE, samples),
        };
        Some(Self { context, state, renderer, gpu, target })
    }

    /// What the helper draws of the viewer's view: what the mesh's pipelines draw, the ground
    /// grid only where no mesh is drawn. The grid's code is the mesh's (studio-render's
    /// `grid.rs`); drawing it as well put model and grid on screen later (two batches of 8 and
    /// 10 interleaved cold starts of the soldier with `measure.py`: mean 0.317 against 0.343 s,
    /// and 0.310 against 0.334 s).
    fn view(&self) -> RenderOptions {
        let mut view = self.state.render_options().only_mesh_pipelines();
        if view.mesh && self.gpu.triangles(view.body, view.lod) > 0 {
            view.overlay.grid = false;
        }
        view
    }

    /// Draws the model with `options` as the viewport will, and waits for it.
    fn draw(&mut self, options: &RenderOptions) {
        let scene = Scene { pose: self.state.frame_pose(), camera: &self.state.camera, options };
        // Reading the image back waits for the draw; the image itself is not needed.
        let _ =
            studio_render::render_image(&self.context, &mut self.renderer, &self.gpu, &self.target, &scene);
    }
}
