//! The committed demo model is what this crate builds, and it has everything it is there to
//! show — checked through the parser and the pose evaluator like any other model.

use std::sync::Arc;

use glam::Vec3;
use studio_model::Model;
use studio_pose::{ControllerBytes, Pose, PoseEvaluator, PoseRequest};

fn committed() -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(studio_demo::DEMO_PATH);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parsed() -> Arc<Model> {
    Arc::new(Model::parse(&committed()).unwrap())
}

#[test]
fn regenerating_gives_the_committed_bytes() {
    let bytes = studio_demo::demo_bytes().unwrap();
    assert!(
        bytes == committed(),
        "assets/demo.mdl is stale: run `cargo run -p studio-demo --bin make-demo` and commit it"
    );
    // And it is deterministic within one run too.
    assert_eq!(studio_demo::demo_bytes().unwrap(), bytes);
}

#[test]
fn the_demo_shows_off_the_format() {
    let m = parsed();
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    assert_eq!(m.bones.len(), 21);
    let mut groups: Vec<i32> = m.hitboxes.iter().map(|h| h.group).collect();
    groups.dedup();
    assert_eq!(groups, [0, 1, 2, 3, 4, 5, 6, 7], "a hit box in every hit group");
    assert_eq!(m.attachments.len(), 3);
    let c = &m.bone_controllers;
    assert!(c.iter().any(|c| c.is_rotation() && !c.is_rloop() && c.index == 0), "head turn");
    assert!(c.iter().any(|c| c.is_rloop() && c.index == 1), "rotor");
    assert!(c.iter().any(|c| c.input() == Some(studio_model::ControllerInput::Mouth)), "mouth");
    assert_eq!(m.skins.num_families(), 2);
    assert!(m.body_parts.iter().any(|p| p.submodels.len() == 2), "a body part with two choices");
    assert!(m.textures.iter().any(|t| t.is_chrome()) && m.textures.iter().any(|t| t.is_masked()));
    let find =
        |name: &str| m.sequences.iter().find(|s| s.label == name).unwrap_or_else(|| panic!("no {name}"));
    assert!(find("idle").is_looping());
    assert!(find("walk").is_looping() && find("walk").linear_movement.x > 0.0);
    assert!(!find("attack").is_looping() && find("attack").events.len() == 2);
    assert_eq!(find("aim").num_blends, 2);
    assert_eq!(find("look").num_blends, 4);
}

#[test]
fn every_face_is_wound_as_half_life_winds_them() {
    // Seen from outside, Half-Life's triangles run clockwise: the right-hand normal points in.
    let m = parsed();
    for part in &m.body_parts {
        for sub in &part.submodels {
            for mesh in &sub.meshes {
                for t in &mesh.triangles {
                    let v = t.map(|i| mesh.vertices[i as usize]);
                    let p = v.map(|v| sub.vertices[usize::from(v.vertex)]);
                    let normal = sub.normals[usize::from(v[0].normal)];
                    let facing = (p[1] - p[0]).cross(p[2] - p[0]).dot(normal);
                    assert!(facing < 0.0, "{} triangle {t:?} faces outward", sub.name);
                }
            }
        }
    }
}

fn evaluate(
    evaluator: &mut PoseEvaluator,
    pose: &mut Pose,
    sequence: usize,
    frame: f32,
    blend: [u8; 2],
    controllers: ControllerBytes,
) {
    let request = PoseRequest { sequence, frame, blend, controllers };
    evaluator.evaluate(&request, pose).unwrap();
}

#[test]
fn its_poses_move_as_designed() {
    let m = parsed();
    let mut evaluator = PoseEvaluator::new(m.clone());
    let mut pose = Pose::new(&m);
    let mut other = Pose::new(&m);
    let rest = ControllerBytes { user: [128, 0, 0, 0], mouth: 0 };
    // Every sequence, both evaluation paths agree and stay finite.
    for sequence in 0..m.sequences.len() {
        for frame in [0.0, 1.5, 4.25, 9.0] {
            let request = PoseRequest { sequence, frame, blend: [90, 200], controllers: rest };
            evaluator.evaluate(&request, &mut pose).unwrap();
            evaluator.evaluate_from_runs(&request, &mut other).unwrap();
            for (a, b) in pose.bones.iter().zip(&other.bones) {
                assert!(a.is_finite() && a.abs_diff_eq(*b, 1e-4), "sequence {sequence} frame {frame}");
            }
        }
    }
    // Walking: the motion bone stays over the origin (STUDIO_X is extracted) while the legs move.
    evaluate(&mut evaluator, &mut pose, 1, 0.0, [0, 0], rest);
    let start = pose.bones.clone();
    evaluate(&mut evaluator, &mut pose, 1, 6.0, [0, 0], rest);
    assert!(pose.bones[0].translation.x.abs() < 1e-3);
    assert!((pose.bones[15].translation - start[15].translation).length() > 1.0, "the left foot moves");
    // The mouth opens the jaw; the head-turn controller turns the head; aiming tilts the chest.
    evaluate(&mut evaluator, &mut pose, 0, 0.0, [0, 0], rest);
    let (jaw, head) = (pose.attachments[0], pose.bones[4].matrix3.x_axis);
    evaluate(&mut evaluator, &mut pose, 0, 0.0, [0, 0], ControllerBytes { user: [255, 0, 0, 0], mouth: 64 });
    assert!(pose.attachments[0].z < jaw.z - 1.0, "the mouth opens downwards");
    assert!(
        Vec3::from(pose.bones[4].matrix3.x_axis).angle_between(head.into()) > 0.9,
        "the head turns about 60°"
    );
    evaluate(&mut evaluator, &mut pose, 3, 0.0, [0, 0], rest);
    let down = pose.bones[2].matrix3.z_axis;
    evaluate(&mut evaluator, &mut pose, 3, 0.0, [255, 0], rest);
    assert!(
        Vec3::from(pose.bones[2].matrix3.z_axis).angle_between(down.into()) > 0.5,
        "aiming tilts the chest"
    );
}
