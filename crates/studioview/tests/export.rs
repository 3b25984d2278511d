//! glTF exports of every shared model, the demo model and the Source fixtures: read back with
//! the `gltf` crate, every animation sampled at its keys and its joints' model-space matrices
//! compared with the pose evaluator's for that sequence and frame; skinned vertices at frame 0
//! inside the sequence's stored box; and the Khronos glTF-Validator reporting no error.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Affine3A, Mat4, Quat, Vec3};
use studio_document::export::{ExportOptions, Progress, export_model, goldsrc};
use studio_pose::{Pose, PoseEvaluator, PoseRequest, neutral_bytes};
use studio_source_pose::{SourceEvaluator, SourceRequest, params};

/// The models exported: the shared Half-Life models, the Source fixtures (not the companion
/// include48_anims.mdl or the broken ones), and the demo model (`None`).
fn models(shared: &Path) -> Vec<Option<PathBuf>> {
    let mut out: Vec<Option<PathBuf>> = Vec::new();
    for dir in ["fixtures", "models/ns"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(shared.join(dir))
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("mdl")))
            // Texture and sequence-group companions (`*t.mdl`, `*NN.mdl`) come with their model.
            .filter(|p| {
                let head = std::fs::read(p).map(|b| b[..b.len().min(8)].to_vec()).unwrap_or_default();
                !studio_document::model_files::is_companion(&studio_bytes::files::LooseFiles::new(p), &head)
            })
            .collect();
        files.sort();
        out.extend(files.into_iter().map(Some));
    }
    for name in ["skeleton48.mdl", "anim48.mdl", "anim48_noani.mdl", "include48.mdl"] {
        out.push(Some(shared.join("fixtures/source/models/fixture").join(name)));
    }
    out.push(None);
    out
}

fn export(path: Option<&Path>) -> (studio_gltf::ExportModel, Vec<u8>) {
    let options = ExportOptions::default();
    let (model, _) = match path {
        Some(p) => export_model(p, &options, &mut Progress::new()).unwrap(),
        None => goldsrc::export(
            &Arc::new(studio_document::demo::demo_model().unwrap()),
            &options,
            &mut Progress::new(),
        )
        .unwrap(),
    };
    let document = studio_gltf::document(&model).unwrap();
    let glb = studio_gltf::glb(&document).unwrap();
    (model, glb)
}

/// Per animation, per key, each joint's model-space matrix (the root's conversion left out),
/// read back from the file; and the skinned vertex positions at key 0 of the first animation.
struct ReadBack {
    names: Vec<String>,
    poses: Vec<Vec<Vec<Affine3A>>>,
}

fn read_back(glb: &[u8]) -> ReadBack {
    let gltf = gltf::Gltf::from_slice(glb).unwrap();
    let blob = gltf.blob.clone().unwrap();
    let document = &gltf.document;
    let skin = document.skins().next();
    let joints: Vec<usize> = skin.as_ref().map_or(Vec::new(), |s| s.joints().map(|j| j.index()).collect());
    // Rest transforms and parents of every node.
    let nodes: Vec<gltf::Node> = document.nodes().collect();
    let mut parent = vec![None; nodes.len()];
    for node in &nodes {
        for child in node.children() {
            parent[child.index()] = Some(node.index());
        }
    }
    let rest: Vec<(Vec3, Quat)> = nodes
        .iter()
        .map(|n| {
            let (t, r, _) = n.transform().decomposed();
            (Vec3::from(t), Quat::from_array(r))
        })
        .collect();
    let mut names = Vec::new();
    let mut poses = Vec::new();
    for animation in document.animations() {
        names.push(animation.name().unwrap_or("").to_owned());
        let mut keys = 0;
        let mut translations: Vec<Option<Vec<Vec3>>> = vec![None; nodes.len()];
        let mut rotations: Vec<Option<Vec<Quat>>> = vec![None; nodes.len()];
        for channel in animation.channels() {
            let reader = channel.reader(|_| Some(&blob[..]));
            keys = reader.read_inputs().unwrap().count();
            let node = channel.target().node().index();
            match reader.read_outputs().unwrap() {
                gltf::animation::util::ReadOutputs::Translations(t) => {
                    translations[node] = Some(t.map(Vec3::from).collect());
                }
                gltf::animation::util::ReadOutputs::Rotations(r) => {
                    rotations[node] = Some(r.into_f32().map(Quat::from_array).collect());
                }
                _ => {}
            }
        }
        let mut per_key = Vec::new();
        for k in 0..keys {
            let mut world: Vec<Option<Affine3A>> = vec![None; nodes.len()];
            let at = |n: usize, world: &mut Vec<Option<Affine3A>>| -> Affine3A {
                // Parents come first in our files' joint order, but walk up to be safe.
                let mut chain = vec![n];
                while let Some(p) = parent[*chain.last().unwrap()] {
                    if p == 0 {
                        break;
                    }
                    chain.push(p);
                }
                let mut m = Affine3A::IDENTITY;
                for &c in chain.iter().rev() {
                    if let Some(w) = world[c] {
                        m = w;
                        continue;
                    }
                    let t = translations[c].as_ref().map_or(rest[c].0, |v| v[k]);
                    let r = rotations[c].as_ref().map_or(rest[c].1, |v| v[k]);
                    m *= Affine3A::from_rotation_translation(r, t);
                    world[c] = Some(m);
                }
                m
            };
            per_key.push(joints.iter().map(|&j| at(j, &mut world)).collect());
        }
        poses.push(per_key);
    }
    ReadBack { names, poses }
}

/// The largest difference between two matrices, translations relative to their size.
fn difference(a: &Affine3A, b: &Affine3A) -> f32 {
    let rotation = (a.matrix3 - b.matrix3).to_cols_array().iter().fold(0.0f32, |m, v| m.max(v.abs()));
    let scale = 1.0f32.max(Vec3::from(b.translation).abs().max_element());
    let translation = (Vec3::from(a.translation) - Vec3::from(b.translation)).abs().max_element() / scale;
    rotation.max(translation)
}

/// One exported animation as the evaluator computes it: its name, per key the model-space
/// bones, and the sequence's stored box.
type Expected = (String, Vec<Vec<Affine3A>>, (Vec3, Vec3));

/// The evaluator's model-space bones for each exported animation and key, in export order.
fn evaluated(path: Option<&Path>) -> Vec<Expected> {
    if let Some(p) = path
        && let Some(loaded) = studio_document::model_files::source_load(p)
    {
        let model = loaded.unwrap().model;
        let mut evaluator = SourceEvaluator::new(&model);
        let rig = evaluator.rig();
        let defaults: Vec<f32> = rig.pose_parameters.iter().map(params::default_value).collect();
        let plans: Vec<(usize, String, usize, (Vec3, Vec3))> = (0..rig.num_sequences())
            .filter_map(|s| {
                let seq = rig.sequence(s)?;
                let frames = rig.grid_cell(seq, 0, 0).map_or(1, |a| a.animation.frames.max(1)) as usize;
                Some((s, seq.seq.label.clone(), frames, (seq.seq.bbmin, seq.seq.bbmax)))
            })
            .collect();
        return plans
            .into_iter()
            .map(|(s, label, frames, bbox)| {
                let keys = (0..frames)
                    .map(|k| {
                        let cycle = if frames > 1 { k as f32 / (frames - 1) as f32 } else { 0.0 };
                        let mut out = Vec::new();
                        let request = SourceRequest {
                            sequence: s,
                            cycle,
                            params: &defaults,
                            controllers: None,
                            time: 0.0,
                            autoplay: false,
                            layers: &[],
                        };
                        evaluator.evaluate(&request, &mut out);
                        out
                    })
                    .collect();
                (label, keys, bbox)
            })
            .collect();
    }
    let model = Arc::new(match path {
        Some(p) => studio_model::load(p).unwrap().model,
        None => studio_document::demo::demo_model().unwrap(),
    });
    let mut evaluator = PoseEvaluator::new(model.clone());
    let mut pose = Pose::new(&model);
    let controllers = neutral_bytes(&model.bone_controllers);
    let mut out = Vec::new();
    for (s, sequence) in model.sequences.iter().enumerate() {
        if sequence.animation.is_none() {
            continue;
        }
        let blends = sequence.animation.as_ref().map_or(1, |a| a.num_blends()).max(1);
        for blend in 0..blends {
            let name =
                if blends > 1 { format!("{}/blend{blend}", sequence.label) } else { sequence.label.clone() };
            let keys = (0..sequence.frames().max(1))
                .map(|k| {
                    let request = PoseRequest { sequence: s, frame: k as f32, blend: [0, 0], controllers };
                    evaluator.evaluate_blend(&request, blend, &mut pose).unwrap();
                    pose.bones.clone()
                })
                .collect();
            out.push((name, keys, (sequence.bbmin, sequence.bbmax)));
        }
    }
    out
}

#[test]
fn exports_read_back_as_the_evaluators_poses() {
    let Some(shared) = studio_testing::shared() else { return };
    let mut checked = 0;
    for path in models(&shared) {
        let what = path.as_ref().map_or("the demo model".to_owned(), |p| p.display().to_string());
        let (model, glb) = export(path.as_deref());
        let back = read_back(&glb);
        let expected = evaluated(path.as_deref());
        assert_eq!(
            back.names,
            expected.iter().map(|e| e.0.clone()).collect::<Vec<_>>(),
            "{what}: animation names"
        );
        for ((name, keys, bbox), got) in expected.iter().zip(&back.poses) {
            assert_eq!(keys.len(), got.len(), "{what} {name}: keys");
            for (k, (want, have)) in keys.iter().zip(got).enumerate() {
                for (bone, (w, h)) in want.iter().zip(have).enumerate() {
                    let d = difference(h, w);
                    assert!(d <= 1e-4, "{what} {name} key {k} bone {bone}: differs by {d}\n{h:?}\n{w:?}");
                }
                checked += 1;
            }
            // Skinned vertices at frame 0 lie inside the sequence's box (with a margin for
            // rounding). The GoldSrc fixtures' writer stores a fixed box (±16, 0..72) rather than
            // one computed from the vertices as studiomdl does, so only models whose boxes were
            // computed are checked: the Natural Selection models and the Source fixtures (whose
            // README says so). The demo model's builder writes a fixed ±22 box too.
            let computed_box =
                path.as_ref().is_some_and(|p| !p.parent().is_some_and(|d| d.ends_with("fixtures")));
            if !computed_box {
                continue;
            }
            let skinning: Vec<Mat4> = keys[0]
                .iter()
                .zip(&model.bones)
                .map(|(world, bone)| Mat4::from(*world) * Mat4::from(bone.bind.inverse()))
                .collect();
            let (min, max) = *bbox;
            let margin = Vec3::splat(0.5) + (max - min).abs() * 0.01;
            if (max - min).max_element() <= 0.0 {
                continue;
            }
            for mesh in &model.meshes {
                for v in mesh.primitives.iter().flat_map(|p| p.triangles.iter().flatten()) {
                    let p: Vec3 = (0..4)
                        .filter(|&j| v.weights[j] > 0.0)
                        .map(|j| {
                            skinning[usize::from(v.joints[j])].transform_point3(v.position) * v.weights[j]
                        })
                        .sum();
                    assert!(
                        p.cmpge(min - margin).all() && p.cmple(max + margin).all(),
                        "{what} {name}: vertex at {p} outside the sequence's box {min}..{max}"
                    );
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} keys were compared");
}

#[test]
fn the_khronos_validator_finds_no_error_in_any_export() {
    let Some(shared) = studio_testing::shared() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let modules = std::env::var_os("GLTF_VALIDATOR_MODULES")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/gltf-validator/node_modules"));
    let usable = modules.join("gltf-validator").is_dir()
        && std::process::Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if !usable {
        // CI's Windows run is under Wine, which cannot start Linux's node: there
        // scripts/windows/compare.sh checks that the Windows build's exports are the bytes of the
        // Linux build's, which this test validates.
        assert!(
            std::env::var_os("CI").is_none() || cfg!(windows),
            "CI must have node and gltf-validator (scripts/test.sh installs them)"
        );
        eprintln!("note: node or gltf-validator is missing (scripts/test.sh installs them); skipping");
        return;
    }
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gltf-exports");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for (i, path) in models(&shared).into_iter().enumerate() {
        let (_, glb) = export(path.as_deref());
        let name = path
            .as_ref()
            .and_then(|p| p.file_stem())
            .map_or("demo".into(), |s| s.to_string_lossy().into_owned());
        let file = dir.join(format!("{i:02}-{name}.glb"));
        std::fs::write(&file, glb).unwrap();
        files.push(file);
    }
    // And the .gltf + .bin form once.
    let gltf = dir.join("demo.gltf");
    let status =
        studio_testing::process::output(std::process::Command::new(env!("CARGO_BIN_EXE_studioview")).args([
            "export",
            "--out",
            gltf.to_str().unwrap(),
        ]));
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    files.push(gltf);
    let output = std::process::Command::new("node")
        .arg(root.join("scripts/validate-gltf.cjs"))
        .args(&files)
        .env("GLTF_VALIDATOR_MODULES", &modules)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&output.stdout);
    println!("{report}");
    assert!(
        output.status.success(),
        "the validator found errors:\n{report}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(report.lines().filter(|l| l.contains(": 0 errors")).count(), files.len(), "{report}");
}
