//! Rules of the engine's bone setup that the shared fixtures do not exercise, each on a fixture
//! made here from a shared one by changing a few fields, with the poses the reference gives for
//! the unchanged model (or, where the change must alter them, for an equivalent pose):
//!
//! - zero-frame data of a single frame is applied whatever its span (`CalcZeroframeData`);
//! - entries of one model that share a name stay apart (`virtualmodel_t::AppendAnimations`,
//!   `AppendSequences`, `AppendPoseParameters` match a model's entries only against those of
//!   the models appended before it).

mod common;

use common::{Names, Results};
use serde_json::Value;
use studio_source::{SourceFiles, parse_set};
use studio_testing::source_mdl::{
    ANIM_INDEX, ANIMDESC_SIZE, POSE_PARAM_INDEX, POSE_PARAM_SIZE, SEQ_INDEX, SEQDESC_SIZE, i16_at, i32_at,
    name, point_name, record, set_i16,
};

const FIXTURE: &str = "fixtures/source/models/fixture";

/// The poses that differ from the reference, one line each.
fn failures(results: &Results) -> Vec<String> {
    results.iter().filter(|(_, (ok, all, _))| ok != all).map(|(l, r)| format!("{l}: {r:?}")).collect()
}

#[test]
fn a_single_zero_frame_is_applied_whatever_its_span() {
    let Some((shared, mut reference)) = common::reference("anim48_noani.json") else { return };
    let mut mdl = studio_testing::read(&shared, &format!("{FIXTURE}/anim48_noani.mdl"));
    // @ani_run (animation 4) keeps 5 zero frames, one every 4; its .ani does not exist, so the
    // zero frames are its pose. Made one frame with a span of 0, as 1,518 animations of real
    // models have it: per bone with saved frames, its first position and first rotation, packed
    // where the five were.
    let flags: Vec<i32> = studio_source::parse_mdl(&mdl).unwrap().bones.iter().map(|b| b.flags).collect();
    let at = record(&mdl, ANIM_INDEX, ANIMDESC_SIZE, 4);
    assert_eq!(name(&mdl, at, 4).1, "@ani_run");
    assert_eq!(i16_at(&mdl, at + 88), 4, "zeroframespan");
    assert_eq!(i16_at(&mdl, at + 90), 5, "zeroframecount");
    let start = at + usize::try_from(i32_at(&mdl, at + 92)).unwrap();
    let (mut from, mut packed) = (start, Vec::new());
    for flag in flags {
        for (bit, size) in
            [(studio_source::BONE_HAS_SAVEFRAME_POS, 6), (studio_source::BONE_HAS_SAVEFRAME_ROT, 8)]
        {
            if flag & bit != 0 {
                packed.extend_from_slice(&mdl[from..from + size]);
                from += 5 * size;
            }
        }
    }
    assert_eq!(packed.len(), 6 + 4 * 8, "the pelvis's position and four rotations");
    mdl[start..start + packed.len()].copy_from_slice(&packed);
    set_i16(&mut mdl, at + 88, 0);
    set_i16(&mut mdl, at + 90, 1);
    let vvd = studio_testing::read(&shared, &format!("{FIXTURE}/anim48.vvd"));
    let model = parse_set(&SourceFiles { mdl: &mdl, vvd: Some(&vvd), ..SourceFiles::default() }).unwrap();
    assert!(
        model.warnings.iter().all(|w| !w.to_string().contains("zero")),
        "no warning about the zero frames: {:?}",
        model.warnings.iter().map(ToString::to_string).collect::<Vec<_>>()
    );
    let zero = model.animations[4].zero_frames.expect("the zero frames are kept");
    assert_eq!((zero.span, zero.count), (0, 1));
    // Frame 0 of the five is the first stored frame, so the reference's pose of ani_run at cycle
    // 0 is the pose the single frame gives at every cycle.
    let poses = reference["poses"].as_array_mut().unwrap();
    let first = poses.iter().find(|p| p["label"] == "ani_run" && p["cycle"] == 0.0).unwrap().clone();
    let mut changed = 0;
    for pose in poses.iter_mut().filter(|p| p["label"] == "ani_run") {
        for key in ["bones", "hitboxes", "attachments"] {
            if pose[key] != first[key] {
                changed += 1;
            }
            pose[key] = first[key].clone();
        }
    }
    assert!(changed > 0, "the other cycles of the five frames differ from the first");
    let results = common::compare(&reference, &model, Names::Checked);
    assert!(results["ani_run"].1 >= 10);
    assert_eq!(failures(&results), Vec::<String>::new());
}

/// anim48.mdl with its companions, its bytes changed by `change`, compared with its reference.
fn anim48_changed(change: impl FnOnce(&mut Vec<u8>)) -> Option<(Results, Value)> {
    let (model, reference) = common::anim48_changed(change)?;
    Some((common::compare(&reference, &model, Names::Renamed), reference))
}

#[test]
fn animations_of_one_model_that_share_a_name_stay_apart() {
    // The nine cells of blend9's grid (animations 6 to 14, @b9_x*_y*) all named as the first,
    // as the 12 cells of real HL2 blend grids are all named @layer_…: each cell still plays its
    // own animation.
    let renamed = anim48_changed(|mdl| {
        let first = record(mdl, ANIM_INDEX, ANIMDESC_SIZE, 6);
        let (target, label) = name(mdl, first, 4);
        assert!(label.starts_with("@b9_"), "{label}");
        for a in 7..=14 {
            let at = record(mdl, ANIM_INDEX, ANIMDESC_SIZE, a);
            assert!(name(mdl, at, 4).1.starts_with("@b9_"));
            point_name(mdl, at, 4, target);
            assert_eq!(name(mdl, at, 4).1, label);
        }
    });
    let Some((results, _)) = renamed else { return };
    assert!(results["blend9"].1 > 20, "blend9 is compared at {} poses", results["blend9"].1);
    assert_eq!(failures(&results), Vec::<String>::new());
}

#[test]
fn sequences_of_one_model_that_share_a_label_stay_apart() {
    let renamed = anim48_changed(|mdl| {
        // Sequence 7 (blend3) labelled as sequence 6 (blend9).
        let (blend9, blend3) =
            (record(mdl, SEQ_INDEX, SEQDESC_SIZE, 6), record(mdl, SEQ_INDEX, SEQDESC_SIZE, 7));
        let (target, label) = name(mdl, blend9, 4);
        assert_eq!((label.as_str(), name(mdl, blend3, 4).1.as_str()), ("blend9", "blend3"));
        point_name(mdl, blend3, 4, target);
    });
    let Some((results, reference)) = renamed else { return };
    // compare() found all 15 sequences, and reads each pose's sequence by index.
    assert_all_poses_match(&results, &reference, "blend3");
}

#[test]
fn pose_parameters_of_one_model_that_share_a_name_stay_apart() {
    let renamed = anim48_changed(|mdl| {
        // Pose parameter 2 (spin, 0 to 360, looping) named as pose parameter 1 (aim_yaw, −45 to
        // 45): merged, it would widen aim_yaw to −45 to 360 and leave spin_pose without spin.
        let (aim, spin) = (
            record(mdl, POSE_PARAM_INDEX, POSE_PARAM_SIZE, 1),
            record(mdl, POSE_PARAM_INDEX, POSE_PARAM_SIZE, 2),
        );
        let (target, label) = name(mdl, aim, 0);
        assert_eq!((label.as_str(), name(mdl, spin, 0).1.as_str()), ("aim_yaw", "spin"));
        point_name(mdl, spin, 0, target);
    });
    let Some((results, reference)) = renamed else { return };
    // compare() found 3 pose parameters with the reference's ranges, and reads each pose's
    // parameters by their place.
    assert_all_poses_match(&results, &reference, "spin_pose");
}

/// Every pose of the reference was compared, `label`'s among them, and all match.
fn assert_all_poses_match(results: &Results, reference: &Value, label: &str) {
    let compared: usize = results.values().map(|r| r.1).sum();
    assert_eq!(compared, reference["poses"].as_array().unwrap().len());
    assert!(results[label].1 > 0, "{label} was compared");
    assert_eq!(failures(results), Vec::<String>::new());
}
