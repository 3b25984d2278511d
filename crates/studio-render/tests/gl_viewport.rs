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

/// OpenGL ES-class devices (Mesa's llvmpipe through wgpu's OpenGL backend) have no storage
/// buffers in vertex shaders: the renderer reads the bones from a uniform buffer there, and a
/// skinned model draws without a validation error (it used to be refused at the renderer's
/// first bind group layout, and the viewer died).
#[test]
fn the_mesh_draws_skinned_on_opengl() {
    // The device eframe makes on OpenGL: WebGL 2's limits, no storage buffers at all.
    let context = gl_context().and_then(|gl| {
        let descriptor = wgpu::DeviceDescriptor {
            required_limits: wgpu::Limits::downlevel_webgl2_defaults().using_resolution(gl.adapter.limits()),
            ..Default::default()
        };
        let (device, queue) = pollster::block_on(gl.adapter.request_device(&descriptor)).ok()?;
        Some(GpuContext { device, queue, ..gl })
    });
    let Some(context) = context else {
        assert!(std::env::var_os("CI").is_none(), "no OpenGL adapter in CI (Mesa's EGL and llvmpipe)");
        eprintln!("note: no OpenGL adapter; skipping");
        return;
    };
    let binding = studio_render::bones_binding::BonesBinding::of(&context);
    eprintln!("OpenGL adapter {:?}: bones as {binding:?}", context.adapter.get_info().name);
    assert_eq!(binding, studio_render::bones_binding::BonesBinding::Uniform);
    let scope = context.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let Some(shared) = studio_testing::shared() else { return };
    let model = std::sync::Arc::new(studio_model::load(&shared.join("models/ns/soldier.mdl")).unwrap().model);
    let mut pose = studio_pose::Pose::new(&model);
    let request = studio_pose::PoseRequest {
        sequence: 0,
        frame: 0.0,
        blend: [0, 0],
        controllers: studio_pose::ControllerBytes::default(),
    };
    studio_pose::PoseEvaluator::new(model.clone()).evaluate(&request, &mut pose).unwrap();
    let samples = context.sample_count(studio_render::OFFSCREEN_FORMAT);
    let mut renderer = studio_render::Renderer::new(&context, studio_render::OFFSCREEN_FORMAT, samples);
    let gpu = renderer.upload(&studio_render::goldsrc::render_model(&model));
    let target = OffscreenTarget::new(&context, 160, 120, samples);
    let points: Vec<glam::Vec3> = pose.bones.iter().map(|b| b.translation.into()).collect();
    let min = points.iter().fold(glam::Vec3::INFINITY, |a, &p| a.min(p));
    let max = points.iter().fold(glam::Vec3::NEG_INFINITY, |a, &p| a.max(p));
    let camera = studio_render::Camera::framing(min, max, 30.0, 15.0);
    let frame = studio_render::goldsrc::frame_pose(&model, &pose, Some(0));
    let options = studio_render::RenderOptions::default();
    let scene = studio_render::Scene { pose: frame, camera: &camera, options: &options };
    let image = studio_render::render_image(&context, &mut renderer, &gpu, &target, &scene).expect("renders");
    let error = pollster::block_on(scope.pop());
    assert!(error.is_none(), "{error:?}");
    let background = &image.pixels[..4];
    let drawn = image.pixels.chunks(4).filter(|p| p != &background).count();
    assert!(drawn > 200, "{drawn} pixels drawn");
}
