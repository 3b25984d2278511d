//! The renderer's per-frame CPU cost: writing bone matrices, camera and overlays
//! (`Renderer::prepare`) and recording the frame's draws. `cargo bench -p studio-render`.
//! Besides the Natural Selection models, a 128-bone skeleton (Half-Life's limit) made by
//! chaining extra bones onto the soldier.

#![allow(missing_docs)]

use std::path::PathBuf;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};

mod common;
use glam::{Affine3A, Vec3};
use studio_model::Model;
use studio_pose::{Pose, PoseEvaluator, PoseRequest};
use studio_render::{Camera, GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, RenderOptions, Renderer};

/// The soldier with bones added up to `count`, each hanging off the one before, and a pose for it.
fn with_bones(model: &Model, pose: &Pose, count: usize) -> (Model, Pose) {
    let mut model = model.clone();
    let mut pose = pose.clone();
    while model.bones.len() < count {
        let parent = model.bones.len() - 1;
        let mut bone = model.bones[parent].clone();
        bone.parent = Some(parent);
        bone.controllers = [None; 6];
        model.bones.push(bone);
        pose.bones.push(pose.bones[parent] * Affine3A::from_translation(Vec3::new(1.0, 0.5, 0.25)));
    }
    (model, pose)
}

fn frame(c: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/models/ns");
    let Ok(context) = GpuContext::headless() else {
        eprintln!("no graphics adapter: nothing to benchmark");
        return;
    };
    if !dir.is_dir() {
        eprintln!("../shared is missing: no models to benchmark");
        return;
    }
    let soldier = Arc::new(studio_model::load(&dir.join("soldier.mdl")).expect("model").model);
    let mut pose = Pose::new(&soldier);
    PoseEvaluator::new(soldier.clone())
        .evaluate(&PoseRequest { sequence: 3, frame: 1.5, ..PoseRequest::default() }, &mut pose)
        .expect("pose");
    let big = with_bones(&soldier, &pose, 128);
    let samples = context.sample_count(OFFSCREEN_FORMAT);
    // A small target: the bench times the CPU's side of a frame, and lavapipe runs the GPU's
    // side on the CPU too.
    let target = OffscreenTarget::new(&context, 64, 64, samples);
    let mut options = RenderOptions::default();
    options.overlay.skeleton = true;
    options.overlay.hitboxes = true;
    options.overlay.attachments = true;
    options.overlay.bounding_box = true;
    let mut group = c.benchmark_group("frame");
    for (name, model, pose) in [("soldier (32 bones)", &*soldier, &pose), ("128 bones", &big.0, &big.1)] {
        let mut renderer = Renderer::new(&context, OFFSCREEN_FORMAT, samples);
        let gpu = renderer.upload(&studio_render::goldsrc::render_model(model));
        let frame = studio_render::goldsrc::frame_pose(model, pose, Some(3));
        let camera = Camera::framing(model.header.bbmin, model.header.bbmax, 30.0, 15.0);
        let (clip, view) = (camera.clip_from_model(16.0 / 9.0), camera.view_from_model());
        // A frame's CPU side as the app makes it (`common::timed_frame`).
        group.bench_function(format!("{name}/prepare+record"), |b| {
            b.iter_custom(|iterations| {
                let mut spent = std::time::Duration::ZERO;
                for _ in 0..iterations {
                    spent += common::timed_frame(
                        (&context, &target),
                        &mut renderer,
                        &gpu,
                        &frame,
                        (clip, view),
                        &options,
                    );
                }
                spent
            });
        });
    }
    group.finish();
}

criterion_group!(benches, frame);
criterion_main!(benches);
