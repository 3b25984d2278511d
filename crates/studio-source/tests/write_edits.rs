//! Edited values written back into a fixture's `.mdl`: values in place, tables that change size
//! and new names after the end. The fields edited change, every other byte of the original
//! stays, and the file reads back with the edits.

use glam::Vec3;
use studio_source::{EditWriteError, STUDIO_LOOPING, parse_mdl, write_edits};

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
    assert_eq!(write_edits(&bytes, &model, &model).unwrap(), bytes);
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
    let written = write_edits(&bytes, &original, &edited).unwrap();
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
fn added_removed_and_renamed_records_are_written_after_the_end() {
    let Some(bytes) = fixture("anim48.mdl") else { return };
    let original = parse_mdl(&bytes).unwrap();
    let mut edited = original.clone();
    // Set 0: a hit box added (a copy of box 0, named), box 1 removed, the set renamed.
    let set = &mut edited.hitbox_sets[0];
    let mut added = set.hitboxes[0].clone();
    added.name = "added_box".into();
    added.bbmax += Vec3::ONE;
    set.hitboxes.push(added);
    set.hitboxes.remove(1);
    set.name = "edited_set".into();
    // Attachments: one renamed, one added.
    edited.attachments[0].name = "renamed".into();
    let mut extra = edited.attachments[0].clone();
    extra.name = "extra".into();
    extra.local[2][3] = 7.0;
    edited.attachments.push(extra);
    // The first sequence with events: its activity renamed, an event added and one renamed.
    let s = edited.sequences.iter().position(|s| !s.events.is_empty()).expect("a sequence with events");
    let seq = &mut edited.sequences[s];
    seq.activity_name = "ACT_EDITED".into();
    let mut event = seq.events[0].clone();
    event.cycle = 0.75;
    event.options = "added".into();
    seq.events.push(event);
    seq.events[0].name = "AE_RENAMED".into();

    let written = write_edits(&bytes, &original, &edited).unwrap();
    assert!(written.len() > bytes.len(), "the new tables and names follow the end");
    // Of the original bytes only counts, offsets, name offsets and the length changed:
    // set name/count/offset, 2 attachment header fields, activity name, 2 event fields, length.
    let changed = differing(&bytes, &written[..bytes.len()]);
    assert!(changed.len() <= 9 * 4, "{} original bytes changed", changed.len());
    let reread = parse_mdl(&written).unwrap();
    assert!(reread.warnings.is_empty(), "{:?}", reread.warnings);
    assert_eq!(reread.header.length as usize, written.len());
    assert_eq!(reread.hitbox_sets, edited.hitbox_sets);
    assert_eq!(reread.attachments, edited.attachments);
    assert_eq!(reread.sequences, edited.sequences);
    // Written again from the file just written, the same edits change nothing.
    assert_eq!(write_edits(&written, &reread, &reread).unwrap(), written);
}

#[test]
fn a_changed_number_of_sets_needs_a_rebuild() {
    let Some(bytes) = fixture("anim48.mdl") else { return };
    let original = parse_mdl(&bytes).unwrap();
    let mut edited = original.clone();
    let copy = edited.hitbox_sets[0].clone();
    edited.hitbox_sets.push(copy);
    let error = write_edits(&bytes, &original, &edited).unwrap_err();
    assert!(matches!(error, EditWriteError::NeedsRebuild(_)), "{error}");
    assert!(error.to_string().contains("hit box sets"), "{error}");
}

#[test]
fn the_illumination_attachment_follows_its_attachment() {
    let Some(mut bytes) = fixture("anim48.mdl") else { return };
    // studiohdr2_t sits at `studiohdr2index` (the header's int at 400); its
    // `illumpositionattachmentindex` (1-based) is its third int. Point it at attachment 1.
    let header2 = i32::from_le_bytes(bytes[400..404].try_into().unwrap()) as usize;
    assert!(header2 > 0, "the fixture has a second header");
    let field = header2 + 8;
    bytes[field..field + 4].copy_from_slice(&2i32.to_le_bytes());
    let original = parse_mdl(&bytes).unwrap();
    let named = original.attachments[1].name.clone();
    // Attachment 0 removed: the index follows attachment 1 to its new place.
    let mut edited = original.clone();
    edited.attachments.remove(0);
    let written = write_edits(&bytes, &original, &edited).unwrap();
    assert_eq!(i32::from_le_bytes(written[field..field + 4].try_into().unwrap()), 1);
    assert_eq!(parse_mdl(&written).unwrap().attachments[0].name, named);
    // Its own attachment removed: that needs a rebuild.
    let mut edited = original.clone();
    edited.attachments.remove(1);
    let error = write_edits(&bytes, &original, &edited).unwrap_err();
    assert!(error.to_string().contains("illumination attachment"), "{error}");
}

#[test]
fn edits_of_mutated_files_write_files_that_read_back() {
    let Some(bytes) = fixture("anim48.mdl") else { return };
    let mut rng = studio_testing::Rng::new(14);
    let mut written = 0;
    for _ in 0..400 {
        let mut mutated = bytes.clone();
        // The header's counts and offsets start at byte 156 (numbones).
        studio_testing::mutate(&mut rng, &mut mutated, (156, 60));
        let Ok(original) = parse_mdl(&mutated) else { continue };
        let mut edited = original.clone();
        if let Some(set) = edited.hitbox_sets.first_mut() {
            let copy = set.hitboxes.first().cloned();
            set.hitboxes.extend(copy);
            set.name.push('2');
        }
        if let Some(a) = edited.attachments.first_mut() {
            a.name = "moved".into();
            a.local[0][3] += 1.0;
        }
        if let Some(s) = edited.sequences.first_mut() {
            s.activity_name = "ACT_X".into();
            s.events.clear();
        }
        // Whatever the file, no panic; what is written reads back with the edits.
        if let Ok(out) = write_edits(&mutated, &original, &edited) {
            let reread = parse_mdl(&out).unwrap_or_else(|e| panic!("written file does not read: {e}"));
            // As text, so that a NaN the mutation made compares equal to itself.
            assert_eq!(format!("{:?}", reread.hitbox_sets), format!("{:?}", edited.hitbox_sets));
            assert_eq!(format!("{:?}", reread.attachments), format!("{:?}", edited.attachments));
            written += 1;
        }
    }
    assert!(written > 50, "{written} mutated files were edited");
}
