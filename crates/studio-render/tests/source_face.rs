//! The face fixture (studio_testing::source_face) as the renderer draws it: flexed vertices
//! equal to the evaluator's, only when the weights change; the eyeball projection as the
//! engine's `R_StudioEyeballPosition` sets it up; the eye mesh's texture coordinates following
//! the target; the drawn image changing with a controller and back; and no allocation once warm.

use glam::{Affine3A, Vec3};
use studio_render::source::{SourceFrame, missing_material, render_model};
use studio_render::source_face::{SourceFace, eye_state, eyelids, moving_meshes};
use studio_render::{Camera, OFFSCREEN_FORMAT, OffscreenTarget, RenderOptions, Renderer, Scene};
use studio_source::{Eyeball, SourceModel};
use studio_source_pose::{SourceEvaluator, SourceRequest, apply_flexes, params, run_flex_rules};
use studio_testing::source_face;

mod common;
use common::context;

/// The face fixture, with body part 0 model 0's mesh `eye` made the eyeball's mesh.
fn face(eye: Option<usize>) -> Option<SourceModel> {
    let [mdl, vvd, vtx] = source_face::face_files(&studio_testing::shared()?, eye);
    let files = studio_source::SourceFiles {
        mdl: &mdl,
        vvd: Some(&vvd),
        vtx: Some(&vtx),
        ani: None,
        includes: vec![],
    };
    Some(studio_source::parse_set(&files).expect("the face fixture reads"))
}

fn frame(model: &SourceModel) -> SourceFrame {
    let mut evaluator = SourceEvaluator::new(model);
    let params: Vec<f32> = evaluator.rig().pose_parameters.iter().map(params::default_value).collect();
    let mut frame = SourceFrame::default();
    let request = SourceRequest {
        sequence: 0,
        cycle: 0.0,
        params: &params,
        controllers: None,
        time: 0.0,
        autoplay: false,
        layers: &[],
    };
    evaluator.evaluate(&request, &mut frame.bones);
    frame.place(model, 0, None);
    frame.face = SourceFace::new(model);
    frame
}

fn update(frame: &mut SourceFrame, model: &SourceModel, controllers: &[f32], target: Vec3) {
    frame.face.update(model, controllers, (&frame.bones, &frame.skinning), 0, target);
}

#[test]
fn flexed_vertices_are_the_evaluators_and_move_only_when_the_weights_do() {
    let Some(model) = face(None) else { return };
    let keys = moving_meshes(&model);
    assert_eq!(keys.len(), 1, "mesh 0 of model 0 has the flexes");
    let mut frame = frame(&model);
    let rest = frame.face.vertices[0].clone();
    let target = Vec3::new(100.0, 0.0, 60.0);

    update(&mut frame, &model, &[0.0; 6], target);
    let at_rest = frame.face.revision;
    // jaw = jaw_drop·2 − 0.5 is −0.5 at rest: its flex ramps from 0, so nothing moves.
    assert_eq!(frame.face.vertices[0], rest, "nothing moves at rest");

    let controllers = [0.8, 0.3, 0.6, 10.0, 0.5, 0.2];
    update(&mut frame, &model, &controllers, target);
    assert_ne!(frame.face.revision, at_rest, "the revision moves with the vertices");
    // The rules' weights, with the eyeball's upper lid description set from the eye's look.
    let mut expected = vec![0.0; model.flexes.descs.len()];
    run_flex_rules(&model.flexes, &controllers, &mut expected);
    let eyeball = &model.body_parts[0].models[0].eyeballs[0];
    let state = eye_state(eyeball, &frame.bones[eyeball.bone], target);
    eyelids(eyeball, &state, &frame.bones[eyeball.bone], &mut expected);
    assert_eq!(frame.face.weights, expected);
    let lid = eyeball.upper_lid_flex_desc.unwrap();
    assert_ne!(expected[lid], 0.0, "the lid height is written");

    let mesh = &model.body_parts[0].models[0].meshes[0];
    let mut positions: Vec<Vec3> = rest.iter().map(|v| Vec3::from(v.position)).collect();
    let mut normals: Vec<Vec3> = rest.iter().map(|v| Vec3::from(v.normal)).collect();
    apply_flexes(mesh, &expected, &mut positions, &mut normals, &mut Vec::new());
    let moved = frame.face.vertices[0].iter().zip(&rest).filter(|(a, b)| a.position != b.position).count();
    assert!(moved > 0, "the jaw and smiles move vertices");
    for (k, (v, r)) in frame.face.vertices[0].iter().zip(&rest).enumerate() {
        assert_eq!(v.position, positions[k].to_array(), "vertex {k}");
        assert_eq!(v.normal, normals[k].to_array(), "normal {k}");
        assert_eq!(
            (v.texel, v.bones, v.weights, v.tangent),
            (r.texel, r.bones, r.weights, r.tangent),
            "vertex {k} keeps the rest"
        );
    }

    let revision = frame.face.revision;
    update(&mut frame, &model, &controllers, target);
    assert_eq!(frame.face.revision, revision, "the same values change nothing");
    update(&mut frame, &model, &[0.0; 6], target);
    assert_eq!(frame.face.vertices[0], rest, "back at rest, back to the bind pose");
    assert_ne!(frame.face.revision, revision);
}

fn eyeball() -> Eyeball {
    Eyeball {
        name: "eye".into(),
        bone: 0,
        origin: Vec3::new(1.0, 2.0, 3.0),
        z_offset: 0.1,
        radius: 0.5,
        up: Vec3::Z,
        forward: Vec3::X,
        texture: 0,
        iris_scale: 2.0,
        upper_flex_desc: [Some(0), Some(1), Some(2)],
        lower_flex_desc: [None; 3],
        upper_target: [0.25, 0.0, -0.25],
        lower_target: [0.0; 3],
        upper_lid_flex_desc: Some(3),
        lower_lid_flex_desc: None,
        non_facs: false,
    }
}

#[test]
fn the_iris_projection_is_the_engines() {
    let eye = eyeball();
    let bone = Affine3A::from_translation(Vec3::new(0.0, 0.0, 10.0));
    let target = Vec3::new(21.0, 2.0, 13.0);
    let s = eye_state(&eye, &bone, target);
    assert_eq!(s.origin, Vec3::new(1.0, 2.0, 13.0));
    // Looking along +x, right = forward × up = −y; forward moved by 2·zoffset along it.
    let forward = Vec3::new(1.0, -0.2, 0.0).normalize();
    assert!((s.forward - forward).length() < 1e-6, "{}", s.forward);
    let right = forward.cross(Vec3::Z).normalize();
    assert!((s.right - right).length() < 1e-6);
    assert!((s.up - Vec3::Z).length() < 1e-6);
    let uv = |p: Vec3| (s.u.truncate().dot(p) + s.u.w, s.v.truncate().dot(p) + s.v.w);
    let near = |(a, b): (f32, f32), (c, d): (f32, f32)| (a - c).abs() < 1e-5 && (b - d).abs() < 1e-5;
    // The centre and every point along the look project to the texture's centre; the iris
    // spans 1 / iris_scale: half of it to the right is u 0, half of it up is v 0.
    assert!(near(uv(s.origin), (0.5, 0.5)));
    assert!(near(uv(s.origin + s.forward * 3.0), (0.5, 0.5)));
    assert!(near(uv(s.origin + s.right * 0.25), (0.0, 0.5)), "{:?}", uv(s.origin + s.right * 0.25));
    assert!(near(uv(s.origin - s.up * 0.25), (0.5, 1.0)));
}

#[test]
fn the_lids_follow_the_look_as_the_engines_facs_lids_do() {
    let eye = eyeball();
    let bone = Affine3A::IDENTITY;
    let s = eye_state(&eye, &bone, Vec3::new(21.0, 2.0, 3.0));
    // Raiser at 1, neutral and lowerer at 0: the lid at asin(0.25 / 0.5) = 30° up the eye.
    let mut weights = [1.0, 0.0, 0.0, 0.0];
    eyelids(&eye, &s, &bone, &mut weights);
    let angle = (0.5f32).asin();
    let height = (s.up * (angle.sin() * 0.5) + s.forward * (angle.cos() * 0.5)).dot(Vec3::Z);
    assert!((weights[3] - height).abs() < 1e-6 && (height - 0.25).abs() < 1e-6, "{}", weights[3]);
    let mut non_facs = eye.clone();
    non_facs.non_facs = true;
    let mut untouched = [1.0, 0.0, 0.0, 7.0];
    eyelids(&non_facs, &s, &bone, &mut untouched);
    assert_eq!(untouched[3], 7.0, "non-FACS lids are the rules' alone");
}

#[test]
fn the_eye_mesh_takes_the_iris_projection_of_its_skinned_vertices() {
    let Some(model) = face(Some(1)) else { return };
    let keys = moving_meshes(&model);
    assert_eq!(keys.len(), 2, "the flexed mesh and the eye");
    let mut frame = frame(&model);
    let target = Vec3::new(100.0, 0.0, 60.0);
    update(&mut frame, &model, &[0.0; 6], target);
    let eyeball = &model.body_parts[0].models[0].eyeballs[0];
    let state = eye_state(eyeball, &frame.bones[eyeball.bone], target);
    for v in &frame.face.vertices[1] {
        let p: Vec3 = v
            .position_bones()
            .map(|(b, w)| frame.skinning[usize::from(b)].transform_point3(Vec3::from(v.position)) * w)
            .sum();
        let expected = [state.u.truncate().dot(p) + state.u.w, state.v.truncate().dot(p) + state.v.w];
        assert_eq!(v.texel2, expected, "the iris coordinates");
    }
    let revision = frame.face.revision;
    update(&mut frame, &model, &[0.0; 6], Vec3::new(-100.0, 50.0, 0.0));
    assert_ne!(frame.face.revision, revision, "a new target moves the iris");
}

#[test]
fn updating_a_warm_face_allocates_nothing() {
    let Some(model) = face(Some(1)) else { return };
    let mut frame = frame(&model);
    let mut k = 0.0f32;
    update(&mut frame, &model, &[0.5; 6], Vec3::X);
    let counts = allocation_counter::measure(|| {
        for _ in 0..50 {
            k += 0.01;
            update(&mut frame, &model, &[k, 0.3, 0.6, 10.0 * k, 0.5, 0.2], Vec3::new(100.0, k, 60.0));
        }
    });
    assert_eq!(counts.count_total, 0);
}

#[test]
fn a_controller_changes_the_drawn_face_and_back() {
    let Some(model) = face(None) else { return };
    let Some(context) = context() else { return };
    let mut frame = frame(&model);
    let render = render_model(&model, model.textures.iter().map(|t| missing_material(&t.name)).collect());
    let samples = context.sample_count(OFFSCREEN_FORMAT);
    let mut renderer = Renderer::new(&context, OFFSCREEN_FORMAT, samples);
    let gpu = renderer.upload(&render);
    let target = OffscreenTarget::new(&context, 256, 256, samples);
    let (min, max) = model.header.hull;
    let camera = Camera::framing(min, max, 30.0, 15.0);
    let mut options = RenderOptions::default();
    options.overlay.grid = false;
    let mut draw = |frame: &SourceFrame| {
        let scene = Scene { pose: frame.frame_pose(), camera: &camera, options: &options };
        studio_render::render_image(&context, &mut renderer, &gpu, &target, &scene).unwrap()
    };
    let eye = camera.eye();
    update(&mut frame, &model, &[0.0; 6], eye);
    let rest = draw(&frame);
    update(&mut frame, &model, &[1.0, 1.0, 1.0, 45.0, 1.0, 0.0], eye);
    let flexed = draw(&frame);
    let differ = rest.pixels.chunks(4).zip(flexed.pixels.chunks(4)).filter(|(a, b)| a != b).count();
    assert!(differ > 20, "the flexes move the drawn mesh: {differ} pixels differ");
    update(&mut frame, &model, &[0.0; 6], eye);
    assert_eq!(draw(&frame).pixels, rest.pixels, "back at rest, the same image");
}

/// Mutated face models that still read build their moving meshes and pose them at random
/// controller values and targets without a panic; the vertex lists keep their sizes.
#[test]
fn mutated_faces_that_read_pose_without_panicking() {
    let Some(shared) = studio_testing::shared() else { return };
    let plain = std::fs::read(shared.join("fixtures/source/models/fixture/anim48.mdl")).unwrap();
    let [mdl, vvd, vtx] = source_face::face_files(&shared, Some(1));
    let mut rng = studio_testing::Rng::new(32);
    let face_fields = (plain.len().next_multiple_of(4), (mdl.len() - plain.len()) / 4);
    let mut posed = 0;
    for round in 0..400 {
        let mut m = mdl.clone();
        // Mostly the face's records; every fourth round the header and body.
        let fields = if round % 4 == 0 { (156, 60) } else { face_fields };
        studio_testing::mutate(&mut rng, &mut m, fields);
        let files = studio_source::SourceFiles {
            mdl: &m,
            vvd: Some(&vvd),
            vtx: Some(&vtx),
            ani: None,
            includes: vec![],
        };
        let Ok(model) = studio_source::parse_set(&files) else { continue };
        let _ = render_model(&model, vec![]);
        let mut face = SourceFace::new(&model);
        let sizes: Vec<usize> = face.vertices.iter().map(Vec::len).collect();
        let bones = vec![Affine3A::IDENTITY; model.bones.len()];
        for _ in 0..4 {
            let controllers: Vec<f32> =
                (0..model.flexes.controllers.len()).map(|_| rng.below(2001) as f32 / 10.0 - 100.0).collect();
            let target = Vec3::new(rng.below(200) as f32 - 100.0, 50.0, rng.below(100) as f32);
            face.update(&model, &controllers, (&bones, &bones), rng.below(4) as i32, target);
        }
        assert_eq!(face.vertices.iter().map(Vec::len).collect::<Vec<_>>(), sizes);
        posed += 1;
    }
    assert!(posed > 100, "{posed} mutated faces posed");
}
