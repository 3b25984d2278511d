//! Every pose of `../shared/reference/source/` compared with the evaluator (bone matrices, hit
//! box corners and attachment points), within the README's tolerance: |a − r| ≤ 1e-3 · max(1, |r|).

use std::collections::BTreeMap;

use serde_json::Value;
use studio_source_pose::{SourceRequest, evaluate, params};

fn close(a: f32, r: f64) -> bool {
    (f64::from(a) - r).abs() <= 1e-3 * r.abs().max(1.0)
}

/// Per sequence label: poses matching, poses compared, and the first mismatch.
type Results = BTreeMap<String, (usize, usize, Option<String>)>;

fn compare(file: &str) -> Option<Results> {
    let shared = studio_testing::shared()?;
    let reference: Value =
        serde_json::from_slice(&studio_testing::read(&shared, &format!("reference/source/{file}"))).unwrap();
    let model_path = shared.join("fixtures/source").join(reference["model"].as_str().unwrap());
    let model = studio_source::load(&model_path).unwrap().model;
    let rig = studio_source_pose::Rig::new(&model);
    let mut evaluator = studio_source_pose::SourceEvaluator::new(&model);
    // The combined model's sequences and pose parameters are the reference's.
    let labels: Vec<&str> = (0..rig.num_sequences()).filter_map(|i| rig.label(i)).collect();
    let expected: Vec<&str> =
        reference["sequences"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    assert_eq!(labels, expected, "{file}");
    for (p, e) in rig.pose_parameters.iter().zip(reference["pose_parameters"].as_array().unwrap()) {
        assert_eq!(p.name, e["name"].as_str().unwrap());
        assert_eq!(
            (f64::from(p.start), f64::from(p.end)),
            (e["start"].as_f64().unwrap(), e["end"].as_f64().unwrap())
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
            if let Some(i) = rig.pose_parameters.iter().position(|p| p.name.eq_ignore_ascii_case(name)) {
                normalised[i] = params::normalise(&rig.pose_parameters[i], value.as_f64().unwrap() as f32);
            }
        }
        let request = SourceRequest {
            sequence: pose["seq"].as_u64().unwrap() as usize,
            cycle: pose["cycle"].as_f64().unwrap() as f32,
            params: &normalised,
            controllers: None,
            autoplay: None,
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
        let corners = studio_source_pose::hitbox_corners(&model, 0, &bones);
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
        let points = studio_source_pose::attachment_points(&model, &bones);
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
    Some(results)
}

#[test]
fn every_reference_pose_matches() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for file in ["skeleton48.json", "anim48.json", "anim48_noani.json", "include48.json"] {
        let Some(results) = compare(file) else { return };
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
        &SourceRequest { sequence: 0, cycle: 0.0, params: &params, controllers: None, autoplay: None },
    );
    let mut skinning = Vec::new();
    studio_source_pose::skinning_matrices(&model, &bones, &mut skinning);
    for (b, m) in skinning.iter().enumerate() {
        assert!(m.abs_diff_eq(glam::Affine3A::IDENTITY, 4e-3), "bone {b}: {m:?}");
    }
}
