//! `STUDIO_AUTOPLAY` sequences (`CalcAutoplaySequences`): no fixture has one, so a fixture's
//! sequence is marked. A full-weight autoplay sequence played on top of another replaces it,
//! so the pose equals that sequence's own at the cycle the clock gives it.

use studio_source::parse_mdl;
use studio_source_pose::{Rig, STUDIO_AUTOPLAY, SourceRequest, evaluate, playback};

#[test]
fn an_autoplay_sequence_plays_on_the_real_time_clock() {
    let Some(shared) = studio_testing::shared() else { return };
    let bytes = studio_testing::read(&shared, "fixtures/source/models/fixture/anim48.mdl");
    let mut model = parse_mdl(&bytes).unwrap();
    let walk = model.sequences.iter().position(|s| s.label == "walk").expect("walk");
    assert!(model.sequences[walk].weights.iter().all(|&w| w == 1.0), "walk has full weight on every bone");
    model.sequences[walk].flags |= STUDIO_AUTOPLAY;
    let rig = Rig::new(&model);
    assert_eq!(rig.autoplay(), &[walk]);
    let params: Vec<f32> =
        rig.pose_parameters.iter().map(studio_source_pose::params::default_value).collect();
    let rate = playback::cycle_rate(&rig, rig.sequence(walk).unwrap(), &params);
    assert!(rate > 0.0);
    let time = 2.3;
    let cycle = (time * rate).fract();
    let request = |sequence, cycle, autoplay: Option<f32>| SourceRequest {
        sequence,
        cycle,
        params: &params,
        controllers: None,
        time: autoplay.unwrap_or(0.0),
        autoplay: autoplay.is_some(),
        layers: &[],
    };
    let with_autoplay = evaluate(&rig, &request(0, 0.0, Some(time)));
    let walking = evaluate(&rig, &request(walk, cycle, None));
    for (i, (a, b)) in with_autoplay.iter().zip(&walking).enumerate() {
        assert!(a.abs_diff_eq(*b, 1e-5), "bone {i}: {a:?} vs {b:?}");
    }
    // Without the clock the autoplay sequence stays out, as in the references.
    let plain = evaluate(&rig, &request(0, 0.0, None));
    assert!(plain.iter().zip(&walking).any(|(a, b)| !a.abs_diff_eq(*b, 1e-3)));
}
