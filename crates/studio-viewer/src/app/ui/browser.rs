//! The model browser's window: game folders (the open model's, then those added), a search over
//! paths, sequence names and activities, a filter by game folder or archive, a tree of folders,
//! and a grid of thumbnails of the models shown (only the rows in view are laid out and asked
//! for). A click opens a model; its menu copies the path map editors want (`models/…`).
//! Thumbnails are made on a thread ([`crate::thumbnail`]) and kept as textures up to a cap, the
//! least recently shown given back first.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use super::Commands;
use crate::app::browser::Browser;
use crate::app::command::Command;
use crate::app::state::AppState;
use crate::catalog::Entry;
use crate::thumbnail::{SIZE, Thumbnails};

/// Most thumbnails kept as textures: 256 × 48 KiB.
pub const TEXTURE_CAP: usize = 256;
/// A grid cell: the thumbnail and a line of its name.
const CELL: egui::Vec2 = egui::vec2(SIZE.0 as f32 + 8.0, SIZE.1 as f32 + 24.0);

/// Thumbnails as textures, and the worker that makes them.
#[derive(Default)]
pub struct ThumbnailCache {
    worker: Option<Thumbnails>,
    /// Each model's texture and the frame it was last shown in.
    textures: HashMap<PathBuf, (egui::TextureHandle, u64)>,
    /// Models that could not be drawn, with why.
    failed: HashMap<PathBuf, String>,
    frame: u64,
    /// Where thumbnails are cached on disk (`None`: the default place).
    pub cache_dir: Option<PathBuf>,
}

impl ThumbnailCache {
    /// The worker, once started.
    pub fn worker(&self) -> Option<&Thumbnails> {
        self.worker.as_ref()
    }

    /// Takes what the worker made into textures, and gives back the least recently shown beyond
    /// the cap.
    fn collect(&mut self, ctx: &egui::Context) {
        self.frame += 1;
        let Some(worker) = &mut self.worker else { return };
        for made in worker.poll() {
            match made.image {
                Ok(image) => {
                    let size = [image.width as usize, image.height as usize];
                    let color = egui::ColorImage::from_rgba_unmultiplied(size, &image.pixels);
                    let name = format!("thumbnail {}", made.path.display());
                    let texture = ctx.load_texture(name, color, egui::TextureOptions::LINEAR);
                    self.textures.insert(made.path, (texture, self.frame));
                }
                Err(error) => {
                    self.failed.insert(made.path, error);
                }
            }
        }
        self.evict(TEXTURE_CAP);
    }

    /// Gives back the textures least recently shown beyond `cap`.
    fn evict(&mut self, cap: usize) {
        while self.textures.len() > cap {
            let Some(oldest) =
                self.textures.iter().min_by_key(|(_, (_, shown))| *shown).map(|(p, _)| p.clone())
            else {
                break;
            };
            self.textures.remove(&oldest);
        }
    }

    /// The texture of `path`, asked for when it has none (and is not being made or failed).
    fn texture(
        &mut self,
        ctx: &egui::Context,
        path: &Path,
        extra: &[PathBuf],
    ) -> Option<egui::TextureHandle> {
        if let Some((texture, shown)) = self.textures.get_mut(path) {
            *shown = self.frame;
            return Some(texture.clone());
        }
        if self.failed.contains_key(path) {
            return None;
        }
        let worker = self.worker.get_or_insert_with(|| {
            let ctx = ctx.clone();
            let cache = self.cache_dir.clone().or_else(crate::thumbnail::default_cache);
            Thumbnails::start(cache, extra.to_vec(), Box::new(move || ctx.request_repaint()))
        });
        if !worker.is_pending(path) {
            worker.want(path);
        }
        None
    }
}

/// The browser's window, when open.
pub fn browser_ui(
    ctx: &egui::Context,
    state: &mut AppState,
    cache: &mut ThumbnailCache,
    commands: &mut Commands,
) {
    if !state.browser.open {
        return;
    }
    let roots = browser_roots(state);
    let waker = |ctx: &egui::Context| {
        let ctx = ctx.clone();
        move || ctx.request_repaint()
    };
    match state.browser.game.clone() {
        Some(game) => state.browser.show_game(game, waker(ctx)),
        None => state.browser.show_roots(roots, waker(ctx)),
    }
    state.browser.discover(waker(ctx));
    let discovering = state.browser.poll_games();
    let indexing = state.browser.poll();
    cache.collect(ctx);
    let mut open = true;
    let extra = state.settings.game_folders.clone();
    egui::Window::new("Model browser").open(&mut open).default_size([900.0, 620.0]).show(ctx, |ui| {
        games_ui(ui, state, discovering, commands);
        if state.browser.game.is_none() {
            folders_ui(ui, state, commands);
        }
        ui.horizontal(|ui| {
            ui.label("Search");
            ui.add(
                egui::TextEdit::singleline(&mut state.browser.search)
                    .hint_text("name, path, sequence or activity")
                    .desired_width(260.0),
            );
            let filters = state.browser.filters();
            let shown =
                filters.iter().find(|(f, _)| *f == state.browser.filter).map_or("", |(_, n)| n.as_str());
            egui::ComboBox::from_id_salt("browser filter")
                .selected_text(shown.to_owned())
                .width(260.0)
                .show_ui(ui, |ui| {
                    for (filter, name) in filters {
                        ui.selectable_value(&mut state.browser.filter, filter, name);
                    }
                });
            if ui.button("Refresh").clicked() {
                let ctx = ui.ctx().clone();
                state.browser.refresh(move || ctx.request_repaint());
            }
            let making = cache.worker().map_or(0, Thumbnails::in_progress);
            if indexing {
                ui.spinner();
                ui.label("indexing…");
            } else if making > 0 {
                ui.spinner();
                ui.label(format!("{making} thumbnail(s) to make"));
            }
        });
        if let Some(index) = &state.browser.index {
            for problem in &index.problems {
                ui.colored_label(egui::Color32::from_rgb(255, 110, 110), problem);
            }
            for error in &index.broken {
                ui.colored_label(
                    egui::Color32::from_rgb(255, 110, 110),
                    format!("archive not read: {error}"),
                );
            }
        }
        ui.separator();
        egui::Panel::left("browser tree").resizable(true).default_size(220.0).size_range(160.0..=420.0).show(
            ui,
            |ui| {
                tree_ui(ui, &mut state.browser);
            },
        );
        egui::CentralPanel::default().show(ui, |ui| grid_ui(ui, state, cache, &extra, commands));
    });
    if !open {
        state.browser.open = false;
    }
}

/// The Games list: every Source and Half-Life game found on this machine, by name; a click
/// browses all of its models through its search path, and "Game folders" goes back to the
/// folders.
fn games_ui(ui: &mut egui::Ui, state: &mut AppState, discovering: bool, commands: &mut Commands) {
    let count = state.browser.installs.as_ref().map_or(0, |i| i.games.len());
    let title = match &state.browser.game {
        Some(game) => format!("Games ({count} found): browsing {}", game.display()),
        None => format!("Games ({count} found)"),
    };
    egui::CollapsingHeader::new(title).id_salt("browser games").show(ui, |ui| {
        if discovering {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("finding the games on this machine…");
            });
        }
        if ui
            .selectable_label(state.browser.game.is_none(), "Game folders (the open model's and those added)")
            .clicked()
        {
            state.browser.game = None;
        }
        let Some(installs) = state.browser.installs.clone() else { return };
        if installs.steam.is_empty() {
            ui.label("No Steam folder found: name one in the settings (Steam folder) or with --steam DIR.");
        }
        egui::ScrollArea::vertical().id_salt("browser games scroll").max_height(180.0).show(ui, |ui| {
            for game in &installs.games {
                let picked = state.browser.game.as_ref() == Some(&game.folder);
                let label = format!("{}  ({}, {})", game.name, game.engine.name(), game.folder.display());
                if ui.selectable_label(picked, label).clicked() {
                    state.browser.game = Some(game.folder.clone());
                    state.browser.filter = super::super::browser::Filter::All;
                    state.browser.folder = None;
                }
            }
        });
        for problem in &installs.problems {
            ui.colored_label(egui::Color32::from_rgb(255, 180, 90), problem);
        }
        game_settings_ui(ui, state, commands);
    });
}

/// The Steam folders read besides those found, and the game settings search paths depend on
/// (studio-games' `Preferences`: the engines' defaults until changed).
fn game_settings_ui(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    let settings = &state.settings;
    let mut steam = settings.steam_folders.clone();
    let mut preferences = settings.preferences();
    let mut changed = false;
    ui.horizontal_wrapped(|ui| {
        ui.label("Steam folders:");
        for folder in settings.steam_folders.iter() {
            ui.label(folder.display().to_string());
            if ui.small_button("remove").on_hover_text("stop reading this Steam folder").clicked() {
                steam.retain(|f| f != folder);
                changed = true;
            }
        }
        if ui.button("Add Steam folder…").clicked()
            && let Some(picked) = rfd::FileDialog::new().pick_folder()
        {
            steam.push(picked);
            changed = true;
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("Language");
        let id = egui::Id::unique("game language");
        let mut language: String =
            ui.data_mut(|d| d.get_temp(id)).unwrap_or_else(|| preferences.language.clone());
        let edit = ui.add(egui::TextEdit::singleline(&mut language).desired_width(90.0));
        if edit.lost_focus() && language.trim() != preferences.language {
            preferences.language = language.trim().to_ascii_lowercase();
            changed = true;
        }
        ui.data_mut(|d| d.insert_temp(id, language));
        changed |= ui.checkbox(&mut preferences.hd_models, "HD models").changed();
        changed |= ui.checkbox(&mut preferences.addon_content, "Addon content").changed();
        changed |= ui.checkbox(&mut preferences.low_violence, "Low violence").changed();
    });
    if changed {
        commands.push(Command::SetGameSettings { steam_folders: steam, preferences });
    }
}

/// The game folders the browser shows: the open model's, then those added.
fn browser_roots(state: &AppState) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> =
        state.path().and_then(studio_document::model_files::game_root).into_iter().collect();
    for extra in &state.settings.game_folders {
        if !roots.contains(extra) {
            roots.push(extra.clone());
        }
    }
    roots
}

/// The game folders, with a field to add one.
fn folders_ui(ui: &mut egui::Ui, state: &mut AppState, commands: &mut Commands) {
    ui.horizontal_wrapped(|ui| {
        ui.label("Game folders:");
        if let Some(own) = state.path().and_then(studio_document::model_files::game_root) {
            ui.label(egui::RichText::new(own.display().to_string()).strong())
                .on_hover_text("the open model's");
        }
        let extra = state.settings.game_folders.clone();
        for folder in &extra {
            ui.label(folder.display().to_string());
            if ui.small_button("✕").on_hover_text("stop showing this folder").clicked() {
                commands
                    .push(Command::SetGameFolders(extra.iter().filter(|f| *f != folder).cloned().collect()));
            }
        }
        let id = egui::Id::unique("browser folder to add");
        let mut text: String = ui.data_mut(|d| d.get_temp(id).unwrap_or_default());
        ui.add(egui::TextEdit::singleline(&mut text).hint_text("add a game folder").desired_width(220.0));
        let path = PathBuf::from(text.trim());
        if ui.add_enabled(path.is_dir(), egui::Button::new("Add")).clicked() {
            let mut folders = extra.clone();
            folders.push(path);
            commands.push(Command::SetGameFolders(folders));
            text.clear();
        }
        ui.data_mut(|d| d.insert_temp(id, text));
    });
}

/// The tree of folders: a click shows that folder's models.
fn tree_ui(ui: &mut egui::Ui, browser: &mut Browser) {
    let Some(index) = &browser.index else { return };
    let mut picked = None;
    egui::ScrollArea::vertical().id_salt("browser tree scroll").show(ui, |ui| {
        let all = format!("All models ({})", index.entries.len());
        if ui.selectable_label(browser.folder.is_none(), all).clicked() {
            picked = Some(None);
        }
        branch(ui, &index.folders, browser.folder.as_deref(), "", &mut picked);
    });
    if let Some(folder) = picked {
        browser.folder = folder;
    }
}

/// The folders below `parent` (`""`: the top), each collapsible, with the count of models in it;
/// a click puts the folder in `picked`.
fn branch(
    ui: &mut egui::Ui,
    folders: &BTreeMap<String, Vec<usize>>,
    current: Option<&str>,
    parent: &str,
    picked: &mut Option<Option<String>>,
) {
    let prefix = if parent.is_empty() { String::new() } else { format!("{parent}/") };
    // The folders are sorted, so a folder's children follow it, each child's first.
    let mut children: Vec<&str> = folders
        .keys()
        .filter_map(|f| f.strip_prefix(&prefix))
        .filter_map(|rest| rest.split('/').next())
        .filter(|c| !c.is_empty())
        .collect();
    children.dedup();
    for child in children {
        let full = format!("{prefix}{child}");
        let count = folders.get(&full).map_or(0, Vec::len);
        let below = format!("{full}/");
        let has_children = folders.range(below.clone()..).next().is_some_and(|(f, _)| f.starts_with(&below));
        let label = if count > 0 { format!("{child} ({count})") } else { child.to_owned() };
        let is_current = current == Some(full.as_str());
        if has_children {
            let id = ui.make_persistent_id(("browser folder", &full));
            let mut header =
                egui::collapsing_header::CollapsingState::load_with_default_open(ui.ctx(), id, false);
            if current.is_some_and(|f| f.starts_with(&below)) {
                header.set_open(true);
            }
            header
                .show_header(ui, |ui| {
                    if ui.selectable_label(is_current, label).clicked() {
                        *picked = Some(Some(full.clone()));
                    }
                })
                .body(|ui| branch(ui, folders, current, &full, picked));
        } else if ui.selectable_label(is_current, label).clicked() {
            *picked = Some(Some(full));
        }
    }
}

/// The grid of the models shown, only the rows in view laid out.
fn grid_ui(
    ui: &mut egui::Ui,
    state: &mut AppState,
    cache: &mut ThumbnailCache,
    extra: &[PathBuf],
    commands: &mut Commands,
) {
    state.browser.find_shown();
    let reveal = state.browser.reveal.take();
    let browser = &state.browser;
    let Some(index) = &browser.index else {
        ui.label("Indexing the game folders…");
        state.browser.reveal = reveal;
        return;
    };
    let shown = browser.shown_found();
    ui.label(format!("{} model(s)", shown.len()));
    let columns = ((ui.available_width() / CELL.x).floor() as usize).max(1);
    let rows = shown.len().div_ceil(columns);
    let current = state.path();
    let mut scroll = egui::ScrollArea::vertical().id_salt("browser grid").auto_shrink([false, false]);
    if let Some(row) =
        reveal.and_then(|r| shown.iter().position(|&i| index.entries[i].path == r)).map(|at| at / columns)
    {
        scroll = scroll.vertical_scroll_offset(row as f32 * (CELL.y + ui.spacing().item_spacing.y));
    }
    scroll.show_rows(ui, CELL.y, rows, |ui, range| {
        for row in range {
            ui.horizontal(|ui| {
                for &i in shown.iter().skip(row * columns).take(columns) {
                    let entry = &index.entries[i];
                    let highlighted = current == Some(entry.path.as_path());
                    let texture = cache.texture(ui.ctx(), &entry.path, extra);
                    let failed = cache.failed.get(&entry.path).cloned();
                    cell_ui(ui, entry, texture, failed, highlighted, commands);
                }
            });
        }
    });
}

/// One model: its thumbnail (or a spinner while it is made) and its name; a click opens it.
fn cell_ui(
    ui: &mut egui::Ui,
    entry: &Entry,
    texture: Option<egui::TextureHandle>,
    failed: Option<String>,
    highlighted: bool,
    commands: &mut Commands,
) {
    let name = entry.relative.rsplit('/').next().unwrap_or(&entry.relative).to_owned();
    let (rect, response) = ui.allocate_exact_size(CELL, egui::Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
    let image_rect =
        egui::Rect::from_min_size(rect.min + egui::vec2(4.0, 2.0), egui::vec2(SIZE.0 as f32, SIZE.1 as f32));
    if ui.is_rect_visible(rect) {
        let visuals = ui.style().interact_selectable(&response, highlighted);
        ui.painter().rect_filled(rect, 3.0, visuals.weak_bg_fill);
        match (&texture, &failed) {
            (Some(texture), _) => {
                egui::Image::new((texture.id(), image_rect.size())).paint_at(ui, image_rect);
            }
            (None, Some(_)) => {
                ui.painter().text(
                    image_rect.center(),
                    egui::Align2::CENTER_CENTER,
                    "no preview",
                    egui::FontId::proportional(12.0),
                    ui.visuals().weak_text_color(),
                );
            }
            (None, None) => {
                egui::Spinner::new()
                    .paint_at(ui, egui::Rect::from_center_size(image_rect.center(), egui::vec2(16.0, 16.0)));
            }
        }
        let font = egui::FontId::proportional(12.0);
        let text =
            super::fit::elide_middle(ui.ctx(), &name, &font, CELL.x - 6.0).unwrap_or_else(|| name.clone());
        let color =
            if entry.overridden_by.is_some() { ui.visuals().weak_text_color() } else { visuals.text_color() };
        ui.painter().text(
            egui::pos2(rect.center().x, image_rect.max.y + 3.0),
            egui::Align2::CENTER_TOP,
            text,
            font,
            color,
        );
        if entry.overridden_by.is_some() {
            // The game loads another copy: a badge over the thumbnail.
            ui.painter().text(
                image_rect.left_top() + egui::vec2(3.0, 2.0),
                egui::Align2::LEFT_TOP,
                "overridden",
                egui::FontId::proportional(11.0),
                egui::Color32::from_rgb(255, 180, 90),
            );
        }
    }
    let summary = match &entry.summary {
        Ok(s) => format!(
            "{} {}, {} bones, {} sequences, {} bytes",
            s.format.name(),
            s.version,
            s.bones,
            s.sequences,
            s.size
        ),
        Err(e) => e.clone(),
    };
    let summary = match &entry.overridden_by {
        Some(winner) => format!("{summary}\noverridden: the game loads {}", winner.display()),
        None => summary,
    };
    let hover = match &failed {
        Some(why) => format!("{}\n{summary}\nno preview: {why}", entry.path.display()),
        None => format!("{}\n{summary}", entry.path.display()),
    };
    let response = response.on_hover_text(hover);
    if response.clicked() {
        commands.push(Command::Open(entry.path.clone()));
    }
    response.context_menu(|ui| {
        if ui.button(format!("Copy {}", entry.relative)).clicked() {
            ui.ctx().copy_text(entry.relative.clone());
            ui.close();
        }
        if ui.button("Copy the full path").clicked() {
            ui.ctx().copy_text(entry.path.display().to_string());
            ui.close();
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textures_beyond_the_cap_are_given_back_least_recently_shown_first() {
        let ctx = egui::Context::default();
        let mut cache = ThumbnailCache::default();
        for i in 0..10u64 {
            let texture =
                ctx.load_texture(format!("t{i}"), egui::ColorImage::example(), egui::TextureOptions::LINEAR);
            // Shown in the order 0..10, except 2, shown last.
            let shown = if i == 2 { 100 } else { i };
            cache.textures.insert(PathBuf::from(format!("m{i}.mdl")), (texture, shown));
        }
        cache.evict(4);
        let mut kept: Vec<String> = cache.textures.keys().map(|p| p.display().to_string()).collect();
        kept.sort();
        assert_eq!(kept, ["m2.mdl", "m7.mdl", "m8.mdl", "m9.mdl"]);
    }
}
