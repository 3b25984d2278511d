//! Pose evaluation on the Natural Selection models, over the same workload as
//! `studioview bench` (see `studio_pose::workload`): `cargo bench -p studio-pose`.

#![allow(missing_docs)]

use std::path::PathBuf;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use studio_pose::{Pose, PoseEvaluator, workload};

/// Poses per measured iteration.
const POSES: usize = 1000;

fn evaluate_poses(c: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/models/ns");
    if !dir.is_dir() {
        eprintln!("../shared is missing: no models to benchmark");
        return;
    }
    let mut group = c.benchmark_group("pose");
    for name in ["soldier", "alien4", "hive", "v_mg"] {
        let model = Arc::new(studio_model::load(&dir.join(format!("{name}.mdl"))).expect("model").model);
        let evaluable = workload::evaluable(&model);
        let mut evaluator = PoseEvaluator::new(model.clone());
        evaluator.prepare_all();
        let mut pose = Pose::new(&model);
        group.throughput(Throughput::Elements((POSES * model.bones.len()) as u64));
        group.bench_function(format!("{name}/bones"), |b| {
            b.iter(|| {
                let mut sum = 0.0;
                for i in 0..POSES {
                    let request = workload::request(&model, &evaluable, i);
                    evaluator.evaluate_bones(&request, &mut pose).expect("evaluates");
                    sum += workload::checksum(&pose);
                }
                sum
            })
        });
        group.bench_function(format!("{name}/with_points"), |b| {
            b.iter(|| {
                for i in 0..POSES {
                    let request = workload::request(&model, &evaluable, i);
                    evaluator.evaluate(&request, &mut pose).expect("evaluates");
                }
                pose.bones[0]
            })
        });
    }
    group.finish();
}

criterion_group!(benches, evaluate_poses);
criterion_main!(benches);
