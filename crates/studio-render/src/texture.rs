//! Materials on the GPU: the texture as RGBA8 with a mip chain made on the CPU (none when the
//! material asks for none), and the per-material parameters the mesh shader reads.

use crate::gpu_types::TextureParams;
use crate::scene::{Blend, Image, PhongParams, RenderMaterial};

/// The next mip level of an RGBA8 image: each texel the mean of up to 2×2 texels (sizes halve
/// and stop at 1; an odd last row or column is left out, as a size of 1 is repeated), rounded
/// half up.
///
/// It runs for every mip of every texture as a model opens, in the viewer's first frame and in
/// the shader warm-up helper before its draw (`studio_viewer::app::warmup`), so it works row by
/// row in loops the compiler vectorizes: uploading the NS soldier's textures took 43.8 M
/// instructions when each texel was indexed, 13.7 M now (callgrind). `rgba` holds
/// `width × height` texels; a block row it lacks texels of is left zero.
pub fn downsample(width: u32, height: u32, rgba: &[u8]) -> (u32, u32, Vec<u8>) {
    let (w, h) = ((width / 2).max(1), (height / 2).max(1));
    let (in_row, out_row) = (width as usize * 4, w as usize * 4);
    let mut out = vec![0u8; out_row * h as usize];
    if in_row == 0 {
        return (w, h, out);
    }
    let row = |y: u32| {
        let start = (y.min(height.saturating_sub(1)) as usize).checked_mul(in_row);
        start.and_then(|start| rgba.get(start..start.checked_add(in_row)?)).unwrap_or_default()
    };
    // Each block row's two rows summed texel by texel, then pairs of the sums: loops the
    // compiler turns into vector instructions.
    let mut sums = vec![0u16; in_row];
    for (y, out) in (0..h).zip(out.chunks_exact_mut(out_row)) {
        let (top, bottom) = (row(2 * y), row(2 * y + 1));
        if top.is_empty() || bottom.is_empty() {
            continue;
        }
        for ((sum, &a), &b) in sums.iter_mut().zip(top).zip(bottom) {
            *sum = u16::from(a) + u16::from(b);
        }
        if width == 1 {
            // One column: the texel pairs with itself.
            for (texel, &sum) in out.iter_mut().zip(&sums) {
                *texel = ((2 * sum + 2) / 4) as u8;
            }
        } else {
            let pairs = sums.as_chunks::<8>().0;
            for (texel, pair) in out.as_chunks_mut::<4>().0.iter_mut().zip(pairs) {
                for c in 0..4 {
                    texel[c] = ((pair[c] + pair[c + 4] + 2) / 4) as u8;
                }
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
    /// How it blends.
    pub blend: Blend,
    /// Whether it is drawn from both sides.
    pub double_sided: bool,
    /// Whether game shading draws it differently from plain shading.
    pub game_shaded: bool,
}

/// Uploads `image` (or one texel of `default` for none or an unusable one) as a texture of
/// `format`, with its mip chain when `mipmaps`.
fn upload_image(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    label: &str,
    image: Option<&Image>,
    (format, mipmaps, default): (wgpu::TextureFormat, bool, [u8; 4]),
) -> wgpu::Texture {
    let max = device.limits().max_texture_dimension_2d;
    let usable = image.filter(|t| {
        t.width > 0
            && t.height > 0
            && t.width <= max
            && t.height <= max
            && t.rgba.len() as u64 == u64::from(t.width) * u64::from(t.height) * 4
    });
    let (mut width, mut height, mut rgba) = match usable {
        Some(t) => (t.width, t.height, t.rgba.clone()),
        None => (1, 1, default.to_vec()),
    };
    let mips = if mipmaps { 32 - width.max(height).leading_zeros() } else { 1 };
    let gpu = device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
        mip_level_count: mips,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
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
    gpu
}

/// The flat normal of a tangent-space normal map: what a material without one samples.
const FLAT_NORMAL: [u8; 4] = [128, 128, 255, 255];

/// Uploads `material`'s textures (its base texture, or a 1×1 white texel for none or an
/// unusable one, with its mip chain; its normal map, light warp and iris, or a texel each that
/// changes nothing) and parameters.
pub fn upload(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    layout: &wgpu::BindGroupLayout,
    sampler: &wgpu::Sampler,
    material: &RenderMaterial,
) -> GpuTexture {
    let label = if material.name.is_empty() { "white texture" } else { material.name.as_str() };
    let srgb = wgpu::TextureFormat::Rgba8UnormSrgb;
    let gpu = upload_image(device, queue, label, material.image.as_ref(), (srgb, material.mipmaps, [255; 4]));
    // Normal maps hold directions, not colours: read as they are stored.
    let linear = wgpu::TextureFormat::Rgba8Unorm;
    let normal_map =
        upload_image(device, queue, "normal map", material.normal_map.as_ref(), (linear, true, FLAT_NORMAL));
    let light_warp =
        upload_image(device, queue, "light warp", material.light_warp.as_ref(), (srgb, false, [255; 4]));
    let iris = upload_image(device, queue, "iris", material.iris.as_ref(), (srgb, true, [0; 4]));
    let flag = |b: bool| f32::from(u8::from(b));
    let [r, g, b] = material.tint;
    let phong = material.phong.unwrap_or(PhongParams { exponent: 1.0, boost: 0.0, fresnel_ranges: [0.0; 3] });
    let [f0, f1, f2] = phong.fresnel_ranges;
    let params = TextureParams {
        params: [
            material.texel_scale[0],
            material.texel_scale[1],
            flag(material.chrome),
            material.alpha_test,
        ],
        tint: [r, g, b, flag(material.flat_shade)],
        flags: [
            flag(material.fullbright),
            flag(material.blend == Blend::Translucent),
            flag(material.reflective),
            flag(material.self_illum),
        ],
        maps: [
            flag(material.normal_map.is_some()),
            flag(material.phong.is_some()),
            flag(material.light_warp.is_some()),
            flag(material.iris.is_some()),
        ],
        phong: [phong.exponent, phong.boost, 0.0, 0.0],
        fresnel: [f0, f1, f2, 0.0],
    };
    let params_buffer = wgpu::util::DeviceExt::create_buffer_init(
        device,
        &wgpu::util::BufferInitDescriptor {
            label: Some("texture params"),
            contents: bytemuck::bytes_of(&params),
            usage: wgpu::BufferUsages::UNIFORM,
        },
    );
    let view = |t: &wgpu::Texture| t.create_view(&wgpu::TextureViewDescriptor::default());
    let (base, normal, warp, iris_view) = (view(&gpu), view(&normal_map), view(&light_warp), view(&iris));
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("texture bind group"),
        layout,
        entries: &[
            wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(&base) },
            wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(sampler) },
            wgpu::BindGroupEntry { binding: 2, resource: params_buffer.as_entire_binding() },
            wgpu::BindGroupEntry { binding: 3, resource: wgpu::BindingResource::TextureView(&normal) },
            wgpu::BindGroupEntry { binding: 4, resource: wgpu::BindingResource::TextureView(&warp) },
            wgpu::BindGroupEntry { binding: 5, resource: wgpu::BindingResource::TextureView(&iris_view) },
        ],
    });
    GpuTexture {
        texture: gpu,
        bind_group,
        blend: material.blend,
        double_sided: material.double_sided,
        game_shaded: material.game_shaded(),
    }
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

    /// Each texel as the mean of its block, read texel by texel with clamped coordinates.
    fn block_means(width: u32, height: u32, rgba: &[u8]) -> Vec<u8> {
        let (w, h) = ((width / 2).max(1), (height / 2).max(1));
        let at = |x: u32, y: u32, c: u32| {
            u32::from(rgba[((y.min(height - 1) * width + x.min(width - 1)) * 4 + c) as usize])
        };
        let mut out = Vec::new();
        for y in 0..h {
            for x in 0..w {
                for c in 0..4 {
                    let (x0, y0) = (x * 2, y * 2);
                    let sum = at(x0, y0, c) + at(x0 + 1, y0, c) + at(x0, y0 + 1, c) + at(x0 + 1, y0 + 1, c);
                    out.push(((sum + 2) / 4) as u8);
                }
            }
        }
        out
    }

    #[test]
    fn downsample_matches_block_means_at_every_size() {
        let mut seed = 0x2545_f491_u32;
        for width in 1..=9 {
            for height in 1..=9 {
                let rgba: Vec<u8> = (0..width * height * 4)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 17;
                        seed ^= seed << 5;
                        seed as u8
                    })
                    .collect();
                let (w, h, out) = downsample(width, height, &rgba);
                assert_eq!((w, h), ((width / 2).max(1), (height / 2).max(1)));
                assert_eq!(out, block_means(width, height, &rgba), "{width}×{height}");
            }
        }
    }

    #[test]
    fn downsample_of_too_few_texels_keeps_its_size() {
        // Two whole rows and part of a third: the second block row lacks texels.
        let (w, h, out) = downsample(4, 4, &[255; 36]);
        assert_eq!((w, h), (2, 2));
        assert_eq!(out, [[255; 8], [0; 8]].concat());
        assert_eq!(downsample(0, 3, &[]), (1, 1, vec![0; 4]));
    }
}
