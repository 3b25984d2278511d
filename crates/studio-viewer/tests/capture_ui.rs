//! File ▸ Capture animation… with egui_kittest: the window's choices, a capture of one loop of
//! the demo model's walk written as a GIF on its own thread while the window keeps drawing, and
//! a long capture cancelled, writing nothing.

mod common;

use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use studio_viewer::app::StudioApp;
use studio_viewer::app::capture_job::CaptureLength;
use studio_viewer::app::command::Command;

fn menu(h: &Harness<'_, StudioApp>, name: &str) {
    h.query_all_by_label(name)
        .min_by(|a, b| a.rect().min.y.total_cmp(&b.rect().min.y))
        .expect("the menu")
        .click();
}

fn field<'h>(h: &'h Harness<'_, StudioApp>, label: &'static str) -> egui_kittest::Node<'h> {
    h.get_by(move |n| n.role() == Role::SpinButton && n.label().is_some_and(|l| l == label))
}

/// Runs frames until the capture has ended (at most a minute).
fn until_done(h: &mut Harness<'_, StudioApp>) {
    let started = Instant::now();
    while h.state().state.capturing.is_some() {
        assert!(started.elapsed() < Duration::from_secs(60), "the capture did not end");
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_capture_runs_on_its_thread_and_a_cancelled_one_writes_nothing() {
    if studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none() {
        eprintln!("note: no graphics adapter; skipping");
        return;
    }
    let mut h = common::harness(1400.0, 1000.0);
    let walk = h.state().state.model().sequences.iter().position(|s| s.label == "walk").unwrap();
    h.state_mut().state.apply(Command::SelectSequence(walk));
    menu(&h, "File");
    h.run_steps(2);
    h.get_by_label("Capture animation…").click();
    h.run_steps(2);
    assert!(h.state().state.capture_window.is_some(), "the window opens");
    field(&h, "size").set_value_accesskit(64.0);
    h.run_steps(1);
    field(&h, "frames a second").set_value_accesskit(12.0);
    h.run_steps(1);
    let settings = h.state().state.capture_window.unwrap();
    assert_eq!((settings.size.0, settings.fps, settings.length), (64, 12.0, CaptureLength::OneLoop));
    // The dialog the window's Capture… opens chooses this file.
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "capture-ui");
    let gif = dir.join("walk.gif");
    h.state_mut().state.apply(Command::Capture(gif.clone()));
    assert!(h.state().state.capturing.is_some());
    until_done(&mut h);
    let model = h.state().state.model().clone();
    let seq = &model.sequences[walk];
    let expected = ((seq.num_frames - 1) as f32 / seq.fps * 12.0).round() as usize;
    let said = h.state().state.messages.last().unwrap().1.clone();
    assert!(said.contains(&format!("captured {expected} frames")), "{said}");
    let mut decoder = gif::DecodeOptions::new().read_info(std::fs::File::open(&gif).unwrap()).unwrap();
    assert_eq!(decoder.width(), 64);
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, expected);
    // A long capture, cancelled: nothing written.
    h.state_mut().state.capture_window.as_mut().unwrap().length = CaptureLength::Seconds(200.0);
    let never = dir.join("never.webp");
    h.state_mut().state.apply(Command::Capture(never.clone()));
    h.run_steps(2);
    // The progress window, while it runs.
    h.get_by_label("Cancel capture").click();
    h.run_steps(1);
    until_done(&mut h);
    let said = h.state().state.messages.last().unwrap().1.clone();
    assert!(said.contains("cancelled"), "{said}");
    assert!(!never.exists());
}

#[test]
fn a_capture_records_the_layers_over_the_sequence() {
    if studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none() {
        eprintln!("note: no graphics adapter; skipping");
        return;
    }
    let mut h = common::harness(1400.0, 1000.0);
    let model = h.state().state.model().clone();
    let find = |label: &str| model.sequences.iter().position(|s| s.label == label).unwrap();
    let (walk, attack) = (find("walk"), find("attack"));
    h.state_mut().state.apply(Command::SelectSequence(walk));
    h.state_mut().state.playing = false;
    let mut settings = studio_viewer::app::capture_job::CaptureSettings::default();
    (settings.size, settings.fps, settings.length) = ((96, 96), 10.0, CaptureLength::Seconds(0.1));
    h.state_mut().state.capture_window = Some(settings);
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "capture-ui-layers");
    let capture = |h: &mut Harness<'_, StudioApp>, name: &str| {
        let folder = dir.join(name);
        let mut out = folder.clone().into_os_string();
        out.push("/");
        h.state_mut().state.apply(Command::Capture(out.into()));
        until_done(h);
        let frames: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(frames.len(), 1, "{name}: one frame");
        std::fs::read(&frames[0]).unwrap()
    };
    let plain = capture(&mut h, "plain");
    let mut layer = studio_viewer::app::state::layers::Layer::default();
    (layer.sequence, layer.main_clock, layer.cycle) = (Some(attack), false, 0.5);
    h.state_mut().state.apply(Command::SetLayer(0, layer));
    h.run_steps(1);
    let layered = capture(&mut h, "layered");
    assert_ne!(plain, layered, "the attack layer changes the picture");
    // The same again: a capture is a function of what is shown.
    assert_eq!(layered, capture(&mut h, "layered-again"));
}
