//! Rendering through wgpu on whatever adapter there is — Mesa's software Vulkan (lavapipe) in
//! CI — and checking pixels: hit box colours, skeleton lines, masked texels, mesh coverage,
//! animation.

use std::sync::Arc;

use glam::{Vec2, Vec3};
use studio_model::Model;
use studio_pose::{ControllerBytes, Pose, PoseEvaluator, PoseRequest};
use studio_render::overlay::{BONE_COLOR, hit_group_color};
use studio_render::{
    Camera, GpuContext, GpuModel, OFFSCREEN_FORMAT, OffscreenTarget, RenderOptions, Renderer, RgbaImage,
    Scene,
};

mod common;
use common::context;

const SIZE: (u32, u32) = (320, 240);

fn load(path: &str) -> Option<Arc<Model>> {
    let shared = studio_testing::shared()?;
    Some(Arc::new(studio_model::load(&shared.join(path)).unwrap().model))
}

fn pose(model: &Arc<Model>, sequence: usize, frame: f32, blend: [u8; 2]) -> Pose {
    let mut pose = Pose::new(model);
    let mut evaluator = PoseEvaluator::new(model.clone());
    let request = PoseRequest { sequence, frame, blend, controllers: ControllerBytes::default() };
    evaluator.evaluate(&request, &mut pose).unwrap();
    pose
}

/// The box round the bones, hit boxes and skinned vertices.
fn bounds(model: &Model, pose: &Pose) -> (Vec3, Vec3) {
    let mut points: Vec<Vec3> = pose.bones.iter().map(|b| b.translation.into()).collect();
    points.extend(pose.hitboxes.iter().flatten().map(|&c| Vec3::from(c)));
    points.extend(skinned_vertices(model, pose));
    let min = points.iter().fold(Vec3::INFINITY, |a, &p| a.min(p));
    let max = points.iter().fold(Vec3::NEG_INFINITY, |a, &p| a.max(p));
    (min, max)
}

fn skinned_vertices(model: &Model, pose: &Pose) -> Vec<Vec3> {
    let mut out = Vec::new();
    for part in &model.body_parts {
        let Some(sub) = part.submodel_index(0).and_then(|i| part.submodels.get(i)) else { continue };
        for (v, &b) in sub.vertices.iter().zip(&sub.vertex_bones) {
            out.push(pose.bones[usize::from(b)].transform_point3(*v));
        }
    }
    out
}

struct Setup {
    context: GpuContext,
    renderer: Renderer,
    gpu: GpuModel,
    target: OffscreenTarget,
}

fn setup(model: &Model) -> Option<Setup> {
    let context = context()?;
    let samples = context.sample_count(OFFSCREEN_FORMAT);
    let mut renderer = Renderer::new(&context, OFFSCREEN_FORMAT, samples);
    let gpu = renderer.upload(&studio_render::goldsrc::render_model(model));
    let target = OffscreenTarget::new(&context, SIZE.0, SIZE.1, samples);
    Some(Setup { context, renderer, gpu, target })
}

fn render(s: &mut Setup, model: &Model, pose: &Pose, camera: &Camera, options: &RenderOptions) -> RgbaImage {
    let pose = studio_render::goldsrc::frame_pose(model, pose, Some(0));
    let scene = Scene { pose, camera, options };
    studio_render::render_image(&s.context, &mut s.renderer, &s.gpu, &s.target, &scene).unwrap()
}

fn nothing() -> RenderOptions {
    let mut options = RenderOptions { mesh: false, ..RenderOptions::default() };
    options.overlay.grid = false;
    options
}

fn close(a: [u8; 4], b: [u8; 3], tolerance: i32) -> bool {
    (0..3).all(|i| (i32::from(a[i]) - i32::from(b[i])).abs() <= tolerance)
}

fn pixel_at(image: &RgbaImage, p: Vec2) -> [u8; 4] {
    image.pixel(p.x as u32, p.y as u32).unwrap_or_else(|| panic!("{p} is outside the image"))
}

#[test]
fn each_hit_box_centre_has_its_groups_colour() {
    let Some(model) = load("fixtures/blends.mdl") else { return };
    let Some(mut s) = setup(&model) else { return };
    let pose = pose(&model, 0, 0.0, [0, 0]);
    let (min, max) = bounds(&model, &pose);
    let camera = Camera::framing(min, max, 30.0, 15.0);
    let groups: Vec<i32> = model.hitboxes.iter().map(|h| h.group).collect();
    assert_eq!(groups, [1, 2, 3, 4, 5, 6, 7], "blends.mdl has hit boxes in groups 1 to 7");
    for (i, hitbox) in model.hitboxes.iter().enumerate() {
        let mut options = nothing();
        options.overlay.hitboxes = true;
        options.overlay.only_hitbox = Some(i);
        options.overlay.hitbox_fill = 1.0;
        let image = render(&mut s, &model, &pose, &camera, &options);
        let centre = pose.hitboxes[i].iter().map(|&c| Vec3::from(c)).sum::<Vec3>() / 8.0;
        let at = camera.project(centre, SIZE.0, SIZE.1).unwrap();
        let colour = pixel_at(&image, at);
        assert!(
            close(colour, hit_group_color(hitbox.group), 2),
            "hit box {i} (group {}): {colour:?} at {at}, expected {:?}",
            hitbox.group,
            hit_group_color(hitbox.group)
        );
        // And the background far from it is untouched.
        assert!(close(image.pixel(0, 0).unwrap(), RenderOptions::default().background, 1));
    }
}

/// Whether some pixel within `radius` of `p` is mostly `colour`: nearer to it than 0.6 of the
/// background's distance (a one-pixel line on a pixel boundary half-covers two pixels).
fn near(image: &RgbaImage, p: Vec2, colour: [u8; 3], radius: i32) -> bool {
    let distance = |a: [u8; 4], b: [u8; 3]| {
        (0..3).map(|i| (f32::from(a[i]) - f32::from(b[i])).powi(2)).sum::<f32>().sqrt()
    };
    let [r, g, b] = RenderOptions::default().background;
    let limit = 0.6 * distance([r, g, b, 255], colour);
    (-radius..=radius).any(|dy| {
        (-radius..=radius).any(|dx| {
            let (x, y) = (p.x as i32 + dx, p.y as i32 + dy);
            x >= 0 && y >= 0 && image.pixel(x as u32, y as u32).is_some_and(|c| distance(c, colour) <= limit)
        })
    })
}

#[test]
fn skeleton_lines_pass_through_the_projected_joints() {
    let Some(model) = load("fixtures/blends.mdl") else { return };
    let Some(mut s) = setup(&model) else { return };
    let pose = pose(&model, 2, 3.5, [60, 200]);
    let (min, max) = bounds(&model, &pose);
    let camera = Camera::framing(min, max, 40.0, 10.0);
    let mut options = nothing();
    options.overlay.skeleton = true;
    let image = render(&mut s, &model, &pose, &camera, &options);
    let mut checked = 0;
    for (i, bone) in model.bones.iter().enumerate() {
        let joint = camera.project(pose.bones[i].translation.into(), SIZE.0, SIZE.1).unwrap();
        assert!(near(&image, joint, BONE_COLOR, 1), "no joint marker at bone {i} ({joint})");
        if let Some(parent) = bone.parent {
            let from = camera.project(pose.bones[parent].translation.into(), SIZE.0, SIZE.1).unwrap();
            if (joint - from).length() > 8.0 {
                for t in [0.3, 0.5, 0.7] {
                    let p = from.lerp(joint, t);
                    let around: Vec<[u8; 4]> = (-1..=1)
                        .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
                        .filter_map(|(dx, dy)| {
                            image.pixel((p.x as i32 + dx) as u32, (p.y as i32 + dy) as u32)
                        })
                        .collect();
                    assert!(
                        near(&image, p, BONE_COLOR, 1),
                        "bone {i}'s line misses {p}: {around:?} from {from} to {joint}"
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 5, "only {checked} bones were long enough to check");
}

#[test]
fn the_mesh_covers_its_projected_triangles_and_nothing_else() {
    let Some(model) = load("fixtures/groups.mdl") else { return };
    let Some(mut s) = setup(&model) else { return };
    let pose = pose(&model, 0, 0.0, [0, 0]);
    let (min, max) = bounds(&model, &pose);
    let camera = Camera::framing(min, max, 25.0, 20.0);
    // The fixture's writer wound a third of its triangles the other way round from the rest, so
    // both sides are drawn here; with the game's culling those faces would be missing.
    let options =
        RenderOptions { overlay: nothing().overlay, double_sided: true, ..RenderOptions::default() };
    let image = render(&mut s, &model, &pose, &camera, &options);
    let background = options.background;
    let vertices = skinned_vertices(&model, &pose);
    let projected: Vec<Vec2> = vertices.iter().map(|&v| camera.project(v, SIZE.0, SIZE.1).unwrap()).collect();
    // Every triangle's centroid is covered by the mesh.
    let part = &model.body_parts[0].submodels[0];
    let mut covered = 0;
    for mesh in &part.meshes {
        for t in &mesh.triangles {
            let c = t.iter().map(|&i| projected[usize::from(mesh.vertices[i as usize].vertex)]).sum::<Vec2>()
                / 3.0;
            assert!(!close(pixel_at(&image, c), background, 2), "triangle centroid {c} shows background");
            covered += 1;
        }
    }
    assert_eq!(covered, 144);
    // Nothing is drawn outside the vertices' bounding rectangle.
    let lo = projected.iter().fold(Vec2::INFINITY, |a, &p| a.min(p)) - Vec2::splat(2.0);
    let hi = projected.iter().fold(Vec2::NEG_INFINITY, |a, &p| a.max(p)) + Vec2::splat(2.0);
    for y in 0..SIZE.1 {
        for x in 0..SIZE.0 {
            let p = Vec2::new(x as f32, y as f32);
            if p.cmplt(lo).any() || p.cmpgt(hi).any() {
                assert!(
                    close(image.pixel(x, y).unwrap(), background, 1),
                    "pixel {p} outside the mesh is drawn"
                );
            }
        }
    }
}

fn read_texture(context: &GpuContext, texture: &wgpu::Texture) -> Vec<u8> {
    let (w, h) = (texture.width(), texture.height());
    let row = (w * 4).div_ceil(256) * 256;
    let buffer = context.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("texture readback"),
        size: u64::from(row * h),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = context.device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(row),
                rows_per_image: Some(h),
            },
        },
        wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
    );
    context.queue.submit([encoder.finish()]);
    buffer.slice(..).map_async(wgpu::MapMode::Read, |r| r.unwrap());
    context.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: None }).unwrap();
    let mapped = buffer.slice(..).get_mapped_range().unwrap();
    mapped.chunks(row as usize).flat_map(|r| r[..(w * 4) as usize].to_vec()).collect()
}

#[test]
fn masked_texels_are_transparent() {
    let Some(model) = load("fixtures/groups.mdl") else { return };
    let Some(mut s) = setup(&model) else { return };
    // Texture 1 (skin_b.bmp) is masked: its 64 texels of palette index 255 have alpha 0.
    let masked = &model.textures[1];
    assert!(masked.is_masked());
    let uploaded = read_texture(&s.context, &s.gpu.textures[1].texture);
    assert_eq!(uploaded.len(), masked.rgba().len());
    let transparent = uploaded.chunks(4).filter(|p| p[3] == 0).count();
    assert_eq!(transparent, 64);
    for (gpu, cpu) in uploaded.chunks(4).zip(masked.rgba().chunks(4)) {
        assert_eq!(gpu[3], cpu[3]);
    }
    // Drawn with the masked skin (family 1 puts skin_b on the body), the mesh shows fewer
    // pixels than with skin family 0.
    let pose = pose(&model, 0, 0.0, [0, 0]);
    let (min, max) = bounds(&model, &pose);
    let camera = Camera::framing(min, max, 25.0, 20.0);
    let mut options =
        RenderOptions { overlay: nothing().overlay, lighting: false, ..RenderOptions::default() };
    let drawn = |image: &RgbaImage| {
        image.pixels.chunks(4).filter(|p| !close([p[0], p[1], p[2], 255], options.background, 2)).count()
    };
    let plain = drawn(&render(&mut s, &model, &pose, &camera, &options));
    options.skin = 1;
    let with_holes = drawn(&render(&mut s, &model, &pose, &camera, &options));
    assert!(with_holes < plain, "masked skin drew {with_holes} pixels, unmasked {plain}");
}

#[test]
fn changing_the_frame_changes_the_image() {
    let Some(model) = load("fixtures/groups.mdl") else { return };
    let Some(mut s) = setup(&model) else { return };
    let first = pose(&model, 1, 0.0, [0, 0]);
    let later = pose(&model, 1, 5.0, [0, 0]);
    let (min, max) = bounds(&model, &first);
    let camera = Camera::framing(min - Vec3::splat(20.0), max + Vec3::splat(20.0), 30.0, 15.0);
    let mut options = RenderOptions::default();
    options.overlay.skeleton = true;
    let a = render(&mut s, &model, &first, &camera, &options);
    let b = render(&mut s, &model, &later, &camera, &options);
    let a_again = render(&mut s, &model, &first, &camera, &options);
    assert_eq!(a, a_again, "the same pose renders the same image");
    let differing = a.pixels.chunks(4).zip(b.pixels.chunks(4)).filter(|(p, q)| p != q).count();
    assert!(differing > 100, "only {differing} pixels changed between frames 0 and 5 of walk");
}

#[test]
fn every_display_option_renders_the_soldier() {
    let Some(model) = load("models/ns/soldier.mdl") else { return };
    let Some(mut s) = setup(&model) else { return };
    let pose = pose(&model, 5, 2.0, [128, 0]);
    let (min, max) = bounds(&model, &pose);
    let camera = Camera::framing(min, max, 30.0, 15.0);
    let variants = [
        RenderOptions::default(),
        RenderOptions { flat: true, wireframe: true, skin: 1, ..RenderOptions::default() },
        RenderOptions { opacity: 0.5, xray: true, body: 1, ..RenderOptions::default() },
        RenderOptions { lighting: false, skin: 99, body: -3, ..RenderOptions::default() },
    ];
    for (i, mut options) in variants.into_iter().enumerate() {
        options.overlay.skeleton = true;
        options.overlay.hitboxes = true;
        options.overlay.attachments = true;
        options.overlay.bounding_box = true;
        options.overlay.sequence_box = true;
        options.overlay.selected_bone = Some(3);
        options.overlay.selected_hitbox = Some(2);
        let image = render(&mut s, &model, &pose, &camera, &options);
        let centre = camera.project(camera.target, SIZE.0, SIZE.1).unwrap();
        assert!(
            !close(pixel_at(&image, centre), options.background, 2),
            "variant {i}: nothing at the centre"
        );
    }
}

/// The ground grid, drawn by the mesh's pipeline with a bone buffer and material of its own
/// (grid.rs): in its colour, fully opaque whatever the mesh's opacity, hidden where the mesh is
/// in front of it, and the same in x-ray but for being drawn over the mesh.
#[test]
fn the_ground_grid_is_opaque_in_its_colour_and_behind_the_mesh() {
    let Some(model) = load("models/ns/soldier.mdl") else { return };
    let Some(mut s) = setup(&model) else { return };
    let pose = pose(&model, 0, 0.0, [0, 0]);
    let (min, max) = bounds(&model, &pose);
    let camera = Camera::framing(min, max, 30.0, 15.0);
    let grid = RenderOptions { mesh: false, ..RenderOptions::default() };
    let mesh = RenderOptions { mesh: true, ..nothing() };
    let both = RenderOptions::default();
    let [grid_image, mesh_image, both_image] =
        [grid, mesh, both].map(|o| render(&mut s, &model, &pose, &camera, &o));
    let pixels =
        |image: &RgbaImage| image.pixels.chunks(4).map(|p| [p[0], p[1], p[2], p[3]]).collect::<Vec<_>>();
    let (grid_pixels, mesh_pixels, both_pixels) =
        (pixels(&grid_image), pixels(&mesh_image), pixels(&both_image));
    let background = RenderOptions::default().background;
    let on_grid: Vec<bool> = grid_pixels.iter().map(|&p| close(p, studio_render::GRID_COLOR, 2)).collect();
    let grid_count = on_grid.iter().filter(|&&g| g).count();
    assert!(grid_count > 1000, "only {grid_count} pixels of the grid's colour");
    assert!(grid_pixels.iter().all(|p| p[3] == 255), "the grid is opaque");

    // Where the upper half of the mesh covers a grid pixel, the mesh shows: the grid there is
    // far behind it. (The grid, at the origin's height, passes through the soldier's legs.)
    let width = SIZE.0 as usize;
    let rows = |i: usize| i / width;
    let on_mesh = |i: usize| !close(mesh_pixels[i], background, 2);
    let top = (0..mesh_pixels.len()).filter(|&i| on_mesh(i)).map(rows).min().unwrap();
    let bottom = (0..mesh_pixels.len()).filter(|&i| on_mesh(i)).map(rows).max().unwrap();
    let (mut covered, mut mesh_shown) = (0, 0);
    for i in (0..mesh_pixels.len()).filter(|&i| on_grid[i] && on_mesh(i) && rows(i) < (top + bottom) / 2) {
        covered += 1;
        mesh_shown += usize::from(both_pixels[i] == mesh_pixels[i]);
    }
    assert!(covered > 50, "the mesh's upper half covers only {covered} grid pixels");
    assert!(mesh_shown * 10 >= covered * 9, "the grid shows through the mesh: {mesh_shown} of {covered}");

    // The mesh's opacity leaves the grid as it is.
    let faint = RenderOptions { opacity: 0.5, ..grid };
    assert_eq!(
        render(&mut s, &model, &pose, &camera, &faint),
        grid_image,
        "the grid follows the mesh's opacity"
    );

    // In x-ray the grid is drawn over the mesh: every grid pixel shows the grid.
    let xray = render(&mut s, &model, &pose, &camera, &RenderOptions { xray: true, ..both });
    let xray_on_grid = pixels(&xray)
        .iter()
        .zip(&on_grid)
        .filter(|&(p, &g)| g && close(*p, studio_render::GRID_COLOR, 2))
        .count();
    assert_eq!(xray_on_grid, grid_count, "x-ray: the grid is hidden somewhere");
}

/// The blends fixture with its hit boxes rendered into a target a UI samples, and the image;
/// `None` without the shared files or an adapter.
fn sampled_blends() -> Option<(Setup, RgbaImage)> {
    let model = load("fixtures/blends.mdl")?;
    let mut s = setup(&model)?;
    let pose = pose(&model, 0, 0.0, [0, 0]);
    let (min, max) = bounds(&model, &pose);
    let camera = Camera::framing(min - Vec3::splat(20.0), max + Vec3::splat(20.0), 30.0, 15.0);
    let mut options = RenderOptions::default();
    options.overlay.hitboxes = true;
    let samples = s.renderer.sample_count;
    let usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_SRC;
    s.target = OffscreenTarget::with_usage(&s.context, SIZE.0, SIZE.1, samples, usage);
    let image = render(&mut s, &model, &pose, &camera, &options);
    assert!(image.pixels.chunks(4).any(|p| p != &image.pixels[..4]), "the image is blank");
    Some((s, image))
}

#[test]
fn a_sampled_target_shows_its_image_in_the_corner_of_a_power_of_two_texture() {
    let Some((s, image)) = sampled_blends() else { return };

    // The texture a UI samples: egui's kind (Rgba8Unorm, sides of powers of two), the image's
    // bytes in its corner.
    assert_eq!((s.target.width, s.target.height), SIZE);
    assert_eq!(s.target.image_uv(), [320.0 / 512.0, 240.0 / 256.0]);
    let view = s.target.raw_view().expect("a sampled target has a view to show");
    let shown = view.texture();
    assert_eq!(shown.size(), wgpu::Extent3d { width: 512, height: 256, depth_or_array_layers: 1 });
    assert_eq!(shown.format(), wgpu::TextureFormat::Rgba8Unorm);
    let texels = read_texture(&s.context, shown);
    let corner: Vec<u8> =
        texels.chunks(512 * 4).take(240).flat_map(|row| row[..320 * 4].iter().copied()).collect();
    assert!(corner == image.pixels, "the shown texture's corner differs from the image");
    // A plain target has no such view.
    assert!(OffscreenTarget::new(&s.context, 8, 8, s.renderer.sample_count).raw_view().is_none());
}

/// Draws `target`'s picture over the middle of a `format` texture twice the image's size,
/// cleared to grey, as the viewer's window pass does; returns the texture's bytes.
fn picture_in_a_window(s: &Setup, format: wgpu::TextureFormat) -> Vec<u8> {
    let device = &s.context.device;
    let (w, h) = (SIZE.0 * 2, SIZE.1 * 2);
    let window = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("window"),
        size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let drawer = studio_render::PictureDrawer::new(device, format);
    let picture = drawer.picture(device, &s.target).expect("a sampled target has a picture");
    let view = window.create_view(&Default::default());
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("window pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        pass.set_viewport(100.0, 50.0, SIZE.0 as f32, SIZE.1 as f32, 0.0, 1.0);
        picture.draw(&mut pass);
    }
    s.context.queue.submit([encoder.finish()]);
    read_texture(&s.context, &window)
}

#[test]
fn the_picture_drawn_into_a_window_pass_is_the_image_byte_for_byte() {
    let Some((s, image)) = sampled_blends() else { return };
    let scope = s.context.device.push_error_scope(wgpu::ErrorFilter::Validation);
    // A plain window (bytes stored as they come) and an sRGB one (the picture decodes them,
    // the target encodes them again): both hold the image's bytes where the viewport is.
    for format in [wgpu::TextureFormat::Bgra8Unorm, wgpu::TextureFormat::Rgba8UnormSrgb] {
        let window = picture_in_a_window(&s, format);
        let row = (SIZE.0 * 2 * 4) as usize;
        let mut differing = 0;
        for y in 0..SIZE.1 as usize {
            for x in 0..SIZE.0 as usize {
                let at = (y + 50) * row + (x + 100) * 4;
                let mut got = [window[at], window[at + 1], window[at + 2], window[at + 3]];
                if format == wgpu::TextureFormat::Bgra8Unorm {
                    got.swap(0, 2);
                }
                let want = &image.pixels[(y * SIZE.0 as usize + x) * 4..][..4];
                differing += usize::from(got[..3] != want[..3]);
            }
        }
        assert_eq!(differing, 0, "{format:?}: pixels differing from the image");
        // Nothing outside the viewport: the corner and the pixel just left of it stay black.
        assert_eq!(&window[..3], &[0, 0, 0][..], "{format:?}");
        assert_eq!(&window[50 * row + 99 * 4..][..3], &[0, 0, 0][..], "{format:?}");
    }
    let error = pollster::block_on(scope.pop());
    assert!(error.is_none(), "{error:?}");
}

#[test]
fn a_window_target_in_the_windows_channel_order_renders_the_same_image() {
    let Some((mut s, image)) = sampled_blends() else { return };
    let model = load("fixtures/blends.mdl").expect("loaded above");
    let pose = pose(&model, 0, 0.0, [0, 0]);
    let (min, max) = bounds(&model, &pose);
    let camera = Camera::framing(min - Vec3::splat(20.0), max + Vec3::splat(20.0), 30.0, 15.0);
    let mut options = RenderOptions::default();
    options.overlay.hitboxes = true;
    let scope = s.context.device.push_error_scope(wgpu::ErrorFilter::Validation);
    for format in [wgpu::TextureFormat::Bgra8UnormSrgb, OFFSCREEN_FORMAT] {
        let samples = s.context.sample_count(format);
        s.renderer = Renderer::new(&s.context, format, samples);
        s.gpu = s.renderer.upload(&studio_render::goldsrc::render_model(&model));
        s.target = OffscreenTarget::for_window(&s.context, SIZE.0, SIZE.1, samples, format);
        assert_eq!(s.target.format(), format);
        // Read back as RGBA whatever the order: the same image.
        let got = render(&mut s, &model, &pose, &camera, &options);
        assert!(got == image, "{format:?}: the image differs from the RGBA target's");
        // The finished texture itself is what the window copies or samples: its bytes, in
        // the target's order, are the image's; its raw view is that texture without sRGB.
        let texture = s.target.texture();
        assert!(
            texture.usage().contains(wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::TEXTURE_BINDING)
        );
        assert_eq!(s.target.image_uv(), [1.0, 1.0]);
        let view = s.target.raw_view().expect("a window's target has a view to show");
        assert_eq!(view.texture().format(), format);
        let mut bytes = read_texture(&s.context, texture);
        if format == wgpu::TextureFormat::Bgra8UnormSrgb {
            bytes.chunks_exact_mut(4).for_each(|p| p.swap(0, 2));
        }
        assert!(bytes == image.pixels, "{format:?}: the finished texture's bytes differ from the image");
    }
    let error = pollster::block_on(scope.pop());
    assert!(error.is_none(), "{error:?}");
}

/// Renders a frame as the viewer does, over a ground kept between frames, and reads it back.
fn render_over_ground(
    s: &mut Setup,
    model: &Model,
    pose: &Pose,
    camera: &Camera,
    options: &RenderOptions,
) -> RgbaImage {
    let pose = studio_render::goldsrc::frame_pose(model, pose, Some(0));
    let target = &mut s.target;
    let aspect = target.width as f32 / target.height as f32;
    let mut encoder = s.context.device.create_command_encoder(&Default::default());
    let renderer = &mut s.renderer;
    renderer.prepare(
        &mut encoder,
        &s.gpu,
        &pose,
        camera.clip_from_model(aspect),
        camera.view_from_model(),
        options,
    );
    renderer.draw_over_kept_ground(&s.context.device, &mut encoder, target, &s.gpu, options, &[]);
    target.copy_out(&mut encoder);
    s.renderer.finish(&encoder);
    s.context.queue.submit([encoder.finish()]);
    target.read(&s.context).unwrap()
}

#[test]
fn a_kept_ground_gives_the_frames_a_whole_draw_gives() {
    let Some(model) = load("models/ns/soldier.mdl") else { return };
    // Single-sampled, as the viewer draws on a software renderer: a multisampled target's
    // colour cannot be copied in, and such a target draws every frame whole.
    let single = |mut s: Setup| {
        s.renderer = Renderer::new(&s.context, OFFSCREEN_FORMAT, 1);
        s.gpu = s.renderer.upload(&studio_render::goldsrc::render_model(&model));
        s.target = OffscreenTarget::new(&s.context, SIZE.0, SIZE.1, 1);
        s
    };
    let Some(mut plain) = setup(&model).map(single) else { return };
    let Some(mut kept) = setup(&model).map(single) else { return };
    let first = pose(&model, 0, 0.0, [0, 0]);
    let (min, max) = bounds(&model, &first);
    let still = Camera::framing(min, max, 30.0, 15.0);
    let turned = Camera::framing(min, max, 75.0, 25.0);
    let defaults = RenderOptions::default();
    let dark = RenderOptions { background: [10, 20, 30], ..defaults };
    let mut no_grid = defaults;
    no_grid.overlay.grid = false;
    let xray = RenderOptions { xray: true, ..defaults };
    let mut scrolled = defaults;
    scrolled.ground_offset = Vec3::new(7.0, 3.0, 0.0);
    // (camera, options, whether the kept ground is copied in): a ground is kept in the second
    // frame that shares it with the frame before, and copied while it stays. The camera still,
    // turned (its ground kept instead), still again; another background; no grid and back;
    // x-ray; the ground scrolled.
    let frames = [
        (&still, defaults, false),
        (&still, defaults, false),
        (&still, defaults, true),
        (&still, defaults, true),
        (&turned, defaults, false),
        (&turned, defaults, false),
        (&still, defaults, false),
        (&still, defaults, false),
        (&still, defaults, true),
        (&still, dark, false),
        (&still, dark, false),
        (&still, dark, true),
        (&still, no_grid, false),
        (&still, dark, true),
        (&still, xray, false),
        (&still, scrolled, false),
        (&still, scrolled, false),
        (&still, scrolled, true),
    ];
    let scope = kept.context.device.push_error_scope(wgpu::ErrorFilter::Validation);
    for (i, (camera, options, copied)) in frames.into_iter().enumerate() {
        // A new pose each frame, as while playing.
        let pose = pose(&model, 3, i as f32 * 0.7, [0, 0]);
        let want = render(&mut plain, &model, &pose, camera, &options);
        let got = render_over_ground(&mut kept, &model, &pose, camera, &options);
        assert!(got == want, "frame {i}: the picture over a kept ground differs from a whole draw");
        assert_eq!(kept.target.copied_ground(), copied, "frame {i}");
    }
    let error = pollster::block_on(scope.pop());
    assert!(error.is_none(), "{error:?}");
}
