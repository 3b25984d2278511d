//! What the tests of the Source references share: a reference's poses compared with the
//! evaluator on a model, within the README's tolerance.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use studio_source::SourceModel;
use studio_source_pose::{SourceRequest, evaluate, params};

/// The references' tolerance: |a − r| ≤ 1e-3 · max(1, |r|).
pub fn close(a: f32, r: f64) -> bool {
    (f64::from(a) - r).abs() <= 1e-3 * r.abs().max(1.0)
}

/// Per sequence label: poses matching, poses compared, and the first mismatch.
pub type Results = BTreeMap<String, (usize, usize, Option<String>)>;

/// A reference file of `../shared/reference/source/` and the shared folder, or `None` (said)
/// where `../shared` is missing.
pub fn reference(file: &str) -> Option<(PathBuf, Value)> {
    let shared = studio_testing::shared()?;
    let reference =
        serde_json::from_slice(&studio_testing::read(&shared, &format!("reference/source/{file}"))).unwrap();
    Some((shared, reference))
}

/// anim48.mdl with its `.vvd`, `.vtx` and `.ani`, its `.mdl` bytes changed by `change` first,
/// and its reference; `None` (said) where `../shared` is missing. The change must leave the
/// model without warnings.
pub fn anim48_changed(change: impl FnOnce(&mut Vec<u8>)) -> Option<(SourceModel, Value)> {
    let (shared, reference) = reference("anim48.json")?;
    let read =
        |ext: &str| studio_testing::read(&shared, &format!("fixtures/source/models/fixture/anim48.{ext}"));
    let (mut mdl, vvd, vtx, ani) = (read("mdl"), read("vvd"), read("dx90.vtx"), read("ani"));
    change(&mut mdl);
    let files = studio_source::SourceFiles {
        mdl: &mdl,
        vvd: Some(&vvd),
        vtx: Some(&vtx),
        ani: Some(&ani),
        includes: Vec::new(),
    };
    let model = studio_source::parse_set(&files).unwrap();
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    Some((model, reference))
}

/// The model a reference is of, loaded with its companions.
pub fn reference_model(shared: &Path, reference: &Value) -> SourceModel {
    let model_path = shared.join("fixtures/source").join(reference["model"].as_str().unwrap());
    studio_source::load(&model_path).unwrap().model
}

/// Whether [`compare`] checks the combined model's sequence labels and pose parameter names
/// against the reference's (a test that renames them checks their number and order only).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Names {
    /// As the reference gives them.
    Checked,
    /// Not compared.
    Renamed,
}

/// Every pose of `reference` compared with the evaluator on `model` (bone matrices, hit box
/// corners and attachment points): sequences by index, pose parameters by their place in the
/// reference's list.
pub fn compare(reference: &Value, model: &SourceModel, names: Names) -> Results {
    let file = reference["model"].as_str().unwrap();
    let rig = studio_source_pose::Rig::new(model);
    let mut evaluator = studio_source_pose::SourceEvaluator::new(model);
    // The combined model's sequences and pose parameters are the reference's.
    let labels: Vec<&str> = (0..rig.num_sequences()).filter_map(|i| rig.label(i)).collect();
    let expected: Vec<&str> =
        reference["sequences"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    assert_eq!(labels.len(), expected.len(), "{file}: sequences {labels:?}");
    if names == Names::Checked {
        assert_eq!(labels, expected, "{file}");
    }
    let reference_params = reference["pose_parameters"].as_array().unwrap();
    assert_eq!(rig.pose_parameters.len(), reference_params.len(), "{file}: pose parameters");
    for (p, e) in rig.pose_parameters.iter().zip(reference_params) {
        if names == Names::Checked {
            assert_eq!(p.name, e["name"].as_str().unwrap());
        }
        assert_eq!(
            (f64::from(p.start), f64::from(p.end)),
            (e["start"].as_f64().unwrap(), e["end"].as_f64().unwrap()),
            "{file}: {}",
            p.name
        );
        assert!(
            close(params::real(p, params::default_value(p)), e["default"].as_f64().unwrap()),
            "{file}: {}",
            p.name
        );
    }
    let mut results = Results::new();
    for pose in reference["poses"].as_array().unwrap() {
        let label = pose["label"].as_str().unwrap().to_owned();
        let mut normalised: Vec<f32> = rig.pose_parameters.iter().map(params::default_value).collect();
        for (name, value) in pose["params"].as_object().unwrap() {
            let i = reference_params.iter().position(|p| p["name"].as_str() == Some(name.as_str())).unwrap();
            normalised[i] = params::normalise(&rig.pose_parameters[i], value.as_f64().unwrap() as f32);
        }
        let request = SourceRequest {
            sequence: pose["seq"].as_u64().unwrap() as usize,
            cycle: pose["cycle"].as_f64().unwrap() as f32,
            params: &normalised,
            controllers: None,
            time: 0.0,
            autoplay: false,
            layers: &[],
        };
        // The evaluator (tables) and the table-free path give the same pose.
        let bones = evaluate(&rig, &request);
        let mut from_tables = Vec::new();
        evaluator.evaluate(&request, &mut from_tables);
        for (a, b) in bones.iter().zip(&from_tables) {
            assert!(a.abs_diff_eq(*b, 1e-4), "{label}: tables {b:?} and streams {a:?} differ");
        }
        let mut mismatch = None;
        for (b, expected) in pose["bones"].as_array().unwrap().iter().enumerate() {
            let m = bones[b];
            let cols = m.matrix3;
            let got = [
                cols.x_axis.x,
                cols.y_axis.x,
                cols.z_axis.x,
                m.translation.x,
                cols.x_axis.y,
                cols.y_axis.y,
                cols.z_axis.y,
                m.translation.y,
                cols.x_axis.z,
                cols.y_axis.z,
                cols.z_axis.z,
                m.translation.z,
            ];
            for (e, (&g, r)) in got.iter().zip(expected.as_array().unwrap()).enumerate() {
                let r = r.as_f64().unwrap();
                if !close(g, r) && mismatch.is_none() {
                    mismatch = Some(format!(
                        "{label} cycle {} params {}: bone {b} ({}) element {e}: {g} vs {r}",
                        pose["cycle"], pose["params"], model.bones[b].name
                    ));
                }
            }
        }
        let corners = studio_source_pose::hitbox_corners(model, 0, &bones);
        let expected_boxes = pose["hitboxes"].as_array().unwrap();
        assert_eq!(corners.len(), expected_boxes.len(), "{label}: hit boxes");
        for (h, (got, expected)) in corners.iter().zip(expected_boxes).enumerate() {
            for (c, (point, e)) in got.iter().zip(expected.as_array().unwrap()).enumerate() {
                for axis in 0..3 {
                    let r = e[axis].as_f64().unwrap();
                    if !close(point[axis], r) && mismatch.is_none() {
                        mismatch = Some(format!(
                            "{label} cycle {}: hit box {h} corner {c} axis {axis}: {} vs {r}",
                            pose["cycle"], point[axis]
                        ));
                    }
                }
            }
        }
        let points = studio_source_pose::attachment_points(model, &bones);
        let expected_points = pose["attachments"].as_array().unwrap();
        assert_eq!(points.len(), expected_points.len(), "{label}: attachments");
        for (a, (point, e)) in points.iter().zip(expected_points).enumerate() {
            for axis in 0..3 {
                let r = e[axis].as_f64().unwrap();
                if !close(point[axis], r) && mismatch.is_none() {
                    mismatch = Some(format!(
                        "{label} cycle {}: attachment {a} axis {axis}: {} vs {r}",
                        pose["cycle"], point[axis]
                    ));
                }
            }
        }
        let entry = results.entry(label).or_insert((0, 0, None));
        entry.1 += 1;
        if mismatch.is_none() {
            entry.0 += 1;
        } else if entry.2.is_none() {
            entry.2 = mismatch;
        }
    }
    results
}
