//! Showing a finished [`OffscreenTarget`] inside another render pass: the viewer's window draws
//! its 3D view with this, in egui's own pass, instead of as an egui image.
//!
//! On a software rasterizer (Mesa's lavapipe) every pixel egui draws runs egui's shader: a
//! filtered float sample, the vertex colour, dithering and blending. Shown as an egui image the
//! NS soldier's viewport (about 625×610 pixels) cost 13 points of a core at 32 frames a second,
//! 4 ms a frame (`measure.py`, the picture left out against drawn). This pipeline only copies
//! texels: nearest sampling at the picture's own size, no blending, no vertex colour.

use crate::offscreen::OffscreenTarget;
use crate::shaders;

/// The pipeline drawing pictures into passes of one format.
#[derive(Debug)]
pub struct PictureDrawer {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
}

/// One target's picture, ready to draw into a pass of the drawer's format.
#[derive(Clone, Debug)]
pub struct Picture {
    pipeline: wgpu::RenderPipeline,
    bind_group: wgpu::BindGroup,
}

impl PictureDrawer {
    /// A drawer for passes whose colour target is `format`, with one sample per pixel and no
    /// depth attachment (eframe's window pass with its default options).
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("picture"),
            source: wgpu::ShaderSource::Wgsl(shaders::PICTURE.into()),
        });
        let entry =
            |binding, visibility, ty| wgpu::BindGroupLayoutEntry { binding, visibility, ty, count: None };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("picture"),
            entries: &[
                entry(
                    0,
                    wgpu::ShaderStages::VERTEX,
                    wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                ),
                entry(
                    1,
                    wgpu::ShaderStages::FRAGMENT,
                    wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                ),
                entry(
                    2,
                    wgpu::ShaderStages::FRAGMENT,
                    wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                ),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("picture"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let constants = [("DECODE_SRGB", f64::from(u8::from(format.is_srgb())))];
        let compilation_options =
            wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() };
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("picture"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: compilation_options.clone(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleStrip,
                ..Default::default()
            },
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options,
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        // Nearest: the picture has the viewport's size in pixels, so each pixel takes its texel.
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("picture"),
            mag_filter: wgpu::FilterMode::Nearest,
            min_filter: wgpu::FilterMode::Nearest,
            ..Default::default()
        });
        Self { pipeline, layout, sampler }
    }

    /// `target`'s picture, or `None` for a target made without a view to show
    /// ([`OffscreenTarget::raw_view`]).
    pub fn picture(&self, device: &wgpu::Device, target: &OffscreenTarget) -> Option<Picture> {
        let view = target.raw_view()?;
        let [u, v] = target.image_uv();
        let uniform = wgpu::util::DeviceExt::create_buffer_init(
            device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("picture"),
                contents: bytemuck::cast_slice(&[u, v, 0.0, 0.0]),
                usage: wgpu::BufferUsages::UNIFORM,
            },
        );
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("picture"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: uniform.as_entire_binding() },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&view) },
                wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(&self.sampler) },
            ],
        });
        Some(Picture { pipeline: self.pipeline.clone(), bind_group })
    }
}

impl Picture {
    /// Draws the picture over the whole of `pass`'s viewport.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.draw(0..4, 0..1);
    }
}
