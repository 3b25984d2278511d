//! The window's renderer is set up on the primary backend without starting wgpu's OpenGL one,
//! which loads Mesa's OpenGL driver (18 MiB of the viewer's memory). Its own test binary: it
//! reads this process's memory map.

use eframe::egui_wgpu::WgpuSetup;

#[test]
fn the_window_renderer_does_not_load_opengl() {
    let options = studio_viewer::app::wgpu_options();
    let WgpuSetup::Existing(existing) = options.wgpu_setup else {
        // eframe's own setup: only where no primary adapter exists, or WGPU_BACKEND says so.
        assert!(std::env::var_os("CI").is_none(), "no primary (Vulkan) adapter in CI");
        eprintln!("note: no primary adapter; skipping");
        return;
    };
    let info = existing.adapter.get_info();
    assert!(
        eframe::wgpu::Backends::PRIMARY.contains(info.backend.into()),
        "the window draws with {:?}",
        info.backend
    );
    let maps = std::fs::read_to_string("/proc/self/maps").expect("/proc/self/maps");
    for library in ["swrast_dri", "libEGL", "libGLX", "libGL."] {
        assert!(!maps.contains(library), "{library} is loaded");
    }
}
