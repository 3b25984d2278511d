//! The shared Source fixtures read with the values their README gives and values read
//! independently from the files with Python's `struct` (noted where used).

use studio_source::{FileRole, Problem, Procedural, Record, SourceModel, parse_mdl};

/// Values as f64, to compare with the exact values Python's `struct` printed.
fn wide(values: &[f32]) -> Vec<f64> {
    values.iter().map(|&v| f64::from(v)).collect()
}

const FIXTURE: &str = "fixtures/source/models/fixture";

fn model(name: &str) -> Option<SourceModel> {
    let shared = studio_testing::shared()?;
    let bytes = studio_testing::read(&shared, &format!("{FIXTURE}/{name}"));
    Some(parse_mdl(&bytes).unwrap_or_else(|e| panic!("{name}: {e}")))
}

const BONES: [&str; 15] = [
    "pelvis",
    "spine",
    "chest",
    "head",
    "antenna",
    "l_arm",
    "l_hand",
    "r_arm",
    "r_arm_twist",
    "l_thigh",
    "l_calf",
    "l_foot",
    "r_thigh",
    "r_calf",
    "r_foot",
];

#[test]
fn skeleton_bones_controllers_and_procedural_rules() {
    let Some(m) = model("skeleton48.mdl") else { return };
    assert_eq!(m.header.version, 48);
    assert!(m.header.has_header2);
    assert_eq!(m.header.surface_prop, "flesh");
    assert!(m.header.key_values.contains("prop_data"));
    let names: Vec<&str> = m.bones.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, BONES);
    for (i, bone) in m.bones.iter().enumerate() {
        assert!(bone.parent.is_none_or(|p| p < i));
        assert_ne!(bone.flags & 0x7FF00, 0, "{}: every bone has a BONE_USED_BY_* bit", bone.name);
    }
    assert_eq!(m.bones[4].surface_prop, "metal");
    assert_eq!(m.bones[6].flags & 0x40000, 0x40000, "l_hand: BONE_USED_BY_BONE_MERGE");
    assert_eq!(m.bones[8].flags & 0x4, 0x4, "r_arm_twist: BONE_ALWAYS_PROCEDURAL");
    let Some(Procedural::QuatInterp { control, triggers }) = &m.bones[8].procedural else {
        panic!("r_arm_twist: {:?}", m.bones[8].procedural)
    };
    assert_eq!((*control, triggers.len()), (7, 2));
    let Some(Procedural::Jiggle { flags, .. }) = &m.bones[4].procedural else { panic!("antenna") };
    assert_eq!(*flags, 0x51);
    assert_eq!(m.bones[4].procedural.as_ref().map(Procedural::proctype), Some(5));

    assert_eq!(m.bone_controllers.len(), 2);
    let head = &m.bone_controllers[0];
    assert_eq!((head.bone, head.kind, head.start, head.end, head.input), (3, 0x20 | 0x40000, -90.0, 90.0, 0));
    let chest = &m.bone_controllers[1];
    assert_eq!((chest.bone, chest.kind, chest.start, chest.end, chest.input), (2, 0x1, -2.0, 2.0, 1));
    assert_eq!(m.bones[3].controllers[5], Some(0), "head ZR");
    assert_eq!(m.bones[2].controllers[0], Some(1), "chest X");
}

#[test]
fn hitboxes_attachments_pose_parameters_and_ik() {
    let Some(m) = model("anim48.mdl") else { return };
    let sets: Vec<(&str, usize)> =
        m.hitbox_sets.iter().map(|s| (s.name.as_str(), s.hitboxes.len())).collect();
    assert_eq!(sets, [("default", 8), ("cheap", 2)]);
    let names: Vec<&str> = m.hitbox_sets[0].hitboxes.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "hb_pelvis",
            "hb_head",
            "hb_chest",
            "hb_stomach",
            "hb_l_arm",
            "hb_r_arm",
            "hb_l_thigh",
            "hb_r_thigh"
        ]
    );
    assert!(m.hitbox_sets[0].hitboxes.iter().enumerate().all(|(i, b)| b.group == i as i32));
    assert!(m.hitbox_sets[1].hitboxes.iter().all(|b| b.name.is_empty()));
    // hb_head, read with struct: bone 3, group 1, bbmin, bbmax.
    let head = &m.hitbox_sets[0].hitboxes[1];
    assert_eq!(head.bone, 3);
    assert_eq!(wide(&head.bbmin.to_array()), [-0.24999967217445374, -3.75, -3.75]);
    assert_eq!(wide(&head.bbmax.to_array()), [8.265609741210938, 3.75, 3.75]);

    let attachments: Vec<(&str, Option<usize>, u32)> =
        m.attachments.iter().map(|a| (a.name.as_str(), a.bone, a.flags)).collect();
    assert_eq!(attachments, [("eyes", Some(3), 0), ("lhand_grip", Some(6), 0), ("floor", Some(0), 0x10000)]);
    // eyes' local matrix, read with struct: a rotation about y and an offset.
    assert_eq!(
        wide(m.attachments[0].local.as_flattened()),
        [
            0.9950041770935059,
            0.0,
            0.0998334139585495,
            4.0,
            0.0,
            1.0,
            0.0,
            3.5,
            -0.0998334139585495,
            0.0,
            0.9950041770935059,
            0.0
        ]
    );

    let params: Vec<(&str, f32, f32, f32)> =
        m.pose_parameters.iter().map(|p| (p.name.as_str(), p.start, p.end, p.loop_range)).collect();
    assert_eq!(
        params,
        [("move_x", -1.0, 1.0, 0.0), ("aim_yaw", -45.0, 45.0, 0.0), ("spin", 0.0, 360.0, 360.0)]
    );

    let chains: Vec<(&str, Vec<usize>)> =
        m.ik_chains.iter().map(|c| (c.name.as_str(), c.links.iter().map(|l| l.bone).collect())).collect();
    assert_eq!(chains, [("lleg", vec![9, 10, 11]), ("rleg", vec![12, 13, 14])]);
    assert_ne!(m.ik_chains[0].links[0].knee_direction, glam::Vec3::ZERO);
    assert_eq!(m.ik_chains[1].links[0].knee_direction, glam::Vec3::ZERO);
}

#[test]
fn bone_pose_to_bone_and_defaults() {
    let Some(m) = model("anim48.mdl") else { return };
    // head, read with struct at boneindex + 3 × 216.
    let head = &m.bones[3];
    assert_eq!(
        wide(&head.pose_to_bone[0]),
        [0.062378279864788055, -1.7099430760225687e-09, 0.9980525970458984, -63.90655517578125]
    );
    assert_eq!(
        wide(&head.pose_to_bone[2]),
        [-4.9339088370459194e-09, 1.0, 6.882960312815101e-10, -2.6016380161308916e-08]
    );
    assert_eq!(
        wide(&head.position.to_array()),
        [9.998000144958496, 0.1993204951286316, -0.01597973331809044]
    );
    assert_eq!(
        wide(&head.quaternion.to_array()),
        [-0.03995538130402565, 0.001647417200729251, 0.041163455694913864, 0.9983518719673157]
    );
    // anim48 adds the saved-frame flags.
    assert_ne!(m.bones[0].flags & studio_source::BONE_HAS_SAVEFRAME_POS, 0);
    assert_ne!(m.bones[0].flags & studio_source::BONE_HAS_SAVEFRAME_ROT, 0);
    assert_ne!(m.bones[1].flags & studio_source::BONE_HAS_SAVEFRAME_ROT, 0);
}

#[test]
fn animations_sections_and_blocks() {
    let Some(m) = model("anim48.mdl") else { return };
    assert_eq!(m.animations.len(), 25);
    let frames: Vec<(&str, u32)> = m.animations.iter().map(|a| (a.name.as_str(), a.frames)).take(6).collect();
    assert_eq!(
        frames,
        [
            ("@ref", 1),
            ("@idle", 31),
            ("@walk", 25),
            ("@sections30", 30),
            ("@ani_run", 17),
            ("@ani_sections", 20)
        ]
    );
    assert_eq!(m.animations[2].movements.len(), 2, "@walk has two movements");
    // @sections30: sectionframes 8, floor(30 / 8) + 2 = 5 section entries, all in the .mdl.
    let sections = &m.animations[3];
    assert_eq!((sections.section_frames, sections.sections.len()), (8, 5));
    assert!(sections.sections.iter().all(|s| s.block == 0));
    // @ani_sections: section 0 in the .mdl, 1 in block 1, 2 and 3 in block 2.
    let blocks: Vec<i32> = m.animations[5].sections.iter().map(|s| s.block).collect();
    assert_eq!(blocks, [0, 1, 2, 2]);
    assert_eq!(m.animations[4].data.block, 1, "@ani_run is in .ani block 1");
    // @ani_run keeps 5 zero frames, one every 4 (the README), checked to lie in the file.
    let zero = m.animations[4].zero_frames.expect("zero frames");
    assert_eq!((zero.span, zero.count), (4, 5));
    assert!(m.animations.iter().enumerate().all(|(i, a)| i == 4 || a.zero_frames.is_none()));
    assert_eq!(m.header.ani_name, "models/fixture/Anim48.ani");
    let ranges: Vec<(i32, i32)> = m.anim_blocks.iter().map(|b| (b.start, b.end)).collect();
    assert_eq!(ranges, [(0, 0), (416, 1092), (1104, 1284)]);
}

#[test]
fn sequences_grids_layers_locks_and_events() {
    let Some(m) = model("anim48.mdl") else { return };
    let labels: Vec<&str> = m.sequences.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "ref",
            "idle",
            "walk",
            "sections",
            "ani_run",
            "ani_sections",
            "blend9",
            "blend3",
            "wave_delta",
            "idle_wave",
            "aim_delta3",
            "walk_aim",
            "crouch_lock",
            "reach_partial",
            "spin_pose"
        ]
    );
    let blend9 = &m.sequences[6];
    assert_eq!(blend9.grid, [3, 3]);
    assert_eq!(blend9.params, [Some(0), Some(1)]);
    // Read with struct: the grid by rows and the pose keys (columns, then rows).
    assert_eq!(blend9.animations, [6, 9, 12, 7, 10, 13, 8, 11, 14]);
    assert_eq!(blend9.pose_keys, [-1.0, -0.2, 1.0, -45.0, 0.0, 30.0]);
    let blend3 = &m.sequences[7];
    assert_eq!((blend3.grid, blend3.pose_keys.len()), ([3, 1], 0));
    assert_eq!((blend3.param_start[0], blend3.param_end[0]), (-0.8, 0.8));

    let walk = &m.sequences[2];
    assert_eq!(walk.activity_name, "ACT_WALK");
    assert_eq!(walk.activity_modifiers, ["fixture_armed"]);
    assert!(walk.events.iter().any(|e| e.event == 5004 && e.options == "Fixture.StepLeft" && e.cycle == 0.0));
    assert!(
        walk.events.iter().any(|e| e.name == "AE_FIXTURE_FOOTSTEP" && e.options == "left" && e.cycle == 0.25)
    );
    let idle = &m.sequences[1];
    assert!(
        idle.events
            .iter()
            .any(|e| e.name == "AE_FIXTURE_BLINK" && e.kind & studio_source::NEW_EVENT_STYLE != 0)
    );
    assert_eq!(m.sequences[4].activity_modifiers, ["fixture_armed", "fixture_fast"]);

    let layer = &m.sequences[9].layers[0];
    assert_eq!((layer.sequence, layer.flags & 0x40), (8, 0x40));
    assert_eq!((layer.start, layer.peak, layer.tail, layer.end), (0.1, 0.3, 0.6, 0.9));
    let aim = &m.sequences[11].layers[0];
    assert_eq!((aim.sequence, aim.pose, aim.flags & 0x4000), (10, 1, 0x4000));

    let locks: Vec<(usize, f32, f32)> = m.sequences[12]
        .ik_locks
        .iter()
        .map(|l| (l.chain, l.position_weight, l.local_rotation_weight))
        .collect();
    assert_eq!(locks, [(0, 1.0, 0.0), (1, 0.8, 0.5)]);
    let weights = &m.sequences[13].weights;
    assert_eq!(weights.len(), 15);
    assert_eq!((weights[0], weights[1], weights[3]), (0.0, 0.5, 1.0));
    assert_eq!(m.sequences[14].cycle_pose, Some(2));
    assert!(m.sequences.iter().all(|s| s.fade == (0.2, 0.2)));
}

#[test]
fn materials_skins_and_body_parts() {
    let Some(m) = model("skeleton48.mdl") else { return };
    let textures: Vec<&str> = m.textures.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(textures, ["fixture_skin_a", "fixture_skin_b"]);
    assert_eq!(m.material_paths, ["models/fixture/"]);
    assert_eq!(m.skins.families, [vec![0, 1], vec![1, 0]]);
    // Per body part, per model: its name and its meshes' materials.
    type Models<'a> = Vec<(&'a str, Vec<i32>)>;
    let parts: Vec<(&str, Models<'_>)> = m
        .body_parts
        .iter()
        .map(|p| {
            let models =
                p.models.iter().map(|m| (m.name.as_str(), m.meshes.iter().map(|x| x.material).collect()));
            (p.name.as_str(), models.collect())
        })
        .collect();
    assert_eq!(parts[0].0, "body");
    assert_eq!(parts[0].1.len(), 1);
    assert_eq!(parts[0].1[0].1, [0, 1]);
    assert_eq!(parts[1].0, "helmet");
    assert_eq!(parts[1].1[0].1, [1]);
    assert_eq!(parts[1].1[1], ("blank", vec![]));
    // The models' LOD 0 vertices add up to the .vvd's 388.
    let vertices: i32 = m.body_parts.iter().flat_map(|p| &p.models).map(|m| m.num_vertices).sum();
    assert_eq!(vertices, 388);
}

#[test]
fn include_models_are_named_as_stored() {
    let Some(m) = model("include48.mdl") else { return };
    assert_eq!(m.include_models.len(), 1);
    assert_eq!(m.include_models[0].file, r"models\fixture\include48_anims.mdl");
    let labels: Vec<&str> = m.sequences.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["ref", "inc_run"]);
    assert_eq!(m.sequences[1].grid, [0, 0]);
    let Some(anims) = model("include48_anims.mdl") else { return };
    assert_eq!(anims.bones.len(), 11);
    assert_eq!(anims.bones[7].name, "Spine");
    assert!(anims.body_parts.iter().all(|p| p.models.iter().all(|m| m.meshes.is_empty())));
    assert_eq!(anims.pose_parameters[0].start, -2.0);
}

#[test]
fn a_truncated_header_names_the_header() {
    let Some(shared) = studio_testing::shared() else { return };
    let bytes = studio_testing::read(&shared, "fixtures/source/broken/truncated_header.mdl");
    let error = parse_mdl(&bytes).unwrap_err();
    assert_eq!(
        (error.place.file, error.place.record, error.place.offset),
        (FileRole::Mdl, Record::Header, 0)
    );
    assert_eq!(error.problem, Problem::Truncated { needed: 408, end: 200 });
}

/// Loads a fixture from disk with its companions.
fn loaded(name: &str) -> Option<studio_source::LoadedSource> {
    let shared = studio_testing::shared()?;
    Some(studio_source::load(&shared.join(FIXTURE).join(name)).unwrap_or_else(|e| panic!("{name}: {e}")))
}

/// The value streams of every chain of the model's animations.
fn streams(m: &SourceModel) -> usize {
    let count = |c: &studio_source::Channel<glam::Vec3>| match c {
        studio_source::Channel::Streams(s) => s.iter().flatten().count(),
        _ => 0,
    };
    let count_q = |c: &studio_source::Channel<glam::Quat>| match c {
        studio_source::Channel::Streams(s) => s.iter().flatten().count(),
        _ => 0,
    };
    m.animations
        .iter()
        .flat_map(|a| a.chains.iter().flatten())
        .flat_map(|c| &c.records)
        .map(|r| count(&r.position) + count_q(&r.rotation))
        .sum()
}

#[test]
fn every_chain_and_stream_is_read_from_the_mdl_and_the_ani() {
    let Some(set) = loaded("anim48.mdl") else { return };
    let m = &set.model;
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    assert_eq!(set.companions.len(), 3, "{:?}", set.companions);
    // Every chain a frame reads is there: 15 single chains, 5 + 4 section chains, none empty.
    for a in &m.animations {
        let wanted = a.places().iter().filter(|(_, frames)| frames.is_some()).count();
        assert_eq!(a.chains.iter().flatten().count(), wanted, "{}", a.name);
    }
    // The README: 174 value streams in anim48.
    assert_eq!(streams(m), 174);
    // @ref's records (the README lists their flags: 0x21, 0x03, 0x20, 0x01, 0x02, 0x00), in
    // bone order.
    let records = &m.animations[0].chains[0].as_ref().unwrap().records;
    let mut flags: Vec<u8> = records.iter().map(|r| r.flags).collect();
    assert!(records.windows(2).all(|w| w[0].bone < w[1].bone));
    flags.sort_unstable();
    assert_eq!(flags, [0x00, 0x01, 0x02, 0x03, 0x20, 0x21]);
    // @ani_run is read from the .ani.
    assert_eq!(m.animations[4].chains[0].as_ref().unwrap().file, FileRole::Ani);
}

#[test]
fn without_its_ani_the_animations_there_are_unavailable() {
    let Some(set) = loaded("anim48_noani.mdl") else { return };
    let m = &set.model;
    assert!(m.animations[4].chains.iter().all(Option::is_none), "@ani_run has no chain");
    // @ani_sections keeps section 0, in the .mdl.
    assert!(m.animations[5].chains[0].is_some() && m.animations[5].chains[1].is_none());
    assert!(
        m.warnings.iter().any(|w| w.to_string().contains("missing48.ani was not found")),
        "{:?}",
        m.warnings
    );
}

#[test]
fn vertices_with_fixups_and_strips() {
    let Some(set) = loaded("skeleton48.mdl") else { return };
    let m = &set.model;
    assert!(m.warnings.is_empty(), "{:?}", m.warnings);
    let v = m.vertices.as_ref().expect("the .vvd");
    assert_eq!((v.num_lods, v.lod_vertices[0], v.lod_vertices[1], v.num_fixups), (2, 388, 260, 6));
    assert_eq!(v.vertices.len(), 388);
    assert_eq!(v.tangents.len(), 388);
    for vertex in &v.vertices {
        let used = &vertex.weights[..usize::from(vertex.num_bones)];
        assert!((used.iter().sum::<f32>() - 1.0).abs() < 1e-3);
    }
    assert!(v.tangents.iter().all(|t| t.w.abs() == 1.0));
    let vtx = m.vtx.as_ref().expect("the .vtx");
    assert!(!vtx.long_strips);
    assert_eq!(vtx.num_lods, 2);
    assert_eq!(vtx.body_parts.len(), 2);
    let group = &vtx.body_parts[0][0].lods[0].meshes[0].strip_groups[0];
    assert_eq!(group.flags, 0x02);
    assert!(group.strips.iter().all(|s| s.is_list()));
}

#[test]
fn include_models_are_found_from_the_game_folder() {
    let Some(set) = loaded("include48.mdl") else { return };
    assert!(set.include_paths[0].as_ref().is_some_and(|p| p.ends_with("include48_anims.mdl")));
    let include = set.model.includes[0].as_ref().expect("the include model");
    assert_eq!(include.bones.len(), 11);
    assert_eq!(include.animations.len(), 6);
    assert!(set.model.warnings.is_empty(), "{:?}", set.model.warnings);
}

#[test]
fn each_broken_file_names_its_defect() {
    let Some(shared) = studio_testing::shared() else { return };
    let broken = shared.join("fixtures/source/broken");
    let warnings = |name: &str| -> Vec<String> {
        let set = studio_source::load(&broken.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        set.model.warnings.iter().map(ToString::to_string).collect()
    };
    let w = warnings("anim_offset_past_end.mdl");
    assert!(w.iter().any(|w| w.starts_with("bone data of animation 1 at byte 26328 of the .mdl")), "{w:?}");
    let w = warnings("stream_runs_never_end.mdl");
    assert!(
        w.iter().any(|w| w.contains("value stream of animation 1") && w.contains("a run covers 0 frames")),
        "{w:?}"
    );
    let w = warnings("vtx_checksum_mismatch.mdl");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("of the .vtx: checksum"), "{w:?}");
    let w = warnings("vvd_bone_out_of_range.mdl");
    assert_eq!(
        w,
        [
            "vertex 7 at byte 492 of the .vvd: bone is 40, but there is no bone 40 (there are 15); the file is not used"
        ]
    );
    assert!(studio_source::load(&broken.join("truncated_header.mdl")).is_err());
}

#[test]
fn the_first_value_stream_of_idle() {
    let Some(m) = model("anim48.mdl") else { return };
    let Some(shared) = studio_testing::shared() else { return };
    let bytes = studio_testing::read(&shared, &format!("{FIXTURE}/anim48.mdl"));
    // Read with struct: @idle's first record is bone 0 with ANIMPOS only, whose z stream (at
    // byte 9946) runs over the 31 frames like this.
    let idle = &m.animations[1];
    let record = &idle.chains[0].as_ref().unwrap().records[0];
    assert_eq!((record.bone, record.flags), (0, studio_source::STUDIO_ANIM_ANIMPOS));
    let studio_source::Channel::Streams([None, None, Some(z)]) = record.position else {
        panic!("{:?}", record.position)
    };
    assert_eq!(z, 9946);
    let values = studio_source::decode_stream(&bytes, z, idle.frames).unwrap();
    assert_eq!(
        values,
        [
            0, 818, 1599, 2311, 2922, 3405, 3740, 3910, 3910, 3740, 3405, 2922, 2311, 1599, 818, 0, -818,
            -1599, -2311, -2922, -3405, -3740, -3910, -3910, -3740, -3405, -2922, -2311, -1599, -818, 0
        ]
    );
}

#[test]
fn a_vertex_the_fixup_order_and_a_strips_first_triangle() {
    let Some(set) = loaded("skeleton48.mdl") else { return };
    let v = set.model.vertices.as_ref().unwrap();
    // Read with struct: the fixups (lod, source, count) are (1, 0, 80), (0, 260, 40),
    // (1, 80, 160), (0, 300, 80), (1, 240, 20), (0, 380, 8), so LOD 0 vertex 100 is stored
    // vertex 280: weights 0.5, 0.3, 0.2 on bones 2, 3, 1.
    let vertex = &v.vertices[100];
    assert_eq!(wide(&vertex.weights), [0.5, 0.30000001192092896, 0.20000000298023224]);
    assert_eq!((vertex.bones, vertex.num_bones), ([2, 3, 1], 3));
    assert_eq!(vertex.position.to_array(), [4.5, -7.0, 64.0]);
    assert_eq!(vertex.uv.to_array(), [0.0, 1.0]);
    assert_eq!(v.vertices[34].position.to_array(), [-3.5, 7.0, 64.0]);
    // The first strip of body part 0, model 0, LOD 0, mesh 0: indices 0, 1, 2 name mesh
    // vertices 0, 2, 1 (the model's and mesh's first vertex is LOD 0 vertex 0).
    let vtx = set.model.vtx.as_ref().unwrap();
    let group = &vtx.body_parts[0][0].lods[0].meshes[0].strip_groups[0];
    let strip = &group.strips[0];
    assert_eq!((strip.first_index, strip.num_indices, group.mesh_vertices.len()), (0, 180, 120));
    let triangle: Vec<u16> =
        group.indices[..3].iter().map(|&i| group.mesh_vertices[usize::from(i)]).collect();
    assert_eq!(triangle, [0, 2, 1]);
    let corners: Vec<[f32; 3]> =
        triangle.iter().map(|&i| v.vertices[usize::from(i)].position.to_array()).collect();
    assert_eq!(corners, [[3.5, 6.0, 35.0], [-3.5, 6.0, 44.0], [-3.5, 6.0, 35.0]]);
    assert_eq!(set.model.body_parts[0].models[0].meshes[0].vertex_offset, 0);
}

/// A fixture with its version (and, for 44, its second header) changed, as older files are.
fn as_version(name: &str, version: i32) -> Option<SourceModel> {
    let shared = studio_testing::shared()?;
    let mut bytes = studio_testing::read(&shared, &format!("{FIXTURE}/{name}"));
    bytes[4..8].copy_from_slice(&version.to_le_bytes());
    if version == 44 {
        // The eight version 44 files of the spec's sample have no studiohdr2_t.
        bytes[400..404].copy_from_slice(&0i32.to_le_bytes());
    }
    Some(parse_mdl(&bytes).unwrap_or_else(|e| panic!("{name} as version {version}: {e}")))
}

#[test]
fn older_and_newer_versions_read_with_their_differences() {
    let Some(v48) = model("anim48.mdl") else { return };
    let Some(v44) = as_version("anim48.mdl", 44) else { return };
    assert!(!v44.header.has_header2);
    // No long name: name[64] holds the same short path here.
    assert_eq!(v44.header.name, v48.header.name);
    assert_eq!(v44.bones.len(), 15);
    // Below 46, an animation in sections reads as one frame without data; below 48 there is no
    // zero-frame data.
    let Some(v45) = as_version("anim48.mdl", 45) else { return };
    let sections = &v45.animations[3];
    assert_eq!((sections.frames, sections.section_frames, sections.data.block), (1, 0, -1));
    assert!(sections.chains.iter().all(Option::is_none));
    assert!(v45.animations.iter().all(|a| a.zero_frames.is_none()));
    let Some(v47) = as_version("anim48.mdl", 47) else { return };
    assert!(v47.animations[4].zero_frames.is_none());
    assert_eq!(v47.animations[3].sections.len(), 5);
    let Some(v49) = as_version("anim48.mdl", 49) else { return };
    assert_eq!(v49.animations, v48.animations);
    for version in [43, 50] {
        let shared = studio_testing::shared().unwrap();
        let mut bytes = studio_testing::read(&shared, &format!("{FIXTURE}/skeleton48.mdl"));
        bytes[4..8].copy_from_slice(&i32::to_le_bytes(version));
        assert_eq!(parse_mdl(&bytes).unwrap_err().problem, Problem::BadVersion { found: version });
    }
}

#[test]
fn an_empty_file_is_said_to_be_empty() {
    let error = parse_mdl(&[]).unwrap_err();
    assert_eq!(error.problem, Problem::Empty);
    assert_eq!(error.to_string(), "header (studiohdr_t) at byte 0 of the .mdl: the file is empty (0 bytes)");
}

/// The warnings of a model, as the command line prints them.
fn warning_texts(model: &SourceModel) -> Vec<String> {
    model.warnings.iter().map(ToString::to_string).collect()
}

#[test]
fn an_optional_name_outside_the_file_reads_as_empty_with_a_warning() {
    use studio_testing::source_mdl::{
        ATTACHMENT_INDEX, ATTACHMENT_SIZE, HITBOX_SET_INDEX, SEQ_INDEX, SEQDESC_SIZE, i32_at, name,
        point_name, record,
    };
    let Some(shared) = studio_testing::shared() else { return };
    let original = studio_testing::read(&shared, &format!("{FIXTURE}/anim48.mdl"));
    for version in [48, 44] {
        let mut bytes = original.clone();
        bytes[4..8].copy_from_slice(&i32::to_le_bytes(version));
        if version == 44 {
            bytes[400..404].copy_from_slice(&0i32.to_le_bytes());
        }
        let len = bytes.len();
        // Hit box set 0 and its box 0, attachment 0, sequence 1 (idle) and its event 0, each
        // name pointed past the end of the file, at another distance.
        let set = record(&bytes, HITBOX_SET_INDEX, 12, 0);
        let hitbox = set + usize::try_from(i32_at(&bytes, set + 8)).unwrap();
        let attachment = record(&bytes, ATTACHMENT_INDEX, ATTACHMENT_SIZE, 0);
        let idle = record(&bytes, SEQ_INDEX, SEQDESC_SIZE, 1);
        let event = idle + usize::try_from(i32_at(&bytes, idle + 28)).unwrap();
        let names = [
            (hitbox, 32, "hb_pelvis", "hit box 0"),
            (set, 0, "default", "hit box set 0"),
            (attachment, 0, "eyes", "attachment 0"),
            (idle, 8, "ACT_IDLE", "sequence 1"),
            (event, 76, "AE_FIXTURE_BLINK", "event of sequence 1"),
        ];
        let mut expected = Vec::new();
        for (k, &(record_at, field, was, place)) in names.iter().enumerate() {
            assert_eq!(name(&bytes, record_at, field).1, was);
            let target = len + 504 + k;
            point_name(&mut bytes, record_at, field, target);
            expected.push(format!(
                "{place} at byte {target} of the .mdl: 1 byte needed here, but the file ends at byte {len}; \
                 the name is read as empty"
            ));
        }
        let m = parse_mdl(&bytes).unwrap_or_else(|e| panic!("version {version}: the model is kept: {e}"));
        let warnings = warning_texts(&m);
        for line in &expected {
            assert!(warnings.contains(line), "version {version}: {line}\nin {warnings:#?}");
        }
        assert_eq!(m.hitbox_sets[0].name, "");
        assert_eq!(m.hitbox_sets[0].hitboxes[0].name, "");
        assert_eq!(m.hitbox_sets[0].hitboxes[1].name, "hb_head", "the other names are read");
        assert_eq!(m.attachments[0].name, "");
        assert_eq!(m.attachments[1].name, "lhand_grip");
        assert_eq!(m.sequences[1].activity_name, "");
        assert_eq!(m.sequences[1].label, "idle");
        assert_eq!(m.sequences[1].events[0].name, "");
        // A name the model is matched by (a bone's, a sequence's label) is not optional.
        point_name(&mut bytes, idle, 4, len + 2000);
        let error = parse_mdl(&bytes).unwrap_err();
        assert_eq!(error.problem, Problem::Truncated { needed: 1, end: len as u64 });
        assert_eq!(error.place.record, Record::Sequence);
    }
}

#[test]
fn zero_frame_data_needs_a_frame_and_a_span_only_between_two_or_more() {
    use studio_testing::source_mdl::{ANIM_INDEX, ANIMDESC_SIZE, record, set_i16};
    let Some(shared) = studio_testing::shared() else { return };
    let original = studio_testing::read(&shared, &format!("{FIXTURE}/anim48.mdl"));
    let at = record(&original, ANIM_INDEX, ANIMDESC_SIZE, 4);
    let with = |span: i16, count: i16| {
        let mut bytes = original.clone();
        set_i16(&mut bytes, at + 88, span);
        set_i16(&mut bytes, at + 90, count);
        parse_mdl(&bytes).unwrap()
    };
    // One frame: kept whatever the span, as CalcZeroframeData applies it.
    for span in [0, -3, 4] {
        let m = with(span, 1);
        assert_eq!(m.animations[4].zero_frames.map(|z| (z.span, z.count)), Some((span, 1)));
        assert_eq!(warning_texts(&m), Vec::<String>::new());
    }
    // Two or more need a span to place them; none is no data.
    let cases = [
        (0, 5, at + 88, "zeroframespan is 0, but two or more zero frames need a span of at least 1"),
        (-2, 2, at + 88, "zeroframespan is -2, but two or more zero frames need a span of at least 1"),
        (4, 0, at + 90, "zeroframecount is 0, but zero-frame data holds one frame or more"),
    ];
    for (span, count, offset, problem) in cases {
        let m = with(span, count);
        assert!(m.animations[4].zero_frames.is_none());
        assert_eq!(
            warning_texts(&m),
            [format!(
                "zero-frame data of animation 4 at byte {offset} of the .mdl: {problem}; its zero-frame data is \
                 unavailable"
            )]
        );
    }
}
