//! A wgpu device without a window, for rendering to images (command line, tests) — and the
//! errors the renderer reports.

/// What went wrong getting or using a GPU.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No adapter: no GPU driver and no software one (install Mesa's `mesa-vulkan-drivers`).
    #[error("no graphics adapter found ({0}); on Debian, install mesa-vulkan-drivers for software rendering")]
    NoAdapter(String),
    /// The adapter refused a device.
    #[error("the graphics adapter refused a device: {0}")]
    Device(String),
    /// Reading the rendered image back failed.
    #[error("reading the image back failed: {0}")]
    Readback(String),
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
    /// `WGPU_ADAPTER_NAME`…); without a GPU, Mesa's lavapipe (Vulkan) or llvmpipe (GL).
    pub fn headless() -> Result<Self, RenderError> {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let options = wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::from_env().unwrap_or_default(),
            ..Default::default()
        };
        let adapter = pollster::block_on(instance.request_adapter(&options))
            .map_err(|e| RenderError::NoAdapter(e.to_string()))?;
        Self::from_adapter(instance, adapter)
    }

    /// A device on `adapter`, with the limits every backend offers.
    pub fn from_adapter(instance: wgpu::Instance, adapter: wgpu::Adapter) -> Result<Self, RenderError> {
        let descriptor = wgpu::DeviceDescriptor {
            label: Some("studioview device"),
            required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&descriptor))
            .map_err(|e| RenderError::Device(e.to_string()))?;
        Ok(Self { instance, adapter, device, queue })
    }

    /// The most samples per pixel the adapter offers for `format`, up to 4.
    pub fn sample_count(&self, format: wgpu::TextureFormat) -> u32 {
        let flags = self.adapter.get_texture_format_features(format).flags;
        [4, 2].into_iter().find(|&n| flags.sample_count_supported(n)).unwrap_or(1)
    }
}
