//! Studio model textures on the GPU: RGBA8 with a mip chain made on the CPU (none for
//! `STUDIO_NF_NOMIPS`), and the per-texture parameters the mesh shader reads.

use studio_model::{STUDIO_NF_NOMIPS, Texture};

use crate::gpu_types::TextureParams;

/// The next mip level of an RGBA8 image: each texel the mean of up to 2×2 texels (sizes halve
/// and stop at 1).
pub fn downsample(width: u32, height: u32, rgba: &[u8]) -> (u32, u32, Vec<u8>) {
    let (w, h) = ((width / 2).max(1), (height / 2).max(1));
    let mut out = Vec::with_capacity((w * h * 4) as usize);
    let at = |x: u32, y: u32, c: usize| {
        u32::from(rgba[((y.min(height - 1) * width + x.min(width - 1)) * 4) as usize + c])
    };
    for y in 0..h {
        for x in 0..w {
            for c in 0..4 {
                let (x0, y0) = (x * 2, y * 2);
                let sum = at(x0, y0, c) + at(x0 + 1, y0, c) + at(x0, y0 + 1, c) + at(x0 + 1, y0 + 1, c);
                out.push(((sum + 2) / 4) as u8);
            }
        }
    }
    (w, h, out)
}

/// A texture uploaded with its mips, and the bind group that draws with it.
#[derive(Debug)]
pub struct GpuTexture {
    /// The texture.
    pub texture: wgpu::Texture,
    /// Bind group 1 of the mesh pipelines.
    pub bind_group: wgpu::BindGroup,
    /// Whether it is drawn additively.
    pub additive: bool,
}

/// Uploads `texture` (or a 1×1 white texel for an empty one) with its mip chain.
pub fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layout: &wgpu::BindGroupLayout,
    sampler: &wgpu::Sampler,
    texture: Option<&Texture>,
) -> GpuTexture {
    let max = device.limits().max_texture_dimension_2d;
    let usable = texture.filter(|t| t.width > 0 && t.height > 0 && t.width <= max && t.height <= max);
    let (mut width, mut height, mut rgba) = match usable {
        Some(t) => (t.width, t.height, t.rgba()),
        None => (1, 1, vec![255; 4]),
    };
    let flags = texture.map_or(0, |t| t.flags);
    let mips = if flags & STUDIO_NF_NOMIPS != 0 { 1 } else { 32 - width.max(height).leading_zeros() };
    let gpu = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(texture.map_or("white texture", |t| t.name.as_str())),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: mips,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    for level in 0..mips {
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &gpu,
                mip_level: level,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            &rgba,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(width * 4),
                rows_per_image: Some(height),
            },
            wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        );
        if level + 1 < mips {
            (width, height, rgba) = downsample(width, height, &rgba);
        }
    }
    // Each texture's writes go out on their own, so their staging memory is reused by the next
    // texture instead of all of a model's textures being staged at once: on a software renderer,
    // where that memory is the process's, a model of 32 large textures peaked 40 MiB higher.
    queue.submit([]);
    // A failed wait loses only the saving: the writes are submitted either way.
    let _ = device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None });
    let (w, h) = usable.map_or((1.0, 1.0), |t| (t.width as f32, t.height as f32));
    let params = TextureParams {
        params: [
            1.0 / w,
            1.0 / h,
            f32::from(u8::from(texture.is_some_and(Texture::is_chrome))),
            f32::from(u8::from(texture.is_some_and(Texture::is_masked))),
        ],
    };
    let params_buffer = wgpu::util::DeviceExt::create_buffer_init(
        device,
        &wgpu::util::BufferInitDescriptor {
            label: Some("texture params"),
            contents: bytemuck::bytes_of(&params),
            usage: wgpu::BufferUsages::UNIFORM,
        },
    );
    let view = gpu.create_view(&wgpu::TextureViewDescriptor::default());
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("texture bind group"),
        layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&view) },
            wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(sampler) },
            wgpu::BindGroupEntry { binding: 2, resource: params_buffer.as_entire_binding() },
        ],
    });
    GpuTexture { texture: gpu, bind_group, additive: texture.is_some_and(Texture::is_additive) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downsample_averages_blocks_and_stops_at_one() {
        let rgba = [0, 0, 0, 255, 100, 100, 100, 255, 200, 0, 0, 255, 100, 0, 0, 255];
        assert_eq!(downsample(2, 2, &rgba), (1, 1, vec![100, 25, 25, 255]));
        // A 4×1 image halves to 2×1; odd edges repeat their last texel.
        let row = [10, 10, 10, 10, 30, 30, 30, 30, 50, 50, 50, 50, 70, 70, 70, 70];
        assert_eq!(downsample(4, 1, &row), (2, 1, vec![20, 20, 20, 20, 60, 60, 60, 60]));
        assert_eq!(downsample(1, 1, &[1, 2, 3, 4]), (1, 1, vec![1, 2, 3, 4]));
    }
}
