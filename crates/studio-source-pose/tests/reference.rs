//! Every pose of `../shared/reference/source/` compared with the evaluator (bone matrices, hit
//! box corners and attachment points), within the README's tolerance: |a − r| ≤ 1e-3 · max(1, |r|).

mod common;

use common::Names;
use studio_source_pose::{SourceRequest, evaluate, params};

#[test]
fn every_reference_pose_matches() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for file in ["skeleton48.json", "anim48.json", "anim48_noani.json", "include48.json"] {
        let Some((shared, reference)) = common::reference(file) else { return };
        let model = common::reference_model(&shared, &reference);
        let results = common::compare(&reference, &model, Names::Checked);
        for (label, (ok, all, first)) in &results {
            eprintln!("{file} {label}: {ok}/{all} {}", first.clone().unwrap_or_default());
            compared += all;
            if ok != all {
                failures.push(first.clone().unwrap_or_default());
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // 10 + 324 + 20 + 80 poses (the README's table).
    assert_eq!(compared, 434, "poses compared");
}

/// In the fixture's `ref` pose the skeleton stands in its bind pose, so every skinning matrix
/// (bone-to-model × pose-to-bone) is the identity and the `.vvd` vertices stay where they are,
/// up to the quantisation of the stored animation (the fixtures' README: about 0.004 units).
#[test]
fn skinning_matrices_are_the_identity_in_the_bind_pose() {
    let Some(shared) = studio_testing::shared() else { return };
    let model =
        studio_source::load(&shared.join("fixtures/source/models/fixture/skeleton48.mdl")).unwrap().model;
    let rig = studio_source_pose::Rig::new(&model);
    let params: Vec<f32> = rig.pose_parameters.iter().map(params::default_value).collect();
    let bones = evaluate(
        &rig,
        &SourceRequest {
            sequence: 0,
            cycle: 0.0,
            params: &params,
            controllers: None,
            time: 0.0,
            autoplay: false,
            layers: &[],
        },
    );
    let mut skinning = Vec::new();
    studio_source_pose::skinning_matrices(&model, &bones, &mut skinning);
    for (b, m) in skinning.iter().enumerate() {
        assert!(m.abs_diff_eq(glam::Affine3A::IDENTITY, 4e-3), "bone {b}: {m:?}");
    }
}
