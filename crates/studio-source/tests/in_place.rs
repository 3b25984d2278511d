//! Edited values written back into a fixture's `.mdl` in place: the fields edited change, every
//! other byte stays, and the file reads back with the edits.

use glam::Vec3;
use studio_source::{InPlaceError, STUDIO_LOOPING, parse_mdl, write_in_place};

fn fixture(name: &str) -> Option<Vec<u8>> {
    let shared = studio_testing::shared()?;
    Some(studio_testing::read(&shared, &format!("fixtures/source/models/fixture/{name}")))
}

/// Offsets at which two equally long files differ.
fn differing(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

#[test]
fn unchanged_model_writes_the_same_bytes() {
    let Some(bytes) = fixture("anim48.mdl") else { return };
    let model = parse_mdl(&bytes).unwrap();
    assert_eq!(write_in_place(&bytes, &model, &model).unwrap(), bytes);
}

#[test]
fn hitbox_attachment_header_and_sequence_edits_touch_only_their_fields() {
    let Some(bytes) = fixture("anim48.mdl") else { return };
    let original = parse_mdl(&bytes).unwrap();
    let mut edited = original.clone();
    assert!(!edited.hitbox_sets[0].hitboxes.is_empty() && !edited.attachments.is_empty());
    edited.hitbox_sets[0].hitboxes[0].bbmax += Vec3::new(1.5, 0.0, -0.25);
    edited.hitbox_sets[0].hitboxes[0].group = 7;
    edited.attachments[0].local[0][3] = 12.5;
    edited.header.eye_position = Vec3::new(1.0, 2.0, 3.0);
    edited.sequences[0].flags ^= STUDIO_LOOPING;
    edited.sequences[0].activity_weight = 5;
    edited.animations[0].fps = 15.0;
    let written = write_in_place(&bytes, &original, &edited).unwrap();
    let changed = differing(&bytes, &written);
    // bbmax.x, bbmax.z (y unchanged), group, local[0][3], eye (3 floats), flags, weight, fps:
    // at most 4 bytes each.
    assert!(!changed.is_empty() && changed.len() <= 11 * 4, "{} bytes changed", changed.len());
    let reread = parse_mdl(&written).unwrap();
    assert_eq!(reread.hitbox_sets[0].hitboxes[0], edited.hitbox_sets[0].hitboxes[0]);
    assert_eq!(reread.attachments[0].local, edited.attachments[0].local);
    assert_eq!(reread.header.eye_position, edited.header.eye_position);
    assert_eq!(reread.sequences[0].flags, edited.sequences[0].flags);
    assert_eq!(reread.sequences[0].activity_weight, 5);
    assert_eq!(reread.animations[0].fps, 15.0);
    // Everything else reads as before.
    let mut expected = edited.clone();
    expected.data = reread.data.clone();
    assert_eq!(format!("{:?}", reread.bones), format!("{:?}", expected.bones));
    assert_eq!(reread.hitbox_sets, expected.hitbox_sets);
    assert_eq!(reread.attachments, expected.attachments);
}

#[test]
fn names_and_counts_need_a_rebuild() {
    let Some(bytes) = fixture("anim48.mdl") else { return };
    let original = parse_mdl(&bytes).unwrap();
    let mut renamed = original.clone();
    renamed.attachments[0].name.push('x');
    assert!(matches!(write_in_place(&bytes, &original, &renamed), Err(InPlaceError::NeedsRebuild(_))));
    let mut added = original.clone();
    let extra = added.hitbox_sets[0].hitboxes[0].clone();
    added.hitbox_sets[0].hitboxes.push(extra);
    let error = write_in_place(&bytes, &original, &added).unwrap_err();
    assert!(error.to_string().contains("hit boxes in set 0"), "{error}");
}
