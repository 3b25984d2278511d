//! Each engine's lighting rule through the shaders, pixel by pixel, on a white sphere seen
//! from the front in orthographic projection (so a pixel's place gives its normal): the levels
//! Half-Life's studio renderer gives (224 facing the light and within 60° of it, 160 side on,
//! the ambient 32 facing away, 185.6 for a flat-shaded texture) and Source's ambient plus
//! Lambert; the side the light comes from is the lit one.

use glam::{Affine3A, Vec3};
use studio_render::gpu_types::MeshVertex;
use studio_render::{
    Camera, Engine, FramePose, GpuContext, Image, Light, OFFSCREEN_FORMAT, OffscreenTarget, RenderBodyPart,
    RenderMaterial, RenderMesh, RenderModel, RenderOptions, RenderSubmodel, Renderer, Scene,
};

mod common;
use common::context;

const SIZE: u32 = 240;
const RADIUS: f32 = 10.0;

/// A sphere of `RADIUS` at the origin, its normals pointing out.
fn sphere() -> RenderMesh {
    let (rings, segments) = (48u32, 96u32);
    let mut vertices = Vec::new();
    for ring in 0..=rings {
        let theta = std::f32::consts::PI * ring as f32 / rings as f32;
        for segment in 0..=segments {
            let phi = std::f32::consts::TAU * segment as f32 / segments as f32;
            let n = Vec3::new(theta.sin() * phi.cos(), theta.sin() * phi.sin(), theta.cos());
            vertices.push(MeshVertex::weighted(
                (n * RADIUS).to_array(),
                n.to_array(),
                [0.5, 0.5],
                [0, 0, 0],
                [1.0, 0.0, 0.0],
            ));
        }
    }
    let row = segments + 1;
    let mut triangles = Vec::new();
    for ring in 0..rings {
        for segment in 0..segments {
            let a = ring * row + segment;
            let (b, c, d) = (a + 1, a + row, a + row + 1);
            triangles.push([a, c, b]);
            triangles.push([b, c, d]);
        }
    }
    RenderMesh { vertices, triangles, slot: 0, moving: None }
}

/// The sphere under `rule` and `light`, seen from +X; its pixels' red channel.
fn draw(context: &GpuContext, rule: Engine, light: Light, flat_shade: bool) -> Vec<u8> {
    let material = RenderMaterial {
        name: "white".into(),
        image: Some(Image { width: 4, height: 4, rgba: [255u8; 4].repeat(16) }),
        flat_shade,
        ..RenderMaterial::default()
    };
    let model = RenderModel {
        parents: vec![None],
        bounds: (Vec3::splat(-RADIUS), Vec3::splat(RADIUS)),
        body_parts: vec![RenderBodyPart {
            base: 1,
            submodels: vec![RenderSubmodel { lods: vec![vec![sphere()]] }],
        }],
        materials: vec![material],
        skins: vec![vec![Some(0)]],
        hitbox_sets: vec![],
        attachments: 0,
        engine: rule,
    };
    // 12 units above and below the centre: 10 pixels a unit.
    let camera = Camera {
        yaw_deg: 0.0,
        pitch_deg: 0.0,
        distance: 30.0,
        fov_y_deg: 2.0 * (12.0f32 / 30.0).atan().to_degrees(),
        orthographic: true,
        ..Camera::default()
    };
    let mut renderer = Renderer::new(context, OFFSCREEN_FORMAT, 1);
    let gpu = renderer.upload(&model);
    let target = OffscreenTarget::new(context, SIZE, SIZE, 1);
    let mut options = RenderOptions { double_sided: true, light, ..RenderOptions::default() };
    options.overlay.grid = false;
    let skinning = [Affine3A::IDENTITY];
    let pose = FramePose { skinning: &skinning, bones: &skinning, ..FramePose::default() };
    let scene = Scene { pose, camera: &camera, options: &options };
    let image = studio_render::render_image(context, &mut renderer, &gpu, &target, &scene).unwrap();
    image.pixels.chunks_exact(4).map(|p| p[0]).collect()
}

/// The pixel showing the sphere's point whose normal has `y` across (the image's right is +Y)
/// and `z` up, facing the eye.
fn at(image: &[u8], y: f32, z: f32) -> i32 {
    let px = |v: f32| (SIZE as f32 / 2.0 + v * RADIUS * 10.0).round() as u32;
    let (x, row) = (px(y), SIZE - 1 - px(z));
    i32::from(image[(row * SIZE + x) as usize])
}

fn near(got: i32, want: f32, tolerance: i32, what: &str) {
    assert!((got - want.round() as i32).abs() <= tolerance, "{what}: {got}, not {want}");
}

#[test]
fn half_life_lights_as_its_studio_renderer() {
    let Some(context) = context() else { return };
    // From the eye: the facing half at ambient + shade, 224, out to 60° from the light.
    let ahead = draw(&context, Engine::GoldSrc, Light::from_angles(0.0, 0.0), false);
    near(at(&ahead, 0.0, 0.0), 224.0, 1, "facing the light");
    near(at(&ahead, 0.8, 0.0), 224.0, 1, "53° from the light");
    // From the right: the right side at 224, the middle side on at 160, the left at
    // 224 − 192 · (0.866 + 0.5) / 1.5 = 49.
    let right = draw(&context, Engine::GoldSrc, Light::from_angles(0.0, 90.0), false);
    near(at(&right, 0.866, 0.0), 224.0, 2, "facing the light from the right");
    near(at(&right, 0.0, 0.0), 160.0, 3, "side on");
    near(at(&right, 0.0, 0.7), 160.0, 3, "side on, higher up");
    near(at(&right, -0.866, 0.0), 49.1, 3, "turned away");
    // From the left, the other way round.
    let left = draw(&context, Engine::GoldSrc, Light::from_angles(0.0, -90.0), false);
    near(at(&left, -0.866, 0.0), 224.0, 2, "lit from the left");
    near(at(&left, 0.866, 0.0), 49.1, 3, "the right side in shade");
    // A flat-shaded texture: 32 + 0.8 · 192 = 185.6 everywhere.
    let flat = draw(&context, Engine::GoldSrc, Light::from_angles(0.0, 90.0), true);
    for (y, z) in [(0.866, 0.0), (0.0, 0.0), (-0.866, 0.0), (0.3, -0.6)] {
        near(at(&flat, y, z), 185.6, 1, "flat shade");
    }
    // The ambient level: facing away from the light, the ambient alone.
    let dim = Light { ambient: Some(0.0), ..Light::from_angles(0.0, 90.0) };
    near(at(&draw(&context, Engine::GoldSrc, dim, false), -0.866, 0.0), 17.1, 3, "no ambient");
}

#[test]
fn source_adds_its_ambient_cube_to_one_light() {
    let Some(context) = context() else { return };
    // sRGB of linear 0.3 is 149; 0.3 + 1 clamps to 255.
    let right = draw(&context, Engine::Source, Light::from_angles(0.0, 90.0), false);
    near(at(&right, 0.866, 0.0), 255.0, 1, "facing the light");
    near(at(&right, 0.0, 0.0), 149.0, 1, "side on: the ambient cube alone");
    near(at(&right, -0.866, 0.0), 149.0, 1, "turned away");
    // Half way: 0.3 + cos 60° = 0.8, sRGB 231.
    near(at(&right, 0.5, 0.0), 231.0, 2, "60° from the light");
    let grey = Light { color: [0.5; 3], ambient: Some(0.0), ..Light::from_angles(0.0, 90.0) };
    // A light of sRGB 0.5 (linear 0.214) on a normal 18° from it: linear 0.204, sRGB 124.6.
    near(at(&draw(&context, Engine::Source, grey, false), 0.95, 0.0), 124.6, 2, "a grey light");
}
