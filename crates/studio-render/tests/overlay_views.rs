//! The overlays drawn by the mesh's shaders and the player's hull, pixel by pixel: two squares,
//! the left following bone 0 and the right bone 1, coloured per bone or by one bone's weight;
//! their vertex normals as lines; the standing and crouching hulls of each engine.

use glam::{Affine3A, Vec3};
use studio_render::gpu_types::MeshVertex;
use studio_render::{
    Camera, Engine, FramePose, GpuContext, Image, OFFSCREEN_FORMAT, OffscreenTarget, OverlayOptions,
    RenderBodyPart, RenderMaterial, RenderMesh, RenderModel, RenderOptions, RenderSubmodel, Renderer, Scene,
    WeightView,
};

mod common;
use common::context;

const SIZE: u32 = 160;

/// Two grey squares side by side in the YZ plane facing +X: the left one (−Y) on bone 0, the
/// right one on bone 1.
fn squares(engine: Engine) -> RenderModel {
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for (bone, y0) in [(0u8, -10.0f32), (1, 1.0)] {
        let first = vertices.len() as u32;
        for (y, z) in [(y0, -5.0), (y0 + 9.0, -5.0), (y0 + 9.0, 5.0), (y0, 5.0)] {
            vertices.push(MeshVertex::rigid([0.0, y, z], [1.0, 0.0, 0.0], [0.5, 0.5], bone, bone));
        }
        triangles.extend([[first, first + 2, first + 1], [first, first + 3, first + 2]]);
    }
    let material = RenderMaterial {
        name: "grey".into(),
        image: Some(Image { width: 4, height: 4, rgba: [128, 128, 128, 255].repeat(16) }),
        double_sided: true,
        ..RenderMaterial::default()
    };
    let mesh = RenderMesh { vertices, triangles, slot: 0, moving: None };
    RenderModel {
        parents: vec![None, Some(0)],
        bounds: (Vec3::new(-1.0, -10.0, -5.0), Vec3::new(1.0, 10.0, 5.0)),
        body_parts: vec![RenderBodyPart {
            base: 1,
            submodels: vec![RenderSubmodel { lods: vec![vec![mesh]] }],
        }],
        materials: vec![material],
        skins: vec![vec![Some(0)]],
        hitbox_sets: vec![],
        attachments: 0,
        engine,
    }
}

/// `model` from `yaw` degrees, framing `min`..`max`, with `overlay`: its pixels.
fn draw(
    context: &GpuContext,
    model: &RenderModel,
    yaw: f32,
    (min, max): (Vec3, Vec3),
    overlay: OverlayOptions,
) -> Vec<[u8; 4]> {
    let camera = Camera::framing(min, max, yaw, 0.0);
    let mut renderer = Renderer::new(context, OFFSCREEN_FORMAT, 1);
    let gpu = renderer.upload(model);
    let target = OffscreenTarget::new(context, SIZE, SIZE, 1);
    let options =
        RenderOptions { overlay: OverlayOptions { grid: false, ..overlay }, ..RenderOptions::default() };
    let skinning = [Affine3A::IDENTITY; 2];
    let pose = FramePose { skinning: &skinning, bones: &skinning, ..FramePose::default() };
    let scene = Scene { pose, camera: &camera, options: &options };
    let image = studio_render::render_image(context, &mut renderer, &gpu, &target, &scene).unwrap();
    image.pixels.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]).collect()
}

/// The pixel at a fraction across and down the image.
fn at(image: &[[u8; 4]], x: f32, y: f32) -> [u8; 4] {
    image[((y * SIZE as f32) as u32 * SIZE + (x * SIZE as f32) as u32) as usize]
}

/// How many pixels are within 12 of `rgb` on each channel.
fn count(image: &[[u8; 4]], rgb: [u8; 3]) -> usize {
    image.iter().filter(|p| p[..3].iter().zip(rgb).all(|(&a, b)| a.abs_diff(b) <= 12)).count()
}

#[test]
fn bone_weights_colour_each_bone_or_one_bones_weight() {
    let Some(context) = context() else { return };
    let model = squares(Engine::GoldSrc);
    let bounds = model.bounds;
    // From the front the left square is on the left of the picture (its −Y is the viewer's left).
    let plain = draw(&context, &model, 0.0, bounds, OverlayOptions::default());
    let (left, right) = (at(&plain, 0.3, 0.5), at(&plain, 0.7, 0.5));
    assert_eq!(left, right, "both squares grey");
    let per_bone = draw(
        &context,
        &model,
        0.0,
        bounds,
        OverlayOptions { weights: WeightView::PerBone, ..Default::default() },
    );
    let (a, b) = (at(&per_bone, 0.3, 0.5), at(&per_bone, 0.7, 0.5));
    assert_ne!(a, b, "each bone its own colour");
    assert!(a != left && b != right, "not the texture: {a:?} {b:?}");
    // Bone 1's weight: all of the right square (red), none of the left (blue).
    let one = draw(
        &context,
        &model,
        0.0,
        bounds,
        OverlayOptions { weights: WeightView::Bone(1), ..Default::default() },
    );
    let (none, all) = (at(&one, 0.3, 0.5), at(&one, 0.7, 0.5));
    assert!(all[0] > 100 && all[1] < 40 && all[2] < 40, "weight 1 is red: {all:?}");
    assert!(none[2] > 100 && none[0] < 40, "weight 0 is blue: {none:?}");
}

#[test]
fn vertex_normals_stand_out_of_the_surface() {
    let Some(context) = context() else { return };
    let model = squares(Engine::Source);
    // From 60° round, the normals (+X) run across the picture beside the squares.
    let bounds = (Vec3::new(-1.0, -10.0, -5.0), Vec3::new(6.0, 10.0, 5.0));
    let cyan = [60, 230, 255];
    let without = draw(&context, &model, 60.0, bounds, OverlayOptions::default());
    assert_eq!(count(&without, cyan), 0);
    let with = draw(&context, &model, 60.0, bounds, OverlayOptions { normals: true, ..Default::default() });
    let lines = count(&with, cyan);
    assert!(lines > 40, "8 vertices' normals drawn: {lines} pixels");
}

#[test]
fn the_player_hulls_are_each_engines() {
    let Some(context) = context() else { return };
    let hull = OverlayOptions { player_hull: true, ..Default::default() };
    let [standing, crouching] = studio_render::player_hulls(Engine::GoldSrc);
    assert_eq!(standing, (Vec3::new(-16.0, -16.0, -36.0), Vec3::new(16.0, 16.0, 36.0)));
    assert_eq!(crouching.1.z - crouching.0.z, 36.0);
    let [standing, crouching] = studio_render::player_hulls(Engine::Source);
    assert_eq!((standing.0.z, standing.1.z, crouching.1.z), (0.0, 72.0, 36.0), "Source's origin at the feet");
    for engine in [Engine::GoldSrc, Engine::Source] {
        let [standing, _] = studio_render::player_hulls(engine);
        let image = draw(&context, &squares(engine), 30.0, standing, hull);
        assert!(count(&image, [90, 200, 255]) > 100, "{engine:?}: the standing hull");
        assert!(count(&image, [255, 170, 60]) > 50, "{engine:?}: the crouching hull");
        // Half-Life's hulls are centred on the origin, Source's stand on it: the crouching box
        // is in the middle of the picture for one, at the bottom for the other.
        let rows: Vec<usize> = (0..SIZE as usize)
            .filter(|&y| {
                (0..SIZE as usize).any(|x| count(&[image[y * SIZE as usize + x]], [255, 170, 60]) == 1)
            })
            .collect();
        let middle = (rows[0] + rows[rows.len() - 1]) as f32 / 2.0 / SIZE as f32;
        match engine {
            Engine::GoldSrc => assert!((0.4..0.6).contains(&middle), "{middle}"),
            Engine::Source => assert!(middle > 0.6, "{middle}"),
        }
    }
}

#[test]
fn the_ground_scrolls_by_whole_steps_and_keeps_its_colour() {
    let Some(context) = context() else { return };
    let model = squares(Engine::GoldSrc);
    let step = studio_render::grid_step(model.bounds);
    let draw_ground = |offset: Vec3, weights: WeightView| {
        let camera = Camera::framing(Vec3::splat(-30.0), Vec3::splat(30.0), 30.0, 30.0);
        let mut renderer = Renderer::new(&context, OFFSCREEN_FORMAT, 1);
        let gpu = renderer.upload(&model);
        let target = OffscreenTarget::new(&context, SIZE, SIZE, 1);
        let mut options = RenderOptions { mesh: false, ground_offset: offset, ..RenderOptions::default() };
        options.overlay.weights = weights;
        let skinning = [Affine3A::IDENTITY; 2];
        let pose = FramePose { skinning: &skinning, bones: &skinning, ..FramePose::default() };
        let scene = Scene { pose, camera: &camera, options: &options };
        studio_render::render_image(&context, &mut renderer, &gpu, &target, &scene).unwrap().pixels
    };
    let still = draw_ground(Vec3::ZERO, WeightView::Off);
    let half = draw_ground(Vec3::new(step * 0.5, 0.0, 0.0), WeightView::Off);
    assert!(half != still, "half a step moves the lines");
    let whole = draw_ground(Vec3::new(-3.0 * step, 2.0 * step, 0.0), WeightView::Off);
    assert!(whole == still, "whole steps look the same");
    // The ground keeps its colour in the bone weights view (it is drawn by the mesh's shader).
    assert!(draw_ground(Vec3::ZERO, WeightView::PerBone) == still, "the ground is not weighted");
    assert!(draw_ground(Vec3::ZERO, WeightView::Bone(0)) == still);
}
