//! The ground grid: lines on the plane z = 0 under the model, drawn by the mesh's own shaders.
//!
//! Mesa's software Vulkan driver (lavapipe) compiles a pipeline's shaders with LLVM at its first
//! draw: 60–80 ms for the overlays' line pipeline, on the processor the viewer needs to show its
//! first picture. Drawn instead by a twin of the opaque mesh pipeline that differs only in
//! drawing lines, the grid needs nothing compiled of its own: lavapipe keys the code it makes
//! on the shaders, the depth and blend state and the kind of texture bound (its format, whether
//! each side is a power of two, whether it has mip levels), not on the primitive, and finds the
//! code the model's first draw made (in the viewer, the code the warm-up helper left in Mesa's
//! shader cache). So the grid is a "mesh" whose one material is a small texture of the grid's
//! colour, of the same kind as the model's first opaque texture, drawn fullbright, and whose
//! vertices follow one bone with an identity matrix (the renderer binds the grid a bone buffer
//! of its own). Measured on the NS soldier: Mesa's cache holds 2 entries after drawing the mesh,
//! and still 2 after drawing mesh and grid (4 with the overlays' grid); the viewer showed model
//! and grid 40–100 ms sooner (`measure.py`, medians of four batches of 8–10 interleaved cold
//! starts, e.g. 0.321 → 0.261 s).

use glam::Vec3;

use crate::gpu_types::MeshVertex;
use crate::overlay::marker_size;
use crate::scene::{Image, RenderMaterial};
use crate::texture::{GpuTexture, upload};

/// Colour of the ground grid, sRGB bytes.
pub const GRID_COLOR: [u8; 3] = [90, 90, 100];

/// Lines of the grid on each side of the origin, along each axis.
const GRID_HALF: i32 = 10;

/// The distance between the grid's lines for a model whose box is `bounds`.
pub fn grid_step(bounds: (Vec3, Vec3)) -> f32 {
    (marker_size(bounds) * 8.0).max(1.0)
}

/// Where the grid's bone puts it to look scrolled by `offset` across the ground: `offset`'s X
/// and Y wrapped into one step, so that the lines stay under the model however far it went.
pub fn grid_shift(bounds: (Vec3, Vec3), offset: Vec3) -> Vec3 {
    let step = grid_step(bounds);
    // A whole number of steps is no shift at all, whatever the rounding left of it.
    let wrap = |v: f32| match v.rem_euclid(step) {
        r if r.is_finite() && r > step * 1e-4 && step - r > step * 1e-4 => r,
        _ => 0.0,
    };
    Vec3::new(wrap(offset.x), wrap(offset.y), 0.0)
}

/// The grid's lines (pairs of points) for a model whose box is `bounds`: 21 lines each way, a
/// step of 8 marker sizes (at least 1 unit) apart. Each vertex follows bone 0 of the grid's own
/// bone buffer (the identity) with weight 1, its normal up.
pub fn grid_lines(bounds: (Vec3, Vec3)) -> Vec<MeshVertex> {
    let step = grid_step(bounds);
    let reach = step * GRID_HALF as f32;
    let point = |x: f32, y: f32| MeshVertex {
        position: [x, y, 0.0],
        normal: [0.0, 0.0, 1.0],
        texel: [0.0, 0.0],
        bones: [0; 4],
        weights: [1.0, 0.0, 0.0],
        normal_weights: [1.0, 0.0, 0.0],
        tangent: [0.0; 4],
        texel2: [0.0; 2],
    };
    (-GRID_HALF..=GRID_HALF)
        .flat_map(|i| {
            let t = i as f32 * step;
            [point(t, -reach), point(t, reach), point(-reach, t), point(reach, t)]
        })
        .collect()
}

/// The shape of a texture, as far as the code lavapipe compiles to sample it depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureKind {
    /// Whether the width is a power of two.
    pub pot_width: bool,
    /// Whether the height is a power of two.
    pub pot_height: bool,
    /// Whether it has more than one mip level.
    pub mipmapped: bool,
}

impl TextureKind {
    /// The kind of `texture`.
    pub fn of(texture: &wgpu::Texture) -> Self {
        Self {
            pot_width: texture.width().is_power_of_two(),
            pot_height: texture.height().is_power_of_two(),
            mipmapped: texture.mip_level_count() > 1,
        }
    }
}

/// The grid's material: the grid's colour in a texture of `kind` (2 or 3 texels a side, with
/// or without its mips), fullbright and opaque.
pub fn grid_material(kind: TextureKind) -> RenderMaterial {
    let side = |pot: bool| if pot { 2 } else { 3 };
    let (width, height) = (side(kind.pot_width), side(kind.pot_height));
    let [r, g, b] = GRID_COLOR;
    let rgba = [r, g, b, 255].repeat((width * height) as usize);
    RenderMaterial {
        name: "ground grid".into(),
        image: Some(Image { width, height, rgba }),
        mipmaps: kind.mipmapped,
        fullbright: true,
        ..RenderMaterial::default()
    }
}

/// The grid of one model on the GPU.
#[derive(Debug)]
pub struct GpuGrid {
    /// The lines' vertices.
    pub vertices: wgpu::Buffer,
    /// How many vertices.
    pub count: u32,
    /// Its material (bind group 1 of the mesh pipelines).
    pub material: GpuTexture,
}

impl GpuGrid {
    /// Uploads the grid of a model whose box is `bounds`, its texture of the kind of `like` (the
    /// model's first opaque texture, or its fallback white texel where it has none).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        layout: &wgpu::BindGroupLayout,
        sampler: &wgpu::Sampler,
        bounds: (Vec3, Vec3),
        like: &wgpu::Texture,
    ) -> Self {
        let kind = TextureKind::of(like);
        let lines = grid_lines(bounds);
        let vertices = wgpu::util::DeviceExt::create_buffer_init(
            device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("ground grid"),
                contents: bytemuck::cast_slice(&lines),
                usage: wgpu::BufferUsages::VERTEX,
            },
        );
        let material = upload(device, queue, layout, sampler, &grid_material(kind));
        Self { vertices, count: lines.len() as u32, material }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scrolled_ground_wraps_into_one_step() {
        let bounds = (Vec3::splat(-20.0), Vec3::splat(20.0));
        let step = grid_step(bounds);
        assert_eq!(grid_shift(bounds, Vec3::ZERO), Vec3::ZERO);
        let shift = grid_shift(bounds, Vec3::new(-2.5 * step, step * 0.25, 40.0));
        assert!((shift - Vec3::new(0.5 * step, 0.25 * step, 0.0)).length() < 1e-4, "{shift}");
        assert_eq!(grid_shift(bounds, Vec3::new(f32::NAN, f32::INFINITY, 0.0)), Vec3::ZERO);
        assert_eq!(grid_shift(bounds, Vec3::new(-3.0 * step, 7.0 * step, 0.0)), Vec3::ZERO);
    }

    #[test]
    fn the_grid_is_21_lines_each_way_on_the_ground() {
        let lines = grid_lines((Vec3::splat(-50.0), Vec3::splat(50.0)));
        assert_eq!(lines.len(), 2 * 2 * 21);
        assert!(lines.iter().all(|v| v.position[2] == 0.0 && v.bones[0] == 0 && v.weights[0] == 1.0));
        // Symmetric about the origin, and square.
        let reach = lines.iter().map(|v| v.position[0].abs()).fold(0.0, f32::max);
        assert_eq!(reach, lines.iter().map(|v| v.position[1].abs()).fold(0.0, f32::max));
        assert!(reach > 0.0);
    }

    #[test]
    fn the_grid_texture_has_the_kind_it_copies() {
        for pot_width in [false, true] {
            for pot_height in [false, true] {
                for mipmapped in [false, true] {
                    let kind = TextureKind { pot_width, pot_height, mipmapped };
                    let material = grid_material(kind);
                    let image = material.image.as_ref().unwrap();
                    assert_eq!(image.width.is_power_of_two(), pot_width);
                    assert_eq!(image.height.is_power_of_two(), pot_height);
                    assert_eq!(material.mipmaps, mipmapped);
                    assert!(material.fullbright && material.blend == crate::scene::Blend::Opaque);
                    assert!(image.rgba.chunks(4).all(|t| t[..3] == GRID_COLOR && t[3] == 255));
                }
            }
        }
    }
}
