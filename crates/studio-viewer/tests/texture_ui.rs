//! The Textures tab with egui_kittest: an image dropped on the window imported over the shown
//! texture after its preview, undone and redone; a texture renamed; player colours appearing for
//! a `DM_Base` texture and recolouring what the viewport uploads; the UV map written.

use std::path::PathBuf;

mod common;

use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use studio_testing::png_image::write_rgba_png;
use studio_viewer::app::StudioApp;

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

#[test]
fn a_dropped_image_is_previewed_then_imported_and_undone() {
    let mut h = paused(common::harness(1400.0, 1000.0));
    assert_eq!(h.state().state.model().header.name, "models/demo.mdl");
    let original = h.state().state.model().textures[0].clone();
    let dir = scratch("texture-ui-import");
    let image = dir.join("blue.png");
    write_rgba_png(&image, 30, 20, &[20u8, 40, 220, 255].repeat(30 * 20));
    // Dropped on the window: the Textures tab opens with the import shown, nothing changed yet.
    common::drop_file(&mut h, image);
    h.run_steps(2);
    assert!(h.state().textures.pending.is_some(), "the import waits for approval");
    assert!(h.query_by_label("Apply import").is_some());
    assert_eq!(h.state().state.model().textures[0], original, "nothing is applied before Apply");
    assert_eq!(h.state().state.model().header.name, "models/demo.mdl", "the image did not open as a model");
    // critter_green.bmp shares its slot with critter_orange.bmp in the other skin family, so its
    // size is held.
    let summary = h.state().textures.pending.as_ref().unwrap().report.summary();
    assert!(summary.contains("the size held"), "{summary}");
    h.get_by_label("Apply import").click();
    h.run_steps(2);
    assert!(h.state().textures.pending.is_none());
    let texture = &h.state().state.model().textures[0];
    assert_eq!((texture.width, texture.height), (original.width, original.height));
    assert!(texture.rgba().chunks_exact(4).all(|p| p == [20, 40, 220, 255]));
    assert!(h.state().state.is_dirty());
    // Undo puts the texture back; redo imports it again.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().state.model().textures[0], original);
    h.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    h.run_steps(2);
    assert_ne!(h.state().state.model().textures[0], original);
    // A file that is no image: an error, and nothing waits.
    let junk = dir.join("junk.png");
    std::fs::write(&junk, b"no picture").unwrap();
    common::drop_file(&mut h, junk);
    h.run_steps(2);
    assert!(h.state().textures.pending.is_none());
    let said = &h.state().state.messages;
    assert!(said.iter().any(|(_, m)| m.contains("junk.png")), "{said:?}");
}

#[test]
fn a_texture_renamed_dm_base_offers_player_colours_that_recolour_it() {
    let mut h = paused(common::harness(1400.0, 1000.0));
    common::tab(&h, "Textures");
    h.run_steps(2);
    assert!(h.query_by_label("Player colours").is_none(), "the demo has no remappable texture");
    // Show the chrome texture (its pixels use every palette entry) and rename it by typing.
    h.get_by_role_and_label(Role::ComboBox, "Texture").click();
    h.run_steps(2);
    h.get_by_label("chrome.bmp").click();
    h.run_steps(2);
    let field = h
        .query_all_by_role(Role::TextInput)
        .find(|n| n.value().is_some_and(|v| v == "chrome.bmp"))
        .expect("the name field");
    field.click();
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run_steps(1);
    h.query_all_by_role(Role::TextInput)
        .find(|n| n.value().is_some_and(|v| v == "chrome.bmp"))
        .unwrap()
        .type_text("DM_Base.bmp");
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(2);
    let index =
        h.state().state.model().textures.iter().position(|t| t.name == "DM_Base.bmp").expect("renamed");
    assert_eq!(h.state().state.model().textures[index].name, "DM_Base.bmp");
    // Player colours appear; turning them on recolours what the viewport uploads.
    let before = h.state().state.render_model();
    let generation = h.state().state.scene_identity();
    h.get_by_role_and_label(Role::CheckBox, "Player colours").click();
    h.run_steps(2);
    assert!(h.state().state.player_colours.is_some());
    assert_ne!(h.state().state.scene_identity(), generation, "the viewport uploads the model again");
    h.state_mut()
        .state
        .set_player_colours(Some(studio_render::goldsrc::PlayerColours { top: 170, bottom: 85 }));
    h.run_steps(2);
    let after = h.state().state.render_model();
    let rgba = |m: &studio_render::RenderModel, i: usize| m.materials[i].image.as_ref().unwrap().rgba.clone();
    assert!(rgba(&before, index) != rgba(&after, index), "DM_Base is recoloured");
    for other in (0..before.materials.len()).filter(|&i| i != index) {
        assert!(rgba(&before, other) == rgba(&after, other), "texture {other} is not recoloured");
    }
}

#[test]
fn the_uv_map_is_written_as_the_panel_sets_it() {
    let h = paused(common::harness(1400.0, 1000.0));
    let dir = scratch("texture-ui-uv");
    let path = dir.join("uv.png");
    let options = h.state().textures.uv;
    let (width, height) =
        studio_viewer::app::ui::textures::export_uv_map(h.state().state.model(), 0, &options, &path).unwrap();
    assert_eq!((width, height), (128, 128), "the panel's default scale is 2");
    assert!(std::fs::metadata(&path).unwrap().len() > 100);
}

/// The harness with playback paused, two more frames drawn.
fn paused(mut h: egui_kittest::Harness<'static, StudioApp>) -> egui_kittest::Harness<'static, StudioApp> {
    h.state_mut().state.playing = false;
    h.run_steps(2);
    h
}
