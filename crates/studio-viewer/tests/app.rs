//! The viewer driven through its real widgets with egui_kittest (no window, no GPU: the
//! viewport's bone matrices are checked instead of its pixels).

use std::path::{Path, PathBuf};

mod common;

use common::drop_file;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use studio_viewer::app::StudioApp;
use studio_viewer::app::settings::Settings;

fn harness(app: StudioApp) -> Harness<'static, StudioApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui, None), app)
}

/// The slider whose label contains `text`.
fn slider<'h>(h: &'h Harness<'_, StudioApp>, text: &'static str) -> egui_kittest::Node<'h> {
    h.get_by(move |node| {
        node.role() == egui::accesskit::Role::Slider && node.label().is_some_and(|l| l.contains(text))
    })
}

fn bones(h: &Harness<'_, StudioApp>) -> Vec<glam::Affine3A> {
    h.state().state.pose.bones.clone()
}

fn differ(a: &[glam::Affine3A], b: &[glam::Affine3A]) -> bool {
    a.iter().zip(b).any(|(x, y)| !x.abs_diff_eq(*y, 1e-4))
}

#[test]
fn a_modder_opens_a_model_and_works_the_controls() {
    let Some(shared) = studio_testing::shared() else { return };
    let mut h = harness(StudioApp::new(Settings::default(), None));
    h.run_steps(2);
    assert_eq!(h.state().state.model().header.name, "models/demo.mdl", "the demo model shows first");

    // Open a fixture by dropping it onto the window; stop playback with the Pause button.
    drop_file(&mut h, shared.join("fixtures/blends.mdl"));
    assert_eq!(h.state().state.model().bones.len(), 12);
    h.get_by_label("Pause").click();
    h.run_steps(2);
    assert!(!h.state().state.playing);

    // Find a sequence by name through the search box and pick it.
    let search = h.get_by_role(egui::accesskit::Role::TextInput);
    search.click();
    h.run_steps(1);
    h.get_by_role(egui::accesskit::Role::TextInput).type_text("aim");
    h.run_steps(2);
    assert!(h.query_by_label("idle").is_none(), "the search hides other sequences");
    h.get_by_label("aim4").click();
    h.run_steps(2);
    let state = &h.state().state;
    assert_eq!(state.model().sequences[state.sequence].label, "aim4");

    // Scrub the timeline to a fractional frame.
    let before = bones(&h);
    slider(&h, "Frame").set_value_accesskit(3.5);
    h.run_steps(2);
    assert!((h.state().state.frame - 3.5).abs() < 1e-3, "frame {}", h.state().state.frame);
    let scrubbed = bones(&h);
    assert!(differ(&before, &scrubbed), "scrubbing moves the bones");

    // Move a blend slider: the viewport's bone matrices follow.
    slider(&h, "Blend 0").set_value_accesskit(30.0);
    h.run_steps(2);
    assert_ne!(h.state().state.blend[0], 0);
    assert!(differ(&scrubbed, &bones(&h)), "blending moves the bones");

    // Toggle hit boxes.
    assert!(!h.state().state.settings.hitboxes);
    h.get_by_role_and_label(egui::accesskit::Role::CheckBox, "Hit boxes").click();
    h.run_steps(2);
    assert!(h.state().state.settings.hitboxes);

    // A controller slider, on the controllers fixture.
    drop_file(&mut h, shared.join("fixtures/controllers.mdl"));
    h.get_by_label("Pause").click();
    h.run_steps(2);
    let before = bones(&h);
    slider(&h, "Controller 1").set_value_accesskit(45.0);
    h.run_steps(2);
    assert!(differ(&before, &bones(&h)), "turning a controller moves the bones");
    let mouth_before = bones(&h);
    slider(&h, "Mouth").set_value_accesskit(64.0);
    h.run_steps(2);
    assert_eq!(h.state().state.mouth, 64);
    assert!(differ(&mouth_before, &bones(&h)), "opening the mouth moves a bone");
}

#[test]
fn a_broken_file_shows_its_error_and_the_model_stays() {
    let Some(shared) = studio_testing::shared() else { return };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("app-broken");
    let _ = std::fs::create_dir_all(&dir);
    let broken = dir.join("broken.mdl");
    let good = std::fs::read(shared.join("fixtures/rle.mdl")).unwrap();
    std::fs::write(&broken, &good[..1000]).unwrap();

    let mut h = harness(StudioApp::new(Settings::default(), Some(shared.join("fixtures/groups.mdl"))));
    h.run_steps(2);
    assert_eq!(h.state().state.model().header.name, "groups");
    drop_file(&mut h, broken);
    h.run_steps(1);
    assert_eq!(h.state().state.model().header.name, "groups", "the previous model stays");
    let error = h.state().state.last_error().expect("an error is shown").to_owned();
    assert!(error.contains("broken.mdl") && error.contains("at byte"), "{error}");
    assert!(h.query_all_by_label_contains("at byte").count() >= 1, "the error is on screen");
}

/// The skinning matrices the viewport draws with.
fn drawn(h: &Harness<'_, StudioApp>) -> Vec<glam::Affine3A> {
    h.state().state.frame_pose().skinning.to_vec()
}

#[test]
fn a_modder_opens_a_source_model_and_works_its_pose_parameters_and_hit_box_sets() {
    let Some(shared) = studio_testing::shared() else { return };
    let mut h = harness(StudioApp::new(Settings::default(), Some(shared.join("fixtures/groups.mdl"))));
    h.run_steps(2);
    drop_file(&mut h, shared.join("fixtures/source/models/fixture/include48.mdl"));
    h.run_steps(1);
    let view = h.state().state.source.as_deref().expect("the Source model is open");
    assert_eq!(view.doc.model.header.version, 48);
    assert_eq!(view.doc.num_sequences(), 5, "ref, inc_run, inc_blend, inc_wave, inc_layered");
    assert!(h.state().state.last_error().is_none(), "{:?}", h.state().state.last_error());
    h.get_by_label("Pause").click();
    h.run_steps(2);

    // Pick the sequence with a blend grid from the table.
    h.get_by_label("inc_blend").click();
    h.run_steps(2);
    let view = h.state().state.source.as_deref().unwrap();
    assert_eq!(view.doc.sequence(view.doc.sequence).unwrap().label, "inc_blend");
    assert_eq!(view.doc.used_parameters(), [0], "inc_blend reads move_x");

    // Move the move_x slider (−2 to 2 once combined): the viewport's matrices follow.
    let before = drawn(&h);
    slider(&h, "move_x").set_value_accesskit(1.5);
    h.run_steps(2);
    let view = h.state().state.source.as_deref().unwrap();
    assert!((view.doc.params[0] - 1.5).abs() < 1e-3, "move_x {}", view.doc.params[0]);
    assert!(differ(&before, &drawn(&h)), "moving a pose parameter moves the bones");

    // Scrub the cycle.
    let before = drawn(&h);
    slider(&h, "Cycle").set_value_accesskit(0.5);
    h.run_steps(2);
    assert!((h.state().state.source.as_deref().unwrap().doc.cycle - 0.5).abs() < 1e-3);
    assert!(differ(&before, &drawn(&h)), "scrubbing the cycle moves the bones");

    // Switch the hit box set to `cheap` in the hit box tab.
    h.get_by(|n| n.label().as_deref() == Some("Hit boxes") && n.role() != egui::accesskit::Role::CheckBox)
        .click();
    h.run_steps(2);
    assert_eq!(h.state().state.frame_pose().hitboxes.len(), 8, "the default set has 8 boxes");
    h.get_by_label("Hit box set").click();
    h.run_steps(2);
    h.get_by_label("1 cheap").click();
    h.run_steps(2);
    let state = &h.state().state;
    assert_eq!(state.source.as_deref().unwrap().doc.hitbox_set, 1);
    assert_eq!(state.frame_pose().hitboxes.len(), 2, "the cheap set has 2 boxes");
    assert_eq!(state.frame_pose().hitbox_set, 1);
}

#[test]
fn keys_play_step_and_frame() {
    let mut h = harness(StudioApp::new(Settings::default(), None));
    h.run_steps(2);
    h.key_press(egui::Key::Space);
    h.run_steps(1);
    assert!(!h.state().state.playing, "space pauses");
    let frame = h.state().state.frame.floor();
    h.key_press(egui::Key::ArrowRight);
    h.run_steps(1);
    assert_eq!(h.state().state.frame, frame + 1.0);
    h.key_press(egui::Key::ArrowLeft);
    h.run_steps(1);
    assert_eq!(h.state().state.frame, frame);
    h.key_press(egui::Key::Space);
    h.run_steps(1);
    assert!(h.state().state.playing, "space plays");
}

#[test]
fn the_sequence_list_lays_out_the_rows_in_view_and_search_reaches_any() {
    let Some(shared) = studio_testing::shared() else { return };
    let mut h = harness(StudioApp::new(Settings::default(), None));
    h.run_steps(2);
    drop_file(&mut h, shared.join("models/ns/soldier.mdl"));
    let sequences = &h.state().state.model().sequences;
    assert_eq!(sequences.len(), 79);
    assert_eq!(sequences[26].label, "hmg_fire");
    // The first rows are there; a row far below the list's 260 points is not laid out.
    assert!(h.query_by_label("look_idle").is_some());
    assert!(h.query_by_label("hmg_fire").is_none(), "rows out of view are not laid out");
    // The search brings it into view, and a click plays it.
    h.get_by_role(egui::accesskit::Role::TextInput).click();
    h.run_steps(1);
    h.get_by_role(egui::accesskit::Role::TextInput).type_text("hmg");
    h.run_steps(2);
    assert!(h.query_by_label("look_idle").is_none(), "the search hides other sequences");
    assert!(h.query_by_label("hmg_reload").is_some(), "both matches are laid out");
    h.get_by_label("hmg_fire").click();
    h.run_steps(2);
    assert_eq!(h.state().state.sequence, 26);
}

#[test]
fn a_sequence_with_an_absurd_fps_plays_without_hanging() {
    // The demo model with its idle sequence's fps set to 1e30: one frame of playback must wrap
    // at once, not loop a billion billion times.
    let mut model = studio_document::demo::demo_model().unwrap();
    model.sequences[0].fps = 1e30;
    let bytes = studio_model::write(&model).unwrap().main;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("app-fps");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join("fast.mdl");
    std::fs::write(&path, bytes).unwrap();
    let mut h = harness(StudioApp::new(Settings::default(), Some(path)));
    h.run_steps(3);
    let state = &h.state().state;
    assert!(state.frame.is_finite() && state.frame >= 0.0 && state.frame < 31.0, "frame {}", state.frame);
}

/// The demo model saved under a long file name, with a long internal name (a Windows path, as
/// real models carry).
fn long_named_model() -> PathBuf {
    let mut model = studio_document::demo::demo_model().unwrap();
    model.header.name = r"C:\Program Files (x86)\Steam\steamapps\common\Half-Life\valve\models\player\gordon_reference_v2.mdl".into();
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("a folder with a rather long name for a model viewer");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a_model_with_a_very_long_file_name_that_would_widen_a_panel.mdl");
    std::fs::write(&path, studio_model::write(&model).unwrap().main).unwrap();
    path
}

/// The text a node shows: a widget's label, or a label's own text (its value).
fn text_of(node: &egui_kittest::kittest::AccessKitNode<'_>) -> Option<String> {
    node.label().or_else(|| node.value())
}

#[test]
fn panels_fit_their_texts_at_both_window_sizes() {
    let path = long_named_model();
    for (width, height) in [(1280.0, 800.0), (1024.0, 700.0)] {
        let app = StudioApp::new(Settings::default(), Some(path.clone()));
        let mut h = Harness::builder()
            .with_size(egui::vec2(width, height))
            .build_ui_state(|ui, app: &mut StudioApp| app.show(ui, None), app);
        h.run_steps(3);
        let layout = h.state().layout;
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(width, height));
        assert!(
            layout.viewport.width() >= 0.36 * width,
            "{width}×{height}: the viewport keeps {} points of width",
            layout.viewport.width()
        );
        let panels = [
            ("menu", layout.menu),
            ("left", layout.left),
            ("right", layout.right),
            ("bottom", layout.bottom),
        ];
        let line = 14.0 * 1.6;
        let mut checked = 0;
        for node in h.query_all_by(|n| text_of(n).is_some_and(|t| !t.is_empty())) {
            let rect = node.rect();
            let access = node.accesskit_node();
            let label = text_of(&access).unwrap_or_default();
            let Some((panel, area)) = panels.iter().find(|(_, r)| r.contains(rect.center())) else {
                continue;
            };
            // Rows scrolled out of a list's view are clipped by it, not laid out wrong; a
            // panel's resize handle straddles its edge.
            if rect.min.y < area.min.y || rect.max.y > area.max.y || label == "Resize panel" {
                continue;
            }
            checked += 1;
            assert!(
                rect.min.x >= area.min.x - 1.0
                    && rect.max.x <= area.max.x + 1.0
                    && window.contains_rect(rect),
                "{width}×{height}: {label:?} at {rect:?} leaves the {panel} panel {area:?}"
            );
            if access.role() == egui::accesskit::Role::Label && label.chars().count() > 3 {
                assert!(rect.height() <= 2.0 * line, "{width}×{height}: {label:?} wraps: {rect:?}");
            }
        }
        assert!(checked > 40, "{width}×{height}: only {checked} texts found");
        // The long texts are shortened in the middle, with their ends kept.
        let elided = h.query_all_by(|n| text_of(n).is_some_and(|t| t.contains('…'))).count();
        assert!(elided >= 2, "{width}×{height}: the long name and path are elided ({elided} texts)");
    }
}

#[test]
fn controllers_start_at_their_neutral_settings() {
    let Some(shared) = studio_testing::shared() else { return };
    let mut h = harness(StudioApp::new(Settings::default(), Some(shared.join("models/ns/soldier.mdl"))));
    h.run_steps(2);
    // The soldier's four spine controllers run −22.5°..22.5°: 127 is nearest 0°.
    assert_eq!(h.state().state.controllers, vec![127, 127, 127, 127]);
    slider(&h, "Controller 0").set_value_accesskit(10.0);
    h.run_steps(2);
    assert_ne!(h.state().state.controllers[0], 127);
    h.get_by_label("Reset controllers").click();
    h.run_steps(2);
    assert_eq!(h.state().state.controllers, vec![127, 127, 127, 127], "reset returns to neutral");
}

/// The area of the triangles egui draws, in square points: every pixel of it costs a texture
/// sample in egui's shader, a large part of a frame on a software renderer.
fn area_egui_draws(h: &Harness<'_, StudioApp>) -> f32 {
    let output = h.output();
    let primitives = h.ctx.tessellate(output.shapes.clone(), output.pixels_per_point);
    let mut area = 0.0;
    for primitive in primitives {
        let egui::epaint::Primitive::Mesh(mesh) = primitive.primitive else { continue };
        for triangle in mesh.indices.chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|i| mesh.vertices[triangle[i] as usize].pos);
            let full = ((b - a).x * (c - a).y - (b - a).y * (c - a).x).abs() / 2.0;
            // The part inside the clip rectangle (rows scrolled away are clipped), taken as the
            // share of the triangle's bounding box inside it.
            let bounds = egui::Rect::from_points(&[a, b, c]);
            if bounds.area() > 0.0 && bounds.intersects(primitive.clip_rect) {
                let part = full * bounds.intersect(primitive.clip_rect).area() / bounds.area();
                area += part;
            }
        }
    }
    area
}

#[test]
fn panels_are_not_filled_the_window_is_cleared_to_their_colour() {
    let (width, height) = (1280.0, 800.0);
    // Run as eframe runs it (kittest's `build_ui_state` puts a filled frame round the app).
    let mut h = Harness::builder()
        .with_size(egui::vec2(width, height))
        .build_eframe(|cc| StudioApp::from_creation_context(cc, None));
    h.run_steps(3);
    let viewport = h.state().layout.viewport.area();
    // Without a GPU the viewport is one filled rectangle; the rest is widgets and text (8% of
    // the window). A filled side or bottom panel would add 15% or more.
    let drawn = area_egui_draws(&h);
    let widgets = drawn - viewport;
    assert!(
        (0.0..0.15 * width * height).contains(&widgets),
        "egui draws {drawn} square points, {widgets} besides the viewport's {viewport}"
    );
    let visuals = egui::Visuals::dark();
    assert_eq!(
        studio_viewer::app::ui::window_clear_color(&visuals),
        visuals.panel_fill.to_normalized_gamma_f32()
    );
}

#[test]
fn file_export_writes_the_shown_model_as_gltf() {
    let Some(shared) = studio_testing::shared() else { return };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("app-export");
    let _ = std::fs::create_dir_all(&dir);
    for (model, out) in [
        (Some(shared.join("fixtures/source/models/fixture/include48.mdl")), dir.join("include48.glb")),
        (None, dir.join("demo.gltf")),
    ] {
        let _ = std::fs::remove_file(&out);
        let mut app = StudioApp::new(Settings::default(), model);
        app.state.apply(studio_viewer::app::command::Command::Export(out.clone()));
        let said = app.state.messages.last().map(|(_, t)| t.clone()).unwrap_or_default();
        assert!(said.starts_with("exported"), "{said}");
        let bytes = std::fs::read(&out).unwrap();
        assert!(gltf::Gltf::from_slice(&bytes).is_ok() || out.extension().is_some_and(|e| e == "gltf"));
        if out.extension().is_some_and(|e| e == "gltf") {
            assert!(out.with_extension("bin").is_file(), "the .bin is written beside the .gltf");
        }
    }
}

#[test]
fn a_one_frame_sequence_asks_for_no_frames_while_playing() {
    let Some(shared) = studio_testing::shared() else { return };
    let fixture = shared.join("fixtures/source/models/fixture");
    let mut app = StudioApp::new(Settings::default(), Some(fixture.join("anim48.mdl")));
    assert!(app.state.playing, "a model starts playing");
    // Its first sequence, `ref`, has one frame: nothing moves, so nothing is redrawn.
    assert!(!app.state.animating());
    app.state.apply(studio_viewer::app::command::Command::SelectSequence(2));
    assert!(app.state.animating(), "walk moves");
    app.state.apply(studio_viewer::app::command::Command::TogglePlay);
    assert!(!app.state.animating(), "paused");
    // The same for a Half-Life model's sequences.
    let mut app = StudioApp::new(Settings::default(), None);
    assert!(app.state.animating(), "the demo's idle moves");
}

/// `app::run` opens the window with the title the viewer's first frame sets, for the demo
/// model and for a model given on the command line: a title that a frame changes costs
/// another frame while the window opens.
#[test]
fn the_window_opens_with_the_title_of_its_first_frame() {
    let mut demo = harness(StudioApp::new(Settings::default(), None));
    demo.run_steps(1);
    assert_eq!(demo.state().title(), studio_viewer::app::window_title(None, false));

    let Some(shared) = studio_testing::shared() else { return };
    let model = shared.join("models/ns/soldier.mdl");
    let mut h = harness(StudioApp::new(Settings::default(), Some(model.clone())));
    h.run_steps(1);
    assert_eq!(h.state().title(), studio_viewer::app::window_title(Some(&model), false));
}

/// The sequence labels of the model at `path` as the viewer lists them, and the one playing.
fn sequence_labels(h: &Harness<'_, StudioApp>) -> (Vec<String>, usize) {
    let state = &h.state().state;
    match state.source.as_deref() {
        Some(view) => (
            (0..view.doc.num_sequences()).filter_map(|i| Some(view.doc.sequence(i)?.label.clone())).collect(),
            view.doc.sequence,
        ),
        None => (state.model().sequences.iter().map(|s| s.label.clone()).collect(), state.sequence),
    }
}

/// The sequences of the model at `path` that a search for their label and a click on their
/// row do not play.
fn missed_after_search(path: &Path) -> (usize, Vec<String>) {
    let (labels, _) = sequence_labels(&harness(StudioApp::new(Settings::default(), Some(path.to_owned()))));
    let mut missed = vec![];
    for (i, label) in labels.iter().enumerate() {
        let mut h = harness(StudioApp::new(Settings::default(), Some(path.to_owned())));
        h.run_steps(2);
        h.get_by_role(egui::accesskit::Role::TextInput).click();
        h.run_steps(1);
        h.get_by_role(egui::accesskit::Role::TextInput).type_text(label);
        h.run_steps(2);
        // The row shows the name, or its two ends around an ellipsis.
        let shows = |shown: &str| match shown.split_once('…') {
            Some((head, tail)) => label.starts_with(head) && label.ends_with(tail),
            None => shown == label,
        };
        h.get_by(|node| {
            node.role() != egui::accesskit::Role::TextInput && node.label().is_some_and(|l| shows(&l))
        })
        .click();
        h.run_steps(2);
        if sequence_labels(&h).1 != i {
            missed.push(label.clone());
        }
    }
    (labels.len(), missed)
}

#[test]
fn every_sequence_is_found_by_search_and_played_by_a_click() {
    // A search that leaves a row or two with a long name made the table wider than the panel;
    // the list's floating scroll bar then lay over those rows and took the click.
    let Some(shared) = studio_testing::shared() else { return };
    for (model, count) in [("models/ns/soldier.mdl", 79), ("fixtures/source/models/fixture/include48.mdl", 5)]
    {
        let (listed, missed) = missed_after_search(&shared.join(model));
        assert_eq!(listed, count, "{model}");
        assert!(missed.is_empty(), "{model}: clicking these after a search did not play them: {missed:?}");
    }
}
