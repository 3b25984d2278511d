//! A second model and muzzle flashes in the viewer, drawn through wgpu (egui_kittest):
//!
//! - File ▸ Attach model…: a weapon made from the demo model (scaled down, its root named
//!   `HEAD`) follows the critter's head bone and is drawn in the viewport; Remove second model
//!   takes it away.
//! - File ▸ Compare with model…: a copy stands beside the model, the framed box round both,
//!   playing the sequence of the model's name.
//! - Muzzle flashes: Natural Selection's `v_mg.mdl` in a game folder holding a sprite of our
//!   own, stopped on frame 0 of `shoot` (event 5001), shows the flash; frame 5 does not; a
//!   missing sprite is said with the places tried.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use egui_kittest::wgpu::{WgpuTestRenderer, create_render_state, default_wgpu_setup};
use studio_document::second_model::Placement;
use studio_viewer::app::StudioApp;
use studio_viewer::app::command::Command;
use studio_viewer::app::settings::Settings;

/// The viewer drawing through wgpu, two frames shown.
fn harness() -> Harness<'static, StudioApp> {
    let render_state =
        create_render_state(default_wgpu_setup(), eframe::egui_wgpu::RendererOptions::PREDICTABLE);
    let state = render_state.clone();
    let mut h = Harness::builder()
        .with_size(egui::vec2(1100.0, 760.0))
        .renderer(WgpuTestRenderer::from_render_state(render_state))
        .build_ui_state(
            move |ui, app: &mut StudioApp| app.show(ui, Some(&state)),
            StudioApp::new(Settings::default(), None),
        );
    h.run_steps(3);
    h
}

/// The viewport's pixels of the last rendered window, RGB.
fn viewport(h: &mut Harness<'_, StudioApp>) -> Vec<[u8; 3]> {
    let image = h.render().expect("the window renders");
    let rect = h.state().viewport_rect().shrink(2.0);
    image
        .enumerate_pixels()
        .filter(|(x, y, _)| rect.contains(egui::pos2(*x as f32, *y as f32)))
        .map(|(_, _, p)| [p[0], p[1], p[2]])
        .collect()
}

fn differing(a: &[[u8; 3]], b: &[[u8; 3]]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x.iter().zip(y.iter()).any(|(p, q)| p.abs_diff(*q) > 24)).count()
}

fn no_adapter() -> bool {
    if studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none() {
        eprintln!("note: no graphics adapter; skipping");
        return true;
    }
    false
}

#[test]
fn an_attached_weapon_follows_the_hand_and_a_compared_model_stands_beside() {
    if no_adapter() {
        return;
    }
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "second-model-ui");
    let demo = studio_document::demo::demo_model().unwrap();
    let t = studio_edit::transform::ModelTransform { scale: 0.3, ..Default::default() };
    let (mut weapon, _) = studio_edit::transform::transform(&demo, &t).unwrap();
    for (i, bone) in weapon.bones.iter_mut().enumerate() {
        bone.name = if i == 0 { "HEAD".to_owned() } else { format!("w_{}", bone.name) };
    }
    let weapon_path = dir.join("p_critter.mdl");
    std::fs::write(&weapon_path, studio_model::write(&weapon).unwrap().main).unwrap();

    let mut h = harness();
    h.state_mut().state.playing = false;
    h.run_steps(2);
    let plain = viewport(&mut h);
    // The menu offers it; the dialog's choice arrives as the command.
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Attach model…");
    h.get_by_label("Compare with model…");
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    h.state_mut().state.apply(Command::Attach(weapon_path.clone()));
    h.run_steps(2);
    let said = &h.state().state.messages.last().unwrap().1;
    assert!(said.contains("attached: 1 of its bones follow"), "{said}");
    let state = &h.state().state;
    let second = state.extras.second.as_ref().expect("attached");
    assert_eq!(second.placement, Placement::Attached);
    let head = state.model().bones.iter().position(|b| b.name == "head").unwrap();
    assert_eq!(second.bones()[0], state.pose.bones[head], "the weapon's root is the head");
    let attached = viewport(&mut h);
    assert!(differing(&plain, &attached) > 100, "the weapon is drawn");
    // It follows the head as the frame moves.
    h.state_mut().state.apply(Command::SetFrame(3.0));
    h.run_steps(1);
    let state = &h.state().state;
    assert_eq!(state.extras.second.as_ref().unwrap().bones()[0], state.pose.bones[head]);
    // A capture records the weapon too.
    let captured = common::capture_frame(&mut h, &dir.join("capture-attached"), 128);

    h.state_mut().state.apply(Command::RemoveSecond);
    h.run_steps(2);
    assert!(h.state().state.extras.second.is_none());
    let alone = common::capture_frame(&mut h, &dir.join("capture-alone"), 128);
    let changed = captured.chunks_exact(4).zip(alone.chunks_exact(4)).filter(|(a, b)| a != b).count();
    assert!(changed > 20, "{changed} pixels of the capture show the weapon");

    // A copy of the demo model beside it, playing the sequence of the same name.
    let copy = dir.join("critter_copy.mdl");
    std::fs::write(&copy, studio_document::demo::DEMO_MDL).unwrap();
    let before = h.state().state.bounds();
    let walk = h.state().state.model().sequences.iter().position(|s| s.label == "walk").unwrap();
    h.state_mut().state.apply(Command::SelectSequence(walk));
    h.state_mut().state.apply(Command::Compare(copy));
    h.state_mut().state.apply(Command::FrameModel);
    h.run_steps(2);
    let state = &h.state().state;
    let second = state.extras.second.as_ref().expect("compared");
    assert!(matches!(second.placement, Placement::Beside(offset) if offset.y < 0.0));
    assert_eq!(second.sequence_name(), "walk");
    let after = state.bounds();
    assert!(after.0.y < before.0.y - 1.0, "the framed box takes in both: {before:?} {after:?}");
    let compared = viewport(&mut h);
    assert!(differing(&plain, &compared) > 100, "both are drawn");
}

#[test]
fn a_flash_event_shows_its_sprite_on_its_frame() {
    if no_adapter() {
        return;
    }
    let Some(shared) = studio_testing::shared() else { return };
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "flash-ui");
    let game = dir.join("ns");
    std::fs::create_dir_all(game.join("models")).unwrap();
    std::fs::write(game.join("liblist.gam"), "game \"Natural Selection\"\n").unwrap();
    let model = game.join("models/v_mg.mdl");
    studio_testing::copy(shared.join("models/ns/v_mg.mdl"), &model).unwrap();

    let mut h = harness();
    h.state_mut().state.apply(Command::Open(model.clone()));
    let shoot = h.state().state.model().sequences.iter().position(|s| s.label == "shoot").unwrap();
    h.state_mut().state.apply(Command::SelectSequence(shoot));
    h.state_mut().state.playing = false;
    h.state_mut().state.apply(Command::SetFrame(0.0));
    h.run_steps(2);
    // No sprite in the game: nothing drawn, and the places tried are said.
    assert_eq!(h.state().state.extras.flashes.len(), 1, "event 5001 on frame 0");
    let _ = viewport(&mut h);
    let said: Vec<&str> = h.state().state.messages.iter().map(|(_, m)| m.as_str()).collect();
    assert!(
        said.iter().any(|m| m.contains("muzzle flash not drawn") && m.contains("muzzleflash1.spr not found")),
        "{said:?}"
    );

    // The sprite there: a green square, additive.
    std::fs::create_dir_all(game.join("sprites")).unwrap();
    let sprite = studio_testing::sprite_file::solid(2, 1, 128, [0, 255, 0]);
    std::fs::write(game.join("sprites/muzzleflash1.spr"), sprite).unwrap();
    h.state_mut().state.apply(Command::Open(model));
    h.state_mut().state.apply(Command::SelectSequence(shoot));
    h.state_mut().state.playing = false;
    h.state_mut().state.apply(Command::SetFrame(5.0));
    h.run_steps(2);
    assert!(h.state().state.extras.flashes.is_empty(), "frame 5 fires nothing");
    let plain = viewport(&mut h);
    h.state_mut().state.apply(Command::SetFrame(0.0));
    h.run_steps(2);
    let flash = viewport(&mut h);
    let greener = plain
        .iter()
        .zip(&flash)
        .filter(|(p, f)| i32::from(f[1]) - i32::from(p[1]) > 60 && f[0] <= p[0].saturating_add(8))
        .count();
    // Frame 0 and 5 differ in pose too, but only the flash adds green.
    assert!(greener > 50, "{greener} pixels turned green");
    // A capture from frame 0 records the flash on its first frame.
    let with = common::capture_frame(&mut h, &dir.join("capture-flash"), 160);
    // Turned off: no flash, in the viewport or a capture.
    h.state_mut().state.apply(Command::SetMuzzleFlashes(false));
    h.run_steps(1);
    assert!(h.state().state.extras.flashes.is_empty());
    let without = common::capture_frame(&mut h, &dir.join("capture-plain"), 160);
    let greener = without
        .chunks_exact(4)
        .zip(with.chunks_exact(4))
        .filter(|(p, f)| i32::from(f[1]) - i32::from(p[1]) > 60 && f[0] <= p[0].saturating_add(8))
        .count();
    assert!(greener > 10, "{greener} pixels of the capture turned green");
}
