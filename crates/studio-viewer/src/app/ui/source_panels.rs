//! The panels of a Source model: the sequence table, pose parameter sliders, bone controllers,
//! the timeline in cycles, and the model tabs (info with include models, body groups, skins and
//! LODs; bones; hit box sets; named attachments; materials).

use egui::RichText;
use studio_render::hit_group_color;
use studio_source::{STUDIO_DELTA, STUDIO_LOOPING};

use super::Commands;
use super::sequences::SEQUENCE_NAME_WIDTH;
use crate::app::command::Command;
use crate::app::state::{AppState, SourceView};

/// Width of the keys' column in the info tab.
const INFO_KEY_WIDTH: f32 = 96.0;

/// The sequence table with its search box: name, frames, fps, loop, grid, layers, events,
/// activity (last: it is the widest).
pub fn sequences_ui(ui: &mut egui::Ui, view: &SourceView, search: &mut String, commands: &mut Commands) {
    let doc = &view.doc;
    ui.heading("Sequences");
    ui.add(egui::TextEdit::singleline(search).hint_text("search sequences").id_salt("sequence search"));
    let needle = search.to_lowercase();
    let font = egui::TextStyle::Body.resolve(ui.style());
    let rig = doc.evaluator.rig();
    let matches: Vec<usize> = (0..rig.num_sequences())
        .filter(|&i| {
            rig.sequence(i).is_some_and(|seq| {
                needle.is_empty()
                    || seq.seq.label.to_lowercase().contains(&needle)
                    || seq.seq.activity_name.to_lowercase().contains(&needle)
            })
        })
        .collect();
    let columns = [
        ("name", "the sequence's label"),
        ("frm", "frames of its first animation"),
        ("fps", "frames per second of its first animation"),
        ("loop", "whether it loops"),
        ("grid", "its blend grid"),
        ("lay", "auto layers"),
        ("ev", "events"),
        ("act", "activity"),
    ];
    super::sequences::sequence_table(ui, "source sequence table", &columns, matches.len(), |ui, row| {
        let Some((i, seq)) = matches.get(row).and_then(|&i| Some((i, rig.sequence(i)?))) else { return };
        let s = seq.seq;
        let first = rig.grid_cell(seq, 0, 0).map(|a| a.animation);
        let shown = super::fit::elide_middle(ui.ctx(), &s.label, &font, SEQUENCE_NAME_WIDTH);
        let mut name = RichText::new(shown.as_deref().unwrap_or(&s.label));
        if s.flags & STUDIO_DELTA != 0 {
            name = name.italics();
        }
        let group = if seq.group == 0 { String::new() } else { format!(" (include model {})", seq.group) };
        if ui
            .selectable_label(doc.sequence == i, name)
            .on_hover_text(format!("#{i} {}{group}: play it", s.label))
            .clicked()
        {
            commands.push(Command::SelectSequence(i));
        }
        ui.label(first.map_or(String::new(), |a| a.frames.to_string()));
        ui.label(first.map_or(String::new(), |a| format!("{}", a.fps)));
        ui.label(if s.flags & STUDIO_LOOPING != 0 { "yes" } else { "" });
        ui.label(if s.grid[0] * s.grid[1] > 1 {
            format!("{}×{}", s.grid[0], s.grid[1])
        } else {
            String::new()
        });
        ui.label(if s.layers.is_empty() { String::new() } else { s.layers.len().to_string() });
        ui.label(if s.events.is_empty() { String::new() } else { s.events.len().to_string() });
        ui.label(&s.activity_name);
    });
}

/// A slider per pose parameter in its own units (a looping one wraps round), the ones the
/// current sequence reads marked; then the bone controllers.
pub fn controls_ui(ui: &mut egui::Ui, view: &SourceView, commands: &mut Commands) {
    let doc = &view.doc;
    let used = doc.used_parameters();
    if !doc.pose_parameters().is_empty() {
        ui.heading("Pose parameters");
        for (i, p) in doc.pose_parameters().iter().enumerate() {
            let mut value = doc.params.get(i).copied().unwrap_or(0.0);
            let (low, high) = (p.start.min(p.end), p.start.max(p.end));
            let mut label = RichText::new(&p.name);
            if used.contains(&i) {
                label = label.strong();
            }
            let slider = egui::Slider::new(&mut value, low..=high.max(low + f32::EPSILON)).text(label);
            let response = ui.add(slider).on_hover_text(if used.contains(&i) {
                "the current sequence reads it"
            } else {
                "the current sequence does not read it"
            });
            let response = if p.loop_range != 0.0 {
                response.on_hover_text(format!("wraps round every {}", p.loop_range))
            } else {
                response
            };
            if response.changed() {
                commands.push(Command::SetPoseParameter(i, value));
            }
        }
    }
    let autoplay = doc.evaluator.rig().autoplay().len();
    if autoplay > 0 {
        let mut on = doc.autoplay;
        let text = format!("Autoplay sequences ({autoplay})");
        let hint = "the sequences the game plays on top of every pose, on a clock of their own";
        if ui.checkbox(&mut on, text).on_hover_text(hint).changed() {
            commands.push(Command::SetAutoplay(on));
        }
    }
    let model = &doc.model;
    if !model.bone_controllers.is_empty() {
        ui.heading("Controllers");
        for (i, c) in model.bone_controllers.iter().enumerate() {
            let bone = usize::try_from(c.bone)
                .ok()
                .and_then(|b| model.bones.get(b))
                .map_or("?", |b| b.name.as_str());
            let mut value = doc.controllers.get(i).copied().unwrap_or(0.0);
            let (low, high) = (c.start.min(c.end), c.start.max(c.end));
            let label = format!("{i}: {bone} (input {})", c.input);
            let slider = egui::Slider::new(&mut value, low..=high.max(low + f32::EPSILON)).text(label);
            if ui.add(slider).changed() {
                commands.push(Command::SetSourceController(i, value));
            }
        }
    }
    if (!doc.pose_parameters().is_empty() || !model.bone_controllers.is_empty())
        && ui.button("Reset pose parameters and controllers").clicked()
    {
        commands.push(Command::ResetControllers);
    }
}

/// The timeline in cycles (with the first animation's frame), its events marked.
pub fn timeline_ui(ui: &mut egui::Ui, view: &SourceView, commands: &mut Commands) {
    let doc = &view.doc;
    let Some(seq) = doc.sequence(doc.sequence) else {
        ui.label("no sequences");
        return;
    };
    let last = (doc.frames() as f32 - 1.0).max(0.0);
    super::fit::label(
        ui,
        format!("{}  cycle {:.3}  (frame {:.2} / {last})", seq.label, doc.cycle, doc.cycle * last),
    );
    let marks = seq.events.iter().map(|e| e.cycle);
    let track = super::timeline::Track { label: "Cycle", end: 1.0, speed: 0.002, decimals: 3 };
    if let Some(cycle) = super::timeline::scrubber(ui, &track, doc.cycle, marks) {
        commands.push(Command::SetCycle(cycle));
    }
}

/// The model panel's tabs for a Source model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SourceTab {
    /// Facts, include models, body groups, skins, LODs.
    #[default]
    Info,
    /// Bone tree.
    Bones,
    /// Hit box sets.
    Hitboxes,
    /// Attachments.
    Attachments,
    /// Materials.
    Materials,
    /// Flex controllers (the face) and where the eyes look.
    Flex,
    /// Eye position and boxes, the shown sequence's settings, controllers.
    Edit,
}

/// Material previews uploaded to egui, by lookup and material, and what the last texture
/// export said.
#[derive(Default)]
pub struct Previews {
    scene: Option<(usize, u64)>,
    handles: std::collections::HashMap<usize, egui::TextureHandle>,
    /// The last export's result, shown under its material.
    pub status: Option<(usize, String)>,
}

/// The model panel.
pub fn model_ui(
    ui: &mut egui::Ui,
    state: &mut AppState,
    tab: &mut SourceTab,
    previews: &mut Previews,
    folder: &mut String,
    flex_search: &mut String,
    commands: &mut Commands,
) {
    ui.horizontal_wrapped(|ui| {
        for (t, name) in [
            (SourceTab::Info, "Info"),
            (SourceTab::Bones, "Bones"),
            (SourceTab::Hitboxes, "Hit boxes"),
            (SourceTab::Attachments, "Attachments"),
            (SourceTab::Materials, "Materials"),
            (SourceTab::Flex, "Flex"),
            (SourceTab::Edit, "Edit"),
        ] {
            ui.selectable_value(tab, t, name);
        }
    });
    ui.separator();
    egui::ScrollArea::vertical().id_salt("source model panel").show(ui, |ui| match tab {
        SourceTab::Info => info_ui(ui, state, commands),
        SourceTab::Bones => {
            if let Some(view) = state.source.as_deref() {
                bones_ui(ui, view, state.selected_bone, None, commands);
            }
        }
        SourceTab::Hitboxes => hitboxes_ui(ui, state, commands),
        SourceTab::Attachments => {
            let Some(view) = state.source.as_deref() else { return };
            let model = &view.doc.model;
            for (i, a) in model.attachments.iter().enumerate() {
                let bone = a.bone.and_then(|b| model.bones.get(b)).map_or("(none)", |b| b.name.as_str());
                let at = view.doc.frame.attachments.get(i).copied().unwrap_or_default();
                let selected = state.selected_attachment == Some(i);
                let label = format!("{i}  {}  on {bone}  at {:.2} {:.2} {:.2}", a.name, at.x, at.y, at.z);
                if ui.selectable_label(selected, label).clicked() {
                    commands.push(Command::SelectAttachment(if selected { None } else { Some(i) }));
                }
            }
            if model.attachments.is_empty() {
                ui.label("no attachments");
            }
            super::properties::source_attachment_ui(ui, state, commands);
        }
        SourceTab::Materials => materials_ui(ui, state, previews, folder, commands),
        SourceTab::Flex => {
            if let Some(view) = state.source.as_deref() {
                super::flex_panel::flex_ui(ui, view, flex_search, commands);
            }
        }
        SourceTab::Edit => super::properties::source_model_ui(ui, state, commands),
    });
}

fn info_ui(ui: &mut egui::Ui, state: &mut AppState, commands: &mut Commands) {
    let Some(view) = state.source.as_deref() else { return };
    let model = view.doc.model.clone();
    let h = &model.header;
    {
        let mut row = |key: &str, value: String| super::fit::row(ui, INFO_KEY_WIDTH, key, value);
        row("name", h.name.clone());
        row("version", h.version.to_string());
        row("bones", model.bones.len().to_string());
        row("sequences", view.doc.num_sequences().to_string());
        row("pose parameters", view.doc.pose_parameters().len().to_string());
        row("hit box sets", model.hitbox_sets.len().to_string());
        row("attachments", model.attachments.len().to_string());
        row("materials", model.textures.len().to_string());
        row("hull", format!("{} .. {}", h.hull.0, h.hull.1));
        row("surface", h.surface_prop.clone());
    }
    for companion in &view.doc.companions {
        super::fit::row(ui, INFO_KEY_WIDTH, "companion", companion.display().to_string());
    }
    for (i, include) in model.include_models.iter().enumerate() {
        let loaded = model.includes.get(i).is_some_and(Option::is_some);
        let status = if loaded { "loaded" } else { "missing" };
        super::fit::row(ui, INFO_KEY_WIDTH, "include", format!("{} ({status})", include.file));
    }
    ui.separator();
    let mut body = state.body;
    for part in &model.body_parts {
        if part.models.len() < 2 {
            continue;
        }
        let count = part.models.len() as i32;
        let base = part.base.max(1);
        let current = usize::try_from((body / base).rem_euclid(count)).unwrap_or(0);
        egui::ComboBox::from_label(format!("Body group {}", part.name))
            .selected_text(part.models.get(current).map_or("?", |m| m.name.as_str()))
            .show_ui(ui, |ui| {
                for (j, m) in part.models.iter().enumerate() {
                    if ui.selectable_label(j == current, m.name.as_str()).clicked() {
                        body += (j as i32 - current as i32) * base;
                    }
                }
            });
    }
    let mut skin = state.skin;
    let families = model.skins.families.len();
    if families > 1 {
        egui::ComboBox::from_label("Skin").selected_text(skin.to_string()).show_ui(ui, |ui| {
            for f in 0..families {
                ui.selectable_value(&mut skin, f, f.to_string());
            }
        });
    }
    let lods = studio_render::source::lod_count(&model);
    if lods > 1 {
        let mut lod = state.lod;
        egui::ComboBox::from_label("LOD").selected_text(lod.to_string()).show_ui(ui, |ui| {
            for l in 0..lods {
                ui.selectable_value(&mut lod, l, l.to_string());
            }
        });
        if lod != state.lod {
            commands.push(Command::SetLod(lod));
        }
    }
    state.body = body;
    state.skin = skin;
}

fn bones_ui(
    ui: &mut egui::Ui,
    view: &SourceView,
    selected_bone: Option<usize>,
    parent: Option<usize>,
    commands: &mut Commands,
) {
    let model = &view.doc.model;
    for (i, bone) in model.bones.iter().enumerate().filter(|(_, b)| b.parent == parent) {
        let has_children = model.bones.iter().any(|b| b.parent == Some(i));
        let selected = selected_bone == Some(i);
        let label = format!("{i} {}", bone.name);
        if has_children {
            egui::CollapsingHeader::new(RichText::new(label).strong())
                .id_salt(("source bone", i))
                .default_open(true)
                .show(ui, |ui| {
                    if ui.selectable_label(selected, format!("select {}", bone.name)).clicked() {
                        commands.push(Command::SelectBone(if selected { None } else { Some(i) }));
                    }
                    bones_ui(ui, view, selected_bone, Some(i), commands);
                });
        } else if ui.selectable_label(selected, label).clicked() {
            commands.push(Command::SelectBone(if selected { None } else { Some(i) }));
        }
    }
}

fn hitboxes_ui(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    let Some(view) = state.source.as_deref() else { return };
    let model = &view.doc.model;
    let current = view.doc.hitbox_set;
    if model.hitbox_sets.is_empty() {
        ui.label("no hit boxes");
        return;
    }
    egui::ComboBox::from_label("Hit box set")
        .selected_text(model.hitbox_sets.get(current).map_or("?", |s| s.name.as_str()))
        .show_ui(ui, |ui| {
            for (i, set) in model.hitbox_sets.iter().enumerate() {
                if ui.selectable_label(i == current, format!("{i} {}", set.name)).clicked() {
                    commands.push(Command::SelectHitboxSet(i));
                }
            }
        });
    let Some(set) = model.hitbox_sets.get(current) else { return };
    // The selected box's fields first, where they can be seen without scrolling the list.
    super::properties::source_hitbox_ui(ui, state, commands);
    for (i, hitbox) in set.hitboxes.iter().enumerate() {
        let bone = model.bones.get(hitbox.bone).map_or("?", |b| b.name.as_str());
        let size = hitbox.bbmax - hitbox.bbmin;
        let [r, g, b] = hit_group_color(hitbox.group);
        let name = if hitbox.name.is_empty() { "(unnamed)" } else { hitbox.name.as_str() };
        let label = RichText::new(format!(
            "{i}  {name}  on {bone}  group {}  {:.1}×{:.1}×{:.1}",
            hitbox.group, size.x, size.y, size.z
        ))
        .color(egui::Color32::from_rgb(r, g, b));
        let selected = state.selected_hitbox == Some(i);
        if ui.selectable_label(selected, label).clicked() {
            commands.push(Command::SelectHitbox(if selected { None } else { Some(i) }));
        }
    }
}

/// The search path the materials were looked up in, in order: the game's (its
/// `gameinfo.txt` or `liblist.gam`) when the model is in one, each place with the entry that put
/// it there, and how many of the model's files (`.vmt` and `.vtf`) each supplied, in brackets.
fn search_path_ui(ui: &mut egui::Ui, view: &crate::app::state::SourceView) {
    let title = match &view.game {
        Some(game) => {
            let name = game
                .file_name()
                .map_or_else(|| game.display().to_string(), |n| n.to_string_lossy().into_owned());
            format!("Search path of {name} ({} places)", view.places.len())
        }
        None => format!("Search path: the folder rule ({} places)", view.places.len()),
    };
    egui::CollapsingHeader::new(title).id_salt("search path").default_open(true).show(ui, |ui| {
        if let Some(game) = &view.game {
            super::fit::label(ui, game.display().to_string());
        }
        for (n, (entry, path)) in view.places.iter().enumerate() {
            let supplied = view
                .found
                .iter()
                .map(|f| {
                    [&f.search_path, &f.vtf_search_path].iter().filter(|e| e.as_ref() == Some(entry)).count()
                })
                .sum::<usize>();
            // What the place supplied first, so that it survives eliding a long entry.
            let text = if supplied > 0 {
                format!("{:>2}  [{supplied}]  {entry}", n + 1)
            } else {
                format!("{:>2}  {entry}", n + 1)
            };
            let hover = format!("{entry}\n{}\nsupplied {supplied} of this model's files", path.display());
            super::fit::label(ui, text).on_hover_text(hover);
        }
    });
}

/// The game folders (the model's own and those added, remembered) and each material: where its
/// `.vmt` and `.vtf` were found, the texture's format and size, a preview, the `.vmt` text, and
/// for one that draws as the checkerboard, why and every path tried.
fn materials_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    previews: &mut Previews,
    folder: &mut String,
    commands: &mut Commands,
) {
    let Some(view) = state.source.as_deref() else { return };
    let extra = &state.settings.game_folders;
    ui.label(RichText::new("Game folders").strong());
    for f in &view.folders {
        let added = extra.contains(f);
        ui.horizontal(|ui| {
            super::fit::label(ui, f.display().to_string());
            if added && ui.small_button("remove").clicked() {
                commands.push(Command::SetGameFolders(extra.iter().filter(|e| *e != f).cloned().collect()));
            }
        });
    }
    if view.folders.is_empty() {
        ui.label("none: the model is not in a models folder; add the game's folder");
    }
    ui.horizontal(|ui| {
        ui.add(
            egui::TextEdit::singleline(folder)
                .hint_text("a game folder")
                .id_salt("game folder")
                .desired_width(140.0),
        );
        if ui.button("Add").clicked() && !folder.trim().is_empty() {
            let mut folders = extra.clone();
            folders.push(std::path::PathBuf::from(folder.trim()));
            commands.push(Command::SetGameFolders(folders));
            folder.clear();
        }
        if ui.button("Browse…").clicked()
            && let Some(picked) = rfd::FileDialog::new().pick_folder()
        {
            let mut folders = extra.clone();
            folders.push(picked);
            commands.push(Command::SetGameFolders(folders));
        }
    });
    ui.label(format!("material folders: {}", view.doc.model.material_paths.join(", ")));
    search_path_ui(ui, view);
    ui.separator();
    let scene = state.scene_identity();
    if previews.scene != Some(scene) {
        previews.scene = Some(scene);
        previews.handles.clear();
    }
    for (i, found) in view.found.iter().enumerate() {
        let status = if found.problem.is_none() { "" } else { "  (checkerboard)" };
        egui::CollapsingHeader::new(format!("{i} {}{status}", found.name)).id_salt(("material", i)).show(
            ui,
            |ui| {
                if let Some(origin) = &found.vmt_origin {
                    super::fit::label(ui, format!(".vmt: {origin}"));
                }
                if let Some(entry) = &found.search_path {
                    super::fit::label(ui, format!("  from search path entry: {entry}"));
                }
                if let (Some(origin), Some(vtf)) = (&found.vtf_origin, &found.vtf) {
                    super::fit::label(ui, format!(".vtf: {origin}"));
                    if let Some(entry) = &found.vtf_search_path {
                        super::fit::label(ui, format!("  from search path entry: {entry}"));
                    }
                    ui.label(format!(
                        "{:?}, {}×{}, {} mip{}, {} frame{}, version 7.{}",
                        vtf.format,
                        vtf.width,
                        vtf.height,
                        vtf.mips,
                        if vtf.mips == 1 { "" } else { "s" },
                        vtf.frames,
                        if vtf.frames == 1 { "" } else { "s" },
                        vtf.minor
                    ));
                    let handle = previews.handles.entry(i).or_insert_with(|| {
                        let image = egui::ColorImage::from_rgba_unmultiplied(
                            [vtf.width as usize, vtf.height as usize],
                            &vtf.rgba,
                        );
                        ui.ctx().load_texture(format!("material {i}"), image, egui::TextureOptions::LINEAR)
                    });
                    let scale = (ui.available_width() / vtf.width as f32).min(1.0);
                    let size = egui::vec2(vtf.width as f32, vtf.height as f32) * scale;
                    ui.add(egui::Image::new(egui::load::SizedTexture::new(handle.id(), size)));
                    if let Some(said) = export_ui(ui, state, view, i, vtf) {
                        previews.status = Some((i, said));
                    }
                    if let Some((_, said)) = previews.status.as_ref().filter(|(m, _)| *m == i) {
                        super::fit::label(ui, said.as_str());
                    }
                }
                if let Some(problem) = &found.problem {
                    super::fit::colored_label(ui, problem.as_str(), Some(egui::Color32::YELLOW));
                    ui.label("tried:");
                    for path in &found.tried {
                        super::fit::label(ui, path.as_str());
                    }
                }
                if let Some(text) = &found.vmt_text {
                    ui.label(RichText::new(text).monospace());
                }
            },
        );
    }
    if view.found.is_empty() {
        ui.label("no materials");
    }
}

/// Export PNG… and UV map… for material `index` (its base texture `vtf`): what happened, when a
/// button was used.
fn export_ui(
    ui: &mut egui::Ui,
    state: &AppState,
    view: &crate::app::state::SourceView,
    index: usize,
    vtf: &studio_material::Vtf,
) -> Option<String> {
    use studio_edit::texture::{UvMapOptions, source};
    let mut said = None;
    let no_dialog = || {
        Some("no file dialog is available here (no desktop portal and no zenity): use `studioview texture export|uvmap`".to_owned())
    };
    ui.horizontal(|ui| {
        let export =
            ui.button("Export PNG…").on_hover_text("Save this material's textures as PNG files").clicked();
        let map = ui
            .button("UV map…")
            .on_hover_text("Save this material's UV layout over its texture as a PNG")
            .clicked();
        if (export || map) && !super::menu::dialog_available() {
            said = no_dialog();
            return;
        }
        if export
            && let Some(dir) =
                rfd::FileDialog::new().set_title("Export the material's textures into folder").pick_folder()
        {
            said = Some(match source::write_all(&view.found, &dir, Some(index)) {
                Ok((written, _)) => format!("exported {} file(s) to {}", written.len(), dir.display()),
                Err(error) => error,
            });
        }
        if ui
            .button("UV map…")
            .on_hover_text("Save this material's UV layout over its texture as a PNG")
            .clicked()
            && let Some(path) = rfd::FileDialog::new()
                .add_filter("PNG image", &["png"])
                .set_file_name(source::file_name(&view.found[index].name, "_uv"))
                .save_file()
        {
            let options = UvMapOptions { scale: 2.0, over_texture: true, ..UvMapOptions::default() };
            let result = source::uv_map(&state.render_model(), index, vtf, &options)
                .map_err(|e| e.to_string())
                .and_then(|(width, height, pixels)| {
                    studio_document::png_file::write_png(
                        &path,
                        &studio_render::RgbaImage { width, height, pixels },
                    )
                });
            said = Some(match result {
                Ok(()) => format!("saved the UV map to {}", path.display()),
                Err(error) => error,
            });
        }
    });
    said
}
