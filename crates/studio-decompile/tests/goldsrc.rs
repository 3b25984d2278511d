//! Decompiling Half-Life models: every file read back holds the model (the
//! reference SMDs its vertices, normals, texture coordinates and bones; the animation SMDs the
//! evaluator's local bone transforms at every frame; the BMPs its textures), and a model built
//! again from the read-back files with our writer poses exactly as the original.
//!
//! Models: the bundled demo model, the GoldSrc fixtures and the Natural Selection models under
//! `../shared` (passed over, with a note, when it is missing).

use std::collections::HashMap;

use glam::{Affine3A, Quat, Vec3, Vec3A, Vec4};
use studio_decompile::goldsrc::{self, Layout, root_from_studiomdl};
use studio_decompile::smd::Smd;
use studio_decompile::turn::ROOT_TURN;
use studio_decompile::{Decompiled, bmp, smd_read};
use studio_model::{
    Animation, BoneAnimation, Channel, Mesh, MeshVertex, Model, SequenceGroup, TriangleCommand,
};
use studio_pose::math::angle_quaternion;
use studio_pose::sample::{LocalPose, sample_runs};

mod common;

use common::models;

fn decompile(model: &Model) -> Decompiled {
    goldsrc::decompile(model, "model", &mut |_| {}).expect("the model decompiles")
}

fn read_smd(files: &Decompiled, name: &str) -> Smd {
    let bytes = files.file(name).unwrap_or_else(|| panic!("{name} is written"));
    smd_read::read(std::str::from_utf8(bytes).expect("SMD text is UTF-8"))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Bone matrices at the default values, composed here with glam (not the crate's code).
fn bind_matrices(model: &Model) -> Vec<Affine3A> {
    let mut out: Vec<Affine3A> = Vec::new();
    for bone in &model.bones {
        let q = angle_quaternion([bone.value[3], bone.value[4], bone.value[5]]);
        let local = Affine3A::from_rotation_translation(
            Quat::from_array(q).normalize(),
            Vec3::new(bone.value[0], bone.value[1], bone.value[2]),
        );
        out.push(match bone.parent {
            Some(p) => out[p] * local,
            None => local,
        });
    }
    out
}

fn close(a: [f64; 3], b: Vec3, tolerance: f32, what: &str) {
    let a = Vec3::new(a[0] as f32, a[1] as f32, a[2] as f32);
    assert!((a - b).abs().max_element() <= tolerance * b.abs().max_element().max(1.0), "{what}: {a} vs {b}");
}

/// The texel of a read-back texture coordinate (studiomdl's rule, the inverse of the writer's).
fn texel(u: f64, v: f64, width: u32, height: u32) -> (i16, i16) {
    let span = |size: u32| if size > 1 { f64::from(size - 1) } else { 1.0 };
    ((u * span(width)).round() as i16, ((1.0 - v) * span(height)).round() as i16)
}

fn check_reference(name: &str, model: &Model, layout: &Layout, files: &Decompiled) {
    let matrices = bind_matrices(model);
    for (p, (part, names)) in model.body_parts.iter().zip(&layout.submodels).enumerate() {
        for (s, (sub, file)) in part.submodels.iter().zip(names).enumerate() {
            let Some(file) = file else {
                assert!(goldsrc::is_blank(sub), "{name}: only blank submodels have no file");
                continue;
            };
            let smd = read_smd(files, file);
            let what = format!("{name} {file}");
            assert_eq!(smd.nodes.len(), model.bones.len(), "{what}: nodes");
            for ((node, bone), written) in smd.nodes.iter().zip(&model.bones).zip(&layout.bones) {
                assert_eq!((&node.name, node.parent), (written, bone.parent), "{what}: node");
            }
            assert_eq!(smd.frames.len(), 1, "{what}: one frame");
            for key in &smd.frames[0].bones {
                let value = model.bones[key.bone].value;
                let read: Vec<f32> = key.position.iter().chain(&key.rotation).map(|&x| x as f32).collect();
                assert_eq!(read, value, "{what}: bone {} default", key.bone);
            }
            let triangles: Vec<(&Mesh, &[u32; 3])> =
                sub.meshes.iter().flat_map(|m| m.triangles.iter().map(move |t| (m, t))).collect();
            // After the model's own: the triangles of zero area that keep bones and textures.
            assert_eq!(smd.triangles.len(), triangles.len() + layout.added_at((p, s)), "{what}: triangles");
            for added in &smd.triangles[triangles.len()..] {
                let [a, b, c] = &added.corners;
                assert!(a.position == b.position && b.position == c.position, "{what}: zero area");
            }
            for (read, (mesh, triangle)) in smd.triangles.iter().zip(triangles) {
                let texture = model.skins.texture(0, mesh.skin_ref).expect("a texture");
                assert_eq!(read.material, layout.textures[texture], "{what}: material");
                let t = &model.textures[texture];
                // The file's corners are the triangle's in the opposite order.
                for (corner, &index) in read.corners.iter().zip(triangle.iter().rev()) {
                    let mv = mesh.vertices[index as usize];
                    let (v, n) = (usize::from(mv.vertex), usize::from(mv.normal));
                    let bone = usize::from(sub.vertex_bones[v]);
                    assert_eq!(corner.bone, bone, "{what}: corner bone");
                    close(corner.position, matrices[bone].transform_point3(sub.vertices[v]), 1e-5, &what);
                    let normal_bone = usize::from(sub.normal_bones[n]);
                    close(
                        corner.normal,
                        matrices[normal_bone].transform_vector3(sub.normals[n]),
                        1e-5,
                        &what,
                    );
                    assert_eq!(
                        texel(corner.uv[0], corner.uv[1], t.width, t.height),
                        (mv.s, mv.t),
                        "{what}: uv"
                    );
                    assert!(corner.links.is_empty(), "{what}: version 10 vertices have one bone");
                }
            }
        }
    }
}

/// The six values of each bone at every frame of a read-back animation SMD, root bones turned
/// back and their linear movement taken out (as studiomdl does).
fn read_values(smd: &Smd, model: &Model, sequence: &studio_model::Sequence) -> Vec<Vec<[f32; 6]>> {
    let frames = sequence.frames();
    smd.frames
        .iter()
        .map(|frame| {
            let k = u32::try_from(frame.time).expect("a frame time");
            frame
                .bones
                .iter()
                .map(|key| {
                    if model.bones[key.bone].parent.is_none() {
                        root_from_studiomdl(key.position, key.rotation, sequence.linear_movement, k, frames)
                    } else {
                        let [x, y, z] = key.position;
                        let [a, b, c] = key.rotation;
                        [x as f32, y as f32, z as f32, a as f32, b as f32, c as f32]
                    }
                })
                .collect()
        })
        .collect()
}

/// Checks the animation files; returns how many bone rotations matched bit for bit, of how many.
fn check_animations(name: &str, model: &Model, layout: &Layout, files: &Decompiled) -> (usize, usize) {
    let (mut exact, mut compared) = (0, 0);
    let mut pose = LocalPose::new(model.bones.len());
    let zero = vec![0.0; model.bone_controllers.len()];
    for (sequence, names) in model.sequences.iter().zip(&layout.sequences) {
        assert_eq!(names.len(), sequence.num_blends.max(1), "{name}: a file per blend");
        for (blend, file) in names.iter().enumerate() {
            let smd = read_smd(files, file);
            let what = format!("{name} {file}");
            assert_eq!(smd.frames.len(), sequence.frames() as usize, "{what}: frames");
            let values = read_values(&smd, model, sequence);
            for (k, (frame, bones)) in smd.frames.iter().zip(&values).enumerate() {
                assert_eq!(frame.time, k as i32, "{what}: times in order");
                assert_eq!(bones.len(), model.bones.len(), "{what}: every bone");
                sample_runs(model, sequence, blend, k, 0.0, &zero, &mut pose);
                for (b, v) in bones.iter().enumerate() {
                    // Valve's slerp to the next frame at t = 0 scales by sin ω / sinf(ω), which
                    // can be an ulp from 1: the angles are the model's, the quaternion within it.
                    let q = Vec4::from_array(angle_quaternion([v[3], v[4], v[5]]));
                    let off = (q - pose.rotations[b]).abs().max_element();
                    assert!(
                        off <= 2.5e-7,
                        "{what}: frame {k} bone {b} rotation {q} vs {}",
                        pose.rotations[b]
                    );
                    exact += usize::from(off == 0.0);
                    compared += 1;
                    assert_eq!(
                        Vec3A::new(v[0], v[1], v[2]),
                        pose.positions[b],
                        "{what}: frame {k} bone {b} position"
                    );
                }
                // The root's file values are the model's turned −90° about Z with the movement added.
                for key in frame.bones.iter().filter(|key| model.bones[key.bone].parent.is_none()) {
                    let v = bones[key.bone];
                    let frames = sequence.frames();
                    let f = if frames > 1 { k as f64 / f64::from(frames - 1) } else { 0.0 };
                    let lm = sequence.linear_movement;
                    let x = f64::from(v[0]) + f * f64::from(lm.x);
                    let y = f64::from(v[1]) + f * f64::from(lm.y);
                    // `v` went through f32: within its rounding.
                    let near = |a: f64, b: f64| (a - b).abs() <= 1e-6 * b.abs().max(1.0);
                    assert!(near(key.position[0], y) && near(key.position[1], -x), "{what}: root turn");
                    assert!(near(key.rotation[2], f64::from(v[5]) + ROOT_TURN), "{what}: root angle");
                }
            }
        }
    }
    (exact, compared)
}

fn check_textures(name: &str, model: &Model, layout: &Layout, files: &Decompiled) {
    for (texture, file) in model.textures.iter().zip(&layout.textures) {
        let read = bmp::read(files.file(file).expect("a texture file")).expect("a readable bitmap");
        assert_eq!((read.width, read.height), (texture.width, texture.height), "{name} {file}: size");
        assert_eq!(read.pixels, texture.pixels, "{name} {file}: pixels");
        assert_eq!(read.palette[..texture.palette.len()], texture.palette[..], "{name} {file}: palette");
    }
}

/// Every file the QC names is written, and every file written is named by the QC (a texture:
/// by the QC or a reference SMD's material).
fn check_qc(name: &str, files: &Decompiled) {
    let qc = std::str::from_utf8(files.file("model.qc").expect("the QC")).expect("QC text");
    let quoted: Vec<&str> = qc.lines().flat_map(|line| line.split('"').skip(1).step_by(2)).collect();
    let mut materials = std::collections::HashSet::new();
    for file in files.files.iter().filter(|f| f.name.ends_with(".smd")) {
        materials.extend(read_smd(files, &file.name).triangles.into_iter().map(|t| t.material));
    }
    for file in &files.files {
        if file.name == "model.qc" {
            continue;
        }
        let stem = file.name.trim_end_matches(".smd");
        let named =
            quoted.contains(&stem) || quoted.contains(&file.name.as_str()) || materials.contains(&file.name);
        assert!(named, "{name}: the QC or an SMD names {}", file.name);
    }
    for line in qc.lines().filter(|l| l.trim_start().starts_with("studio ")) {
        let stem = line.split('"').nth(1).expect("a quoted name");
        assert!(files.file(&format!("{stem}.smd")).is_some(), "{name}: {stem}.smd is written");
    }
    for line in qc.lines().filter(|l| l.starts_with("$sequence ")) {
        let tokens: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
        for stem in &tokens[1..] {
            assert!(files.file(&format!("{stem}.smd")).is_some(), "{name}: {stem}.smd is written");
        }
    }
}

#[test]
fn every_decompiled_file_reads_back_to_the_model() {
    for (name, model) in models() {
        let files = decompile(&model);
        let layout = goldsrc::layout(&model);
        check_reference(&name, &model, &layout, &files);
        let (exact, compared) = check_animations(&name, &model, &layout, &files);
        // Most keyframes hold one rotation to the next (no slerp at all): those are exact.
        assert!(exact * 2 >= compared, "{name}: {exact} of {compared} rotations exact");
        eprintln!("{name}: {exact} of {compared} bone rotations bit-exact, the rest within 2 ulp");
        check_textures(&name, &model, &layout, &files);
        check_qc(&name, &files);
    }
}

/// QC tokens: quoted strings and bare words, `//` comments dropped.
fn tokens(line: &str) -> Vec<String> {
    let line = match line.find("//") {
        Some(at) if line[..at].matches('"').count().is_multiple_of(2) => &line[..at],
        _ => line,
    };
    let mut out = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').unwrap_or(quoted.len());
            out.push(quoted[..end].to_owned());
            rest = quoted.get(end + 1..).unwrap_or("").trim_start();
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            out.push(rest[..end].to_owned());
            rest = rest[end..].trim_start();
        }
    }
    out
}

/// Reads the QC's `$sequence` blocks into `model`'s sequences, in order: fps, loop, motion
/// flags, activity and weight, blends, transition nodes and events, as studiomdl would set
/// them. Returns the SMD files each names, per sequence.
fn apply_qc_sequences(qc: &str, model: &mut Model) -> Vec<Vec<String>> {
    use studio_model::motion::MOTION_FLAG_NAMES;
    let written_labels = goldsrc::layout(model).labels;
    let mut files = Vec::new();
    let mut lines = qc.lines();
    let mut index = 0;
    while let Some(line) = lines.next() {
        if !line.starts_with("$sequence ") {
            continue;
        }
        let mut t = tokens(line);
        // The event block opens on the $sequence line.
        let has_events = t.last().is_some_and(|w| w == "{");
        if has_events {
            t.pop();
        }
        let s = &mut model.sequences[index];
        index += 1;
        assert_eq!(t[1], written_labels[index - 1], "the QC's sequences are in order");
        let mut k = 2;
        let mut names = Vec::new();
        while k < t.len() && t[k] != "fps" {
            names.push(format!("{}.smd", t[k]));
            k += 1;
        }
        files.push(names);
        let (mut flags, mut motion, mut activity, mut weight) = (0, 0, 0, 0);
        let (mut nodes, mut blends) = ((0, 0, 0), Vec::new());
        while k < t.len() {
            let word = t[k].as_str();
            let number = |i: usize| t[k + i].parse::<f32>().expect("a number");
            match word {
                "fps" => {
                    s.fps = number(1);
                    k += 2;
                }
                "loop" => {
                    flags |= studio_model::STUDIO_LOOPING;
                    k += 1;
                }
                "blend" => {
                    let kind =
                        MOTION_FLAG_NAMES.iter().find(|(_, n)| *n == t[k + 1]).expect("a motion type").0;
                    blends.push((kind, number(2), number(3)));
                    k += 4;
                }
                "pivot" => k += 4,
                "node" => {
                    let n = number(1) as i32;
                    nodes = (n, n, 0);
                    k += 2;
                }
                "transition" | "rtransition" => {
                    nodes = (number(1) as i32, number(2) as i32, i32::from(word == "rtransition"));
                    k += 3;
                }
                w if w.starts_with("ACT_") => {
                    activity = studio_decompile::qc::goldsrc_activity_token(w);
                    assert_ne!(activity, 0, "an activity: {w}");
                    weight = number(1) as i32;
                    k += 2;
                }
                w => {
                    motion |= MOTION_FLAG_NAMES
                        .iter()
                        .find(|(_, n)| *n == w)
                        .unwrap_or_else(|| panic!("option {w}"))
                        .0;
                    k += 1;
                }
            }
        }
        s.flags = (s.flags & !studio_model::STUDIO_LOOPING) | flags;
        s.motion_type = (s.motion_type & studio_model::motion::STUDIO_RLOOP) | motion;
        (s.activity, s.activity_weight) = (activity, weight);
        (s.entry_node, s.exit_node, s.node_flags) = nodes;
        // studiomdl's `blend` sets the first axis; the second is only in a comment.
        s.blend_type[0] = 0;
        assert!(blends.len() <= 1, "one blend option");
        for (kind, start, end) in blends {
            s.blend_type[0] = kind;
            (s.blend_start[0], s.blend_end[0]) = (start, end);
        }
        let mut events = Vec::new();
        if has_events {
            for line in lines.by_ref() {
                if line == "}" {
                    break;
                }
                let t = tokens(line.trim_start_matches(['\t', '{']).trim_end_matches('}'));
                assert_eq!(t[0], "event", "{line}");
                let (event, frame) = (t[1].parse().expect("an event"), t[2].parse().expect("a frame"));
                let options = t.get(3).cloned().unwrap_or_default();
                let kind = s.events.get(events.len()).map_or(0, |e| e.kind);
                events.push(studio_model::Event { frame, event, kind, options });
            }
        }
        s.events = events;
    }
    assert_eq!(index, model.sequences.len(), "a $sequence per sequence");
    files
}

/// The model built again from the read-back files. The sequences' settings come from the
/// QC's `$sequence` lines ([`apply_qc_sequences`]); hit boxes, attachments and controllers are
/// the original's (their lines are checked to parse back by `tests/qc.rs`). Each bone's
/// `scale` (studiomdl's choice, from all animations' ranges) is the original's too, so the
/// channels quantise to the same numbers.
fn rebuild(original: &Model, files: &Decompiled) -> Model {
    let layout = goldsrc::layout(original);
    let mut model = original.clone();
    let qc = std::str::from_utf8(files.file("model.qc").expect("the QC")).expect("QC text");
    let named = apply_qc_sequences(qc, &mut model);
    assert_eq!(named, layout.sequences, "the QC names each blend's file");

    // Bones: names, parents and default values from a reference file (or the first animation).
    let first = layout
        .submodels
        .iter()
        .flatten()
        .flatten()
        .next()
        .or(layout.sequences.first().and_then(|s| s.first()));
    if let Some(first) = first {
        let smd = read_smd(files, first);
        for (bone, node) in model.bones.iter_mut().zip(&smd.nodes) {
            bone.name = node.name.clone();
            bone.parent = node.parent;
        }
        if layout.submodels.iter().flatten().flatten().next().is_some() {
            for key in &smd.frames[0].bones {
                let v = &mut model.bones[key.bone].value;
                for d in 0..3 {
                    v[d] = key.position[d] as f32;
                    v[d + 3] = key.rotation[d] as f32;
                }
            }
        }
    }

    // Animations: every blend's values quantised into new channels in one group.
    let mut data = Vec::new();
    let bones = model.bones.clone();
    for (sequence, names) in model.sequences.iter_mut().zip(&layout.sequences) {
        let mut records = Vec::new();
        for file in names {
            let values = read_values(&read_smd(files, file), original, sequence);
            for (b, bone) in bones.iter().enumerate() {
                let mut animation = BoneAnimation::default();
                for (d, slot) in animation.channels.iter_mut().enumerate() {
                    let raw: Vec<i16> = values
                        .iter()
                        .map(|frame| {
                            let offset = frame[b][d] - bone.value[d];
                            if bone.scale[d] == 0.0 { 0 } else { (offset / bone.scale[d]).round() as i16 }
                        })
                        .collect();
                    *slot = studio_model::encode_channel(&raw).map(|bytes| {
                        let offset = data.len() as u32;
                        data.extend_from_slice(&bytes);
                        Channel { offset }
                    });
                }
                records.push(animation);
            }
        }
        sequence.animation = Some(Animation::new(bones.len(), records));
        sequence.group = 0;
    }
    model.sequence_groups = vec![SequenceGroup::with_data("default", "", data)];

    // Textures from the bitmaps.
    for (texture, file) in model.textures.iter_mut().zip(&layout.textures) {
        let read = bmp::read(files.file(file).expect("a texture")).expect("a bitmap");
        *texture = studio_model::Texture::from_indexed(
            &texture.name,
            texture.flags,
            read.width,
            read.height,
            read.pixels,
            &read.palette,
        );
    }

    // Geometry from the reference files: vertices back into their bones' space.
    let matrices = bind_matrices(&model);
    let slot_of: HashMap<&str, i32> = (0..model.skins.num_refs())
        .filter_map(|slot| {
            Some((layout.textures.get(model.skins.texture(0, slot as i32)?)?.as_str(), slot as i32))
        })
        .collect();
    for (p, (part, names)) in model.body_parts.iter_mut().zip(&layout.submodels).enumerate() {
        for (s, (sub, file)) in part.submodels.iter_mut().zip(names).enumerate() {
            let Some(file) = file else { continue };
            let smd = read_smd(files, file);
            let (mut vertices, mut vertex_bones, mut normals, mut normal_bones) =
                (vec![], vec![], vec![], vec![]);
            let mut meshes: Vec<Mesh> = Vec::new();
            // The triangles of zero area at the end keep bones and textures for studiomdl.
            let added = layout.added_at((p, s));
            for triangle in &smd.triangles[..smd.triangles.len() - added] {
                let skin_ref = slot_of[triangle.material.as_str()];
                let mesh = match meshes.iter().position(|m| m.skin_ref == skin_ref) {
                    Some(i) => i,
                    None => {
                        meshes.push(Mesh {
                            num_tris: 0,
                            skin_ref,
                            num_norms: 0,
                            vertices: vec![],
                            commands: vec![],
                            triangles: vec![],
                        });
                        meshes.len() - 1
                    }
                };
                let mesh = &mut meshes[mesh];
                let texture = &model.textures[model.skins.texture(0, skin_ref).expect("a texture")];
                let first = mesh.vertices.len() as u32;
                for corner in triangle.corners.iter().rev() {
                    let inverse = matrices[corner.bone].inverse();
                    let p = corner.position.map(|x| x as f32);
                    let n = corner.normal.map(|x| x as f32);
                    vertices.push(inverse.transform_point3(Vec3::from_array(p)));
                    vertex_bones.push(corner.bone as u8);
                    normals.push(inverse.transform_vector3(Vec3::from_array(n)));
                    normal_bones.push(corner.bone as u8);
                    let (s, t) = texel(corner.uv[0], corner.uv[1], texture.width, texture.height);
                    let index = (vertices.len() - 1) as u16;
                    mesh.vertices.push(MeshVertex { vertex: index, normal: index, s, t });
                }
                mesh.commands.push(TriangleCommand { strip: true, first, count: 3 });
                mesh.triangles.push([first, first + 1, first + 2]);
                mesh.num_tris += 1;
                mesh.num_norms += 3;
            }
            (sub.vertices, sub.vertex_bones, sub.normals, sub.normal_bones, sub.meshes) =
                (vertices, vertex_bones, normals, normal_bones, meshes);
        }
    }
    model
}

/// Model-space triangle corners of every submodel: position, and texel per corner, in
/// triangle order per skin slot (a rebuilt model has one mesh per slot).
fn corners(model: &Model) -> Vec<Vec<(Vec3, (i16, i16))>> {
    let matrices = bind_matrices(model);
    let mut out = Vec::new();
    for sub in model.body_parts.iter().flat_map(|p| &p.submodels) {
        let mut list = Vec::new();
        let mut meshes: Vec<&Mesh> = sub.meshes.iter().collect();
        meshes.sort_by_key(|m| m.skin_ref);
        for mesh in meshes {
            for triangle in &mesh.triangles {
                for &i in triangle {
                    let mv = mesh.vertices[i as usize];
                    let v = usize::from(mv.vertex);
                    let p = matrices[usize::from(sub.vertex_bones[v])].transform_point3(sub.vertices[v]);
                    list.push((p, (mv.s, mv.t)));
                }
            }
        }
        out.push(list);
    }
    out
}

/// Whether every channel of `sequence` holds the runs studiomdl makes of its values.
fn laid_out_as_studiomdl(model: &Model, sequence: &studio_model::Sequence) -> bool {
    let frames = sequence.frames() as usize;
    let Some(animation) = &sequence.animation else { return false };
    (0..animation.num_blends()).all(|blend| {
        animation.blend(blend).unwrap_or_default().iter().flat_map(|a| a.channels.iter().flatten()).all(
            |&channel| {
                let mut stored = Vec::new();
                let mut covered = 0;
                for run in model.runs(sequence, channel) {
                    stored.extend([run.valid, run.total]);
                    stored.extend(run.values().flat_map(i16::to_le_bytes));
                    covered += usize::from(run.total);
                    if covered >= frames {
                        break;
                    }
                }
                let values = studio_model::decode_channel(model.runs(sequence, channel), frames);
                studio_model::encode_channel(&values).is_some_and(|bytes| bytes == stored)
            },
        )
    })
}

#[test]
fn a_model_rebuilt_from_its_decompiled_files_poses_as_the_original() {
    for (name, original) in models() {
        let files = decompile(&original);
        let rebuilt = rebuild(&original, &files);
        let written = studio_model::write(&rebuilt).unwrap_or_else(|e| panic!("{name}: {e}"));
        let parsed = studio_model::parse(&studio_model::ModelFiles {
            stem: "rebuilt",
            main: &written.main,
            textures: written.textures.as_deref(),
            groups: written.groups.iter().map(|g| Some(g.as_slice())).collect(),
        })
        .unwrap_or_else(|e| panic!("{name}: the rebuilt model parses: {e}"));

        let mut a = LocalPose::new(original.bones.len());
        let mut b = LocalPose::new(original.bones.len());
        let zero = vec![0.0; original.bone_controllers.len()];
        let mut poses = 0;
        for (s, (x, y)) in original.sequences.iter().zip(&parsed.sequences).enumerate() {
            assert_eq!(x.frames(), y.frames(), "{name} sequence {s}");
            for blend in 0..x.num_blends.max(1) {
                for k in 0..x.frames() as usize {
                    // The game never goes past frames − 1.001 (StudioEstimateFrame): the last
                    // frame is compared alone.
                    let fractions: &[f32] = if k + 1 < x.frames() as usize { &[0.0, 0.5] } else { &[0.0] };
                    for &fraction in fractions {
                        sample_runs(&original, x, blend, k, fraction, &zero, &mut a);
                        sample_runs(&parsed, y, blend, k, fraction, &zero, &mut b);
                        if fraction > 0.0 && !laid_out_as_studiomdl(&original, x) {
                            // Between keyframes the game reads the runs themselves (a held
                            // value is not mixed with the next): a file whose runs another tool
                            // laid out compares at its keyframes only.
                            continue;
                        }
                        assert_eq!(
                            a.rotations, b.rotations,
                            "{name} sequence {s} blend {blend} frame {k}+{fraction}"
                        );
                        assert_eq!(
                            a.positions, b.positions,
                            "{name} sequence {s} blend {blend} frame {k}+{fraction}"
                        );
                        poses += 1;
                    }
                }
            }
        }
        assert!(poses >= original.sequences.len(), "{name}: every sequence compared");
        let between = original.sequences.iter().filter(|s| laid_out_as_studiomdl(&original, s)).count();
        eprintln!(
            "{name}: {poses} poses equal; {between} of {} sequences also between keyframes",
            original.sequences.len()
        );

        let (before, after) = (corners(&original), corners(&parsed));
        assert_eq!(before.len(), after.len(), "{name}: submodels");
        for (x, y) in before.iter().zip(&after) {
            assert_eq!(x.len(), y.len(), "{name}: corners");
            for (p, q) in x.iter().zip(y) {
                assert!((p.0 - q.0).abs().max_element() <= 1e-3, "{name}: corner {} vs {}", p.0, q.0);
                assert_eq!(p.1, q.1, "{name}: texel");
            }
        }
        for (x, y) in original.textures.iter().zip(&parsed.textures) {
            assert_eq!((&x.pixels, &x.palette), (&y.pixels, &y.palette), "{name}: texture {}", x.name);
        }
        // The settings read from the QC are the original's.
        for (x, y) in original.sequences.iter().zip(&parsed.sequences) {
            let settings = |s: &studio_model::Sequence| {
                let blends: Vec<_> = (0..2)
                    .filter(|&a| s.blend_type[a] != 0)
                    .map(|a| (s.blend_type[a], s.blend_start[a], s.blend_end[a]))
                    .collect();
                (
                    s.fps,
                    s.flags,
                    s.motion_type,
                    s.activity,
                    s.activity_weight,
                    blends,
                    (s.entry_node, s.exit_node, s.node_flags),
                    s.events.clone(),
                )
            };
            assert_eq!(settings(x), settings(y), "{name}: sequence {}", x.label);
        }
    }
}
