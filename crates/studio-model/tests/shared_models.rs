//! The fixtures and Natural Selection models in `../shared` parse, with values checked against
//! numbers read from the files independently (Python's `struct.unpack_from` at the offsets the
//! spec gives; the script's output is quoted where a value is not obvious).

mod common;

use glam::Vec3;
use studio_model::{
    ControllerInput, GroupStatus, Model, ModelFiles, TextureSource, WarningKind, load, parse,
};

fn load_shared(path: &str) -> Option<studio_model::Loaded> {
    let shared = common::shared()?;
    Some(load(&shared.join(path)).unwrap_or_else(|e| panic!("{path}: {e}")))
}

#[test]
fn every_shared_model_loads_without_warnings() {
    let Some(shared) = common::shared() else { return };
    for path in [
        "fixtures/blends.mdl",
        "fixtures/controllers.mdl",
        "fixtures/groups.mdl",
        "fixtures/rle.mdl",
        "models/ns/alien4.mdl",
        "models/ns/hive.mdl",
        "models/ns/soldier.mdl",
        "models/ns/v_mg.mdl",
    ] {
        let loaded = load(&shared.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(loaded.model.warnings, vec![], "{path}");
        assert!(loaded.model.sequences.iter().all(|s| s.animation.is_some()), "{path}");
    }
}

#[test]
fn groups_fixture_skeleton_and_sequences() {
    let Some(loaded) = load_shared("fixtures/groups.mdl") else { return };
    let m = &loaded.model;
    assert_eq!(m.header.name, "groups");
    assert_eq!(m.header.length, 7632);
    assert_eq!(m.header.eye_position, Vec3::new(0.0, 0.0, 64.0));
    assert_eq!((m.header.bbmin, m.header.bbmax), (Vec3::new(-20.0, -20.0, 0.0), Vec3::new(20.0, 20.0, 80.0)));
    assert_eq!(m.bones.len(), 12);
    let names: Vec<&str> = m.bones.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(&names[..4], ["pelvis", "spine", "neck", "head"]);
    assert_eq!(m.bones[0].parent, None);
    assert_eq!(m.bones[2].parent, Some(1));
    assert_eq!(m.bones[11].parent, Some(10));
    assert_eq!(m.bones[1].value[2], 8.0);
    assert_eq!(m.bones[0].scale[0], 0.01);

    assert_eq!(m.hitboxes.len(), 2);
    assert_eq!((m.hitboxes[1].bone, m.hitboxes[1].group), (1, 2));
    assert_eq!(m.hitboxes[1].bbmin, Vec3::new(-6.0, -8.0, -2.0));
    assert_eq!(m.attachments.len(), 1);
    assert_eq!((m.attachments[0].bone, m.attachments[0].org), (5, Vec3::new(0.0, 4.0, 0.0)));

    assert_eq!(m.sequence_groups.len(), 2);
    assert_eq!(m.sequence_groups[1].label, "extra");
    assert_eq!(m.sequence_groups[1].name, "models/groups01.mdl");
    assert_eq!(m.sequence_groups[1].status, GroupStatus::Loaded);
    let labels: Vec<&str> = m.sequences.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["stand", "walk", "sit"]);
    let walk = &m.sequences[1];
    assert_eq!((walk.fps, walk.num_frames, walk.group, walk.is_looping()), (20.0, 10, 1, true));
    assert_eq!(walk.linear_movement, Vec3::new(40.0, 0.0, 0.0));
    assert_eq!(walk.events.len(), 2);
    assert_eq!((walk.events[0].frame, walk.events[0].event), (2, 1004));
    assert_eq!(walk.events[1].options, "common/step2.wav");
    assert_eq!(walk.pivots.len(), 2);
    assert_eq!(
        (walk.pivots[1].org, walk.pivots[1].start, walk.pivots[1].end),
        (Vec3::new(0.0, -4.0, 0.0), 5, 9)
    );
    assert!(!m.sequences[2].is_looping());

    // Walk's animation is at byte 76 of groups01.mdl; bone 0's record is (0, 144, 0, 0, 0, 166):
    // channels y and z rotation, relative to the record.
    let anim = walk.animation.as_ref().unwrap();
    let bone0 = anim.blend(0).unwrap()[0];
    let offsets: Vec<Option<u32>> = bone0.channels.iter().map(|c| c.map(|c| c.offset)).collect();
    assert_eq!(offsets, [None, Some(76 + 144), None, None, None, Some(76 + 166)]);
    assert_eq!(m.animation_data(walk).len(), 474);

    // Transition table at byte 2476: 0 2 2 / 1 0 1 / 2 2 0.
    assert_eq!(m.transitions.count(), 3);
    assert_eq!(m.transitions.table(), [0, 2, 2, 1, 0, 1, 2, 2, 0]);
    assert_eq!(m.transitions.next(1, 3), Some(2));
    assert_eq!(m.transitions.next(2, 1), Some(1));
    assert_eq!(m.transitions.next(4, 1), None);
    assert_eq!(loaded.companions.len(), 2);
}

#[test]
fn groups_fixture_geometry() {
    let Some(loaded) = load_shared("fixtures/groups.mdl") else { return };
    let m = &loaded.model;
    assert_eq!(m.body_parts.len(), 2);
    assert_eq!((m.body_parts[0].name.as_str(), m.body_parts[0].base), ("body", 1));
    let heads = &m.body_parts[1];
    assert_eq!(heads.submodels.len(), 2);
    assert_eq!(heads.submodel_index(0), Some(0));
    assert_eq!(heads.submodel_index(1), Some(1));
    assert_eq!(heads.submodel_index(2), Some(0));

    let boxes = &m.body_parts[0].submodels[0];
    assert_eq!(boxes.name, "boxes");
    assert_eq!((boxes.vertices.len(), boxes.normals.len(), boxes.meshes.len()), (96, 72, 1));
    let mesh = &boxes.meshes[0];
    assert_eq!((mesh.num_tris, mesh.skin_ref), (144, 0));
    assert_eq!(mesh.triangles.len(), 144);
    // The first command is a strip of 10: (0,0,0,0) (1,0,4,4) (2,1,8,0) (3,1,12,4) …; its second
    // triangle swaps the first two vertices. The second command is a fan of 4.
    let corner = |i: u32| {
        let v = mesh.vertices[i as usize];
        (v.vertex, v.normal, v.s, v.t)
    };
    let tri = |t: usize| mesh.triangles[t].map(corner);
    assert_eq!(tri(0), [(0, 0, 0, 0), (1, 0, 4, 4), (2, 1, 8, 0)]);
    assert_eq!(tri(1), [(2, 1, 8, 0), (1, 0, 4, 4), (3, 1, 12, 4)]);
    assert_eq!(tri(8), [(1, 4, 2, 2), (3, 4, 6, 6), (7, 4, 14, 14)]);
    assert_eq!(tri(9)[0], (1, 4, 2, 2));
    assert_eq!(tri(143), [(88, 71, 0, 0), (94, 71, 12, 0), (90, 71, 4, 0)]);
}

#[test]
fn groups_fixture_textures_from_texture_file() {
    let Some(loaded) = load_shared("fixtures/groups.mdl") else { return };
    let m = &loaded.model;
    assert_eq!(m.texture_source, TextureSource::TextureFile);
    let names: Vec<&str> = m.textures.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["skin_a.bmp", "skin_b.bmp", "chrome.bmp"]);
    let a = &m.textures[0];
    assert_eq!((a.width, a.height, a.flags, a.index), (32, 16, 0, 492));
    assert_eq!(a.rgba().len(), 32 * 16 * 4);
    // Pixels 32, 33, 34 through the palette: (128,32,223) (132,33,222) (136,34,221).
    assert_eq!(&a.rgba()[..12], [128, 32, 223, 255, 132, 33, 222, 255, 136, 34, 221, 255]);
    // skin_b is masked and starts with index 255, palette (251,255,0): transparent.
    let b = &m.textures[1];
    assert!(b.is_masked());
    assert_eq!(&b.rgba()[..4], [251, 255, 0, 0]);
    assert_eq!(b.rgba().chunks(4).filter(|p| p[3] == 0).count(), 64);
    assert!(m.textures[2].is_chrome());
    assert_eq!(&m.textures[2].rgba()[..4], [64, 96, 159, 255]);
    // Skin table (0, 2, 1, 2).
    assert_eq!((m.skins.num_families(), m.skins.num_refs()), (2, 2));
    assert_eq!(m.skins.family(1), Some(&[1i16, 2][..]));
    assert_eq!(m.texture(1, 0).map(|t| t.name.as_str()), Some("skin_b.bmp"));
    assert_eq!(m.texture(2, 0), None);
}

#[test]
fn rle_fixture_channels_and_runs() {
    let Some(loaded) = load_shared("fixtures/rle.mdl") else { return };
    let m = &loaded.model;
    assert_eq!(m.texture_source, TextureSource::None);
    let frames: Vec<u32> = m.sequences.iter().map(|s| s.num_frames).collect();
    assert_eq!(frames, [12, 12, 300, 1]);
    // Sequence 0, bone 0, x: the spec's worked example 03 05 0A 00 14 00 1E 00 at record + 36.
    let seq = &m.sequences[0];
    let channel = seq.animation.as_ref().unwrap().blend(0).unwrap()[0].channels[0].unwrap();
    assert_eq!(channel.offset, 1388 + 36);
    let first = m.runs(seq, channel).next().unwrap();
    assert_eq!((first.valid, first.total), (3, 5));
    assert_eq!(first.values().collect::<Vec<_>>(), [10, 20, 30]);
    assert_eq!(first.value(3), None);
    // The 300-frame sequence: bone 1 y starts with runs of (valid 1, total 50).
    let long = &m.sequences[2];
    let bone1 = long.animation.as_ref().unwrap().blend(0).unwrap()[1];
    assert!(bone1.channels[0].is_none());
    let runs: Vec<_> = m.runs(long, bone1.channels[1].unwrap()).take(2).collect();
    assert_eq!((runs[0].valid, runs[0].total, runs[0].value(0)), (1, 50, Some(0)));
    assert_eq!((runs[1].valid, runs[1].total, runs[1].value(0)), (1, 50, Some(1)));
    assert!(
        m.sequences[3].animation.as_ref().unwrap().blend(0).unwrap().iter().all(|b| b.channels == [None; 6])
    );
}

#[test]
fn soldier_values() {
    let Some(loaded) = load_shared("models/ns/soldier.mdl") else { return };
    let m = &loaded.model;
    assert!(loaded.companions.is_empty());
    assert_eq!(
        (m.bones.len(), m.bone_controllers.len(), m.hitboxes.len(), m.sequences.len()),
        (32, 4, 30, 79)
    );
    assert_eq!((m.bones[0].name.as_str(), m.bones[2].name.as_str()), ("Bip01", "Bip01 L Thigh"));
    assert_eq!(m.bones[0].value[2], 43.94772_f32);
    // Controller 1: bone 11, STUDIO_XR, -22.5 .. 22.5, rest 0, index 1.
    let c = &m.bone_controllers[1];
    assert_eq!((c.bone, c.kind, c.start, c.end, c.rest, c.index), (11, 8, -22.5, 22.5, 0, 1));
    assert!(c.is_rotation() && !c.is_rloop());
    assert_eq!(c.input(), Some(ControllerInput::User(1)));
    assert_eq!(m.bones[11].controllers[3], Some(1));
    assert_eq!(m.hitboxes[1].bbmax.x, 21.666876_f32);
    let names: Vec<&str> = m.sequences[..3].iter().map(|s| s.label.as_str()).collect();
    assert_eq!(names, ["look_idle", "idle1", "crouch_idle"]);
    assert_eq!((m.sequences[2].fps, m.sequences[2].num_frames, m.sequences[2].activity), (1.0, 21, 18));
    assert!(m.sequences.iter().any(|s| s.num_blends == 2));
    assert_eq!(m.attachments[1].org, Vec3::new(23.0, 2.0, 7.35));
    assert_eq!(m.body_parts[0].name, "marine");
    let sub = &m.body_parts[0].submodels[0];
    assert_eq!((sub.name.as_str(), sub.vertices.len(), sub.normals.len()), ("marine_ref", 572, 777));
    let mesh = &sub.meshes[0];
    assert_eq!(mesh.triangles.len(), 1135);
    let first: Vec<(u16, i16, i16)> =
        mesh.triangles[0].iter().map(|&i| mesh.vertices[i as usize]).map(|v| (v.vertex, v.s, v.t)).collect();
    assert_eq!(first, [(0, 378, 103), (2, 387, 103), (1, 417, 90)]);
    assert_eq!(m.texture_source, TextureSource::Main);
    assert_eq!(m.textures.len(), 3);
    assert_eq!(
        (m.textures[0].name.as_str(), m.textures[0].width, m.textures[0].height),
        ("Marine_final.bmp", 512, 512)
    );
    assert_eq!(&m.textures[0].rgba()[..4], [72, 72, 72, 255]);
    assert_eq!(&m.textures[1].rgba()[4..8], [52, 60, 52, 255]);
    assert_eq!(m.skins.family(1), Some(&[2i16, 1][..]));
}

#[test]
fn hive_finds_its_lower_case_texture_file() {
    let Some(loaded) = load_shared("models/ns/hive.mdl") else { return };
    let m = &loaded.model;
    assert_eq!(loaded.companions.len(), 1);
    assert!(loaded.companions[0].ends_with("hivet.mdl"));
    assert_eq!(m.texture_source, TextureSource::TextureFile);
    assert_eq!((m.textures.len(), m.textures[0].name.as_str()), (1, "alien_hive.bmp"));
    assert_eq!(m.attachments.len(), 2);
    assert_eq!(m.bones[17].name, "D_HiveControl");
}

#[test]
fn missing_companions_are_warnings_not_failures() {
    let Some(shared) = common::shared() else { return };
    let main = common::read(&shared, "fixtures/groups.mdl");
    let m = parse(&ModelFiles { stem: "groups", main: &main, ..Default::default() }).unwrap();
    assert_eq!(m.texture_source, TextureSource::None);
    assert!(m.textures.is_empty());
    assert_eq!(m.sequence_groups[1].status, GroupStatus::Missing { expected: "groups01.mdl".into() });
    assert!(m.sequences[0].animation.is_some());
    assert!(m.sequences[1].animation.is_none() && m.sequences[2].animation.is_none());
    let kinds: Vec<&WarningKind> = m.warnings.iter().map(|w| &w.kind).collect();
    assert_eq!(
        kinds,
        [
            &WarningKind::MissingGroupFile { group: 1, expected: "groups01.mdl".into() },
            &WarningKind::MissingTextureFile { expected: "groupsT.mdl".into() },
        ]
    );
    // The message names the file expected.
    assert!(m.warnings[0].to_string().contains("groups01.mdl was not found"), "{}", m.warnings[0]);
}

#[test]
fn broken_group_file_makes_only_its_sequences_unavailable() {
    let Some(shared) = common::shared() else { return };
    let main = common::read(&shared, "fixtures/groups.mdl");
    let mut group = common::read(&shared, "fixtures/groups01.mdl");
    group.truncate(100);
    let m =
        parse(&ModelFiles { stem: "groups", main: &main, groups: vec![Some(&group)], ..Default::default() })
            .unwrap();
    let GroupStatus::Invalid(error) = &m.sequence_groups[1].status else {
        panic!("group 1 should be invalid")
    };
    assert_eq!(error.place.file, studio_model::FileRole::Group(1));
    assert!(m.sequences[0].animation.is_some());
    assert!(m.sequences[1].animation.is_none());
}

#[test]
fn unneeded_texture_file_is_a_warning() {
    let Some(shared) = common::shared() else { return };
    let main = common::read(&shared, "models/ns/v_mg.mdl");
    let extra = common::read(&shared, "fixtures/groupsT.mdl");
    let m = parse(&ModelFiles { stem: "v_mg", main: &main, textures: Some(&extra), ..Default::default() })
        .unwrap();
    assert_eq!(m.warnings.len(), 1);
    assert_eq!(m.warnings[0].kind, WarningKind::UnneededTextureFile);
    // The header says 7 textures (hands.bmp … hands_black.bmp) and 6 skin slots; NOTICE.md's
    // "6 textures" counts the slots.
    assert_eq!(m.textures.len(), 7);
    assert_eq!(m.textures[6].name, "hands_black.bmp");
    assert_eq!((m.skins.num_families(), m.skins.num_refs()), (2, 6));
}

#[test]
fn parse_alone_equals_load_for_single_file_models() {
    let Some(shared) = common::shared() else { return };
    for path in ["models/ns/alien4.mdl", "fixtures/blends.mdl", "fixtures/controllers.mdl"] {
        let bytes = common::read(&shared, path);
        assert_eq!(Model::parse(&bytes).unwrap(), load(&shared.join(path)).unwrap().model, "{path}");
    }
}
