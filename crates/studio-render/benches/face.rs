//! A face's per-frame CPU cost: `SourceFace::update` (rules, lids, flexed vertices, iris) with
//! the face at rest and with a controller moving every frame, and the renderer's frame
//! (prepare + record) with and without the moving vertices' upload. The face fixture
//! (studio_testing::source_face on anim48: 6 controllers, 5 mesh flexes, an eyeball mesh).
//! `cargo bench -p studio-render --bench face`.

#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};

mod common;
use glam::Vec3;
use studio_render::source::{SourceFrame, missing_material, render_model};
use studio_render::source_face::SourceFace;
use studio_render::{Camera, GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, RenderOptions, Renderer};
use studio_source::SourceModel;
use studio_source_pose::{SourceEvaluator, SourceRequest, params};

fn face() -> Option<SourceModel> {
    let [mdl, vvd, vtx] = studio_testing::source_face::face_files(&studio_testing::shared()?, Some(1));
    let files = studio_source::SourceFiles {
        mdl: &mdl,
        vvd: Some(&vvd),
        vtx: Some(&vtx),
        ani: None,
        includes: vec![],
    };
    studio_source::parse_set(&files).ok()
}

fn bench(c: &mut Criterion) {
    let Some(model) = face() else {
        eprintln!("../shared is missing: no face to benchmark");
        return;
    };
    let mut evaluator = SourceEvaluator::new(&model);
    let p: Vec<f32> = evaluator.rig().pose_parameters.iter().map(params::default_value).collect();
    let mut frame = SourceFrame { face: SourceFace::new(&model), ..SourceFrame::default() };
    let request = SourceRequest {
        sequence: 0,
        cycle: 0.0,
        params: &p,
        controllers: None,
        time: 0.0,
        autoplay: false,
        layers: &[],
    };
    evaluator.evaluate(&request, &mut frame.bones);
    frame.place(&model, 0, None);
    let eye = Vec3::new(100.0, 20.0, 60.0);
    let mut group = c.benchmark_group("face");
    group.bench_function("update at rest", |b| {
        b.iter(|| frame.face.update(&model, &[0.0; 6], (&frame.bones, &frame.skinning), 0, eye))
    });
    let mut k = 0.0f32;
    group.bench_function("update, jaw moving", |b| {
        b.iter(|| {
            k = (k + 0.01).fract();
            frame.face.update(&model, &[k, 0.3, 0.6, 10.0, 0.5, 0.2], (&frame.bones, &frame.skinning), 0, eye)
        })
    });
    let Ok(context) = GpuContext::headless() else {
        eprintln!("no graphics adapter: no frame to benchmark");
        return;
    };
    let samples = context.sample_count(OFFSCREEN_FORMAT);
    let target = OffscreenTarget::new(&context, 64, 64, samples);
    let options = RenderOptions::default();
    let render = render_model(&model, model.textures.iter().map(|t| missing_material(&t.name)).collect());
    let mut renderer = Renderer::new(&context, OFFSCREEN_FORMAT, samples);
    let gpu = renderer.upload(&render);
    let camera = Camera::framing(model.header.hull.0, model.header.hull.1, 30.0, 15.0);
    let (clip, view) = (camera.clip_from_model(16.0 / 9.0), camera.view_from_model());
    for moving in [false, true] {
        let name = if moving { "frame, face moving" } else { "frame, face still" };
        group.bench_function(name, |b| {
            b.iter_custom(|iterations| {
                let mut spent = std::time::Duration::ZERO;
                for _ in 0..iterations {
                    let started = std::time::Instant::now();
                    if moving {
                        k = (k + 0.01).fract();
                        frame.face.update(
                            &model,
                            &[k, 0.3, 0.6, 10.0, 0.5, 0.2],
                            (&frame.bones, &frame.skinning),
                            0,
                            eye,
                        );
                    }
                    spent += started.elapsed();
                    let pose = frame.frame_pose();
                    spent += common::timed_frame(
                        (&context, &target),
                        &mut renderer,
                        &gpu,
                        &pose,
                        (clip, view),
                        &options,
                    );
                }
                spent
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
