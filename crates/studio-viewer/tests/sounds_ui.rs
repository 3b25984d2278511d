//! Event sounds in the viewer: Natural Selection's `v_mg.mdl` in a game folder holding one of
//! its reload sounds. Playing `reload` passes frame 13 (`lmg_clipout.wav`, found, played or,
//! without an audio output, silent with a message) and frame 38 (`lmg_clipin.wav`, missing:
//! said once with the places tried); the Event sounds check box mutes them. No audio device is
//! needed, and none present fails nothing.

mod common;

use egui_kittest::kittest::Queryable;
use studio_viewer::app::command::Command;

#[test]
fn playing_passes_sound_events_and_plays_what_the_game_has() {
    let Some(shared) = studio_testing::shared() else { return };
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "sounds-ui");
    let game = dir.join("ns");
    studio_testing::write_below(&game, "liblist.gam", b"game \"NS\"\n");
    let wave = studio_sound::wave::pcm16(22050, &[0, 800, -800, 0], false);
    studio_testing::write_below(&game, "sound/weapons/lmg_clipout.wav", &wave);
    let model = game.join("models/v_mg.mdl");
    studio_testing::write_below(
        &game,
        "models/v_mg.mdl",
        &std::fs::read(shared.join("models/ns/v_mg.mdl")).unwrap(),
    );

    let mut h = common::harness(1200.0, 900.0);
    h.state_mut().state.apply(Command::Open(model));
    let reload = h.state().state.model().sequences.iter().position(|s| s.label == "reload").unwrap();
    h.state_mut().state.apply(Command::SelectSequence(reload));
    h.run_steps(1);
    // The check box is in the Sequences panel, on by default.
    h.get_by_label("Event sounds");
    assert!(h.state().state.settings.event_sounds);
    let state = &mut h.state_mut().state;
    state.playing = true;
    let mut heard = Vec::new();
    // Half a second at a time (20 fps: 10 frames a step), through frame 38.
    for _ in 0..5 {
        state.advance(0.5);
        heard.extend(state.audio.last_fired.drain(..).map(|f| (f.at, f.name.text().to_owned())));
    }
    assert_eq!(
        heard,
        [(13.0, "weapons/lmg_clipout.wav".to_owned()), (38.0, "weapons/lmg_clipin.wav".to_owned())]
    );
    let said: Vec<&str> = state.messages.iter().map(|(_, m)| m.as_str()).collect();
    let missing: Vec<&&str> =
        said.iter().filter(|m| m.contains("lmg_clipin.wav not found; looked in")).collect();
    assert_eq!(missing.len(), 1, "{said:?}");
    assert!(
        !said.iter().any(|m| m.contains("lmg_clipout")),
        "the sound found is not complained of: {said:?}"
    );
    // Without an output device, as in CI, one message says so, and playing goes on.
    if let Some(why) = state.audio.player.silent() {
        assert!(said.iter().filter(|m| m.contains("no audio output")).count() == 1, "{why}: {said:?}");
    }

    // Muted: the events still pass, nothing is played or said.
    state.apply(Command::SetEventSounds(false));
    state.apply(Command::SetFrame(0.0));
    state.playing = true;
    let before = state.messages.len();
    state.advance(1.0);
    assert_eq!(state.messages.len(), before);
}
