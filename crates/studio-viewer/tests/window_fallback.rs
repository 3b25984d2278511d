//! The window's renderer takes the next adapter when its first choice fails (under Wine 8 the
//! DX12 adapter does; so can a real driver), and the viewer says which it passed over. Its own
//! test binary: it starts wgpu's OpenGL backend, which `window_setup.rs` checks is not loaded.

use eframe::egui_wgpu::WgpuSetup;

#[test]
fn the_window_renderer_falls_back_when_its_first_adapter_fails() {
    let mut first = None;
    let mut refuse = |place: usize, info: &eframe::wgpu::AdapterInfo| {
        (place == 0).then(|| {
            first = Some(info.backend);
            "refused by the test".to_owned()
        })
    };
    let options = studio_viewer::app::window_wgpu_options(&mut refuse);
    let WgpuSetup::Existing(existing) = options.wgpu_setup else {
        assert!(std::env::var_os("CI").is_none(), "CI has a Vulkan and an OpenGL adapter");
        eprintln!("note: one adapter or none here; skipping");
        return;
    };
    let info = existing.adapter.get_info();
    assert!(first.is_some(), "an adapter was refused first");
    eprintln!("refused {:?}, took {} ({:?})", first, info.name, info.backend);
    // The device works: it builds what the viewport draws with.
    let context = studio_render::GpuContext {
        instance: existing.instance,
        adapter: existing.adapter,
        device: existing.device,
        queue: existing.queue,
    };
    let scope = context.device.push_error_scope(eframe::wgpu::ErrorFilter::Validation);
    let target = studio_render::OffscreenTarget::new(&context, 32, 32, 1);
    assert_eq!((target.width, target.height), (32, 32));
    assert!(pollster::block_on(scope.pop()).is_none(), "no validation error");
}
