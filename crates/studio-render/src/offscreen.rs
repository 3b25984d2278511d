//! Rendering to an image without a window: an offscreen colour target (multisampled where the
//! adapter offers it), a depth buffer and a readback buffer, reused across frames.

use crate::context::{GpuContext, RenderError};
use crate::renderer::DEPTH_FORMAT;

/// The format offscreen images are rendered in.
pub const OFFSCREEN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// An RGBA8 image, rows from the top, as read back from the GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes, sRGB.
    pub pixels: Vec<u8>,
}

impl RgbaImage {
    /// The pixel at (x, y), or `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let at = ((y * self.width + x) * 4) as usize;
        self.pixels.get(at..at + 4).map(|p| [p[0], p[1], p[2], p[3]])
    }
}

/// Colour, resolve, depth and readback resources of one size.
#[derive(Debug)]
pub struct OffscreenTarget {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    color: wgpu::Texture,
    resolve: Option<wgpu::Texture>,
    /// Where a sampled target cannot be viewed as `Rgba8Unorm` (OpenGL): an `Rgba8Unorm` copy
    /// of each finished image, made by [`Self::pass`], for [`Self::raw_view`].
    raw_copy: Option<wgpu::Texture>,
    depth: wgpu::Texture,
    readback: wgpu::Buffer,
    padded_row: u32,
}

impl OffscreenTarget {
    /// Targets of `width × height` (each at least 1) with `sample_count` samples.
    pub fn new(context: &GpuContext, width: u32, height: u32, sample_count: u32) -> Self {
        Self::with_usage(context, width, height, sample_count, wgpu::TextureUsages::empty())
    }

    /// Like [`Self::new`], the finished image's texture also having `usage` (such as
    /// `TEXTURE_BINDING`, for a UI to draw it).
    pub fn with_usage(
        context: &GpuContext,
        width: u32,
        height: u32,
        sample_count: u32,
        usage: wgpu::TextureUsages,
    ) -> Self {
        let (width, height) = (width.max(1), height.max(1));
        let device = &context.device;
        // A UI that draws the image may want its bytes as they are (sRGB-encoded) rather than
        // decoded to linear ([`Self::raw_view`]): a view as `Rgba8Unorm` where the adapter allows
        // other view formats ([`Self::raw_views_supported`]), else a copy.
        let raw_view = [wgpu::TextureFormat::Rgba8Unorm];
        let raw_views = Self::raw_views_supported(context);
        let texture = |label, format, samples, usage: wgpu::TextureUsages| {
            let sampled = raw_views
                && usage.contains(wgpu::TextureUsages::TEXTURE_BINDING)
                && format == OFFSCREEN_FORMAT;
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: if sampled { &raw_view } else { &[] },
            })
        };
        let copyable = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC | usage;
        let (color, resolve) = if sample_count > 1 {
            (
                texture(
                    "offscreen colour (multisampled)",
                    OFFSCREEN_FORMAT,
                    sample_count,
                    wgpu::TextureUsages::RENDER_ATTACHMENT,
                ),
                Some(texture("offscreen colour", OFFSCREEN_FORMAT, 1, copyable)),
            )
        } else {
            (texture("offscreen colour", OFFSCREEN_FORMAT, 1, copyable), None)
        };
        let depth =
            texture("offscreen depth", DEPTH_FORMAT, sample_count, wgpu::TextureUsages::RENDER_ATTACHMENT);
        let raw_copy = (usage.contains(wgpu::TextureUsages::TEXTURE_BINDING) && !raw_views).then(|| {
            texture(
                "offscreen colour, raw copy",
                wgpu::TextureFormat::Rgba8Unorm,
                1,
                wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            )
        });
        let padded_row =
            (width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen readback"),
            size: u64::from(padded_row) * u64::from(height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Self { width, height, color, resolve, raw_copy, depth, readback, padded_row }
    }

    /// Whether a target made with `TEXTURE_BINDING` can be viewed as `Rgba8Unorm`: the
    /// adapter allows views in other formats (`DownlevelFlags::VIEW_FORMATS`; not OpenGL).
    pub fn raw_views_supported(context: &GpuContext) -> bool {
        context.adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::VIEW_FORMATS)
    }

    /// The texture holding the finished image.
    pub fn texture(&self) -> &wgpu::Texture {
        self.resolve.as_ref().unwrap_or(&self.color)
    }

    /// The finished image's sRGB bytes as they are, viewed as `Rgba8Unorm`, for a UI that
    /// composes in gamma space: the image itself, or on an adapter without other view formats
    /// its copy. For a target made with `TEXTURE_BINDING`.
    pub fn raw_view(&self) -> wgpu::TextureView {
        match &self.raw_copy {
            Some(copy) => copy.create_view(&wgpu::TextureViewDescriptor::default()),
            None => self.texture().create_view(&wgpu::TextureViewDescriptor {
                format: Some(wgpu::TextureFormat::Rgba8Unorm),
                ..Default::default()
            }),
        }
    }

    /// Records a render pass clearing to `background` (sRGB bytes) and calling `draw` (then the
    /// copy [`Self::raw_view`] shows, where there is one).
    pub fn pass(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        background: [u8; 3],
        draw: impl FnOnce(&mut wgpu::RenderPass<'_>),
    ) {
        let color_view = self.color.create_view(&wgpu::TextureViewDescriptor::default());
        let resolve_view =
            self.resolve.as_ref().map(|t| t.create_view(&wgpu::TextureViewDescriptor::default()));
        let depth_view = self.depth.create_view(&wgpu::TextureViewDescriptor::default());
        let [r, g, b, _] = crate::overlay::linear(background, 1.0);
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("offscreen pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &color_view,
                depth_slice: None,
                resolve_target: resolve_view.as_ref(),
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: f64::from(r),
                        g: f64::from(g),
                        b: f64::from(b),
                        a: 1.0,
                    }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &depth_view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        draw(&mut pass);
        drop(pass);
        if let Some(copy) = &self.raw_copy {
            // The same bytes: the formats differ only in whether they are read as sRGB.
            encoder.copy_texture_to_texture(
                self.texture().as_image_copy(),
                copy.as_image_copy(),
                copy.size(),
            );
        }
    }

    /// Records the copy of the finished image into the readback buffer.
    pub fn copy_out(&self, encoder: &mut wgpu::CommandEncoder) {
        let source = self.resolve.as_ref().unwrap_or(&self.color);
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: source,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(self.padded_row),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 },
        );
    }

    /// Waits for the GPU and reads the image copied by [`Self::copy_out`].
    pub fn read(&self, context: &GpuContext) -> Result<RgbaImage, RenderError> {
        let slice = self.readback.slice(..);
        let (sender, receiver) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |result| {
            let _ = sender.send(result);
        });
        context
            .device
            .poll(wgpu::PollType::Wait { submission_index: None, timeout: None })
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        receiver
            .recv()
            .map_err(|e| RenderError::Readback(e.to_string()))?
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        let mut pixels = Vec::with_capacity((self.width * self.height * 4) as usize);
        {
            let mapped = slice.get_mapped_range().map_err(|e| RenderError::Readback(e.to_string()))?;
            for row in mapped.chunks(self.padded_row as usize).take(self.height as usize) {
                pixels.extend_from_slice(&row[..(self.width * 4) as usize]);
            }
        }
        self.readback.unmap();
        Ok(RgbaImage { width: self.width, height: self.height, pixels })
    }
}
