//! A wgpu device without a window, for rendering to images (command line, tests) — and the
//! errors the renderer reports.

/// What to do about no adapter at all, on this system.
#[cfg(target_os = "linux")]
const NO_ADAPTER_HINT: &str = "on Debian, install mesa-vulkan-drivers for software rendering";
/// What to do about no adapter at all, on this system.
#[cfg(not(target_os = "linux"))]
const NO_ADAPTER_HINT: &str = "update the graphics driver";

/// What went wrong getting or using a GPU.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No adapter: no GPU driver and no software one (install Mesa's `mesa-vulkan-drivers`).
    #[error("no graphics adapter works ({0}); {hint}", hint = NO_ADAPTER_HINT)]
    NoAdapter(String),
    /// The adapter refused a device.
    #[error("the graphics adapter refused a device: {0}")]
    Device(String),
    /// Reading the rendered image back failed.
    #[error("reading the image back failed: {0}")]
    Readback(String),
}

/// An instance of `backends` and an adapter from it, with no surface, preferring power as
/// `WGPU_POWER_PREF` says or else as `preference` does (other wgpu variables, such as
/// `WGPU_ADAPTER_NAME`, refine the choice).
pub fn request_adapter(
    backends: wgpu::Backends,
    preference: wgpu::PowerPreference,
) -> Result<(wgpu::Instance, wgpu::Adapter), wgpu::RequestAdapterError> {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    descriptor.backends = backends;
    let instance = wgpu::Instance::new(descriptor);
    let options = wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::from_env().unwrap_or(preference),
        ..Default::default()
    };
    let adapter = pollster::block_on(instance.request_adapter(&options))?;
    Ok((instance, adapter))
}

/// Whether `adapter` is a CPU (a software renderer such as lavapipe or llvmpipe), where every
/// sample is paid for by the processor and shaders are compiled at their first draw.
pub fn is_software(adapter: &wgpu::Adapter) -> bool {
    adapter.get_info().device_type == wgpu::DeviceType::Cpu
}

/// The device an image is drawn with: the limits every backend offers, at `adapter`'s
/// resolution.
pub fn device_descriptor(adapter: &wgpu::Adapter) -> wgpu::DeviceDescriptor<'static> {
    wgpu::DeviceDescriptor {
        label: Some("studioview device"),
        required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
        ..Default::default()
    }
}

/// Instance, adapter, device and queue.
#[derive(Debug, Clone)]
pub struct GpuContext {
    /// The instance.
    pub instance: wgpu::Instance,
    /// The adapter.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

impl GpuContext {
    /// A device with no surface, chosen as wgpu's environment variables say (`WGPU_BACKEND`,
    /// `WGPU_ADAPTER_NAME`…); otherwise the first adapter that works
    /// ([`crate::adapter_choice`]) of the primary backends (Vulkan: a GPU, or Mesa's lavapipe
    /// without one), then of OpenGL (llvmpipe). Not probing OpenGL first saves its start-up
    /// time, and its EGL probe's complaints on a machine without a desktop session.
    pub fn headless() -> Result<Self, RenderError> {
        let groups = crate::adapter_choice::backend_groups();
        let preference = wgpu::PowerPreference::default();
        crate::adapter_choice::first_working(&groups, preference, &device_descriptor, &mut |_, _| None)
            .map(|(context, _)| context)
    }

    /// A device on `adapter`, with the limits every backend offers.
    pub fn from_adapter(instance: wgpu::Instance, adapter: wgpu::Adapter) -> Result<Self, RenderError> {
        let descriptor = device_descriptor(&adapter);
        let (device, queue) = pollster::block_on(adapter.request_device(&descriptor))
            .map_err(|e| RenderError::Device(e.to_string()))?;
        Ok(Self { instance, adapter, device, queue })
    }

    /// Whether the adapter is a software renderer ([`is_software`]).
    pub fn is_software(&self) -> bool {
        is_software(&self.adapter)
    }

    /// Samples per pixel for an interactive view: 1 on a software renderer (where 4× MSAA costs
    /// several times the fill work of the processor that also runs the app), otherwise
    /// [`Self::sample_count`].
    pub fn interactive_sample_count(&self, format: wgpu::TextureFormat) -> u32 {
        if self.is_software() { 1 } else { self.sample_count(format) }
    }

    /// The most samples per pixel the adapter offers for `format`, up to 4.
    pub fn sample_count(&self, format: wgpu::TextureFormat) -> u32 {
        let flags = self.adapter.get_texture_format_features(format).flags;
        [4, 2].into_iter().find(|&n| flags.sample_count_supported(n)).unwrap_or(1)
    }
}
