//! Game installs in the viewer, driven through its widgets with egui_kittest: a mod model's
//! Materials tab lists its game's search path in order with the entry that supplied each file,
//! and the model browser's Games list browses the mod's whole search path, a model overridden by
//! an earlier place marked. (A test binary of its own: the Steam folders are process-wide.)

// Shared with the command line's game install tests.
#[path = "../../studioview/tests/steam_mod/mod.rs"]
mod steam_mod;

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use studio_viewer::app::StudioApp;
use studio_viewer::app::settings::Settings;

fn run_until(h: &mut Harness<'_, StudioApp>, done: impl Fn(&StudioApp) -> bool) {
    let started = Instant::now();
    while !done(h.state()) {
        assert!(started.elapsed() < Duration::from_secs(20), "timed out");
        h.run_steps(1);
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_materials_tab_and_the_games_list_follow_the_mods_search_path() {
    let Some(shared) = studio_testing::shared() else { return };
    let (tree, model) = steam_mod::mod_with_model(&shared, "games-ui");
    // A copy of the model in the custom folder: the game loads it, not the mod's own.
    let custom = tree.source_mod.join("custom/a_override/models/fixture");
    std::fs::create_dir_all(&custom).unwrap();
    for file in ["skeleton48.mdl", "skeleton48.vvd", "skeleton48.dx90.vtx"] {
        studio_testing::copy(model.with_file_name(file), custom.join(file)).unwrap();
    }
    let settings = Settings { steam_folders: vec![tree.steam.clone()], ..Settings::default() };
    let mut app = StudioApp::new(settings, Some(model.clone()));
    app.thumbnails.cache_dir = Some(tree.steam.join("thumbnail-cache"));
    let mut h = Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(|ui, app: &mut StudioApp| app.show(ui, None), app);
    h.run_steps(2);
    let view = h.state().state.source.as_deref().expect("the mod's model is open");
    assert_eq!(view.game.as_deref(), Some(tree.source_mod.as_path()));
    let supplied: Vec<(Option<&str>, Option<&str>)> =
        view.found.iter().map(|f| (f.search_path.as_deref(), f.vtf_search_path.as_deref())).collect();
    assert_eq!(
        supplied,
        [
            (Some("game+mod  momentum/custom/* (a_override)"), Some("mount 440 tf vpk tf2_textures_dir")),
            (
                Some("game+game_write  |gameinfo_path|."),
                Some("game  |all_source_engine_paths|hl2/hl2_textures.vpk")
            ),
        ]
    );
    h.get_by_label("Materials").click();
    h.run_steps(6);
    // The search path in order, each place with its entry, and what each supplied.
    // The search path in order, each place numbered, with how many of the model's files it
    // supplied in brackets; a long entry is elided in the middle, keeping its start and end.
    let labels: Vec<String> = h
        .query_all(egui_kittest::kittest::by().predicate(|n| n.value().is_some()))
        .filter_map(|n| n.accesskit_node().value())
        .collect();
    for (start, end) in [
        (" 1  mount 240", "cstrike_pak"),
        (" 2  [1]  game+mod", "(a_override)"),
        (" 3  game+mod", "(b_pack_dir.vpk)"),
        (" 4  [1]  game+game_", "|gameinfo_path|."),
        (" 5  [1]  game  |all_so", "hl2/hl2_textures.vpk"),
        (" 9  [1]  mount 440", "tf2_textures_dir"),
        ("10  mount 440 tf dir .", "."),
    ] {
        assert!(labels.iter().any(|l| l.starts_with(start) && l.ends_with(end)), "{start:?}: {labels:?}");
    }
    let supplying: std::collections::BTreeSet<&String> =
        labels.iter().filter(|l| l.contains("  [1]  ")).collect();
    assert_eq!(supplying.len(), 4, "{supplying:?}");

    // The browser's Games list, then the mod's whole search path.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::B);
    h.run_steps(1);
    run_until(&mut h, |app| app.state.browser.installs.is_some());
    assert_eq!(h.state().state.browser.installs.as_ref().unwrap().games.len(), 6);
    h.get_by(|n| n.label().is_some_and(|l| l.starts_with("Games ("))).click();
    h.run_steps(2);
    h.get_by(|n| n.label().is_some_and(|l| l.starts_with("Momentum Mod  (source"))).click();
    h.run_steps(1);
    run_until(&mut h, |app| app.state.browser.index.as_ref().is_some_and(|i| i.game.is_some()));
    let index = h.state().state.browser.index.as_ref().unwrap();
    let entries: Vec<(String, bool)> = index
        .entries
        .iter()
        .map(|e| {
            (
                e.path.strip_prefix(&tree.source_mod).unwrap_or(&e.path).display().to_string(),
                e.overridden_by.is_some(),
            )
        })
        .map(|(p, o)| (p.replace('\\', "/"), o))
        .collect();
    assert_eq!(
        entries,
        [
            ("custom/a_override/models/fixture/skeleton48.mdl".into(), false),
            ("models/fixture/skeleton48.mdl".into(), true),
            ("models/weapons/v_rocket.mdl".into(), false),
        ]
    );
    assert_eq!(index.entries[1].overridden_by.as_deref(), Some(custom.join("skeleton48.mdl").as_path()));
}
