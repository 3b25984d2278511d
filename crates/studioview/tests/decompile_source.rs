//! `studioview decompile` on the Source fixtures: every reference SMD reads back to the
//! model's `.vvd` vertices, weights and `.vtx` triangles at each LOD; every animation SMD to
//! the evaluator's local bone transforms at every frame (Euler angles by Valve's rules, so to
//! float precision); models that cannot be decompiled whole give an error and write nothing.

use glam::{DQuat, DVec3};
use studio_decompile::smd::Smd;
use studio_decompile::source::{self, Layout, movement_at, root_from_studiomdl};
use studio_decompile::turn::{ROOT_TURN as ROOT_TURN_CHECK, unturn};
use studio_decompile::{DecompileError, Decompiled, smd_read};
use studio_source::SourceModel;
use studio_source_pose::{LocalPose, Rig, animation_frame};

const MODELS: [&str; 4] = ["anim48.mdl", "skeleton48.mdl", "include48.mdl", "include48_anims.mdl"];

fn load(shared: &std::path::Path, name: &str) -> SourceModel {
    let path = shared.join("fixtures/source/models/fixture").join(name);
    match studio_document::model_files::source_load(&path) {
        Some(Ok(loaded)) => loaded.model,
        other => panic!("{name}: {:?}", other.map(|r| r.err())),
    }
}

fn read_smd(files: &Decompiled, name: &str) -> Smd {
    let bytes = files.file(name).unwrap_or_else(|| panic!("{name} is written"));
    smd_read::read(std::str::from_utf8(bytes).expect("UTF-8")).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn check_reference(name: &str, model: &SourceModel, layout: &Layout, files: &Decompiled) -> usize {
    let mut corners = 0;
    for (p, models) in layout.models.iter().enumerate() {
        for (m, lods) in models.iter().enumerate() {
            let Some(lods) = lods else { continue };
            assert_eq!(lods.len(), source::lods_of(model, p, m), "{name}: a file per LOD");
            for (lod, file) in lods.iter().enumerate() {
                let smd = read_smd(files, file);
                let what = format!("{name} {file}");
                for (node, bone) in smd.nodes.iter().zip(&model.bones) {
                    assert_eq!((&node.name, node.parent), (&bone.name, bone.parent), "{what}: nodes");
                }
                for key in &smd.frames[0].bones {
                    let bone = &model.bones[key.bone];
                    let (position, mut rotation) = if bone.parent.is_none() {
                        (unturn(key.position), key.rotation)
                    } else {
                        (key.position, key.rotation)
                    };
                    if bone.parent.is_none() {
                        rotation[2] -= ROOT_TURN_CHECK;
                    }
                    assert_eq!(
                        position.map(|x| x as f32),
                        bone.position.to_array(),
                        "{what}: bone {} position",
                        key.bone
                    );
                    let r = rotation.map(|x| x as f32);
                    assert!(
                        (glam::Vec3::from_array(r) - bone.rotation).abs().max_element() < 1e-6,
                        "{what}: bone {} angles",
                        key.bone
                    );
                }
                // The model's triangles at this LOD, mesh by mesh, as the renderer reads them.
                let body = &model.body_parts[p].models[m];
                let vtx_lod = &model.vtx.as_ref().expect("a .vtx").body_parts[p][m].lods[lod];
                let mut expected = Vec::new();
                for (k, (mesh, vtx_mesh)) in body.meshes.iter().zip(&vtx_lod.meshes).enumerate() {
                    let (vertices, _) = model.mesh_vertices(p, m, k).expect("mesh vertices");
                    let mut triangles = Vec::new();
                    for group in &vtx_mesh.strip_groups {
                        group.triangles(vertices.len(), &mut triangles);
                    }
                    expected.extend(
                        triangles.into_iter().map(|t| (mesh.material, t.map(|i| vertices[i as usize]))),
                    );
                }
                assert_eq!(smd.triangles.len(), expected.len(), "{what}: triangles");
                for (read, (slot, triangle)) in smd.triangles.iter().zip(&expected) {
                    assert_eq!(read.material, source::material_name(model, *slot), "{what}: material");
                    for (corner, v) in read.corners.iter().zip(triangle.iter().rev()) {
                        assert_eq!(
                            unturn(corner.position).map(|x| x as f32),
                            v.position.to_array(),
                            "{what}: position"
                        );
                        assert_eq!(
                            unturn(corner.normal).map(|x| x as f32),
                            v.normal.to_array(),
                            "{what}: normal"
                        );
                        assert_eq!(
                            [corner.uv[0] as f32, (1.0 - corner.uv[1]) as f32],
                            v.uv.to_array(),
                            "{what}: uv"
                        );
                        let used = usize::from(v.num_bones);
                        assert_eq!(corner.links.len(), used, "{what}: weights");
                        for (link, k) in corner.links.iter().zip(0..used) {
                            assert_eq!(
                                (link.0, link.1 as f32),
                                (usize::from(v.bones[k]), v.weights[k]),
                                "{what}: weight"
                            );
                        }
                        corners += 1;
                    }
                }
            }
        }
    }
    corners
}

/// Checks every frame of every animation file; returns the largest position and rotation
/// differences seen (units, radians).
fn check_animations(name: &str, model: &SourceModel, layout: &Layout, files: &Decompiled) -> (f64, f64) {
    let rig = Rig::new(model);
    let mut pose = LocalPose::defaults(model);
    let (mut worst_position, mut worst_angle) = (0.0f64, 0.0f64);
    for (index, (animation, file)) in model.animations.iter().zip(&layout.animations).enumerate() {
        let smd = read_smd(files, file);
        let what = format!("{name} {file}");
        assert_eq!(smd.frames.len(), animation.frames.max(1) as usize, "{what}: frames");
        for (k, frame) in smd.frames.iter().enumerate() {
            assert_eq!(frame.time, k as i32, "{what}: times");
            assert_eq!(frame.bones.len(), model.bones.len(), "{what}: every bone");
            animation_frame(&rig, 0, index, k as u32, &mut pose);
            for key in &frame.bones {
                let (position, rotation) = if model.bones[key.bone].parent.is_none() {
                    root_from_studiomdl(key.position, key.rotation, movement_at(animation, k as u32))
                } else {
                    (DVec3::from_array(key.position), source::euler_quaternion(key.rotation))
                };
                let want_p = pose.positions[key.bone].as_dvec3();
                let want_q = pose.rotations[key.bone].as_dquat().normalize();
                let dp = (position - want_p).abs().max_element() / want_p.abs().max_element().max(1.0);
                let dq = 2.0 * rotation.dot(want_q).abs().min(1.0).acos();
                assert!(dp < 2e-6, "{what}: frame {k} bone {}: position {position} vs {want_p}", key.bone);
                assert!(
                    dq < 2e-5,
                    "{what}: frame {k} bone {}: rotation {rotation} vs {want_q} ({dq} rad)",
                    key.bone
                );
                (worst_position, worst_angle) = (worst_position.max(dp), worst_angle.max(dq));
            }
        }
    }
    (worst_position, worst_angle)
}

#[test]
fn every_decompiled_source_file_reads_back_to_the_model_and_the_evaluator() {
    let Some(shared) = studio_testing::shared() else { return };
    for name in MODELS {
        let model = load(&shared, name);
        let files =
            source::decompile(&model, None, "model", &mut |_| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
        let layout = source::layout(&model);
        let corners = check_reference(name, &model, &layout, &files);
        let (p, q) = check_animations(name, &model, &layout, &files);
        eprintln!(
            "{name}: {corners} corners exact; animations within {p:e} (relative position) and {q:e} rad"
        );
        assert!(files.file("model.qc").is_some(), "{name}: the QC");
    }
}

#[test]
fn euler_angles_read_back_to_the_rotation_they_came_from() {
    // Near and at the vertical, where MatrixAngles takes its other branch.
    let rotations = [
        DQuat::IDENTITY,
        DQuat::from_rotation_y(std::f64::consts::FRAC_PI_2),
        DQuat::from_rotation_y(-std::f64::consts::FRAC_PI_2) * DQuat::from_rotation_z(0.3),
        DQuat::from_rotation_y(std::f64::consts::FRAC_PI_2 - 1e-4) * DQuat::from_rotation_x(1.0),
        DQuat::from_xyzw(0.7, -0.1, 0.05, 0.01).normalize(),
    ];
    for q in rotations {
        let back = source::euler_quaternion(source::quaternion_angles(q));
        assert!(back.dot(q).abs() > 1.0 - 1e-12, "{q} came back as {back}");
    }
}

#[test]
fn a_model_whose_animation_data_or_meshes_are_missing_is_refused() {
    let Some(shared) = studio_testing::shared() else { return };
    // anim48_noani.mdl alone: no .vvd beside it.
    let model = load(&shared, "anim48_noani.mdl");
    let refused = source::decompile(&model, None, "model", &mut |_| {});
    assert_eq!(refused, Err(DecompileError::Companion { file: ".vvd" }), "anim48_noani.mdl alone");

    // With anim48's .vvd and .vtx given its checksum (source-mesh.md: the .vvd's at byte 8, the
    // .vtx's at 16), the missing .ani is what is refused.
    let game = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "decompile_noani");
    let from = shared.join("fixtures/source/models/fixture");
    let to = game.join("models/fixture");
    std::fs::create_dir_all(&to).expect("a folder");
    let mdl = studio_testing::read(&shared, "fixtures/source/models/fixture/anim48_noani.mdl");
    let checksum = &mdl[8..12];
    for (src, dst, at) in
        [("anim48.vvd", "anim48_noani.vvd", 8), ("anim48.dx90.vtx", "anim48_noani.dx90.vtx", 16)]
    {
        let mut bytes = std::fs::read(from.join(src)).expect("a companion");
        bytes[at..at + 4].copy_from_slice(checksum);
        std::fs::write(to.join(dst), bytes).expect("a copy");
    }
    std::fs::write(to.join("anim48_noani.mdl"), &mdl).expect("a copy");
    let path = to.join("anim48_noani.mdl");
    let Some(Ok(loaded)) = studio_document::model_files::source_load(&path) else { panic!("the copy loads") };
    match source::decompile(&loaded.model, None, "model", &mut |_| {}) {
        Err(DecompileError::AnimationData { name, why, .. }) => {
            assert!(why.contains(".ani block"), "{name}: {why}");
        }
        other => panic!("anim48_noani.mdl: {other:?}"),
    }
    // The command line says so and writes nothing.
    let out = game.join("out");
    let run =
        studio_testing::process::output(std::process::Command::new(env!("CARGO_BIN_EXE_studioview")).args([
            "decompile",
            &path.to_string_lossy(),
            "--out",
            &out.to_string_lossy(),
        ]));
    assert!(!run.status.success(), "decompile fails");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("anim48_noani.mdl") && stderr.contains(".ani block"), "{stderr}");
    assert!(!out.exists(), "nothing is written");
}

#[test]
fn broken_source_models_give_an_error() {
    let Some(shared) = studio_testing::shared() else { return };
    let dir = shared.join("fixtures/source/broken");
    let mut refused = 0;
    for entry in std::fs::read_dir(&dir).expect("the broken fixtures") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "mdl") {
            continue;
        }
        // Each has a defect that leaves part of the model unread (the header, an animation's
        // data, its .vvd or .vtx): none decompiles.
        let error = studioview::decompile::decompile_path(&path, false, &mut |_| {})
            .expect_err("a broken model is refused");
        assert!(!error.to_string().is_empty(), "{}", path.display());
        refused += 1;
    }
    assert_eq!(refused, 5, "every broken fixture is tried");
}

/// skeleton48's files in a fresh game folder, with a `.phy` of `solids` beside them.
fn with_phy(shared: &std::path::Path, name: &str, phy: &[u8]) -> std::path::PathBuf {
    let game = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name);
    let to = game.join("models/fixture");
    std::fs::create_dir_all(&to).expect("a folder");
    for file in ["skeleton48.mdl", "skeleton48.vvd", "skeleton48.dx90.vtx"] {
        studio_testing::copy(shared.join("fixtures/source/models/fixture").join(file), to.join(file))
            .expect("a copy");
    }
    std::fs::write(to.join("skeleton48.phy"), phy).expect("the .phy");
    to.join("skeleton48.mdl")
}

#[test]
fn a_ragdoll_collision_model_decompiles_to_its_smd_and_collisionjoints() {
    use studio_testing::phy::{cuboid, write};
    let Some(shared) = studio_testing::shared() else { return };
    let model = load(&shared, "skeleton48.mdl");
    let (pelvis, head) =
        (cuboid([-3.0, -4.0, -6.0], [6.0, 4.0, 6.0]), cuboid([0.0, -3.0, -3.0], [8.0, 3.0, 3.0]));
    let text = "solid {\n\"index\" \"0\"\n\"name\" \"pelvis\"\n\"mass\" \"12\"\n\"damping\" \"0.1\"\n}\n\
                solid {\n\"index\" \"1\"\n\"name\" \"head\"\n\"mass\" \"8\"\n}\n\
                ragdollconstraint {\n\"parent\" \"0\"\n\"child\" \"1\"\n\"xmin\" \"-30\"\n\"xmax\" \"30\"\n\"xfriction\" \"0\"\n\
                \"ymin\" \"0\"\n\"ymax\" \"0\"\n\"yfriction\" \"0\"\n}\n\
                editparams {\n\"rootname\" \"pelvis\"\n\"totalmass\" \"20\"\n}\n";
    let phy = write(&[vec![pelvis.clone()], vec![head.clone()]], model.header.checksum, text);
    let path = with_phy(&shared, "decompile-phy", &phy);
    let files = studioview::decompile::decompile_path(&path, false, &mut |_| {}).expect("decompiles");
    let smd = read_smd(&files, "skeleton48_physics.smd");
    assert_eq!(smd.triangles.len(), 24, "two boxes");
    for (k, (bone, (points, triangles))) in [("pelvis", &pelvis), ("head", &head)].into_iter().enumerate() {
        let index = model.bones.iter().position(|b| b.name == bone).expect("the bone");
        let bind = studio_source_pose::affine_3x4(&model.bones[index].pose_to_bone).inverse();
        for (read, tri) in smd.triangles[k * 12..(k + 1) * 12].iter().zip(triangles) {
            for (corner, &t) in read.corners.iter().zip(tri) {
                assert_eq!(corner.bone, index, "{bone}: the solid's bone");
                let want = bind.transform_point3(glam::Vec3::from_array(points[usize::from(t)]));
                let got = DVec3::from_array(unturn(corner.position)).as_vec3();
                assert!((got - want).abs().max_element() < 1e-3, "{bone}: {got} vs {want}");
            }
        }
    }
    let qc = std::str::from_utf8(files.file("model.qc").or(files.file("skeleton48.qc")).expect("the QC"))
        .expect("text");
    for line in [
        "$collisionjoints \"skeleton48_physics\"",
        "\t$mass 20",
        "\t$rootbone \"pelvis\"",
        "\t$damping 0.1",
        "\t$jointconstrain \"head\" x limit -30 30 0",
        "\t$jointconstrain \"head\" y fixed 0 0 0",
    ] {
        assert!(qc.contains(line), "the QC has {line:?}:\n{qc}");
    }
}

#[test]
fn a_static_collision_model_stays_in_model_space_and_bad_ones_are_refused() {
    use studio_testing::phy::{cuboid, write};
    let Some(shared) = studio_testing::shared() else { return };
    let model = load(&shared, "skeleton48.mdl");
    let hull = cuboid([-13.0, -13.0, 0.0], [13.0, 13.0, 76.0]);
    let phy = write(
        &[vec![hull.clone()]],
        model.header.checksum,
        "solid {\n\"index\" \"0\"\n\"name\" \"static\"\n}\n",
    );
    let path = with_phy(&shared, "decompile-phy-static", &phy);
    let files = studioview::decompile::decompile_path(&path, false, &mut |_| {}).expect("decompiles");
    let smd = read_smd(&files, "skeleton48_physics.smd");
    for (read, tri) in smd.triangles.iter().zip(&hull.1) {
        for (corner, &t) in read.corners.iter().zip(tri) {
            let got = DVec3::from_array(unturn(corner.position)).as_vec3();
            assert!(
                (got - glam::Vec3::from_array(hull.0[usize::from(t)])).abs().max_element() < 1e-3,
                "{got}"
            );
        }
    }
    let qc = std::str::from_utf8(files.file("skeleton48.qc").expect("the QC")).expect("text");
    assert!(qc.contains("$collisionmodel \"skeleton48_physics\""), "{qc}");

    // Another build's .phy, and a broken one: refused, nothing written.
    let stale = write(&[vec![hull.clone()]], model.header.checksum.wrapping_add(1), "");
    let mut broken = phy.clone();
    broken.truncate(phy.len() / 2);
    for (name, bytes, what) in
        [("decompile-phy-stale", stale, "another build"), ("decompile-phy-broken", broken, ".phy")]
    {
        let path = with_phy(&shared, name, &bytes);
        let error =
            studioview::decompile::decompile_path(&path, false, &mut |_| {}).expect_err(name).to_string();
        assert!(error.contains("collision model") && error.contains(what), "{name}: {error}");
        let out = path.with_file_name("out");
        let run = studio_testing::process::output(
            std::process::Command::new(env!("CARGO_BIN_EXE_studioview")).args([
                "decompile",
                &path.to_string_lossy(),
                "--out",
                &out.to_string_lossy(),
            ]),
        );
        assert!(!run.status.success() && !out.exists(), "{name}: refused, nothing written");
    }
}

/// The face fixture, written into a game folder of its own (`scratch`) with anim48's .ani,
/// which its animations need: its path and the model loaded from it.
fn face_fixture(shared: &std::path::Path, scratch: &str) -> (std::path::PathBuf, SourceModel) {
    let game = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), scratch);
    let dir = game.join("models/fixture");
    std::fs::create_dir_all(&dir).expect("a folder");
    studio_testing::copy(shared.join("fixtures/source/models/fixture/anim48.ani"), dir.join("anim48.ani"))
        .expect("the .ani");
    let path = studio_testing::source_face::write_face(shared, &dir);
    let Some(Ok(loaded)) = studio_document::model_files::source_load(&path) else { panic!("the face loads") };
    (path, loaded.model)
}

#[test]
fn a_face_decompiles_to_its_flex_shapes_controllers_rules_and_eyeballs() {
    let Some(shared) = studio_testing::shared() else { return };
    let (path, model) = face_fixture(&shared, "decompile-face");
    let files = studioview::decompile::decompile_path(&path, false, &mut |_| {}).expect("decompiles");
    let vta_name = files.files.iter().find(|f| f.name.ends_with(".vta")).expect("a .vta").name.clone();
    let vta = smd_read::read(std::str::from_utf8(files.file(&vta_name).expect("the .vta")).expect("text"))
        .expect("reads");

    // Frame 0 is every vertex of body part 0's model; each flex frame its vertices moved.
    let body = &model.body_parts[0].models[0];
    let mut vertices = Vec::new();
    for (m, mesh) in body.meshes.iter().enumerate() {
        let (list, _) = model.mesh_vertices(0, 0, m).expect("vertices");
        vertices.extend(list.iter().enumerate().map(|(k, v)| (mesh.vertex_offset as usize + k, *v)));
    }
    let base = &vta.shapes[0];
    assert_eq!(base.vertices.len(), vertices.len(), "frame 0 has every vertex");
    for (read, (index, v)) in base.vertices.iter().zip(&vertices) {
        assert_eq!(read.index, *index);
        assert_eq!(unturn(read.position).map(|x| x as f32), v.position.to_array(), "base position");
    }
    let descs: Vec<usize> =
        body.meshes.iter().flat_map(|m| &m.flexes).map(|f| f.desc).fold(Vec::new(), |mut seen, d| {
            if !seen.contains(&d) {
                seen.push(d);
            }
            seen
        });
    assert_eq!(vta.shapes.len(), descs.len() + 1, "a frame per flex description");
    let mut moved = 0;
    for mesh in &body.meshes {
        for flex in &mesh.flexes {
            let frame = &vta.shapes[descs.iter().position(|&d| d == flex.desc).expect("its frame") + 1];
            for va in &flex.vertices {
                let index = mesh.vertex_offset as usize + usize::from(va.index);
                let shape = frame.vertices.iter().find(|s| s.index == index).expect("the moved vertex");
                let v = vertices.iter().find(|(i, _)| *i == index).expect("its base").1;
                let delta = DVec3::from_array(unturn(shape.position)).as_vec3() - v.position;
                assert!((delta - va.delta).abs().max_element() < 1e-4, "delta {delta} vs {}", va.delta);
                moved += 1;
            }
        }
    }
    assert!(moved > 0, "the face moves vertices");

    let qc = std::str::from_utf8(files.file("face.qc").expect("the QC")).expect("text");
    let stem = vta_name.trim_end_matches(".vta");
    assert!(qc.contains(&format!("\tflexfile \"{stem}\" {{\n\t\tdefaultflex frame 0\n")), "{qc}");
    for &d in &descs {
        assert!(
            qc.contains(&format!("\t\tflex \"{}\" frame", model.flexes.descs[d])),
            "a flex line for {}",
            model.flexes.descs[d]
        );
    }
    for c in &model.flexes.controllers {
        assert!(
            qc.contains(&format!("flexcontroller {} range", c.kind))
                && qc.contains(&format!("\"{}\"", c.name)),
            "{}",
            c.name
        );
    }
    assert_eq!(qc.matches("\teyeball ").count(), body.eyeballs.len(), "an eyeball line per eye");
    let rules = qc.lines().filter(|l| l.trim_start().starts_with('%') || l.contains("// %")).count();
    assert_eq!(rules, model.flexes.rules.len(), "every rule, as a line or a comment");
}

#[test]
fn a_stereo_flex_named_as_studiomdl_pairs_is_a_flexpair_whose_split_gives_its_sides() {
    use studio_decompile::stereo_split::side_byte;
    let Some(shared) = studio_testing::shared() else { return };
    let (_, mut model) = face_fixture(&shared, "decompile-stereo");
    // studiomdl's `flexpair "smile"` names the flex smileR and its partner smileL.
    let body = &model.body_parts[0].models[0];
    let (own, partner) = body
        .meshes
        .iter()
        .flat_map(|m| &m.flexes)
        .find_map(|f| f.pair.map(|p| (f.desc, p)))
        .expect("the fixture has a stereo flex");
    model.flexes.descs[own] = "smileR".into();
    model.flexes.descs[partner] = "smileL".into();
    // Its vertices' x in the .vta (the model's y, flexed), and sides as a split made them.
    let mut moved = Vec::new();
    for (m, mesh) in body.meshes.iter().enumerate() {
        let (vertices, _) = model.mesh_vertices(0, 0, m).expect("vertices");
        for (f, flex) in mesh.flexes.iter().enumerate() {
            if flex.pair.is_some() {
                for (k, va) in flex.vertices.iter().enumerate() {
                    let v = vertices[usize::from(va.index)];
                    moved.push((m, f, k, (v.position + va.delta).y));
                }
            }
        }
    }
    let widest = moved.iter().map(|&(.., x)| x.abs()).fold(0.0f32, f32::max);
    assert!(widest > 0.0, "the stereo flex moves vertices off the middle");
    let made_with = 1.5 * widest;
    let mut points = Vec::new();
    for &(m, f, k, x) in &moved {
        let side = side_byte(made_with, x);
        model.body_parts[0].models[0].meshes[m].flexes[f].vertices[k].side = side;
        points.push((x, side));
    }
    assert!(points.iter().any(|&(_, b)| b > 0 && b < 255), "a vertex inside the blend: {points:?}");

    let files = source::decompile(&model, None, "face", &mut |_| {}).expect("decompiles");
    let qc = std::str::from_utf8(files.file("face.qc").expect("the QC")).expect("text");
    let line = qc.lines().find(|l| l.trim_start().starts_with("flexpair")).unwrap_or_else(|| panic!("{qc}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!((words[1], words[3]), ("\"smile\"", "frame"), "{line}");
    let split: f32 = words[2].parse().expect("a number");
    for &(x, side) in &points {
        assert_eq!(side_byte(split, x), side, "{line}: x {x}");
    }
    assert!(!line.contains("//"), "every side reproduced: {line}");
    assert!(!qc.contains("flex \"smileR\""), "the pair is not also a plain flex");
    eprintln!("split {split} (made with {made_with}) for {} vertices", points.len());
}
