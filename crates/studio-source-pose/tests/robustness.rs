//! Posing mutated files: whatever a file that still reads holds (IK locks, layers, local
//! hierarchies, value streams), every sequence poses at a few cycles without a panic.

use studio_source::{SourceFiles, parse_set};
use studio_source_pose::{Rig, SourceRequest, evaluate};

#[test]
fn mutated_models_that_read_pose_without_panicking() {
    let Some(shared) = studio_testing::shared() else { return };
    let dir = "fixtures/source/models/fixture";
    let mdl = studio_testing::read(&shared, &format!("{dir}/anim48.mdl"));
    let ani = studio_testing::read(&shared, &format!("{dir}/anim48.ani"));
    let mut rng = studio_testing::Rng::new(11);
    let mut posed = 0;
    for round in 0..300 {
        let (mut m, mut a) = (mdl.clone(), ani.clone());
        // Mostly the .mdl's header and records; every third round the .ani's streams.
        if round % 3 == 0 {
            studio_testing::mutate(&mut rng, &mut a, (0, 0));
        } else {
            studio_testing::mutate(&mut rng, &mut m, (156, 60));
        }
        let files = SourceFiles { mdl: &m, vvd: None, vtx: None, ani: Some(&a), includes: Vec::new() };
        let Ok(model) = parse_set(&files) else { continue };
        let rig = Rig::new(&model);
        let params: Vec<f32> =
            rig.pose_parameters.iter().map(studio_source_pose::params::default_value).collect();
        for sequence in 0..rig.num_sequences() {
            for cycle in [0.0, 0.37, 0.999] {
                let request = SourceRequest {
                    sequence,
                    cycle,
                    params: &params,
                    controllers: Some([0.5; 5]),
                    time: 1.3,
                    autoplay: true,
                    layers: &[],
                };
                let bones = evaluate(&rig, &request);
                assert_eq!(bones.len(), model.bones.len());
            }
        }
        posed += 1;
    }
    assert!(posed > 50, "{posed} mutated models posed");
}
