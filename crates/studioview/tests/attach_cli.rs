//! `render --attach`: a weapon made from the demo model (scaled down, its root renamed after a
//! bone of the model it is attached to, its other bones renamed apart) follows that bone by
//! bone merge: its root takes the bone's place, its other bones keep their own pose under it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use glam::Vec3;

fn studioview(args: &[&str]) -> Output {
    studio_testing::process::output(Command::new(env!("CARGO_BIN_EXE_studioview")).args(args))
}

/// The demo model as a weapon for a model with a bone named `hand`, written into `dir`.
fn make_weapon(dir: &Path, hand: &str, file: &str) -> PathBuf {
    let demo = studio_demo::demo_model();
    let t = studio_edit::transform::ModelTransform { scale: 0.3, ..Default::default() };
    let (mut model, _) = studio_edit::transform::transform(&demo, &t).unwrap();
    for (i, bone) in model.bones.iter_mut().enumerate() {
        bone.name = if i == 0 { hand.to_owned() } else { format!("w_{}", bone.name) };
    }
    let path = dir.join(file);
    std::fs::write(&path, studio_model::write(&model).unwrap().main).unwrap();
    path
}

#[test]
fn an_attached_models_matching_bone_takes_the_bones_place() {
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "attach");
    let player = dir.join("critter.mdl");
    std::fs::write(&player, studio_demo::demo_bytes().unwrap()).unwrap();
    let weapon = make_weapon(&dir, "HEAD", "p_critter.mdl");
    // The player's pose, and the weapon's own.
    let model = Arc::new(studio_demo::demo_model());
    let names: Vec<&str> = model.bones.iter().map(|b| b.name.as_str()).collect();
    let head = names.iter().position(|n| *n == "head").unwrap();
    let mut evaluator = studio_pose::PoseEvaluator::new(model.clone());
    let mut pose = studio_pose::Pose::new(&model);
    let walk = model.sequences.iter().position(|s| s.label == "walk").unwrap();
    let request = studio_pose::PoseRequest { sequence: walk, frame: 5.0, ..Default::default() };
    evaluator.evaluate(&request, &mut pose).unwrap();
    let mut attached = studio_document::second_model::SecondModel::attach(&weapon, &names, &[]).unwrap();
    assert_eq!(attached.matched(), 1, "the root matches head, case ignored");
    attached.pose(0.0, &[]).unwrap();
    let own: Vec<glam::Affine3A> = attached.frame_pose().bones.to_vec();
    attached.pose(0.0, &pose.bones).unwrap();
    let merged = attached.frame_pose().bones.to_vec();
    assert_eq!(merged[0], pose.bones[head], "the weapon's root is the player's head");
    for i in 1..merged.len() {
        // Each other bone keeps its place relative to the weapon's root.
        let relative = own[0].inverse() * own[i];
        assert!(merged[i].abs_diff_eq(merged[0] * relative, 1e-3), "bone {i}");
    }
    let p = Vec3::from(merged[1].translation);
    assert!((p - Vec3::from(pose.bones[head].translation)).length() < 40.0, "the weapon is at the head");

    if studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none() {
        eprintln!("note: no graphics adapter; skipping the render");
        return;
    }
    let render = |extra: &[&str], out: &str| {
        let out = dir.join(out);
        let mut args =
            vec!["render", player.to_str().unwrap(), "--seq", "walk", "--size", "160x120", "--out"];
        args.push(out.to_str().unwrap());
        args.extend_from_slice(extra);
        let result = studioview(&args);
        assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
        (std::fs::read(&out).unwrap(), String::from_utf8_lossy(&result.stderr).into_owned())
    };
    let (plain, _) = render(&[], "plain.png");
    let (with, said) = render(&["--attach", weapon.to_str().unwrap()], "attached.png");
    assert!(plain != with, "the weapon is drawn");
    assert!(!said.contains("none of its bones"), "{said}");
    // A model with no bone of the player's names is drawn where it is, and said so.
    let stray = make_weapon(&dir, "no such bone", "p_stray.mdl");
    let (_, said) = render(&["--attach", stray.to_str().unwrap(), "--frames", "2"], "stray.gif");
    assert!(said.contains("none of its bones"), "{said}");
}
