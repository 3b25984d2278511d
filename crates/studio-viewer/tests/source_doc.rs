//! The viewer's per-frame work on a Source model allocates nothing once warm: posing (every
//! sequence, pose parameters moving), placing the skinning matrices, hit boxes and attachments,
//! and the clock's cycle rate.

use studio_document::source_doc::SourceDoc;

#[test]
fn posing_and_playing_a_source_model_allocates_nothing_once_warm() {
    let Some(shared) = studio_testing::shared() else { return };
    for name in ["anim48.mdl", "include48.mdl"] {
        let path = shared.join("fixtures/source/models/fixture").join(name);
        let loaded = studio_source::load(&path).unwrap();
        let mut doc = SourceDoc::new(loaded.model, path, loaded.companions);
        let sequences = doc.num_sequences();
        let mut events = Vec::with_capacity(1024);
        let mut step = |doc: &mut SourceDoc, i: usize| {
            doc.sequence = i % sequences;
            doc.hitbox_set = i % 2;
            for (j, value) in doc.params.iter_mut().enumerate() {
                *value = ((i + j) % 7) as f32 - 3.0;
            }
            doc.cycle = (i as f32 * 0.173).fract();
            doc.evaluate();
            // The clock's own work (the cycle rate over the blend grid); a step of 0 crosses no
            // event, whose log line is the one thing playback allocates.
            doc.advance(0.0, 1.0, &mut events, true);
        };
        for i in 0..sequences * 4 {
            step(&mut doc, i);
        }
        let info = allocation_counter::measure(|| {
            for i in 0..sequences * 20 {
                step(&mut doc, i);
            }
        });
        assert_eq!(info.count_total, 0, "{name}: the frame's work allocated");
        assert_eq!(doc.frame.skinning.len(), doc.model.bones.len());
    }
}

/// A fixture whose walk sequence is marked `STUDIO_AUTOPLAY` (written with the editor's own
/// writer into a scratch copy), open in the viewer's state.
#[test]
fn autoplay_sequences_play_on_top_when_turned_on() {
    use studio_viewer::app::command::Command;
    use studio_viewer::app::settings::Settings;
    use studio_viewer::app::state::AppState;
    let Some(shared) = studio_testing::shared() else { return };
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "autoplay");
    studio_testing::copy_files(&shared.join("fixtures/source/models/fixture"), &dir, |_| true);
    let path = dir.join("anim48.mdl");
    let bytes = std::fs::read(&path).unwrap();
    let original = studio_source::parse_mdl(&bytes).unwrap();
    let mut edited = original.clone();
    let walk = edited.sequences.iter().position(|s| s.label == "walk").unwrap();
    edited.sequences[walk].flags |= studio_source_pose::STUDIO_AUTOPLAY;
    std::fs::write(&path, studio_source::write_edits(&bytes, &original, &edited).unwrap()).unwrap();

    let mut state = AppState::demo(Settings::default());
    state.apply(Command::Open(path));
    // The one-frame reference sequence, playing: nothing moves until autoplay is on.
    state.apply(Command::SelectSequence(0));
    state.playing = true;
    assert!(!state.animating());
    let still = state.source.as_ref().unwrap().doc.frame.bones.clone();
    state.apply(Command::SetAutoplay(true));
    assert!(state.animating(), "the autoplay sequence moves the pose");
    let revision = state.revision();
    state.advance(0.4);
    assert!(state.revision() > revision);
    assert_ne!(state.source.as_ref().unwrap().doc.frame.bones, still);
}

/// The face fixture (flexes and an eyeball mesh) with its face moving and the camera going
/// round: posing the face and eyes allocates nothing once warm.
#[test]
fn moving_a_face_allocates_nothing_once_warm() {
    let Some(shared) = studio_testing::shared() else { return };
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "face-doc");
    let path = studio_testing::source_face::write_face(&shared, &dir);
    let loaded = studio_source::load(&path).unwrap();
    let mut doc = SourceDoc::new(loaded.model, path, loaded.companions);
    assert_eq!(doc.flex.len(), 6);
    let step = |doc: &mut SourceDoc, i: usize| {
        doc.flex[0] = (i as f32 * 0.07).fract();
        doc.flex[3] = (i % 90) as f32 - 45.0;
        doc.cycle = (i as f32 * 0.13).fract();
        doc.evaluate();
        let angle = i as f32 * 0.1;
        doc.update_face(0, glam::Vec3::new(100.0 * angle.cos(), 100.0 * angle.sin(), 60.0));
    };
    for i in 0..20 {
        step(&mut doc, i);
    }
    let before = doc.frame.face.revision;
    let info = allocation_counter::measure(|| {
        for i in 0..200 {
            step(&mut doc, i);
        }
    });
    assert_eq!(info.count_total, 0, "the face's work allocated");
    assert!(doc.frame.face.revision > before, "the face moved");
}
