//! Every pose in `../shared/reference/` — computed by Valve's own bone-setup code — is matched
//! by both of the evaluator's paths (keyframe tables and straight from the runs), within the
//! reference's tolerance: `|a − r| ≤ 1e-4 × max(1, |r|)`.

use std::sync::Arc;

use serde_json::Value;
use studio_pose::{ControllerBytes, Pose, PoseEvaluator, PoseRequest};

/// The reference's stated tolerance, relative above magnitude 1.
const TOLERANCE: f32 = 1e-4;

fn close(a: f32, r: f32) -> bool {
    (a - r).abs() <= TOLERANCE * r.abs().max(1.0)
}

fn floats(value: &Value) -> Vec<f32> {
    match value {
        Value::Array(items) => items.iter().flat_map(floats).collect(),
        Value::Number(n) => vec![n.as_f64().unwrap() as f32],
        other => panic!("unexpected {other}"),
    }
}

fn request(pose: &Value) -> PoseRequest {
    let byte = |v: &Value| u8::try_from(v.as_u64().unwrap()).unwrap();
    let blend: Vec<u8> = pose["blend"].as_array().unwrap().iter().map(byte).collect();
    let user: Vec<u8> = pose["controller"].as_array().unwrap().iter().map(byte).collect();
    PoseRequest {
        sequence: pose["seq"].as_u64().unwrap() as usize,
        frame: pose["frame"].as_f64().unwrap() as f32,
        blend: [blend[0], blend[1]],
        controllers: ControllerBytes {
            user: [user[0], user[1], user[2], user[3]],
            mouth: byte(&pose["mouth"]),
        },
    }
}

/// Compares one evaluated pose with the reference; the error names the pose and the bone.
fn compare(name: &str, index: usize, expected: &Value, pose: &Pose, path: &str) -> Result<(), String> {
    let req = request(expected);
    let what = format!(
        "{name} pose {index} (seq {}, frame {}, blend {:?}, controllers {:?}) via {path}",
        req.sequence, req.frame, req.blend, req.controllers
    );
    for (bone, reference) in expected["bones"].as_array().unwrap().iter().enumerate() {
        let reference = floats(reference);
        let m = pose.bones[bone];
        let ours = [
            m.matrix3.x_axis.x,
            m.matrix3.y_axis.x,
            m.matrix3.z_axis.x,
            m.translation.x,
            m.matrix3.x_axis.y,
            m.matrix3.y_axis.y,
            m.matrix3.z_axis.y,
            m.translation.y,
            m.matrix3.x_axis.z,
            m.matrix3.y_axis.z,
            m.matrix3.z_axis.z,
            m.translation.z,
        ];
        if let Some(i) = (0..12).find(|&i| !close(ours[i], reference[i])) {
            return Err(format!(
                "{what}: bone {bone} element {i}: {} vs reference {}\n  ours {ours:?}\n  ref  {reference:?}",
                ours[i], reference[i]
            ));
        }
    }
    for (h, reference) in expected["hitboxes"].as_array().unwrap().iter().enumerate() {
        let reference = floats(reference);
        let ours: Vec<f32> = pose.hitboxes[h].iter().flat_map(|c| c.to_array()).collect();
        if let Some(i) = (0..24).find(|&i| !close(ours[i], reference[i])) {
            return Err(format!(
                "{what}: hit box {h} corner {} axis {}: {} vs reference {}",
                i / 3,
                i % 3,
                ours[i],
                reference[i]
            ));
        }
    }
    for (a, reference) in expected["attachments"].as_array().unwrap().iter().enumerate() {
        let reference = floats(reference);
        let ours = pose.attachments[a].to_array();
        if let Some(i) = (0..3).find(|&i| !close(ours[i], reference[i])) {
            return Err(format!(
                "{what}: attachment {a} axis {i}: {} vs reference {}",
                ours[i], reference[i]
            ));
        }
    }
    Ok(())
}

fn check_model(name: &str, model_path: &str) {
    let Some(shared) = studio_testing::shared() else { return };
    let loaded = studio_model::load(&shared.join(model_path)).unwrap();
    let model = Arc::new(loaded.model);
    let text = std::fs::read_to_string(shared.join(format!("reference/{name}.json"))).unwrap();
    let reference: Value = serde_json::from_str(&text).unwrap();
    let bone_names: Vec<&str> =
        reference["bones"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
    let ours: Vec<&str> = model.bones.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(ours, bone_names, "{name}: bone names");

    let mut evaluator = PoseEvaluator::new(model.clone());
    evaluator.prepare_all();
    let available = model.sequences.iter().filter(|s| s.animation.is_some()).count();
    let tabled = (0..model.sequences.len()).filter(|&s| evaluator.is_tabled(s)).count();
    assert_eq!(tabled, available, "{name}: every sequence of a well-formed model gets a table");

    // The same model written out by studio-model's writer and read back must pose the same.
    let files = studio_model::write(&model).unwrap();
    let rewritten = Arc::new(
        studio_model::parse(&studio_model::ModelFiles {
            stem: name,
            main: &files.main,
            textures: files.textures.as_deref(),
            groups: files.groups.iter().map(|g| Some(g.as_slice())).collect(),
        })
        .unwrap(),
    );
    let mut rewritten_evaluator = PoseEvaluator::new(rewritten.clone());

    let mut pose = Pose::new(&model);
    let mut failures = Vec::new();
    let poses = reference["poses"].as_array().unwrap();
    for (index, expected) in poses.iter().enumerate() {
        let req = request(expected);
        evaluator.evaluate(&req, &mut pose).unwrap();
        if let Err(e) = compare(name, index, expected, &pose, "table") {
            failures.push(e);
        }
        evaluator.evaluate_from_runs(&req, &mut pose).unwrap();
        if let Err(e) = compare(name, index, expected, &pose, "runs") {
            failures.push(e);
        }
        rewritten_evaluator.evaluate(&req, &mut pose).unwrap();
        if let Err(e) = compare(name, index, expected, &pose, "rewritten file") {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} comparisons failed; the first ones:\n{}",
        failures.len(),
        3 * poses.len(),
        failures.iter().take(6).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn rle_fixture() {
    check_model("rle", "fixtures/rle.mdl");
}

#[test]
fn blends_fixture() {
    check_model("blends", "fixtures/blends.mdl");
}

#[test]
fn controllers_fixture() {
    check_model("controllers", "fixtures/controllers.mdl");
}

#[test]
fn groups_fixture() {
    check_model("groups", "fixtures/groups.mdl");
}

#[test]
fn soldier() {
    check_model("soldier", "models/ns/soldier.mdl");
}

#[test]
fn alien4() {
    check_model("alien4", "models/ns/alien4.mdl");
}

#[test]
fn hive() {
    check_model("hive", "models/ns/hive.mdl");
}

#[test]
fn v_mg() {
    check_model("v_mg", "models/ns/v_mg.mdl");
}
