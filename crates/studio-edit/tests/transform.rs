//! Transforms of whole models against the pose evaluator: every bone, hit box corner and
//! attachment of every sequence's poses goes to `R(s · p) + offset`, in memory and after saving
//! and reading back; flipped normals; undo.

use std::sync::Arc;

use glam::{Quat, Vec3, Vec3A};
use studio_edit::transform::{ModelTransform, TransformError, flip_normals, transform};
use studio_edit::{Change, GoldRecord, Records};
use studio_model::Model;
use studio_pose::{Pose, PoseEvaluator, PoseRequest};
use studio_testing::shared;

fn models() -> Vec<(String, Model)> {
    let mut models = vec![("demo".to_owned(), studio_demo::demo_model())];
    if let Some(shared) = shared() {
        for path in [
            "models/ns/soldier.mdl",
            "fixtures/groups.mdl",
            "fixtures/blends.mdl",
            "fixtures/controllers.mdl",
        ] {
            models.push((path.to_owned(), studio_model::load(&shared.join(path)).unwrap().model));
        }
    }
    models
}

/// The poses of a sequence at its first, middle and last frame, with both blends at 0 and 255.
fn poses(model: &Arc<Model>, sequence: usize) -> Vec<Pose> {
    let mut evaluator = PoseEvaluator::new(model.clone());
    let last = model.sequences[sequence].frames().saturating_sub(1) as f32;
    let mut out = Vec::new();
    for frame in [0.0, last / 2.0, last] {
        for blend in [[0, 0], [255, 255]] {
            let mut pose = Pose::new(model);
            let request = PoseRequest { sequence, frame, blend, ..PoseRequest::default() };
            evaluator.evaluate(&request, &mut pose).unwrap();
            out.push(pose);
        }
    }
    out
}

/// The largest step a root bone's position channels have (the quantization of re-encoded runs).
fn root_step(model: &Model) -> f32 {
    model
        .bones
        .iter()
        .filter(|b| b.parent.is_none())
        .map(|b| b.scale[0].abs().max(b.scale[1].abs()))
        .fold(0.0, f32::max)
}

fn check(name: &str, original: &Model, t: &ModelTransform) {
    let (moved, notes) = transform(original, t).unwrap();
    let rotation = Quat::from_rotation_z(t.rotate_z.to_radians());
    // Re-encoded root channels are exact to half their step.
    let step = root_step(&moved);
    let tolerance = |p: Vec3| step * 0.75 + 2e-4 * (1.0 + p.length());
    let (original, moved) = (Arc::new(original.clone()), Arc::new(moved));
    for sequence in 0..original.sequences.len() {
        if original.sequences[sequence].animation.is_none()
            || notes.iter().any(|n| n.starts_with(&format!("sequence {sequence} ")))
        {
            continue;
        }
        for (a, b) in poses(&original, sequence).iter().zip(poses(&moved, sequence)) {
            for (bone, (x, y)) in a.bones.iter().zip(&b.bones).enumerate() {
                let expected = t.point(Vec3::from(x.translation));
                let got = Vec3::from(y.translation);
                assert!(
                    (got - expected).length() <= tolerance(expected),
                    "{name} {t:?}: sequence {sequence} bone {bone}: {got} is not {expected}"
                );
                let (rx, ry) = (Quat::from_mat3a(&x.matrix3), Quat::from_mat3a(&y.matrix3));
                let want = rotation * rx;
                assert!(
                    want.dot(ry).abs() > 1.0 - 1e-4,
                    "{name}: sequence {sequence} bone {bone} turned wrongly"
                );
                // Scale does not enter a bone's rotation.
                assert!((y.matrix3.x_axis.length() - 1.0).abs() < 1e-3);
            }
            let points = |pose: &Pose| -> Vec<Vec3A> {
                pose.hitboxes.iter().flatten().copied().chain(pose.attachments.iter().copied()).collect()
            };
            for (p, q) in points(a).iter().zip(points(&b)) {
                let expected = t.point(Vec3::from(*p));
                assert!(
                    (Vec3::from(q) - expected).length() <= tolerance(expected),
                    "{name}: {q} is not {expected}"
                );
            }
        }
    }
    // Saved and read back, the transformed model poses the same as in memory.
    let files = studio_model::write(&moved).unwrap();
    let read = studio_model::parse(&studio_model::ModelFiles {
        stem: "moved",
        main: &files.main,
        textures: files.textures.as_deref(),
        groups: files.groups.iter().map(|g| Some(g.as_slice())).collect(),
    })
    .unwrap();
    let read = Arc::new(read);
    for sequence in 0..moved.sequences.len() {
        if moved.sequences[sequence].animation.is_none() {
            continue;
        }
        for (k, (a, b)) in poses(&moved, sequence).iter().zip(poses(&read, sequence)).enumerate() {
            for (i, (x, y)) in a.bones.iter().zip(&b.bones).enumerate() {
                // The same to float precision (the demo model, built in code, differs from its
                // own file by an ulp in one blended rotation even untransformed).
                assert!(
                    x.abs_diff_eq(*y, 1e-5),
                    "{name} {t:?}: sequence {sequence} pose {k} bone {i} differs once saved"
                );
            }
        }
    }
    let h = &read.header;
    assert!((h.eye_position - t.point(original.header.eye_position)).length() < 1e-3);
}

#[test]
fn transforms_move_every_pose_as_the_evaluator_shows_it() {
    let transforms = [
        ModelTransform { scale: 2.0, ..Default::default() },
        ModelTransform { rotate_z: 90.0, ..Default::default() },
        ModelTransform { rotate_z: 30.0, ..Default::default() },
        ModelTransform { offset: Vec3::new(10.0, -5.0, 3.0), ..Default::default() },
        ModelTransform { scale: 0.5, rotate_z: 210.0, offset: Vec3::new(1.0, 2.0, 3.0) },
    ];
    for (name, model) in models() {
        for t in &transforms {
            check(&name, &model, t);
        }
    }
}

#[test]
fn a_turned_box_holds_its_turned_corners_and_linear_movement_turns() {
    let model = studio_demo::demo_model();
    let t = ModelTransform { scale: 3.0, rotate_z: 90.0, offset: Vec3::new(0.0, 0.0, 5.0) };
    let (moved, _) = transform(&model, &t).unwrap();
    let (min, max) = (model.header.bbmin, model.header.bbmax);
    // A quarter turn maps x to y and y to -x.
    let expect_min = Vec3::new(-max.y * 3.0, min.x * 3.0, min.z * 3.0 + 5.0);
    let expect_max = Vec3::new(-min.y * 3.0, max.x * 3.0, max.z * 3.0 + 5.0);
    assert!((moved.header.bbmin - expect_min).length() < 1e-3, "{} vs {expect_min}", moved.header.bbmin);
    assert!((moved.header.bbmax - expect_max).length() < 1e-3, "{} vs {expect_max}", moved.header.bbmax);
    for (a, b) in model.sequences.iter().zip(&moved.sequences) {
        let lm = a.linear_movement * 3.0;
        assert!((b.linear_movement - Vec3::new(-lm.y, lm.x, lm.z)).length() < 1e-3);
    }
}

#[test]
fn motion_extraction_swaps_with_a_quarter_turn_and_other_turns_are_reported() {
    let mut model = studio_demo::demo_model();
    let root = model.bones.iter().position(|b| b.parent.is_none()).unwrap();
    model.sequences[0].motion_bone = Some(root);
    model.sequences[0].motion_type = studio_model::motion::STUDIO_X;
    let quarter = transform(&model, &ModelTransform { rotate_z: 90.0, ..Default::default() }).unwrap();
    assert_eq!(quarter.0.sequences[0].motion_type, studio_model::motion::STUDIO_Y);
    assert!(quarter.1.is_empty(), "{:?}", quarter.1);
    let (_, notes) = transform(&model, &ModelTransform { rotate_z: 45.0, ..Default::default() }).unwrap();
    assert!(notes.iter().any(|n| n.starts_with("sequence 0 ")), "{notes:?}");
    let (_, notes) = transform(&model, &ModelTransform { offset: Vec3::X, ..Default::default() }).unwrap();
    assert!(notes.iter().any(|n| n.contains("move")), "{notes:?}");
    let (_, notes) = transform(&model, &ModelTransform { offset: Vec3::Y, ..Default::default() }).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn bad_transforms_are_refused() {
    let model = studio_demo::demo_model();
    for t in [
        ModelTransform { scale: 0.0, ..Default::default() },
        ModelTransform { scale: -1.0, ..Default::default() },
        ModelTransform { scale: f32::NAN, ..Default::default() },
        ModelTransform { rotate_z: f32::INFINITY, ..Default::default() },
        ModelTransform { offset: Vec3::new(0.0, f32::NAN, 0.0), ..Default::default() },
    ] {
        assert_eq!(transform(&model, &t).unwrap_err(), TransformError::Invalid, "{t:?}");
    }
}

#[test]
fn flipped_normals_point_the_other_way_and_undo_restores_the_model() {
    let model = studio_demo::demo_model();
    let flipped = flip_normals(&model);
    for (a, b) in model.body_parts.iter().zip(&flipped.body_parts) {
        for (x, y) in a.submodels.iter().zip(&b.submodels) {
            assert_eq!(x.normals.iter().map(|n| -*n).collect::<Vec<_>>(), y.normals);
            assert_eq!(x.vertices, y.vertices);
        }
    }
    let read = Model::parse(&studio_model::write(&flipped).unwrap().main).unwrap();
    assert_eq!(read.body_parts, flipped.body_parts);
    // One edit, undone whole.
    let mut edited = model.clone();
    let (before, after) =
        (GoldRecord::Whole(Box::new(model.clone())), GoldRecord::Whole(Box::new(flipped.clone())));
    assert!(edited.apply(&Change::Set { before: before.clone(), after: after.clone() }));
    assert_eq!(edited, flipped);
    assert!(Model::changes_upload(&Change::Set { before: before.clone(), after: after.clone() }));
    assert!(edited.apply(&Change::Set { before: after, after: before }));
    assert_eq!(edited, model);
}
