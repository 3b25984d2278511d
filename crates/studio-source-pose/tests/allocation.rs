//! After a few poses have warmed its buffers up, the Source evaluator allocates nothing per pose:
//! every sequence of every fixture, across cycles and pose parameters.

use studio_source_pose::{SourceEvaluator, SourceRequest};

#[test]
fn poses_allocate_nothing_once_warm() {
    let Some(shared) = studio_testing::shared() else { return };
    for name in ["skeleton48", "anim48", "anim48_noani", "include48"] {
        let path = shared.join(format!("fixtures/source/models/fixture/{name}.mdl"));
        let model = studio_source::load(&path).unwrap().model;
        let mut evaluator = SourceEvaluator::new(&model);
        let rig_sequences = evaluator.rig().num_sequences();
        let mut params = vec![0.5f32; evaluator.rig().pose_parameters.len()];
        let mut out = Vec::with_capacity(model.bones.len());
        let run = |evaluator: &mut SourceEvaluator<'_>, params: &mut Vec<f32>, out: &mut Vec<_>| {
            for k in 0..40 {
                for (j, p) in params.iter_mut().enumerate() {
                    *p = ((k as f32) * 0.29 + j as f32 * 0.13).fract();
                }
                for sequence in 0..rig_sequences {
                    let cycle = (k as f32 * 0.37).fract();
                    evaluator.evaluate(
                        &SourceRequest {
                            sequence,
                            cycle,
                            params,
                            controllers: None,
                            time: 0.0,
                            autoplay: false,
                            layers: &[],
                        },
                        out,
                    );
                }
            }
        };
        run(&mut evaluator, &mut params, &mut out);
        let info = allocation_counter::measure(|| run(&mut evaluator, &mut params, &mut out));
        assert_eq!(
            info.count_total,
            0,
            "{name}: {} allocations over {} poses",
            info.count_total,
            40 * rig_sequences
        );
    }
}
