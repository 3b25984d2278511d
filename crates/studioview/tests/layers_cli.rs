//! `pose --layer SEQ:WEIGHT[:CYCLE]`: a layer of weight 1 is its sequence's pose, of weight 0
//! nothing, for a Half-Life model (the demo, written to a file) and a Source one.

use std::path::PathBuf;
use std::process::{Command, Output};

fn studioview(args: &[&str]) -> Output {
    studio_testing::process::output(Command::new(env!("CARGO_BIN_EXE_studioview")).args(args))
}

fn bones(args: &[&str]) -> Vec<Vec<f64>> {
    let out = studioview(args);
    assert!(out.status.success(), "{:?}: {}", args, String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["bones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect())
        .collect()
}

fn close(a: &[Vec<f64>], b: &[Vec<f64>]) -> bool {
    a.len() == b.len() && a.iter().flatten().zip(b.iter().flatten()).all(|(x, y)| (x - y).abs() < 1e-3)
}

fn demo() -> PathBuf {
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "layers");
    let path = dir.join("critter.mdl");
    std::fs::write(&path, studio_demo::demo_bytes().unwrap()).unwrap();
    path
}

#[test]
fn a_half_life_layer_mixes_its_sequence_in_by_weight() {
    let path = demo();
    let model = path.to_str().unwrap();
    let walk = bones(&["pose", model, "--seq", "walk", "--frame", "3"]);
    let attack_frames =
        studio_demo::demo_model().sequences.iter().find(|s| s.label == "attack").unwrap().frames();
    let half = format!("{}", 0.5 * (attack_frames - 1) as f32);
    let attack = bones(&["pose", model, "--seq", "attack", "--frame", &half]);
    let layered = bones(&["pose", model, "--seq", "walk", "--frame", "3", "--layer", "attack:1:0.5"]);
    assert!(close(&layered, &attack), "a layer of weight 1 is its own pose");
    let none = bones(&["pose", model, "--seq", "walk", "--frame", "3", "--layer", "attack:0"]);
    assert!(close(&none, &walk), "a layer of weight 0 changes nothing");
    let some = bones(&["pose", model, "--seq", "walk", "--frame", "3", "--layer", "attack:0.5:0.5"]);
    assert!(!close(&some, &walk) && !close(&some, &attack));
    for bad in ["attack", "attack:2", "attack:0.5:7", "nosuch:0.5"] {
        let out = studioview(&["pose", model, "--seq", "walk", "--layer", bad]);
        assert_eq!(out.status.code(), Some(1), "{bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--layer"), "{bad}");
    }
}

#[test]
fn a_source_layer_accumulates_at_its_weight() {
    let Some(shared) = studio_testing::shared() else { return };
    let path = shared.join("fixtures/source/models/fixture/anim48.mdl");
    let model = path.to_str().unwrap();
    // Two looping sequences of the fixture; and its delta sequence, which adds to the pose.
    let (a, b) = ("idle", "walk");
    let alone = bones(&["pose", model, "--seq", a, "--cycle", "0.25"]);
    let zero = bones(&["pose", model, "--seq", a, "--cycle", "0.25", "--layer", &format!("{b}:0")]);
    assert!(close(&alone, &zero), "weight 0 adds nothing");
    let itself = bones(&["pose", model, "--seq", a, "--cycle", "0.25", "--layer", &format!("{a}:1")]);
    assert!(close(&alone, &itself), "the sequence over itself at its own cycle is the same pose");
    let mixed = bones(&["pose", model, "--seq", a, "--cycle", "0.25", "--layer", &format!("{b}:0.7:0.5")]);
    assert!(!close(&alone, &mixed), "another sequence layered moves bones");
    let delta = bones(&["pose", model, "--seq", a, "--cycle", "0.25", "--layer", "wave_delta:1:0.5"]);
    assert!(!close(&alone, &delta), "a delta sequence layered adds its motion");
}
