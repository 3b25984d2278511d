//! Damaged files give errors that name the record and byte offset, or warnings where the game
//! copes. Each case patches one field of a fixture at an offset read with Python from the file.

mod common;

use studio_model::{ControllerInput, FileRole, ModelFiles, Problem, Record, WarningKind, parse};

fn patch(bytes: &mut [u8], offset: usize, value: i32) {
    bytes[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
}

fn patch16(bytes: &mut [u8], offset: usize, value: i16) {
    bytes[offset..offset + 2].copy_from_slice(&value.to_le_bytes());
}

/// groups.mdl with its companions, after `edit` changes the main file or the texture file.
fn groups(
    edit: impl FnOnce(&mut Vec<u8>, &mut Vec<u8>),
) -> Option<studio_model::Result<studio_model::Model>> {
    let shared = common::shared()?;
    let mut main = common::read(&shared, "fixtures/groups.mdl");
    let mut textures = common::read(&shared, "fixtures/groupsT.mdl");
    let group = common::read(&shared, "fixtures/groups01.mdl");
    edit(&mut main, &mut textures);
    Some(parse(&ModelFiles {
        stem: "groups",
        main: &main,
        textures: Some(&textures),
        groups: vec![Some(&group)],
    }))
}

#[test]
fn parent_after_child_is_an_error_at_the_bone() {
    // Bone 1 (spine) is at byte 356; its parent field at 388.
    let Some(result) = groups(|m, _| patch(m, 388, 5)) else { return };
    let error = result.unwrap_err();
    assert_eq!(
        error.place,
        studio_model::Place { file: FileRole::Main, record: Record::Bone, index: Some(1), offset: 356 }
    );
    assert_eq!(error.problem, Problem::ParentOrder { parent: 5 });
    assert_eq!(error.to_string(), "bone 1 at byte 356: parent 5 does not come before the bone");
}

#[test]
fn table_past_the_end_is_an_error_naming_the_table() {
    // numbones (byte 140) set so the bone table runs past the end of the 7632-byte file.
    let Some(result) = groups(|m, _| patch(m, 140, 100)) else { return };
    let error = result.unwrap_err();
    assert_eq!((error.place.record, error.place.offset), (Record::Bone, 244));
    assert_eq!(error.problem, Problem::TableOutside { count: 100, size: 112, offset: 244, len: 7632 });
    let Some(result) = groups(|m, _| patch(m, 140, -3)) else { return };
    assert_eq!(result.unwrap_err().problem, Problem::Negative { field: "numbones", value: -3 });
}

#[test]
fn hitbox_on_a_missing_bone_is_an_error() {
    // Hit box 0 at byte 1588: bone field.
    let Some(result) = groups(|m, _| patch(m, 1588, 12)) else { return };
    let error = result.unwrap_err();
    assert_eq!((error.place.record, error.place.index, error.place.offset), (Record::Hitbox, Some(0), 1588));
    assert!(matches!(error.problem, Problem::BadReference { field: "bone", value: 12, count: 12, .. }));
}

#[test]
fn vertex_on_a_missing_bone_is_an_error() {
    // Submodel 0's vertex bones start at byte 2752.
    let Some(result) = groups(|m, _| m[2752 + 3] = 200) else { return };
    let error = result.unwrap_err();
    assert_eq!(
        (error.place.record, error.place.index, error.place.offset),
        (Record::VertexBones, Some(3), 2755)
    );
}

#[test]
fn triangle_command_index_outside_the_submodel_is_an_error() {
    // Mesh 0's commands start at byte 4956 with a strip of 10; its first vertex index at 4958.
    let Some(result) = groups(|m, _| patch16(m, 4958, 96)) else { return };
    let error = result.unwrap_err();
    assert_eq!((error.place.record, error.place.offset), (Record::TriangleCommands, 4958));
    assert_eq!(
        error.problem,
        Problem::BadTriangleIndex { field: "vertex", value: 96, target: "vertices", count: 96 }
    );
    // A command list that never ends runs into the end of the file.
    let Some(result) = groups(|m, _| patch16(m, 4956, i16::MIN)) else { return };
    assert!(matches!(result.unwrap_err().problem, Problem::Truncated { .. }));
}

#[test]
fn a_strip_count_disagreeing_with_numtris_is_a_warning() {
    // Mesh 0 at byte 4936 says 144 triangles; say 140.
    let Some(result) = groups(|m, _| patch(m, 4936, 140)) else { return };
    let model = result.unwrap();
    assert_eq!(model.warnings.len(), 1);
    assert_eq!(model.warnings[0].kind, WarningKind::TriangleCount { stored: 140, actual: 144 });
    assert_eq!(model.warnings[0].place.unwrap().offset, 4936);
}

#[test]
fn sequence_fields() {
    // Sequence 0 (stand) is at byte 1860: numframes at +56, seqgroup at +156, numblends at +120.
    let Some(result) = groups(|m, _| patch(m, 1860 + 56, -1)) else { return };
    assert_eq!(result.unwrap_err().problem, Problem::Negative { field: "numframes", value: -1 });
    let Some(result) = groups(|m, _| patch(m, 1860 + 156, 2)) else { return };
    let error = result.unwrap_err();
    assert_eq!(
        (error.place.record, error.place.index, error.place.offset),
        (Record::Sequence, Some(0), 1860)
    );
    let Some(result) = groups(|m, _| patch(m, 1860 + 56, 0)) else { return };
    let model = result.unwrap();
    assert_eq!(model.sequences[0].frames(), 1);
    assert!(matches!(model.warnings[0].kind, WarningKind::Unusable { field: "numframes", .. }));
    let Some(result) = groups(|m, _| patch(m, 1860 + 120, 0)) else { return };
    assert_eq!(result.unwrap().sequences[0].num_blends, 1);
    // 5000 blends do not fit in the file: the animation records run past its end.
    let Some(result) = groups(|m, _| patch(m, 1860 + 120, 5000)) else { return };
    let error = result.unwrap_err();
    assert_eq!((error.place.record, error.place.index), (Record::Animation, Some(0)));
    assert!(matches!(error.problem, Problem::TableOutside { count: 60000, .. }), "{error}");
}

#[test]
fn body_part_base_zero_is_a_warning_and_picks_nothing() {
    // Body part 0 at byte 2488: base at +68.
    let Some(result) = groups(|m, _| patch(m, 2488 + 68, 0)) else { return };
    let model = result.unwrap();
    assert!(matches!(model.warnings[0].kind, WarningKind::Unusable { field: "base", value: 0, .. }));
    assert_eq!(model.body_parts[0].submodel_index(0), None);
}

#[test]
fn broken_texture_file_is_a_warning() {
    // Texture 0's record is at byte 244 of groupsT.mdl: width at +68.
    let Some(result) = groups(|_, t| patch(t, 244 + 68, -32)) else { return };
    let model = result.unwrap();
    assert!(model.textures.is_empty());
    let WarningKind::BadTextureFile { expected, error } = &model.warnings[0].kind else {
        panic!("{:?}", model.warnings)
    };
    assert_eq!(expected, "groupsT.mdl");
    assert_eq!(
        (error.place.file, error.place.record, error.place.offset),
        (FileRole::Textures, Record::Texture, 244)
    );
    assert_eq!(
        model.warnings[0].to_string(),
        "no textures: groupsT.mdl cannot be used: texture 0 at byte 244 of the texture file: width is -32, which cannot be negative"
    );
}

#[test]
fn skin_entry_naming_no_texture_is_a_warning() {
    // The skin table is at byte 484 of groupsT.mdl.
    let Some(result) = groups(|_, t| patch16(t, 484 + 2, 9)) else { return };
    let model = result.unwrap();
    assert!(matches!(model.warnings[0].kind, WarningKind::Unusable { field: "texture", value: 9, .. }));
    assert_eq!(model.texture(0, 1), None);
}

#[test]
fn length_field_disagreeing_is_a_warning() {
    let Some(result) = groups(|m, _| patch(m, 72, 9999)) else { return };
    let model = result.unwrap();
    assert_eq!(model.warnings[0].kind, WarningKind::LengthMismatch { stored: 9999, actual: 7632 });
}

#[test]
fn wrong_identifier_or_version_is_an_error() {
    let Some(result) = groups(|m, _| m[0] = b'X') else { return };
    assert_eq!(
        result.unwrap_err().to_string(),
        "header at byte 0: expected identifier \"IDST\", found \"XDST\""
    );
    let Some(result) = groups(|m, _| patch(m, 4, 44)) else { return };
    assert_eq!(result.unwrap_err().problem, Problem::BadVersion(44));
    // Both families are named, and an early Half-Life version is called one.
    for (version, says) in [
        (6, "version 6 is an early Half-Life format; supported are 10 (Half-Life) and 44–49 (Source)"),
        (4, "version 4 is an early Half-Life format"),
        (9, "version 9 is an early Half-Life format"),
        (52, "version 52; supported are 10 (Half-Life) and 44–49 (Source)"),
    ] {
        let Some(result) = groups(|m, _| patch(m, 4, version)) else { return };
        let message = result.unwrap_err().to_string();
        assert!(message.starts_with("header at byte 4: ") && message.contains(says), "{message}");
    }
}

#[test]
fn an_empty_file_is_said_to_be_empty() {
    let error = studio_model::Model::parse(&[]).unwrap_err();
    assert_eq!(error.problem, Problem::Empty);
    assert_eq!(error.to_string(), "header at byte 0: the file is empty (0 bytes)");
    // One byte is not empty: it is too short.
    assert!(matches!(studio_model::Model::parse(&[0]).unwrap_err().problem, Problem::Truncated { .. }));
}

#[test]
fn controllers_kinds_and_unknown_types() {
    let Some(shared) = common::shared() else { return };
    let mut bytes = common::read(&shared, "fixtures/controllers.mdl");
    let model = studio_model::Model::parse(&bytes).unwrap();
    // Controllers at byte 804: (bone, type, start, end, rest, index) read with Python:
    // (1, ZR, -180, 180, 128, 0) (2, YR, -30, 60, 0, 1) (3, XR|RLOOP, 0, 360, 0, 2)
    // (3, Z, -4, 12, 64, 3) (4, YR, 0, 30, 0, 4).
    let c = &model.bone_controllers;
    assert_eq!(c.len(), 5);
    assert_eq!((c[0].degree_of_freedom(), c[0].rest), (Some(5), 128));
    assert!(c[2].is_rloop() && c[2].is_rotation());
    assert_eq!(c[2].degree_of_freedom(), Some(3));
    assert!(!c[3].is_rotation());
    assert_eq!(c[3].degree_of_freedom(), Some(2));
    assert_eq!(c[4].input(), Some(ControllerInput::Mouth));
    assert_eq!(c[1].input(), Some(ControllerInput::User(1)));
    // A type naming no degree of freedom is a warning; the controller does nothing.
    patch(&mut bytes, 852 + 4, 0x40);
    let model = studio_model::Model::parse(&bytes).unwrap();
    assert_eq!(model.warnings[0].kind, WarningKind::UnknownValue { field: "type", value: 0x40 });
    assert_eq!(model.warnings[0].place.unwrap().offset, 852);
    assert_eq!(model.bone_controllers[2].degree_of_freedom(), None);
}
