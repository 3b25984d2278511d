//! On OpenGL (wgpu's fallback where no Vulkan adapter exists) a texture cannot be viewed in
//! another format: a viewer's target that asked for it would be rejected by wgpu, and the viewer
//! would die on its first frame. What the viewer shows is an `Rgba8Unorm` copy of the image, on
//! every backend. Its own binary: it starts wgpu's OpenGL backend.

use studio_render::{GpuContext, OffscreenTarget};

fn gl_context() -> Option<GpuContext> {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    descriptor.backends = wgpu::Backends::GL;
    let instance = wgpu::Instance::new(descriptor);
    let adapter = pollster::block_on(instance.request_adapter(&Default::default())).ok()?;
    GpuContext::from_adapter(instance, adapter).ok()
}

#[test]
fn a_sampled_target_works_on_opengl() {
    let Some(context) = gl_context() else {
        assert!(std::env::var_os("CI").is_none(), "no OpenGL adapter in CI (Mesa's EGL and llvmpipe)");
        eprintln!("note: no OpenGL adapter; skipping");
        return;
    };
    let scope = context.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let target = OffscreenTarget::with_usage(&context, 64, 48, 1, wgpu::TextureUsages::TEXTURE_BINDING);
    assert_eq!((target.width, target.height), (64, 48));
    // A frame, with the copy the UI's view shows.
    let mut encoder = context.device.create_command_encoder(&Default::default());
    target.pass(&mut encoder, [200, 100, 50], |_| {});
    context.queue.submit([encoder.finish()]);
    let view = target.raw_view().expect("a sampled target has a view to show");
    assert_eq!(view.texture().format(), wgpu::TextureFormat::Rgba8Unorm);
    let error = pollster::block_on(scope.pop());
    assert!(error.is_none(), "{error:?}");
}
