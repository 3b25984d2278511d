//! Choosing the adapter a window or an image is drawn with: every adapter is tried in turn
//! until one gives a device that works, so that one driver's failure is not the end.
//!
//! An adapter can give a device and still fail at its first pipeline: under Wine 8 the DX12
//! adapter (the one a high-performance preference picks) fails to compile any shader
//! (`D3DCompile2 … vkd3d result -5`) and its device is lost; a real Windows driver can fail the
//! same way. So each device is tried with a small render pipeline inside error scopes before it
//! is taken. The order: for each group of backends (the primary ones — Vulkan, DX12, Metal —
//! then OpenGL, which is probed only when they all fail, as probing it starts Mesa's EGL), the
//! adapter wgpu would pick for the power preference first, then the group's others as wgpu
//! lists them.

use crate::context::{GpuContext, RenderError};

/// What was tried before the adapter chosen, one line each (`name (backend): why`).
pub type Tried = Vec<String>;

/// An adapter's name and backend, as the lines of [`Tried`] and the viewer's info give them.
pub fn describe(info: &wgpu::AdapterInfo) -> String {
    format!("{} ({:?})", info.name, info.backend)
}

/// The backend groups tried in order: `WGPU_BACKEND`'s choice alone where it is set.
pub fn backend_groups() -> Vec<wgpu::Backends> {
    match wgpu::Backends::from_env() {
        Some(backends) => vec![backends],
        None => vec![wgpu::Backends::PRIMARY, wgpu::Backends::SECONDARY],
    }
}

/// The first adapter of `groups` whose device (asked for with the descriptor `descriptor` gives
/// for it) builds a pipeline;
/// `refuse` may turn an adapter down first (by its place in the order and its information),
/// saying why (the tests force a failure with it). The error lists everything tried.
pub fn first_working(
    groups: &[wgpu::Backends],
    preference: wgpu::PowerPreference,
    descriptor: &dyn Fn(&wgpu::Adapter) -> wgpu::DeviceDescriptor<'static>,
    refuse: &mut dyn FnMut(usize, &wgpu::AdapterInfo) -> Option<String>,
) -> Result<(GpuContext, Tried), RenderError> {
    let mut tried = Tried::new();
    let mut place = 0;
    for &backends in groups {
        let mut instance_descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        instance_descriptor.backends = backends;
        let instance = wgpu::Instance::new(instance_descriptor);
        for adapter in ordered(&instance, backends, preference) {
            let info = adapter.get_info();
            let why = match refuse(place, &info) {
                Some(why) => Err(why),
                None => try_device(&adapter, &descriptor(&adapter)),
            };
            place += 1;
            match why {
                Ok((device, queue)) => {
                    return Ok((GpuContext { instance, adapter, device, queue }, tried));
                }
                Err(why) => tried.push(format!("{}: {why}", describe(&info))),
            }
        }
    }
    if tried.is_empty() {
        tried.push("no adapter on any backend".to_owned());
    }
    Err(RenderError::NoAdapter(tried.join("; ")))
}

/// The adapters of `instance`: the one wgpu picks for `preference` (or `WGPU_POWER_PREF`,
/// `WGPU_ADAPTER_NAME`) first, then the others, each once.
fn ordered(
    instance: &wgpu::Instance,
    backends: wgpu::Backends,
    preference: wgpu::PowerPreference,
) -> Vec<wgpu::Adapter> {
    let options = wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::from_env().unwrap_or(preference),
        ..Default::default()
    };
    let picked = pollster::block_on(instance.request_adapter(&options)).ok();
    let key = |info: &wgpu::AdapterInfo| (info.name.clone(), info.backend, info.device, info.vendor);
    let first = picked.as_ref().map(|a| key(&a.get_info()));
    let others = pollster::block_on(instance.enumerate_adapters(backends))
        .into_iter()
        .filter(|a| Some(key(&a.get_info())) != first);
    picked.into_iter().chain(others).collect()
}

/// A device on `adapter` that compiled a small pipeline without an error.
fn try_device(
    adapter: &wgpu::Adapter,
    descriptor: &wgpu::DeviceDescriptor<'_>,
) -> Result<(wgpu::Device, wgpu::Queue), String> {
    let (device, queue) =
        pollster::block_on(adapter.request_device(descriptor)).map_err(|e| e.to_string())?;
    probe(&device)?;
    Ok((device, queue))
}

/// Builds a one-triangle render pipeline in validation, internal and out-of-memory error scopes.
fn probe(device: &wgpu::Device) -> Result<(), String> {
    let scopes = [wgpu::ErrorFilter::Validation, wgpu::ErrorFilter::Internal, wgpu::ErrorFilter::OutOfMemory]
        .map(|filter| device.push_error_scope(filter));
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("adapter probe"),
        source: wgpu::ShaderSource::Wgsl(PROBE_SHADER.into()),
    });
    let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("adapter probe"),
        bind_group_layouts: &[],
        immediate_size: 0,
    });
    let _pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("adapter probe"),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::TextureFormat::Rgba8Unorm.into())],
        }),
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    });
    let mut errors = Vec::new();
    // Scopes are popped innermost first.
    for scope in scopes.into_iter().rev() {
        if let Some(error) = pollster::block_on(scope.pop()) {
            errors.push(error.to_string());
        }
    }
    if errors.is_empty() { Ok(()) } else { Err(format!("its first pipeline failed: {}", errors.join("; "))) }
}

/// A triangle in one colour.
const PROBE_SHADER: &str = "
@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let x = f32(i) - 1.0;
    return vec4<f32>(x, f32(i & 1u), 0.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> {
    return vec4<f32>(1.0, 0.5, 0.0, 1.0);
}
";
