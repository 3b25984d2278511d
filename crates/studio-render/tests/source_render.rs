//! Source models (the fixtures of `../shared/fixtures/source`) drawn through wgpu and checked
//! pixel by pixel: hit box group colours, a vertex weighted to three bones landing where CPU
//! skinning puts it, body groups and LODs changing what is drawn as the `.vtx` says, and the
//! checkerboard of a missing material.

use glam::{Affine3A, Vec2, Vec3};
use studio_render::gpu_types::MeshVertex;
use studio_render::source::{SourceFrame, missing_material, render_model};
use studio_render::{
    Blend, Camera, GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, RenderMaterial, RenderMesh, RenderModel,
    RenderOptions, RenderSubmodel, Renderer, RgbaImage, Scene, hit_group_color,
};
use studio_source::SourceModel;
use studio_source_pose::{SourceEvaluator, SourceRequest, params};

mod common;
use common::context;

const SIZE: (u32, u32) = (320, 240);

fn load(name: &str) -> Option<SourceModel> {
    let shared = studio_testing::shared()?;
    let path = shared.join("fixtures/source/models/fixture").join(name);
    Some(studio_source::load(&path).unwrap().model)
}

/// The pose of `sequence` at `cycle` with every pose parameter at its default, placed for
/// hit box set `set`.
fn frame(model: &SourceModel, sequence: usize, cycle: f32, set: usize) -> SourceFrame {
    let mut evaluator = SourceEvaluator::new(model);
    let params: Vec<f32> = evaluator.rig().pose_parameters.iter().map(params::default_value).collect();
    let mut frame = SourceFrame::default();
    let request = SourceRequest {
        sequence,
        cycle,
        params: &params,
        controllers: None,
        time: 0.0,
        autoplay: false,
        layers: &[],
    };
    evaluator.evaluate(&request, &mut frame.bones);
    frame.place(model, set, None);
    frame
}

fn nothing() -> RenderOptions {
    let mut options = RenderOptions { mesh: false, ..RenderOptions::default() };
    options.overlay.grid = false;
    options
}

fn draw(
    context: &GpuContext,
    model: &RenderModel,
    frame: &SourceFrame,
    camera: &Camera,
    options: &RenderOptions,
) -> RgbaImage {
    let samples = context.sample_count(OFFSCREEN_FORMAT);
    let mut renderer = Renderer::new(context, OFFSCREEN_FORMAT, samples);
    let gpu = renderer.upload(model);
    let target = OffscreenTarget::new(context, SIZE.0, SIZE.1, samples);
    let scene = Scene { pose: frame.frame_pose(), camera, options };
    studio_render::render_image(context, &mut renderer, &gpu, &target, &scene).unwrap()
}

fn camera_for(frame: &SourceFrame) -> Camera {
    let points = frame.bones.iter().map(|b| Vec3::from(b.translation));
    let points = points.chain(frame.hitboxes.iter().flatten().map(|&c| Vec3::from(c)));
    let (min, max) = points.fold((Vec3::INFINITY, Vec3::NEG_INFINITY), |(lo, hi), p| (lo.min(p), hi.max(p)));
    Camera::framing(min, max, 30.0, 15.0)
}

fn close(a: [u8; 4], b: [u8; 3], tolerance: i32) -> bool {
    (0..3).all(|i| (i32::from(a[i]) - i32::from(b[i])).abs() <= tolerance)
}

fn pixel(image: &RgbaImage, p: Vec2) -> [u8; 4] {
    image.pixel(p.x as u32, p.y as u32).unwrap_or_else(|| panic!("{p} is outside the image"))
}

fn materials(model: &SourceModel) -> Vec<RenderMaterial> {
    model.textures.iter().map(|t| missing_material(&t.name)).collect()
}

/// Draws each box of set `set` alone, filled, in `frame`, and checks its group's colour at its
/// projected centre.
fn each_box_shows_its_group_colour(
    model: &SourceModel,
    context: &GpuContext,
    frame: &SourceFrame,
    set: usize,
) {
    let camera = camera_for(frame);
    let render = render_model(model, materials(model));
    for (i, hitbox) in model.hitbox_sets[set].hitboxes.iter().enumerate() {
        let mut options = nothing();
        options.overlay.hitboxes = true;
        options.overlay.only_hitbox = Some(i);
        options.overlay.hitbox_fill = 1.0;
        let image = draw(context, &render, frame, &camera, &options);
        let centre = frame.hitboxes[i].iter().map(|&c| Vec3::from(c)).sum::<Vec3>() / 8.0;
        let at = camera.project(centre, SIZE.0, SIZE.1).unwrap();
        let colour = pixel(&image, at);
        assert!(
            close(colour, hit_group_color(hitbox.group), 2),
            "set {set} box {i} {:?} (group {}): {colour:?} at {at}, expected {:?}",
            hitbox.name,
            hitbox.group,
            hit_group_color(hitbox.group)
        );
    }
}

#[test]
fn each_hit_box_of_the_default_set_shows_its_group_colour_at_its_centre() {
    let Some(model) = load("anim48.mdl") else { return };
    let Some(context) = context() else { return };
    let set = &model.hitbox_sets[0];
    assert_eq!(set.name, "default");
    assert_eq!(set.hitboxes.iter().map(|h| h.group).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5, 6, 7]);
    each_box_shows_its_group_colour(&model, &context, &frame(&model, 2, 0.3, 0), 0);
}

#[test]
fn the_cheap_set_draws_its_own_boxes() {
    let Some(model) = load("anim48.mdl") else { return };
    let Some(context) = context() else { return };
    let frame = frame(&model, 0, 0.0, 1);
    assert_eq!(frame.hitboxes.len(), 2, "the cheap set has 2 boxes");
    each_box_shows_its_group_colour(&model, &context, &frame, 1);
}

/// CPU skinning: the weighted sum of the vertex under each of its bones' skinning matrices.
fn skin(vertex: &MeshVertex, skinning: &[Affine3A]) -> Vec3 {
    vertex
        .position_bones()
        .map(|(bone, weight)| {
            skinning[usize::from(bone)].transform_point3(Vec3::from(vertex.position)) * weight
        })
        .sum()
}

/// Where the vertex's first bone alone would put it.
fn rigid(vertex: &MeshVertex, skinning: &[Affine3A]) -> Vec3 {
    skinning[usize::from(vertex.bones[0])].transform_point3(Vec3::from(vertex.position))
}

#[test]
fn a_vertex_weighted_to_three_bones_lands_where_cpu_skinning_puts_it() {
    let Some(model) = load("anim48.mdl") else { return };
    let Some(context) = context() else { return };
    let full = render_model(&model, materials(&model));
    let three: Vec<MeshVertex> = full.body_parts[0].submodels[0].lods[0]
        .iter()
        .flat_map(|m| &m.vertices)
        .copied()
        .filter(|v| v.weights.iter().filter(|&&w| w > 0.0).count() == 3)
        .collect();
    assert!(!three.is_empty(), "the fixture has vertices with three weights");
    // The pose and vertex where blending the three bones moves the vertex furthest from where
    // its first bone alone would put it, so that a renderer ignoring the weights would miss.
    let mut best: Option<(f32, SourceFrame, MeshVertex)> = None;
    for sequence in 0..15 {
        for cycle in [0.0, 0.25, 0.5, 0.75] {
            let f = frame(&model, sequence, cycle, 0);
            for v in &three {
                let apart = (skin(v, &f.skinning) - rigid(v, &f.skinning)).length();
                if best.as_ref().is_none_or(|(d, _, _)| apart > *d) {
                    best = Some((apart, frame(&model, sequence, cycle, 0), *v));
                }
            }
        }
    }
    let (apart, frame, vertex) = best.unwrap();
    assert!(apart > 0.5, "the weights move no vertex more than {apart} units");
    let cpu = skin(&vertex, &frame.skinning);
    // Close up: the two places a view's width apart.
    let middle = (cpu + rigid(&vertex, &frame.skinning)) * 0.5;
    let camera = Camera::framing(middle - Vec3::splat(apart), middle + Vec3::splat(apart), 30.0, 15.0);
    let at = camera.project(cpu, SIZE.0, SIZE.1).unwrap();
    let rigid_at = camera.project(rigid(&vertex, &frame.skinning), SIZE.0, SIZE.1).unwrap();
    assert!((at - rigid_at).length() > 6.0, "the weights must matter here: {at} vs {rigid_at}");
    // A small white triangle round the vertex, every corner with its bones and weights: where
    // the GPU skins it is where it shows.
    // Its centroid is the vertex; upright, facing the camera's side.
    let size = apart * 0.25;
    let marker: Vec<MeshVertex> = [[0.0, -1.0, -1.0], [0.0, 1.0, -1.0], [0.0, 0.0, 2.0]]
        .iter()
        .map(|d| MeshVertex {
            position: (Vec3::from(vertex.position) + Vec3::from(*d) * size).to_array(),
            ..vertex
        })
        .collect();
    let scene = RenderModel {
        parents: full.parents.clone(),
        body_parts: vec![studio_render::RenderBodyPart {
            base: 1,
            submodels: vec![RenderSubmodel {
                lods: vec![vec![RenderMesh {
                    vertices: marker,
                    triangles: vec![[0, 1, 2]],
                    slot: 0,
                    moving: None,
                }]],
            }],
        }],
        materials: vec![RenderMaterial { fullbright: true, ..RenderMaterial::default() }],
        skins: vec![vec![Some(0)]],
        ..RenderModel::default()
    };
    let options =
        RenderOptions { overlay: nothing().overlay, double_sided: true, ..RenderOptions::default() };
    let image = draw(&context, &scene, &frame, &camera, &options);
    let white = |p: Vec2| {
        (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                image
                    .pixel((p.x as i32 + dx) as u32, (p.y as i32 + dy) as u32)
                    .is_some_and(|c| close(c, [255; 3], 8))
            })
        })
    };
    assert!(white(at), "no marker at the CPU-skinned place {at}: {:?}", pixel(&image, at));
    assert!(!white(rigid_at), "the marker is at the first bone's place {rigid_at}");
}

/// Triangles the `.vtx` has for `body` at `lod`: the strips of the chosen model of each body
/// part, counted from the file's records.
fn vtx_triangles(model: &SourceModel, body: i32, lod: usize) -> u32 {
    let vtx = model.vtx.as_ref().unwrap();
    let mut total = 0;
    for (part, mdl_part) in vtx.body_parts.iter().zip(&model.body_parts) {
        let choice = usize::try_from((body / mdl_part.base).rem_euclid(part.len() as i32)).unwrap();
        let Some(lod) = part[choice].lods.get(lod) else { continue };
        for strip in lod.meshes.iter().flat_map(|m| &m.strip_groups).flat_map(|g| &g.strips) {
            total += (strip.num_indices / 3) as u32;
        }
    }
    total
}

#[test]
fn body_groups_and_lods_change_what_is_drawn_as_the_vtx_says() {
    let Some(model) = load("skeleton48.mdl") else { return };
    let Some(context) = context() else { return };
    let frame = frame(&model, 0, 0.0, 0);
    let camera = camera_for(&frame);
    let render = render_model(&model, materials(&model));
    let samples = context.sample_count(OFFSCREEN_FORMAT);
    let mut renderer = Renderer::new(&context, OFFSCREEN_FORMAT, samples);
    let gpu = renderer.upload(&render);
    let mut counts = Vec::new();
    for (body, lod) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        let expected = vtx_triangles(&model, body, lod);
        assert_eq!(gpu.triangles(body, lod), expected, "body {body}, LOD {lod}");
        counts.push(expected);
    }
    // Body 1 drops the helmet; LOD 1 drops the box end caps and adds the helmet quad.
    assert!(counts[1] < counts[0], "{counts:?}");
    assert_ne!(counts[2], counts[0], "{counts:?}");
    // And the pixels change with them.
    let image = |body, lod| {
        let options = RenderOptions { body, lod, overlay: nothing().overlay, ..RenderOptions::default() };
        draw(&context, &render, &frame, &camera, &options)
    };
    let (with_helmet, without) = (image(0, 0), image(1, 0));
    let differing =
        with_helmet.pixels.chunks(4).zip(without.pixels.chunks(4)).filter(|(a, b)| a != b).count();
    assert!(differing > 50, "only {differing} pixels differ without the helmet");
    let lod1 = image(0, 1);
    let differing = with_helmet.pixels.chunks(4).zip(lod1.pixels.chunks(4)).filter(|(a, b)| a != b).count();
    assert!(differing > 20, "only {differing} pixels differ at LOD 1");
}

#[test]
fn a_missing_material_draws_the_magenta_and_black_checkerboard() {
    let Some(model) = load("skeleton48.mdl") else { return };
    let Some(context) = context() else { return };
    let frame = frame(&model, 0, 0.0, 0);
    let camera = camera_for(&frame);
    let render = render_model(&model, materials(&model));
    assert!(render.materials.iter().all(|m| m.blend == Blend::Opaque && m.image.is_some()));
    let options = RenderOptions { lighting: false, overlay: nothing().overlay, ..RenderOptions::default() };
    let image = draw(&context, &render, &frame, &camera, &options);
    let count = |colour: [u8; 3]| {
        image.pixels.chunks(4).filter(|p| close([p[0], p[1], p[2], 255], colour, 6)).count()
    };
    let (magenta, black) = (count([255, 0, 255]), count([0, 0, 0]));
    assert!(magenta > 500 && black > 500, "magenta {magenta}, black {black}");
}
