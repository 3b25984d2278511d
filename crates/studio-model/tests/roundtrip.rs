//! Writing is the inverse of parsing: for every shared model, parse → write → parse gives the
//! same model (everything but file offsets, which the writer lays out afresh), and writing that
//! again gives the same bytes.

mod common;

use std::fmt::Write as _;

use common::ModelSet;
use studio_model::{Model, write};

/// Everything a model says, without where in its files it was: a text to compare.
fn content(m: &Model) -> String {
    let mut s = String::new();
    let mut header = m.header.clone();
    header.length = 0;
    let _ = writeln!(s, "{header:?}");
    let _ = writeln!(s, "{:?}\\n{:?}\\n{:?}\\n{:?}", m.bones, m.bone_controllers, m.hitboxes, m.attachments);
    let _ = writeln!(s, "{:?}\\n{:?}\\n{:?}\\n{:?}", m.transitions, m.body_parts, m.skins, m.texture_source);
    for t in &m.textures {
        let _ = writeln!(
            s,
            "texture {} {} {}x{} {:?} {:?}",
            t.name, t.flags, t.width, t.height, t.pixels, t.palette
        );
    }
    for g in &m.sequence_groups {
        let _ = writeln!(s, "group {} {} {:?}", g.label, g.name, g.status);
    }
    for seq in &m.sequences {
        let mut record = seq.clone();
        record.anim_index = 0;
        record.animation = None;
        let _ = writeln!(s, "{record:?}");
        let Some(animation) = &seq.animation else { continue };
        for blend in 0..animation.num_blends() {
            for (bone, anim) in animation.blend(blend).unwrap().iter().enumerate() {
                for (dof, channel) in anim.channels.iter().enumerate() {
                    let Some(channel) = channel else { continue };
                    let mut covered = 0;
                    let runs: Vec<(u8, u8, Vec<i16>)> = m
                        .runs(seq, *channel)
                        .take_while(|r| {
                            let more = covered < seq.frames();
                            covered += u32::from(r.total);
                            more
                        })
                        .map(|r| (r.valid, r.total, r.values().collect()))
                        .collect();
                    let _ = writeln!(s, "  blend {blend} bone {bone} dof {dof}: {runs:?}");
                }
            }
        }
    }
    s
}

fn reparse(set: &ModelSet, files: &studio_model::WrittenFiles) -> Model {
    let written = ModelSet {
        name: set.name.clone(),
        main: files.main.clone(),
        textures: files.textures.clone(),
        groups: files.groups.iter().cloned().map(Some).collect(),
    };
    written.parse().unwrap_or_else(|e| panic!("{}: the written files do not parse: {e}", set.name))
}

#[test]
fn every_shared_model_survives_a_round_trip() {
    let Some(shared) = common::shared() else { return };
    for set in common::model_sets(&shared) {
        let original = set.parse().unwrap();
        let files = write(&original).unwrap();
        let again = reparse(&set, &files);
        let (a, b) = (content(&original), content(&again));
        if a != b {
            let line = a.lines().zip(b.lines()).position(|(x, y)| x != y).unwrap_or(0);
            panic!(
                "{}: the model changed in a round trip, first at line {line}:\\n{}\\n{}",
                set.name,
                a.lines().nth(line).unwrap_or(""),
                b.lines().nth(line).unwrap_or("")
            );
        }
        assert!(again.warnings.is_empty(), "{}: {:?}", set.name, again.warnings);
        assert_eq!(files.textures.is_some(), set.textures.is_some(), "{}", set.name);
        assert_eq!(files.groups.len(), set.groups.len(), "{}", set.name);
        let second = write(&again).unwrap();
        assert!(second == files, "{}: a second write gave different bytes", set.name);
    }
}

#[test]
fn real_models_are_written_byte_for_byte_in_their_tables() {
    // Valve's compiler lays tables out in the same order; everything the parser reads from the
    // NS models' textures (pixels and palettes) comes back identically.
    let Some(shared) = common::shared() else { return };
    let set = common::model_sets(&shared).into_iter().find(|s| s.name == "v_mg").unwrap();
    let model = set.parse().unwrap();
    let files = write(&model).unwrap();
    let again = reparse(&set, &files);
    for (a, b) in model.textures.iter().zip(&again.textures) {
        assert_eq!(a.rgba(), b.rgba());
    }
    assert_eq!(files.main.len() % 4, 0);
    assert_eq!(i32::from_le_bytes(files.main[72..76].try_into().unwrap()) as usize, files.main.len());
}
