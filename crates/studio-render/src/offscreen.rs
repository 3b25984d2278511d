//! Rendering to an image without a window: an offscreen colour target (multisampled where the
//! adapter offers it), a depth buffer and a readback buffer, reused across frames.

use crate::context::{GpuContext, RenderError};
use crate::ground::{GroundCache, GroundKey, GroundPlan, copy_whole};
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
///
/// A target made to be sampled (`TEXTURE_BINDING`, for a UI to draw it) also holds a copy of
/// each finished image for the UI ([`Self::raw_view`]): an `Rgba8Unorm` texture whose sides are
/// powers of two, the image in its top-left corner ([`Self::image_uv`]). Mesa's software
/// renderer compiles a fragment shader once per kind of texture it samples, and the kind
/// includes the texture's format and whether each side is a power of two. egui's own textures
/// (its font atlas) are `Rgba8Unorm` with such sides: an image of the viewport's size, or an
/// sRGB one, made lavapipe compile egui's shader a second time in the viewer's first frame, and
/// the complete picture came 36 ms later (traced cold starts of the soldier, medians of 20).
#[derive(Debug)]
pub struct OffscreenTarget {
    /// Width of the image in pixels.
    pub width: u32,
    /// Height of the image in pixels.
    pub height: u32,
    /// The colour format: [`OFFSCREEN_FORMAT`], or another for [`Self::for_window`].
    format: wgpu::TextureFormat,
    color: wgpu::Texture,
    resolve: Option<wgpu::Texture>,
    /// For a sampled target: the copy of each finished image, made by [`Self::pass`].
    shown: Option<wgpu::Texture>,
    /// For a window's target: the finished texture can be viewed in this format, its bytes
    /// as they are (its format without sRGB).
    raw_format: Option<wgpu::TextureFormat>,
    depth: wgpu::Texture,
    /// The ground kept between frames ([`Self::pass_over_ground`]).
    ground: GroundCache,
    readback: wgpu::Buffer,
    padded_row: u32,
}

impl OffscreenTarget {
    /// Targets of `width × height` (each at least 1) with `sample_count` samples.
    pub fn new(context: &GpuContext, width: u32, height: u32, sample_count: u32) -> Self {
        Self::with_usage(context, width, height, sample_count, wgpu::TextureUsages::empty())
    }

    /// Like [`Self::new`]; with `TEXTURE_BINDING` in `usage`, also the copy a UI draws
    /// ([`Self::raw_view`]).
    pub fn with_usage(
        context: &GpuContext,
        width: u32,
        height: u32,
        sample_count: u32,
        usage: wgpu::TextureUsages,
    ) -> Self {
        Self::build(context, width, height, sample_count, OFFSCREEN_FORMAT, usage, None)
    }

    /// A target whose finished image a window shows by copying it (`COPY_SRC`) into its own
    /// picture, or by sampling it through [`Self::raw_view`], a view of its bytes as they are.
    /// `format` is an sRGB format of the window's channel order ([`OFFSCREEN_FORMAT`] or
    /// `Bgra8UnormSrgb`), so that a copy into a window of that order without sRGB is allowed;
    /// the renderer drawing into it must be made for `format`. Not on OpenGL, which cannot view
    /// a texture in another format: there [`Self::with_usage`] makes a copy to sample.
    pub fn for_window(
        context: &GpuContext,
        width: u32,
        height: u32,
        sample_count: u32,
        format: wgpu::TextureFormat,
    ) -> Self {
        let raw = format.remove_srgb_suffix();
        Self::build(
            context,
            width,
            height,
            sample_count,
            format,
            wgpu::TextureUsages::TEXTURE_BINDING,
            Some(raw),
        )
    }

    fn build(
        context: &GpuContext,
        width: u32,
        height: u32,
        sample_count: u32,
        format: wgpu::TextureFormat,
        usage: wgpu::TextureUsages,
        raw_format: Option<wgpu::TextureFormat>,
    ) -> Self {
        let (width, height) = (width.max(1), height.max(1));
        let device = &context.device;
        let texture =
            |label, (width, height), format, samples, usage, view_formats: &[wgpu::TextureFormat]| {
                device.create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
                    mip_level_count: 1,
                    sample_count: samples,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage,
                    view_formats,
                })
            };
        let size = (width, height);
        // A single-sampled target's colour and depth are copied to and from the kept ground.
        let ground_copies = if sample_count > 1 {
            wgpu::TextureUsages::empty()
        } else {
            wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST
        };
        let copyable = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC | ground_copies;
        // A window's target is shown from its finished texture itself.
        let (finished_usage, finished_views) = match raw_format {
            Some(raw) => (copyable | usage, vec![raw]),
            None => (copyable, Vec::new()),
        };
        let (color, resolve) = if sample_count > 1 {
            (
                texture(
                    "offscreen colour (multisampled)",
                    size,
                    format,
                    sample_count,
                    wgpu::TextureUsages::RENDER_ATTACHMENT,
                    &[],
                ),
                Some(texture("offscreen colour", size, format, 1, finished_usage, &finished_views)),
            )
        } else {
            (texture("offscreen colour", size, format, 1, finished_usage, &finished_views), None)
        };
        let depth = texture(
            "offscreen depth",
            size,
            DEPTH_FORMAT,
            sample_count,
            wgpu::TextureUsages::RENDER_ATTACHMENT | ground_copies,
            &[],
        );
        let shown =
            (raw_format.is_none() && usage.contains(wgpu::TextureUsages::TEXTURE_BINDING)).then(|| {
                let most = device.limits().max_texture_dimension_2d.max(1);
                let side = |n: u32| n.checked_next_power_of_two().unwrap_or(n).min(most).max(n);
                // The same bytes as the image: the formats differ only in whether they are read
                // as sRGB, and a UI composing in gamma space wants them as they are.
                texture(
                    "offscreen colour, shown",
                    (side(width), side(height)),
                    wgpu::TextureFormat::Rgba8Unorm,
                    1,
                    wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST | usage,
                    &[],
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
        Self {
            width,
            height,
            format,
            color,
            resolve,
            shown,
            raw_format,
            depth,
            ground: GroundCache::default(),
            readback,
            padded_row,
        }
    }

    /// The image's bottom-right corner in [`Self::raw_view`]'s texture coordinates (0 to 1);
    /// `[1, 1]` for a target without that view.
    pub fn image_uv(&self) -> [f32; 2] {
        self.shown.as_ref().map_or([1.0, 1.0], |shown| {
            [self.width as f32 / shown.width() as f32, self.height as f32 / shown.height() as f32]
        })
    }

    /// The texture holding the finished image.
    pub fn texture(&self) -> &wgpu::Texture {
        self.resolve.as_ref().unwrap_or(&self.color)
    }

    /// The colour format the image is rendered in.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// The finished image's sRGB bytes as they are (a format without sRGB), for a UI that
    /// composes in gamma space: the `Rgba8Unorm` copy a target made with `TEXTURE_BINDING`
    /// holds, the image in its corner ([`Self::image_uv`]), or a window's target itself
    /// ([`Self::for_window`]). `None` for other targets.
    pub fn raw_view(&self) -> Option<wgpu::TextureView> {
        if let Some(raw) = self.raw_format {
            let descriptor = wgpu::TextureViewDescriptor { format: Some(raw), ..Default::default() };
            return Some(self.texture().create_view(&descriptor));
        }
        self.shown.as_ref().map(|shown| shown.create_view(&wgpu::TextureViewDescriptor::default()))
    }

    /// Records a render pass clearing to `background` (sRGB bytes) and calling `draw`, then the
    /// copy [`Self::raw_view`] shows, where there is one.
    pub fn pass(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        background: [u8; 3],
        draw: impl FnOnce(&mut wgpu::RenderPass<'_>),
    ) {
        let mut pass = self.begin(encoder, Some(background), false);
        draw(&mut pass);
        drop(pass);
        self.copy_shown(encoder);
    }

    /// Records a frame as [`Self::pass`] does, drawing its ground with `ground` and the rest with
    /// `draw`, where `key` says what the ground depends on (`None`: no ground to keep). A ground
    /// the same as the last frame's is kept after it is drawn, and copied in while it stays the
    /// same instead of drawn again ([`crate::ground`]); each frame's pixels are those
    /// [`Self::pass`] gives.
    pub(crate) fn pass_over_ground(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        background: [u8; 3],
        key: Option<GroundKey>,
        ground: impl FnOnce(&mut wgpu::RenderPass<'_>),
        draw: impl FnOnce(&mut wgpu::RenderPass<'_>),
    ) {
        // A multisampled target's colour cannot be copied in: drawn whole.
        let key = key.filter(|_| self.resolve.is_none());
        match self.ground.plan(key) {
            GroundPlan::Draw => self.pass(encoder, background, |pass| {
                ground(pass);
                draw(pass);
            }),
            GroundPlan::Keep => {
                let mut pass = self.begin(encoder, Some(background), true);
                ground(&mut pass);
                drop(pass);
                if let Some(key) = key {
                    let (color, depth) = self.ground.keep(device, &self.color, &self.depth, key);
                    copy_whole(encoder, &self.color, color);
                    copy_whole(encoder, &self.depth, depth);
                }
                self.draw_over(encoder, draw);
            }
            GroundPlan::Copy => {
                if let Some((color, depth)) = self.ground.kept() {
                    copy_whole(encoder, color, &self.color);
                    copy_whole(encoder, depth, &self.depth);
                }
                self.draw_over(encoder, draw);
            }
        }
    }

    /// Whether the last [`Self::pass_over_ground`] copied a kept ground in rather than drawing
    /// it.
    pub fn copied_ground(&self) -> bool {
        self.ground.last_plan == Some(GroundPlan::Copy)
    }

    /// Records `draw` over what the target holds, then the copy for the UI.
    fn draw_over(&self, encoder: &mut wgpu::CommandEncoder, draw: impl FnOnce(&mut wgpu::RenderPass<'_>)) {
        let mut pass = self.begin(encoder, None, false);
        draw(&mut pass);
        drop(pass);
        self.copy_shown(encoder);
    }

    /// Begins a pass on the target: cleared to `background` (its depth to the far plane), or
    /// over what it holds when `None`; its depth kept after the pass when `keep_depth`.
    fn begin<'e>(
        &self,
        encoder: &'e mut wgpu::CommandEncoder,
        background: Option<[u8; 3]>,
        keep_depth: bool,
    ) -> wgpu::RenderPass<'e> {
        let color_view = self.color.create_view(&wgpu::TextureViewDescriptor::default());
        let resolve_view =
            self.resolve.as_ref().map(|t| t.create_view(&wgpu::TextureViewDescriptor::default()));
        let depth_view = self.depth.create_view(&wgpu::TextureViewDescriptor::default());
        let (color_load, depth_load) = match background {
            Some(background) => {
                let [r, g, b, _] = crate::overlay::linear(background, 1.0);
                let color = wgpu::Color { r: f64::from(r), g: f64::from(g), b: f64::from(b), a: 1.0 };
                (wgpu::LoadOp::Clear(color), wgpu::LoadOp::Clear(1.0))
            }
            None => (wgpu::LoadOp::Load, wgpu::LoadOp::Load),
        };
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("offscreen pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &color_view,
                depth_slice: None,
                resolve_target: resolve_view.as_ref(),
                ops: wgpu::Operations { load: color_load, store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &depth_view,
                depth_ops: Some(wgpu::Operations {
                    load: depth_load,
                    store: if keep_depth { wgpu::StoreOp::Store } else { wgpu::StoreOp::Discard },
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        })
    }

    /// For a sampled target, records the copy of the finished image that the UI shows.
    fn copy_shown(&self, encoder: &mut wgpu::CommandEncoder) {
        if let Some(shown) = &self.shown {
            let size = wgpu::Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 };
            encoder.copy_texture_to_texture(self.texture().as_image_copy(), shown.as_image_copy(), size);
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
        // Blue first in a BGRA target: the image is RGBA.
        if matches!(self.format, wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb) {
            for pixel in pixels.chunks_exact_mut(4) {
                pixel.swap(0, 2);
            }
        }
        self.readback.unmap();
        Ok(RgbaImage { width: self.width, height: self.height, pixels })
    }
}
