//! A Source model's sequence transitions as the document plays them: the sequence left is
//! accumulated after the new one at its moved-on cycle and the engine's fade weight
//! (`MaintainSequenceTransitions`), then dropped once faded.

use std::path::PathBuf;

use studio_document::source_doc::{DocLayer, SourceDoc};
use studio_source_pose::sequence_transitioner::{STUDIO_SNAP, clamp_cycle, fadeout_weight};

fn fixture() -> Option<studio_source::SourceModel> {
    let shared = studio_testing::shared()?;
    let bytes = studio_testing::read(&shared, "fixtures/source/models/fixture/anim48.mdl");
    let mut model = studio_source::parse_mdl(&bytes).unwrap();
    model.includes.clear();
    for s in &mut model.sequences {
        s.fade = (0.2, 0.2);
        s.flags &= !STUDIO_SNAP;
    }
    Some(model)
}

fn largest_difference(a: &SourceDoc, b: &SourceDoc) -> f32 {
    a.frame
        .bones
        .iter()
        .zip(&b.frame.bones)
        .map(|(x, y)| {
            let (x, y) = (x.to_cols_array(), y.to_cols_array());
            x.iter().zip(&y).map(|(p, q)| (p - q).abs()).fold(0.0, f32::max)
        })
        .fold(0.0, f32::max)
}

#[test]
fn the_sequence_left_fades_out_over_the_new_one() {
    let Some(model) = fixture() else { return };
    assert!(model.sequences.len() >= 2);
    let path = PathBuf::from("anim48.mdl");
    let mut doc = SourceDoc::new(model.clone(), path.clone(), Vec::new());
    let mut events = Vec::new();
    doc.advance(0.1, 1.0, &mut events, true);
    let (left_cycle, left_rate, left_at) = (doc.cycle, doc.cycle_rate(), doc.clock);
    let left_loops = model.sequences[0].flags & studio_source::STUDIO_LOOPING != 0;
    doc.select_sequence(1, true);
    doc.advance(0.05, 1.0, &mut events, true);
    assert_eq!(doc.transitions.fading(), 1);

    // The same pose made by hand: sequence 1 with sequence 0 layered at the engine's weight.
    let elapsed = doc.clock - left_at;
    let weight = fadeout_weight(0.2, elapsed);
    assert!((weight - 0.843_75).abs() < 1e-3, "0.05 s into 0.2 s: {weight}");
    let mut reference = SourceDoc::new(model.clone(), path.clone(), Vec::new());
    reference.select_sequence(1, false);
    (reference.clock, reference.cycle) = (doc.clock, doc.cycle);
    reference.layers = vec![DocLayer {
        sequence: 0,
        weight,
        cycle: Some(clamp_cycle(left_cycle + elapsed * left_rate, left_loops)),
    }];
    reference.evaluate();
    assert!(largest_difference(&doc, &reference) < 1e-4);

    // Not the new sequence alone.
    reference.layers.clear();
    reference.evaluate();
    assert!(largest_difference(&doc, &reference) > 1e-3, "the fixture's sequences 0 and 1 differ");

    // Faded after 0.2 s: the new sequence alone.
    doc.advance(0.2, 1.0, &mut events, true);
    assert_eq!(doc.transitions.fading(), 0);
    (reference.clock, reference.cycle) = (doc.clock, doc.cycle);
    reference.evaluate();
    assert!(largest_difference(&doc, &reference) < 1e-5);
}

#[test]
fn without_blending_or_into_a_snap_sequence_the_change_is_a_cut() {
    let Some(mut model) = fixture() else { return };
    model.sequences[1].flags |= STUDIO_SNAP;
    let mut doc = SourceDoc::new(model, PathBuf::from("anim48.mdl"), Vec::new());
    let mut events = Vec::new();
    doc.advance(0.1, 1.0, &mut events, true);
    doc.select_sequence(1, true);
    doc.advance(0.01, 1.0, &mut events, true);
    assert_eq!(doc.transitions.fading(), 0, "STUDIO_SNAP");
    doc.select_sequence(0, false);
    doc.advance(0.01, 1.0, &mut events, true);
    assert_eq!(doc.transitions.fading(), 0, "blending off");
    doc.select_sequence(1, true);
    doc.advance(0.01, 1.0, &mut events, true);
    assert_eq!(doc.transitions.fading(), 0, "into STUDIO_SNAP again");
    doc.select_sequence(0, true);
    doc.advance(0.01, 1.0, &mut events, true);
    assert_eq!(doc.transitions.fading(), 1, "out of it, blended");
}
