//! After a sequence's table is built, evaluating a pose allocates nothing.

use std::sync::Arc;

use studio_pose::{ControllerBytes, Pose, PoseEvaluator, PoseRequest};

#[test]
fn poses_do_not_allocate_once_tables_are_built() {
    let Some(dir) = studio_testing::shared() else { return };
    for path in
        ["models/ns/soldier.mdl", "fixtures/blends.mdl", "fixtures/controllers.mdl", "fixtures/groups.mdl"]
    {
        let model = Arc::new(studio_model::load(&dir.join(path)).unwrap().model);
        let mut evaluator = PoseEvaluator::new(model.clone());
        // The counter does see allocations: building the tables makes some.
        let build = allocation_counter::measure(|| evaluator.prepare_all());
        assert!(build.count_total > 0, "{path}: building tables allocated nothing?");
        let mut pose = Pose::new(&model);
        let mut evaluated = 0;
        let info = allocation_counter::measure(|| {
            for k in 0..50u8 {
                for (sequence, seq) in model.sequences.iter().enumerate() {
                    let request = PoseRequest {
                        sequence,
                        frame: (f32::from(k) * 0.37) % seq.frames() as f32,
                        blend: [k.wrapping_mul(37), k.wrapping_mul(91)],
                        controllers: ControllerBytes { user: [k, k.wrapping_mul(3), 7, 200], mouth: k },
                    };
                    evaluator.evaluate(&request, &mut pose).unwrap();
                    evaluator.evaluate_from_runs(&request, &mut pose).unwrap();
                    evaluated += 2;
                }
            }
        });
        assert!(evaluated > 0);
        assert_eq!(info.count_total, 0, "{path}: {evaluated} poses made {} allocations", info.count_total);
    }
}
