//! The window: how its renderer is set up (the first adapter that works), its name, icon and
//! title, and running the viewer in it.

use std::path::PathBuf;

use super::{StudioApp, warmup};

/// The adapters the window's renderer passed over, and why (for the messages panel).
pub(super) static WINDOW_ADAPTERS_TRIED: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// How the window's renderer is set up: the first adapter that works
/// (`studio_render::adapter_choice`), the high-performance one of the primary backends first
/// (Vulkan on Linux: a GPU, or Mesa's lavapipe; DX12, then Vulkan on Windows; Metal on macOS),
/// then their others, then OpenGL; only `WGPU_BACKEND`'s where it is set. A device counts as
/// working once it has built a pipeline: under Wine 8 the DX12 adapter gives a device whose
/// first shader fails, and the window never opened. Starting wgpu's OpenGL backend loads Mesa's
/// OpenGL driver through EGL: 18 MiB of memory for a backend the window does not use wherever
/// Vulkan works, so it is tried last. When nothing works, eframe's own setup says why.
pub fn wgpu_options() -> eframe::egui_wgpu::WgpuConfiguration {
    window_wgpu_options(&mut |_, _| None)
}

/// [`wgpu_options`], with `refuse` able to turn an adapter down (its place in the order and its
/// information; the tests force a failure with it).
pub fn window_wgpu_options(
    refuse: &mut dyn FnMut(usize, &eframe::wgpu::AdapterInfo) -> Option<String>,
) -> eframe::egui_wgpu::WgpuConfiguration {
    use eframe::egui_wgpu::{WgpuSetup, WgpuSetupCreateNew, WgpuSetupExisting};
    // The device eframe's own setup asks for.
    let descriptor = |_: &eframe::wgpu::Adapter| eframe::wgpu::DeviceDescriptor {
        label: Some("egui wgpu device"),
        required_limits: eframe::wgpu::Limits { max_texture_dimension_2d: 8192, ..Default::default() },
        ..Default::default()
    };
    let groups = studio_render::adapter_choice::backend_groups();
    let preference = eframe::wgpu::PowerPreference::HighPerformance;
    let chosen = studio_render::adapter_choice::first_working(&groups, preference, &descriptor, refuse);
    let wgpu_setup = match chosen {
        Ok((context, tried)) => {
            let _ = WINDOW_ADAPTERS_TRIED.set(tried);
            let studio_render::GpuContext { instance, adapter, device, queue } = context;
            WgpuSetup::Existing(WgpuSetupExisting { instance, adapter, device, queue })
        }
        Err(_) => WgpuSetupCreateNew::without_display_handle().into(),
    };
    eframe::egui_wgpu::WgpuConfiguration { wgpu_setup, ..Default::default() }
}

/// The name settings are kept under: eframe keeps them in `eframe::storage_dir(APP_ID)`, the
/// `directories` crate's data folder for it (`%APPDATA%\studioview\data` on Windows,
/// `~/.local/share/studioview` on Linux), beside the thumbnail cache's folder from the same crate.
pub const APP_ID: &str = "studioview";

/// The window's icon (the taskbar's on Linux; on Windows the exe's own icon resource serves
/// Explorer, and this one the title bar): `assets/icon/studioview.png`, 256 × 256.
pub fn window_icon() -> std::sync::Arc<egui::IconData> {
    let png = include_bytes!("../../../../assets/icon/studioview.png");
    // The file is ours, checked by a test; a default icon rather than no window were it bad.
    std::sync::Arc::new(eframe::icon_data::from_png_bytes(png).unwrap_or_default())
}

/// The window's title for the model at `path` (the demo model when `None`), with ` •` while
/// edits are unsaved.
pub fn window_title(path: Option<&std::path::Path>, dirty: bool) -> String {
    let marker = if dirty { " •" } else { "" };
    match path {
        Some(path) => format!("studioview — {}{marker}", path.display()),
        None => format!("studioview — demo model{marker}"),
    }
}

/// Whether the window is shown through X11 shared memory (egui-wgpu's `shm_present`, on a
/// software renderer; vendor/README.md), as of its last present.
#[cfg(all(unix, not(any(target_os = "macos", target_os = "ios", target_os = "android"))))]
pub fn shared_memory_present() -> bool {
    eframe::egui_wgpu::shm_present::presenting()
}

/// Whether the window is shown through X11 shared memory: never on this platform.
#[cfg(not(all(unix, not(any(target_os = "macos", target_os = "ios", target_os = "android")))))]
pub fn shared_memory_present() -> bool {
    false
}

/// The adapter the window's renderer tries first (see [`wgpu_options`]): the high-performance
/// one of the primary backends, or `None` where `WGPU_BACKEND` is set or they offer none. The
/// shader warm-up helper compiles for it (`run` keeps the helper only when the window's own
/// adapter is a software one; where the window fell back from this one, its work is of no use).
pub fn window_adapter() -> Option<(eframe::wgpu::Instance, eframe::wgpu::Adapter)> {
    use eframe::wgpu;
    if wgpu::Backends::from_env().is_some() {
        return None;
    }
    // eframe's own preference: the discrete GPU of a laptop with two.
    studio_render::request_adapter(wgpu::Backends::PRIMARY, wgpu::PowerPreference::HighPerformance).ok()
}

/// Opens the viewer window.
pub fn run(model: Option<PathBuf>) -> std::process::ExitCode {
    // First: the helper opens its own Vulkan instance while this process opens its own.
    let warmup = warmup::Warmup::spawn(model.as_deref());
    let wgpu_options = wgpu_options();
    let software = match &wgpu_options.wgpu_setup {
        eframe::egui_wgpu::WgpuSetup::Existing(setup) => studio_render::is_software(&setup.adapter),
        _ => false,
    };
    // Dropped, and so stopped, on a GPU: a GPU compiles as pipelines are made.
    let warmup = warmup.filter(|_| software);
    // The title the first frame would set, set with the window: a title set by the first
    // frame costs another frame while the window opens.
    let title = window_title(model.as_deref(), false);
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title(title.clone())
            .with_inner_size([1280.0, 800.0])
            .with_drag_and_drop(true)
            .with_icon(window_icon()),
        renderer: eframe::Renderer::Wgpu,
        wgpu_options,
        ..Default::default()
    };
    let result = eframe::run_native(
        APP_ID,
        options,
        Box::new(move |cc| {
            let mut app = StudioApp::from_creation_context(cc, model);
            app.title = title;
            if let Some(warmup) = warmup {
                app.warm_up(warmup, &cc.egui_ctx);
            }
            Ok(Box::new(app))
        }),
    );
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            crate::user_message::tell(
                crate::user_message::Severity::Error,
                &format!("error: cannot open a window: {error}"),
            );
            std::process::ExitCode::FAILURE
        }
    }
}
