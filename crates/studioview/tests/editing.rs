//! Editing through the app's commands, saving, and reading the saved files back: the edited
//! values changed, everything else (and every pose not edited) is bit-identical. Version 10:
//! the demo model and Natural Selection's soldier and hive (textures in a `T.mdl`). Source: an
//! in-place edit of a fixture, re-read and re-posed, the file's other bytes unchanged.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::Vec3;
use studio_edit::goldsrc::{GoldRecord, ModelBoxes};
use studio_edit::{Change, Records, SourceRecord};
use studio_model::{Model, STUDIO_LOOPING};
use studio_pose::{ControllerBytes, Pose, PoseEvaluator, PoseRequest};
use studio_viewer::app::command::Command;
use studio_viewer::app::settings::Settings;
use studio_viewer::app::state::AppState;

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

/// An edit of every editable field of a version 10 model, as (name, change, changes poses).
fn every_edit(model: &Model) -> Vec<(String, Change<GoldRecord>, bool)> {
    let mut edits = Vec::new();
    let mut set = |name: &str, before: GoldRecord, after: GoldRecord, poses: bool| {
        edits.push((name.to_owned(), Change::Set { before, after }, poses))
    };
    // Hit box 0: bone, group, both corners.
    let h = model.hitboxes[0].clone();
    let mut edited = h.clone();
    edited.bone = (h.bone + 1) % model.bones.len();
    edited.group = (h.group + 3) % 8;
    edited.bbmin += Vec3::new(-0.5, 0.25, -1.0);
    edited.bbmax += Vec3::new(1.25, -0.5, 2.0);
    set("hit box 0", GoldRecord::Hitbox(0, h.clone()), GoldRecord::Hitbox(0, edited), false);
    // Attachment 0: bone, name, position.
    if let Some(a) = model.attachments.first().cloned() {
        let mut moved = a.clone();
        moved.bone = (a.bone + 1) % model.bones.len();
        moved.name = "edited".into();
        moved.org += Vec3::new(2.0, -3.0, 0.5);
        set("attachment 0", GoldRecord::Attachment(0, a), GoldRecord::Attachment(0, moved), false);
    }
    // Eye position, hull and view box.
    let boxes = ModelBoxes {
        eye_position: Vec3::new(1.0, 2.0, 60.0),
        hull: (Vec3::new(-16.0, -16.0, 0.0), Vec3::new(16.0, 16.0, 72.0)),
        view: (Vec3::new(-20.0, -20.0, -1.0), Vec3::new(20.0, 20.0, 80.0)),
    };
    set("boxes", GoldRecord::boxes(model), GoldRecord::Boxes(boxes), false);
    // The last sequence: fps, loop, activity, weight, events (one edited, one added, one removed).
    let last = model.sequences.len() - 1;
    let before = GoldRecord::sequence(model, last).unwrap();
    let GoldRecord::Sequence(_, mut s) = before.clone() else { unreachable!() };
    s.fps = 12.5;
    s.flags ^= STUDIO_LOOPING;
    s.activity = 5;
    s.activity_weight = 3;
    if let Some(first) = s.events.first_mut() {
        first.frame += 1;
        first.options = "edited".into();
    }
    s.events.push(studio_model::Event { frame: 2, event: 1004, kind: 0, options: "added".into() });
    if s.events.len() > 2 {
        s.events.remove(1);
    }
    set("sequence", before, GoldRecord::Sequence(last, s), false);
    // Texture 0: every flag the app offers turned over.
    let flags = model.textures[0].flags;
    let all = studio_model::STUDIO_NF_FLATSHADE
        | studio_model::STUDIO_NF_CHROME
        | studio_model::STUDIO_NF_FULLBRIGHT
        | studio_model::STUDIO_NF_NOMIPS
        | studio_model::STUDIO_NF_ADDITIVE
        | studio_model::STUDIO_NF_MASKED;
    set("texture", GoldRecord::TextureFlags(0, flags), GoldRecord::TextureFlags(0, flags ^ all), false);
    // Controller 0: range and rest (this one moves bones).
    if let Some(c) = model.bone_controllers.first().cloned() {
        let mut turned = c.clone();
        (turned.start, turned.end, turned.rest) = (c.start - 10.0, c.end + 15.0, 7);
        set("controller", GoldRecord::Controller(0, c), GoldRecord::Controller(0, turned), true);
    }
    // A hit box and an attachment added, a hit box removed.
    let count = model.hitboxes.len();
    edits.push(("add hit box".into(), Change::Insert(GoldRecord::Hitbox(count, h.clone())), false));
    edits.push((
        "remove hit box".into(),
        Change::Remove(GoldRecord::Hitbox(1, model.hitboxes[1].clone())),
        false,
    ));
    let added = studio_model::Attachment {
        name: "new".into(),
        kind: 0,
        bone: 0,
        org: Vec3::ONE,
        vectors: [Vec3::ZERO; 3],
    };
    edits.push((
        "add attachment".into(),
        Change::Insert(GoldRecord::Attachment(model.attachments.len(), added)),
        false,
    ));
    edits
}

/// Every bone of every frame of every sequence, both blend ends, controllers 0.
fn poses(model: &Arc<Model>, skip: Option<usize>) -> Vec<Vec<[u32; 12]>> {
    let mut evaluator = PoseEvaluator::new(model.clone());
    let mut pose = Pose::new(model);
    let mut out = Vec::new();
    for (s, sequence) in model.sequences.iter().enumerate() {
        if Some(s) == skip || sequence.animation.is_none() {
            continue;
        }
        for frame in 0..sequence.frames() {
            for blend in [[0, 0], [255, 255]] {
                let request = PoseRequest {
                    sequence: s,
                    frame: frame as f32,
                    blend,
                    controllers: ControllerBytes::default(),
                };
                evaluator.evaluate(&request, &mut pose).unwrap();
                out.push(pose.bones.iter().map(|b| b.to_cols_array().map(f32::to_bits)).collect());
            }
        }
    }
    out
}

/// Applies `edits` through the app, saves as `dir/name`, reads the file back.
fn edit_and_save(state: &mut AppState, edits: &[(String, Change<GoldRecord>, bool)], target: &Path) -> Model {
    for (name, change, _) in edits {
        state.apply(Command::edit_gold(name.clone(), change.clone()));
        assert!(state.last_error().is_none(), "{name}: {:?}", state.last_error());
    }
    assert!(state.is_dirty());
    state.apply(Command::SaveAs(target.to_path_buf()));
    assert!(state.last_error().is_none(), "{:?}", state.last_error());
    assert!(!state.is_dirty(), "saved");
    studio_model::load(target).unwrap().model
}

fn check_round_trip(state: &mut AppState, original: &Model, target: &Path) {
    let edits = every_edit(original);
    let mut expected = original.clone();
    for (name, change, _) in &edits {
        assert!(expected.apply(change), "{name}");
    }
    let reread = edit_and_save(state, &edits, target);
    // The app's model is the expected one, and so is the file read back.
    assert!(*state.model().as_ref() == expected, "the app applied the edits");
    // Compared as values: the length field, warnings, group 0's bytes, the animations' and
    // textures' offsets and the channels' offsets follow the new layout (the channels' values are compared
    // through the poses below).
    let normalise = |model: &Model| {
        let mut model = model.clone();
        model.header.length = 0;
        model.warnings.clear();
        for group in &mut model.sequence_groups {
            *group = studio_model::SequenceGroup::with_data(&group.label, &group.name, Vec::new());
        }
        for sequence in &mut model.sequences {
            sequence.animation = None;
            sequence.anim_index = 0;
        }
        for texture in &mut model.textures {
            texture.index = 0;
        }
        model
    };
    let (a, b) = (normalise(&reread), normalise(&expected));
    assert!(a == b, "the saved file holds exactly the edited model");
    // Poses: every sequence of the saved model bit-identical to the edited one's.
    let last = original.sequences.len() - 1;
    assert_eq!(poses(&Arc::new(reread), None), poses(&Arc::new(expected), None));
    // And without the controller edit (the one edit that moves bones), every sequence but the
    // edited one bit-identical to the original's.
    let without: Vec<_> = edits.into_iter().filter(|(_, _, moves)| !moves).collect();
    let mut state2 = AppState::new(
        studio_viewer::app::state::Loaded::new(Arc::new(original.clone()), None, Vec::new()),
        Settings::default(),
    );
    let second = target.with_file_name(format!("second_{}", target.file_name().unwrap().to_string_lossy()));
    let reread = edit_and_save(&mut state2, &without, &second);
    assert_eq!(poses(&Arc::new(reread), Some(last)), poses(&Arc::new(original.clone()), Some(last)));
}

#[test]
fn every_editable_field_of_the_demo_model_round_trips() {
    let mut state = AppState::demo(Settings::default());
    let original = state.model().as_ref().clone();
    let dir = scratch("edit-demo");
    check_round_trip(&mut state, &original, &dir.join("demo.mdl"));
}

#[test]
fn every_editable_field_of_ns_models_round_trips() {
    let Some(shared) = studio_testing::shared() else { return };
    for name in ["soldier", "hive"] {
        let dir = scratch(&format!("edit-{name}"));
        // Work on a copy, as a modder would, with the first save over it backed up.
        studio_testing::copy_files(&shared.join("models/ns"), &dir, |path| {
            path.file_name().unwrap().to_string_lossy().to_lowercase().starts_with(name)
        });
        let path = dir.join(format!("{name}.mdl"));
        let original_bytes = std::fs::read(&path).unwrap();
        let mut state = AppState::demo(Settings::default());
        state.apply(Command::Open(path.clone()));
        let original = state.model().as_ref().clone();
        check_round_trip(&mut state, &original, &path);
        // The saved file passes `studioview check`.
        let check = studio_testing::process::output(
            std::process::Command::new(env!("CARGO_BIN_EXE_studioview")).arg("check").arg(&path),
        );
        assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stdout));
        assert!(String::from_utf8_lossy(&check.stdout).contains("1 ok"));
        // The first save over the file kept the original beside it.
        let bak = std::fs::read(dir.join(format!("{name}.mdl.bak"))).unwrap();
        assert_eq!(bak, original_bytes, "{name}.mdl.bak is the file as opened");
        if name == "hive" {
            assert!(dir.join("hiveT.mdl.bak").is_file() || dir.join("hivet.mdl.bak").is_file());
            let written = std::fs::read_dir(&dir).unwrap().count();
            assert!(written >= 4, "hive.mdl, hivet.mdl and their backups");
        }
    }
}

#[test]
fn undo_and_redo_walk_the_edits_and_the_dirty_marker() {
    let mut state = AppState::demo(Settings::default());
    let original = state.model().as_ref().clone();
    let edits = every_edit(&original);
    for (name, change, _) in &edits {
        state.apply(Command::edit_gold(name.clone(), change.clone()));
    }
    assert_eq!(state.undo_redo_names().0, Some("add attachment"));
    for _ in &edits {
        state.apply(Command::Undo);
    }
    assert!(*state.model().as_ref() == original, "undoing every edit gives the model back");
    assert!(!state.is_dirty());
    for _ in &edits {
        state.apply(Command::Redo);
    }
    let mut expected = original.clone();
    for (_, change, _) in &edits {
        expected.apply(change);
    }
    assert!(*state.model().as_ref() == expected);
    assert_eq!(state.undo_redo_names(), (Some("add attachment"), None));
}

#[test]
fn opening_another_model_with_unsaved_edits_asks_first() {
    let mut state = AppState::demo(Settings::default());
    let h = state.model().hitboxes[0].clone();
    let mut moved = h.clone();
    moved.bbmax.x += 1.0;
    state.apply(Command::edit_gold(
        "move",
        Change::Set { before: GoldRecord::Hitbox(0, h), after: GoldRecord::Hitbox(0, moved.clone()) },
    ));
    state.apply(Command::OpenDemo);
    assert_eq!(state.pending, Some(Command::OpenDemo), "the command waits");
    assert_eq!(state.model().hitboxes[0], moved, "the edit is still there");
    state.apply(Command::CancelPending);
    assert!(state.pending.is_none() && state.is_dirty());
    state.apply(Command::Quit);
    assert!(!state.quit, "quitting waits too");
    state.apply(Command::DiscardAndContinue);
    assert!(state.quit);
}

#[test]
fn a_source_fixture_edit_is_saved_in_place_reread_and_reposed() {
    let Some(shared) = studio_testing::shared() else { return };
    let dir = scratch("edit-source");
    let game = dir.join("models/fixture");
    std::fs::create_dir_all(&game).unwrap();
    studio_testing::copy_files(&shared.join("fixtures/source/models/fixture"), &game, |_| true);
    let path = game.join("anim48.mdl");
    let before_bytes = std::fs::read(&path).unwrap();
    let mut state = AppState::demo(Settings::default());
    state.apply(Command::Open(path.clone()));
    let view = state.source.as_deref().expect("a Source model");
    let model = view.doc.model.clone();
    let h = model.hitbox_sets[0].hitboxes[0].clone();
    let mut grown = h.clone();
    grown.bbmax += Vec3::new(2.0, 1.0, 0.5);
    state.apply(Command::edit_source(
        "grow",
        Change::Set {
            before: SourceRecord::Hitbox(0, 0, h.clone()),
            after: SourceRecord::Hitbox(0, 0, grown.clone()),
        },
    ));
    let a = model.attachments[0].clone();
    let mut moved = a.clone();
    moved.local[0][3] += 3.0;
    moved.local[2][3] -= 1.5;
    state.apply(Command::edit_source(
        "move",
        Change::Set {
            before: SourceRecord::Attachment(0, a.clone()),
            after: SourceRecord::Attachment(0, moved.clone()),
        },
    ));
    let frame = &state.source.as_deref().unwrap().doc.frame;
    let shown = (frame.bones.clone(), frame.hitboxes.clone(), frame.attachments.clone());
    state.apply(Command::Save);
    assert!(state.last_error().is_none(), "{:?}", state.last_error());
    let after_bytes = std::fs::read(&path).unwrap();
    assert_eq!(after_bytes.len(), before_bytes.len());
    let changed: Vec<usize> = (0..after_bytes.len()).filter(|&i| after_bytes[i] != before_bytes[i]).collect();
    assert!(!changed.is_empty() && changed.len() <= 5 * 4, "only the edited floats: {} bytes", changed.len());
    assert_eq!(std::fs::read(game.join("anim48.mdl.bak")).unwrap(), before_bytes);
    // Read back and posed: the same pose the app showed, with the edits.
    let reread = studio_source::load(&path).unwrap();
    assert_eq!(reread.model.hitbox_sets[0].hitboxes[0], grown);
    assert_eq!(reread.model.attachments[0], moved);
    let mut doc = studio_document::source_doc::SourceDoc::new(reread.model, path.clone(), reread.companions);
    let view = state.source.as_deref().unwrap();
    doc.sequence = view.doc.sequence;
    doc.cycle = view.doc.cycle;
    doc.params = view.doc.params.clone();
    doc.evaluate();
    assert_eq!(doc.frame.bones, shown.0);
    assert_eq!(doc.frame.hitboxes, shown.1);
    assert_eq!(doc.frame.attachments, shown.2);
    // A rename and an added hit box do not fit where they were: they are written after the
    // end, and the file reads back with them.
    let mut renamed = moved.clone();
    renamed.name = "renamed_attachment".into();
    state.apply(Command::edit_source(
        "rename",
        Change::Set {
            before: SourceRecord::Attachment(0, moved),
            after: SourceRecord::Attachment(0, renamed.clone()),
        },
    ));
    let count = model.hitbox_sets[0].hitboxes.len();
    let mut added = grown.clone();
    added.name = "added".into();
    state.apply(Command::edit_source("add", Change::Insert(SourceRecord::Hitbox(0, count, added.clone()))));
    state.apply(Command::Save);
    assert!(state.last_error().is_none(), "{:?}", state.last_error());
    let written = std::fs::read(&path).unwrap();
    assert!(written.len() > after_bytes.len());
    let reread = studio_source::load(&path).unwrap().model;
    assert!(reread.warnings.is_empty(), "{:?}", reread.warnings);
    assert_eq!(reread.attachments[0], renamed);
    assert_eq!(reread.hitbox_sets[0].hitboxes.len(), count + 1);
    assert_eq!(reread.hitbox_sets[0].hitboxes[count], added);
    assert!(!state.is_dirty());
}

#[test]
fn the_viewport_uploads_the_model_again_only_for_edits_that_change_what_it_holds() {
    let mut state = AppState::demo(Settings::default());
    let scene = state.scene_identity();
    let h = state.model().hitboxes[0].clone();
    let mut moved = h.clone();
    moved.bbmax.x += 1.0;
    let set = |before: &studio_model::Hitbox, after: &studio_model::Hitbox| {
        Command::edit_gold(
            "box",
            Change::Set {
                before: GoldRecord::Hitbox(0, before.clone()),
                after: GoldRecord::Hitbox(0, after.clone()),
            },
        )
    };
    state.apply(set(&h, &moved));
    assert_eq!(
        state.scene_identity(),
        scene,
        "a moved box needs no upload (its corners come with each pose)"
    );
    let mut regrouped = moved.clone();
    regrouped.group = (moved.group + 1) % 8;
    state.apply(set(&moved, &regrouped));
    let after_group = state.scene_identity();
    assert_ne!(after_group, scene, "a box's group (its colour) went up with the model");
    let count = state.model().hitboxes.len();
    state.apply(Command::edit_gold("add", Change::Insert(GoldRecord::Hitbox(count, h))));
    assert_ne!(state.scene_identity(), after_group, "the overlay's space for boxes went up with the model");
    assert_eq!(state.pose.hitboxes.len(), count + 1);
}

#[test]
fn save_as_a_new_name_writes_the_texture_and_group_files_under_it() {
    let Some(shared) = studio_testing::shared() else { return };
    let dir = scratch("edit-groups");
    for name in ["groups.mdl", "groupsT.mdl", "groups01.mdl"] {
        studio_testing::copy(shared.join("fixtures").join(name), dir.join(name)).unwrap();
    }
    let mut state = AppState::demo(Settings::default());
    state.apply(Command::Open(dir.join("groups.mdl")));
    let original = state.model().as_ref().clone();
    assert_eq!(original.sequence_groups.len(), 2);
    let h = original.hitboxes[0].clone();
    let mut grown = h.clone();
    grown.bbmax.z += 2.0;
    state.apply(Command::edit_gold(
        "grow",
        Change::Set { before: GoldRecord::Hitbox(0, h), after: GoldRecord::Hitbox(0, grown.clone()) },
    ));
    let target = dir.join("renamed.mdl");
    state.apply(Command::SaveAs(target.clone()));
    assert!(state.last_error().is_none(), "{:?}", state.last_error());
    for name in ["renamed.mdl", "renamedT.mdl", "renamed01.mdl"] {
        assert!(dir.join(name).is_file(), "{name} written");
    }
    // The main file names its group file after its own new name, so the game finds it.
    let reread = studio_model::load(&target).unwrap();
    assert_eq!(reread.model.sequence_groups[1].name, "models/renamed01.mdl");
    assert_eq!(state.model().sequence_groups[1].name, "models/renamed01.mdl", "the open model follows");
    assert!(reread.companions.iter().any(|c| c.ends_with("renamed01.mdl")));
    assert_eq!(reread.model.hitboxes[0], grown);
    // Every sequence, the one in the group file too, poses as before.
    assert!(reread.model.sequences.iter().all(|s| s.animation.is_some()));
    assert_eq!(poses(&Arc::new(reread.model), None), poses(&Arc::new(original), None));
    // Saving again (now under its own name) keeps the new names.
    state.apply(Command::Save);
    assert_eq!(studio_model::load(&target).unwrap().model.sequence_groups[1].name, "models/renamed01.mdl");
}

#[test]
fn a_source_model_saved_under_a_new_name_names_its_own_companions() {
    let Some(shared) = studio_testing::shared() else { return };
    let dir = scratch("edit-source-rename");
    let game = dir.join("models/fixture");
    std::fs::create_dir_all(&game).unwrap();
    studio_testing::copy_files(&shared.join("fixtures/source/models/fixture"), &game, |_| true);
    let mut state = AppState::demo(Settings::default());
    state.apply(Command::Open(game.join("anim48.mdl")));
    let before = state.source.as_ref().unwrap().doc.model.clone();
    assert!(before.header.ani_name.eq_ignore_ascii_case("models/fixture/anim48.ani"));
    let target = game.join("renamed.mdl");
    state.apply(Command::SaveAs(target.clone()));
    assert!(state.last_error().is_none(), "{:?}", state.last_error());
    for name in ["renamed.mdl", "renamed.vvd", "renamed.dx90.vtx", "renamed.ani"] {
        assert!(game.join(name).is_file(), "{name} written");
    }
    // The new file names its own `.ani`, and reads its animation from it.
    std::fs::remove_file(game.join("anim48.ani")).unwrap();
    let reread = studio_source::load(&target).unwrap();
    assert_eq!(reread.model.header.ani_name, "models/fixture/renamed.ani");
    assert!(reread.companions.iter().any(|c| c.ends_with("renamed.ani")), "{:?}", reread.companions);
    assert!(reread.model.warnings.is_empty(), "{:?}", reread.model.warnings);
    // Every sequence poses as before.
    let pose = |model: studio_source::SourceModel| {
        let mut doc = studio_document::source_doc::SourceDoc::new(model, target.clone(), Vec::new());
        (0..doc.num_sequences())
            .map(|s| {
                doc.sequence = s;
                doc.cycle = 0.4;
                doc.evaluate();
                doc.frame.bones.clone()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(pose(reread.model), pose((*before).clone()));
}
