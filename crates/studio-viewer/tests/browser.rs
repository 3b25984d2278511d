//! The model browser and models inside archives in the viewer, driven through its widgets with
//! egui_kittest: a model opened from a VPK or PAK shows the same pose and materials as its loose
//! copy; the browser indexes the game, finds models by a sequence name, opens one with a click;
//! next and previous model step through the folder with Page Down and Page Up; Show in browser
//! picks the model's folder. And the thumbnails: drawn on their own thread, cached on disk, read
//! back from the cache on a second visit.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// Shared with the command line's archive tests.
#[path = "../../studioview/tests/archive_games/mod.rs"]
mod archive_games;

use archive_games::{games, no_adapter_outside_ci, paths};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use studio_viewer::app::StudioApp;
use studio_viewer::app::command::Command;
use studio_viewer::app::settings::Settings;

fn harness(app: StudioApp) -> Harness<'static, StudioApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui, None), app)
}

/// The app with `path` open, its bones and, for a Source model, where its materials came from.
fn opened(path: &str) -> (Vec<glam::Affine3A>, Vec<Option<String>>) {
    let mut h = harness(StudioApp::new(Settings::default(), Some(PathBuf::from(path))));
    h.run_steps(2);
    let state = &h.state().state;
    assert_eq!(state.path(), Some(Path::new(path)), "{:?}", state.messages);
    assert!(state.last_error().is_none(), "{:?}", state.messages);
    let origins =
        state.source.as_ref().map_or(Vec::new(), |v| v.found.iter().map(|m| m.vtf_origin.clone()).collect());
    let bones = match &state.source {
        Some(view) => view.doc.frame.bones.clone(),
        None => state.pose.bones.clone(),
    };
    (bones, origins)
}

#[test]
fn an_archived_model_opens_in_the_viewer_with_the_pose_and_materials_of_its_loose_copy() {
    let Some(root) = games("browser-open") else { return };
    for model in
        ["models/fixture/anim48.mdl", "models/fixture/include48.mdl", "models/hive.mdl", "models/groups.mdl"]
    {
        let (loose, archived) = paths(&root, model);
        let (bones, origins) = opened(&loose);
        assert!(origins.iter().all(Option::is_some), "{model}: every material found loose: {origins:?}");
        for path in archived {
            let (archived_bones, archived_origins) = opened(&path);
            assert_eq!(archived_bones, bones, "{path}");
            assert_eq!(archived_origins.len(), origins.len());
            let archive = studio_archive::ArchivePath::parse(Path::new(&path)).unwrap().archive;
            // One separator: Windows joins with `\`, the test's paths have `/`.
            let slashes = |text: &str| text.replace('\\', "/");
            let from_it = slashes(&format!("{}:materials/", archive.display()));
            assert!(
                archived_origins.iter().flatten().all(|o| slashes(o).starts_with(&from_it)),
                "{path}: the materials come from the archive: {archived_origins:?}"
            );
        }
    }
}

/// Runs frames until `done` holds, for at most 20 seconds.
fn run_until(h: &mut Harness<'_, StudioApp>, done: impl Fn(&StudioApp) -> bool) {
    let started = Instant::now();
    while !done(h.state()) {
        assert!(started.elapsed() < Duration::from_secs(20), "timed out");
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_browser_finds_a_model_by_a_sequence_name_and_opens_it_with_a_click() {
    let Some(root) = games("browser-search") else { return };
    let (_, archived) = paths(&root, "models/fixture/anim48.mdl");
    let mut app = StudioApp::new(Settings::default(), Some(PathBuf::from(&archived[0])));
    // Thumbnails are not the point here: no GPU context is started for them.
    app.thumbnails.cache_dir = Some(root.join("thumbnail-cache"));
    let mut h = harness(app);
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::B);
    h.run_steps(1);
    assert!(h.state().state.browser.open, "Ctrl+B opens the browser");
    run_until(&mut h, |app| app.state.browser.index.is_some());
    let index = h.state().state.browser.index.as_ref().unwrap();
    let names: Vec<&str> = index.entries.iter().map(|e| e.relative.as_str()).collect();
    assert_eq!(
        names,
        [
            "models/fixture/anim48.mdl",
            "models/fixture/include48.mdl",
            "models/fixture/include48_anims.mdl",
            "models/groups.mdl",
            "models/hive.mdl",
            "models/soldier.mdl"
        ]
    );
    // Search for a sequence name: the models that have a sequence of that label (include48's
    // placeholder, include48_anims's own); one only the include model has.
    h.state_mut().state.browser.search = "inc_blend".into();
    h.run_steps(2);
    assert_eq!(h.state_mut().state.browser.shown().len(), 1);
    h.state_mut().state.browser.search = "INC_RUN".into();
    h.run_steps(2);
    assert_eq!(h.state_mut().state.browser.shown().len(), 2);
    h.get_by_label("include48.mdl").click();
    h.run_steps(2);
    let opened = h.state().state.path().map(Path::to_path_buf);
    assert_eq!(
        opened,
        Some(PathBuf::from(format!(
            "{}:models/fixture/include48.mdl",
            root.join("vpk2/hl2/pak01_dir.vpk").display()
        )))
    );
    // Next and previous model in the folder, wrapping round.
    h.key_press(egui::Key::PageDown);
    h.run_steps(2);
    assert!(
        h.state().state.path().unwrap().to_string_lossy().ends_with("models/fixture/include48_anims.mdl")
    );
    h.key_press(egui::Key::PageDown);
    h.run_steps(2);
    assert!(h.state().state.path().unwrap().to_string_lossy().ends_with("models/fixture/anim48.mdl"));
    h.key_press(egui::Key::PageUp);
    h.run_steps(2);
    assert!(h.state().state.path().unwrap().to_string_lossy().ends_with("include48_anims.mdl"));
    // Show in browser picks the open model's folder.
    h.state_mut().state.apply(Command::ShowInBrowser);
    h.run_steps(2);
    let browser = &h.state().state.browser;
    assert_eq!((browser.folder.as_deref(), browser.search.as_str()), (Some("models/fixture"), ""));
}

#[test]
fn next_model_skips_half_life_texture_and_group_files() {
    let Some(root) = games("browser-next") else { return };
    for game in ["loose/valve/models/groups.mdl", "pak/valve/pak0.pak:models/groups.mdl"] {
        let start = root.join(game);
        let names: Vec<String> = studio_document::model_files::siblings(&start)
            .iter()
            .map(|p| p.to_string_lossy().rsplit(['/', '\\']).next().unwrap().to_owned())
            .collect();
        assert_eq!(names, ["groups.mdl", "hive.mdl", "soldier.mdl"], "{game}");
        let next = studio_document::model_files::sibling(&start, 1).unwrap();
        assert!(next.to_string_lossy().ends_with("hive.mdl"));
        let before = studio_document::model_files::sibling(&start, -1).unwrap();
        assert!(before.to_string_lossy().ends_with("soldier.mdl"));
    }
}

#[test]
fn thumbnails_are_drawn_in_the_background_and_read_back_from_the_cache() {
    if no_adapter_outside_ci() {
        return;
    }
    let Some(root) = games("browser-thumbnails") else { return };
    let cache = root.join("cache");
    let mut models: Vec<String> = Vec::new();
    for model in [
        "models/fixture/anim48.mdl",
        "models/fixture/include48_anims.mdl",
        "models/hive.mdl",
        "models/soldier.mdl",
    ] {
        models.extend(paths(&root, model).1);
    }
    let make = |expect_cached: bool| {
        let mut worker =
            studio_viewer::thumbnail::Thumbnails::start(Some(cache.clone()), Vec::new(), Box::new(|| {}));
        let started = Instant::now();
        for path in &models {
            worker.want(Path::new(path));
        }
        let mut images = Vec::new();
        while images.len() < models.len() {
            let made = worker.wait(Duration::from_secs(60)).expect("a thumbnail within a minute");
            assert_eq!(made.cached, expect_cached, "{}", made.path.display());
            let image = made.image.unwrap_or_else(|e| panic!("{}: {e}", made.path.display()));
            images.push((made.path, image));
        }
        eprintln!(
            "{} thumbnails ({}) in {:.3} s",
            models.len(),
            if expect_cached { "from the cache" } else { "drawn" },
            started.elapsed().as_secs_f64()
        );
        images.sort_by(|a, b| a.0.cmp(&b.0));
        images
    };
    let drawn = make(false);
    for (path, image) in &drawn {
        assert_eq!((image.width, image.height), studio_viewer::thumbnail::SIZE);
        // Something besides the background: the mesh, or an animation-only model's skeleton.
        let background = &image.pixels[..4];
        let drawn_pixels = image.pixels.chunks(4).filter(|p| p != &background).count();
        assert!(drawn_pixels > 100, "{}: {drawn_pixels} pixels drawn", path.display());
    }
    let cached = make(true);
    assert!(
        drawn.iter().zip(&cached).all(|(a, b)| a.0 == b.0 && a.1.pixels == b.1.pixels),
        "the cache gives back what was drawn"
    );
}

#[test]
fn an_archived_model_is_saved_with_save_as_to_a_folder_never_into_its_archive() {
    let Some(root) = games("browser-save") else { return };
    let (_, archived) = paths(&root, "models/fixture/anim48.mdl");
    let archive = root.join("vpk2/hl2/pak01_dir.vpk");
    let before = std::fs::read(&archive).unwrap();
    let mut h = harness(StudioApp::new(Settings::default(), Some(PathBuf::from(&archived[0]))));
    h.run_steps(2);
    h.state_mut().state.apply(Command::Save);
    let said = h.state().state.last_error().unwrap_or_default().to_owned();
    assert!(said.contains("a model inside an archive is not written into the archive"), "{said}");
    assert_eq!(std::fs::read(&archive).unwrap(), before, "the archive is untouched");
    let out = root.join("saved/models/fixture");
    std::fs::create_dir_all(&out).unwrap();
    h.state_mut().state.apply(Command::SaveAs(out.join("copy.mdl")));
    let last = h.state().state.messages.last().map(|(_, text)| text.clone()).unwrap_or_default();
    assert!(last.starts_with("saved ") && last.ends_with("(4 file(s))"), "{last}");
    for file in ["copy.mdl", "copy.vvd", "copy.dx90.vtx", "copy.ani"] {
        assert!(out.join(file).is_file(), "{file} written beside it");
    }
    // The copy loads loose with every companion, as the archived model did.
    let loaded = studio_document::model_files::source_load(&out.join("copy.mdl")).unwrap().unwrap();
    assert!(loaded.model.warnings.is_empty(), "{:?}", loaded.model.warnings);
}
