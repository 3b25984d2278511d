//! Feeds arbitrary bytes to the Source reader as a model set: three little-endian u32 lengths
//! cut the rest into a `.mdl`, a `.vvd` and a `.vtx`, and what is left is the `.ani`; the
//! `.mdl` is also given as its own include model. A model that reads is edited (a hit box and
//! an attachment added and renamed, events dropped) and written back with `write_edits`, and
//! what that writes must read. Any panic, hang or runaway allocation is a bug.
//! `corpus/source_mdl/` can be seeded with the shared fixtures in this layout (README.md).

#![no_main]

use libfuzzer_sys::fuzz_target;
use studio_source::{SourceFiles, parse_mdl, parse_set, write_edits};

fuzz_target!(|data: &[u8]| {
    let Some((lengths, rest)) = data.split_first_chunk::<12>() else { return };
    let length = |i: usize| u32::from_le_bytes([lengths[i], lengths[i + 1], lengths[i + 2], lengths[i + 3]]) as usize;
    let (mdl, rest) = rest.split_at(length(0).min(rest.len()));
    let (vvd, rest) = rest.split_at(length(4).min(rest.len()));
    let (vtx, ani) = rest.split_at(length(8).min(rest.len()));
    let files = SourceFiles { mdl, vvd: Some(vvd), vtx: Some(vtx), ani: Some(ani), includes: vec![Some(mdl)] };
    if let Ok(model) = parse_set(&files) {
        // Walk what a viewer walks: every reference the reader checked must hold.
        for sequence in &model.sequences {
            for &animation in &sequence.animations {
                assert!(animation < model.animations.len());
            }
        }
        for set in &model.hitbox_sets {
            for hitbox in &set.hitboxes {
                assert!(hitbox.bone < model.bones.len());
            }
        }
        for (i, bone) in model.bones.iter().enumerate() {
            assert!(bone.parent.is_none_or(|p| p < i));
        }
        if let Some(vertices) = &model.vertices {
            for v in &vertices.vertices {
                assert!(v.bones[..usize::from(v.num_bones)].iter().all(|&b| usize::from(b) < model.bones.len()));
            }
        }
        // The face: every description, controller, bone and vertex a record names exists, and
        // every rule keeps within its stack.
        let flexes = &model.flexes;
        for rule in &flexes.rules {
            assert!(rule.flex < flexes.descs.len());
            assert!(rule.fits_stack());
        }
        for part in &model.body_parts {
            for body in &part.models {
                for e in &body.eyeballs {
                    assert!(e.bone < model.bones.len());
                }
                for mesh in &body.meshes {
                    for flex in &mesh.flexes {
                        assert!(flex.desc < flexes.descs.len() && flex.pair.is_none_or(|p| p < flexes.descs.len()));
                        let count = usize::try_from(mesh.num_vertices).unwrap_or(0);
                        assert!(flex.vertices.iter().all(|v| usize::from(v.index) < count));
                    }
                }
            }
        }
        let mut edited = model.clone();
        if let Some(set) = edited.hitbox_sets.first_mut() {
            let copy = set.hitboxes.first().cloned();
            set.hitboxes.extend(copy);
            set.name.push('2');
        }
        if let Some(a) = edited.attachments.first().cloned() {
            edited.attachments.push(studio_source::Attachment { name: "added".into(), ..a });
        }
        if let Some(s) = edited.sequences.first_mut() {
            s.activity_name.push('X');
            s.events.clear();
        }
        if let Ok(out) = write_edits(mdl, &model, &edited) {
            parse_mdl(&out).expect("an edited file reads back");
        }
    }
});
