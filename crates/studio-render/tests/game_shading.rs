//! Game shading against plain shading, pixel by pixel, on a square facing the camera: a flat
//! normal map and phong with nothing to show match plain shading; a tilted normal map, phong,
//! a light warp and `$selfillum` masked by the texture's alpha change it where they should.

use glam::Vec3;
use studio_render::gpu_types::MeshVertex;
use studio_render::scene::PhongParams;
use studio_render::{
    Camera, FramePose, GpuContext, Image, OFFSCREEN_FORMAT, OffscreenTarget, RenderBodyPart, RenderMaterial,
    RenderMesh, RenderModel, RenderOptions, RenderSubmodel, Renderer, Scene,
};

mod common;
use common::context;

const SIZE: u32 = 96;

/// One colour, `size` texels a side.
fn solid(rgba: [u8; 4], size: u32) -> Image {
    Image { width: size, height: size, rgba: rgba.repeat((size * size) as usize) }
}

/// A square of side 20 at the origin facing `eye`, its tangent along its u.
fn square(eye: Vec3) -> Vec<MeshVertex> {
    let n = eye.normalize();
    let t = Vec3::Z.cross(n).normalize();
    let b = n.cross(t);
    let corner = |u: f32, v: f32| {
        let p = t * (u - 0.5) * 20.0 - b * (v - 0.5) * 20.0;
        let mut vertex = MeshVertex::weighted(p.to_array(), n.to_array(), [u, v], [0, 0, 0], [1.0, 0.0, 0.0]);
        vertex.tangent = [t.x, t.y, t.z, 1.0];
        vertex
    };
    vec![corner(0.0, 0.0), corner(1.0, 0.0), corner(1.0, 1.0), corner(0.0, 1.0)]
}

fn camera() -> Camera {
    Camera::framing(Vec3::splat(-10.0), Vec3::splat(10.0), 20.0, 10.0)
}

/// The square drawn with `material`, game shading on or off: its pixels.
fn draw(context: &GpuContext, material: RenderMaterial, game_shading: bool) -> Vec<[u8; 4]> {
    let camera = camera();
    let mesh = RenderMesh {
        vertices: square(camera.eye()),
        triangles: vec![[0, 1, 2], [0, 2, 3]],
        slot: 0,
        moving: None,
    };
    let model = RenderModel {
        parents: vec![None],
        bounds: (Vec3::splat(-10.0), Vec3::splat(10.0)),
        body_parts: vec![RenderBodyPart {
            base: 1,
            submodels: vec![RenderSubmodel { lods: vec![vec![mesh]] }],
        }],
        materials: vec![material],
        skins: vec![vec![Some(0)]],
        hitbox_sets: vec![],
        attachments: 0,
        engine: studio_render::Engine::Source,
    };
    let samples = context.sample_count(OFFSCREEN_FORMAT);
    let mut renderer = Renderer::new(context, OFFSCREEN_FORMAT, samples);
    let gpu = renderer.upload(&model);
    let target = OffscreenTarget::new(context, SIZE, SIZE, samples);
    let mut options = RenderOptions { double_sided: true, game_shading, ..RenderOptions::default() };
    options.overlay.grid = false;
    let skinning = [glam::Affine3A::IDENTITY];
    let pose = FramePose { skinning: &skinning, bones: &skinning, ..FramePose::default() };
    let scene = Scene { pose, camera: &camera, options: &options };
    let image = studio_render::render_image(context, &mut renderer, &gpu, &target, &scene).unwrap();
    image.pixels.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]).collect()
}

fn material() -> RenderMaterial {
    RenderMaterial {
        name: "grey".into(),
        image: Some(solid([160, 160, 160, 255], 4)),
        ..RenderMaterial::default()
    }
}

/// The pixels of the square (those differing from the background in the plain image).
fn square_pixels(plain: &[[u8; 4]]) -> Vec<usize> {
    let background = RenderOptions::default().background;
    let inside: Vec<usize> = (0..plain.len()).filter(|&i| plain[i][..3] != background).collect();
    assert!(inside.len() > (SIZE * SIZE / 8) as usize, "the square fills a good part of the image");
    inside
}

/// The largest difference of any channel between two images.
fn most_apart(a: &[[u8; 4]], b: &[[u8; 4]]) -> i32 {
    a.iter()
        .zip(b)
        .flat_map(|(x, y)| (0..3).map(move |c| (i32::from(x[c]) - i32::from(y[c])).abs()))
        .max()
        .unwrap_or(0)
}

fn mean(image: &[[u8; 4]], pixels: &[usize], channel: usize) -> f64 {
    pixels.iter().map(|&i| f64::from(image[i][channel])).sum::<f64>() / pixels.len() as f64
}

#[test]
fn a_flat_normal_map_and_phong_with_no_mask_shade_as_plain_shading_does() {
    let Some(context) = context() else { return };
    let plain = draw(&context, material(), false);
    let flat = RenderMaterial { normal_map: Some(solid([128, 128, 255, 0], 4)), ..material() };
    assert_eq!(draw(&context, flat.clone(), false), plain, "plain shading ignores the map");
    // 128 is 0.502: the flat normal leans by 0.004, a difference of at most a level.
    assert!(most_apart(&draw(&context, flat.clone(), true), &plain) <= 1);
    // Phong masked off by the normal map's alpha of 0, or with no boost, adds nothing.
    let phong = PhongParams { exponent: 2.0, boost: 4.0, fresnel_ranges: [1.0; 3] };
    let masked = RenderMaterial { phong: Some(phong), ..flat };
    assert!(most_apart(&draw(&context, masked, true), &plain) <= 1);
    let unboosted = RenderMaterial { phong: Some(PhongParams { boost: 0.0, ..phong }), ..material() };
    assert!(most_apart(&draw(&context, unboosted, true), &plain) <= 1);
}

#[test]
fn a_tilted_normal_map_phong_and_a_light_warp_change_the_shading() {
    let Some(context) = context() else { return };
    let plain = draw(&context, material(), false);
    let inside = square_pixels(&plain);
    // The normal tilted along the tangent: the light falls on it at another angle.
    let tilted = RenderMaterial { normal_map: Some(solid([230, 128, 180, 255], 4)), ..material() };
    let bumped = draw(&context, tilted, true);
    let change = (mean(&bumped, &inside, 0) - mean(&plain, &inside, 0)).abs();
    assert!(change > 8.0, "a tilted normal changes the diffuse term: {change}");

    // Phong, unmasked (no normal map): a highlight adds light.
    let phong = PhongParams { exponent: 1.0, boost: 2.0, fresnel_ranges: [1.0; 3] };
    let shiny = draw(&context, RenderMaterial { phong: Some(phong), ..material() }, true);
    assert!(inside.iter().all(|&i| shiny[i][0] >= plain[i][0]), "phong only adds");
    let brighter = mean(&shiny, &inside, 0) - mean(&plain, &inside, 0);
    assert!(brighter > 10.0, "phong brightens the square: {brighter}");

    // A light warp of pure red: the diffuse term is red.
    let warp = RenderMaterial { light_warp: Some(solid([255, 0, 0, 255], 8)), ..material() };
    let warped = draw(&context, warp, true);
    assert!(mean(&warped, &inside, 0) > mean(&warped, &inside, 1) + 40.0, "the warp's colour lights it");
    assert!(most_apart(&warped, &plain) > 40);
}

#[test]
fn selfillum_is_masked_by_the_base_alpha_in_game_shading() {
    let Some(context) = context() else { return };
    let lit = draw(&context, material(), false);
    let inside = square_pixels(&lit);
    let unlit = draw(&context, RenderMaterial { fullbright: true, ..material() }, false);
    // Source's light (ambient 0.3 and a white light from near the eye) overbrightens: lit is
    // brighter than unlit here, and differs from it either way.
    let apart = (mean(&unlit, &inside, 0) - mean(&lit, &inside, 0)).abs();
    assert!(apart > 5.0, "fullbright differs from lit: {apart}");
    let glowing = |alpha: u8| RenderMaterial {
        image: Some(solid([160, 160, 160, alpha], 4)),
        self_illum: true,
        ..material()
    };
    // Plain shading draws $selfillum as fullbright, whatever the alpha.
    assert_eq!(draw(&context, glowing(0), false), unlit);
    // Game shading: alpha 255 is self-lit, alpha 0 is lit as any other texel.
    assert!(most_apart(&draw(&context, glowing(255), true), &unlit) <= 1);
    assert!(most_apart(&draw(&context, glowing(0), true), &lit) <= 1);
}

#[test]
fn the_iris_is_drawn_over_the_texture_by_its_alpha() {
    let Some(context) = context() else { return };
    let plain = draw(&context, material(), false);
    let inside = square_pixels(&plain);
    let clear = RenderMaterial { iris: Some(solid([0, 0, 255, 0], 4)), ..material() };
    assert!(most_apart(&draw(&context, clear, true), &plain) <= 1, "a clear iris shows the texture");
    let blue = RenderMaterial { iris: Some(solid([0, 0, 255, 255], 4)), ..material() };
    let eye = draw(&context, blue, true);
    assert!(inside.iter().all(|&i| eye[i][2] > eye[i][0] + 40), "an opaque iris covers it");
}
