//! The model panel's Textures tab (version 10 models): a texture with the UV overlay of the
//! meshes that show it, and HLAM's texture tools: export one or all, import an image (from a
//! dialog, or dropped on the window) with a preview before it is applied as an undoable edit,
//! rename, export the UV map, and show the model in a player's colours.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use studio_edit::texture::{self, ImageFormat, ImportReport, TextureImage, UvMapOptions};
use studio_edit::{Change, GoldRecord};
use studio_model::{Model, TEXTURE_FLAG_NAMES, Texture};
use studio_render::goldsrc::PlayerColours;

use super::Commands;
use crate::app::command::Command;
use crate::app::state::{AppState, Level};

/// The extensions of the images the importer reads.
pub const IMAGE_EXTENSIONS: [&str; 5] = ["png", "bmp", "tga", "jpg", "jpeg"];

/// Whether `path` names an image the importer reads (by its extension).
pub fn is_image(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| IMAGE_EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// An import shown for approval.
pub struct PendingImport {
    /// The texture imported over.
    pub index: usize,
    /// The image file.
    pub path: PathBuf,
    /// The texture and its meshes' coordinates before and after.
    pub before: TextureImage,
    /// The texture and coordinates the import makes.
    pub after: TextureImage,
    /// What the import did.
    pub report: ImportReport,
    /// How long reading and converting took, in milliseconds.
    pub milliseconds: f64,
    preview: Option<egui::TextureHandle>,
}

/// The Textures tab's own state: textures uploaded to egui when first looked at, the tools'
/// choices, and an import waiting for approval.
pub struct TextureCache {
    shown: Option<((usize, u64), Option<PlayerColours>)>,
    handles: HashMap<usize, egui::TextureHandle>,
    /// The name being typed for the current texture.
    rename: Option<(usize, String)>,
    /// An image dropped on the window, imported over the current texture at the next frame.
    queued: Option<PathBuf>,
    /// The import shown for approval.
    pub pending: Option<PendingImport>,
    /// How UV maps are exported.
    pub uv: UvMapOptions,
}

impl Default for TextureCache {
    fn default() -> Self {
        Self {
            shown: None,
            handles: HashMap::new(),
            rename: None,
            queued: None,
            pending: None,
            uv: UvMapOptions { scale: 2.0, ..UvMapOptions::default() },
        }
    }
}

impl TextureCache {
    /// Imports the image at `path` over the current texture (shown for approval first).
    pub fn queue_import(&mut self, path: PathBuf) {
        self.queued = Some(path);
    }
}

/// The texture as the panel shows it: in the player's colours when they are on.
fn shown_rgba(texture: &Texture, colours: Option<PlayerColours>) -> Vec<u8> {
    colours
        .and_then(|c| studio_model::remap::remapped_palette(&texture.name, &texture.palette, c.top, c.bottom))
        .map_or_else(|| texture.rgba(), |palette| Texture { palette, ..texture.clone() }.rgba())
}

fn load_image(ui: &egui::Ui, name: String, width: u32, height: u32, rgba: &[u8]) -> egui::TextureHandle {
    let image = egui::ColorImage::from_rgba_unmultiplied([width as usize, height as usize], rgba);
    ui.ctx().load_texture(name, image, egui::TextureOptions::NEAREST)
}

/// Reads `path` and works out its import over texture `index` (nothing applied yet).
pub fn prepare_import(model: &Model, index: usize, path: &Path) -> Result<PendingImport, String> {
    let started = std::time::Instant::now();
    let picture = texture::read_picture(path).map_err(|e| e.to_string())?;
    let (before, after, report) =
        texture::import_picture(model, index, picture).map_err(|e| e.to_string())?;
    let milliseconds = started.elapsed().as_secs_f64() * 1e3;
    Ok(PendingImport { index, path: path.to_path_buf(), before, after, report, milliseconds, preview: None })
}

/// The Textures tab.
pub fn textures_ui(
    ui: &mut egui::Ui,
    state: &mut AppState,
    model: &Model,
    current: &mut usize,
    cache: &mut TextureCache,
    commands: &mut Commands,
) {
    if model.textures.is_empty() {
        ui.label("no textures");
        return;
    }
    // A new model starts at its first texture; an edit or other colours show the textures anew.
    let shown = (state.scene_identity(), state.player_colours);
    if cache.shown.map(|(identity, _)| identity.0) != Some(shown.0.0) {
        *current = 0;
        cache.pending = None;
        cache.rename = None;
    }
    if cache.shown != Some(shown) {
        cache.shown = Some(shown);
        cache.handles.clear();
    }
    *current = (*current).min(model.textures.len() - 1);
    if let Some(path) = cache.queued.take() {
        match prepare_import(model, *current, &path) {
            Ok(pending) => cache.pending = Some(pending),
            Err(error) => state.say(Level::Error, error),
        }
    }
    egui::ComboBox::from_label("Texture").selected_text(model.textures[*current].name.as_str()).show_ui(
        ui,
        |ui| {
            for (i, t) in model.textures.iter().enumerate() {
                ui.selectable_value(current, i, t.name.as_str());
            }
        },
    );
    let texture = &model.textures[*current];
    let flags: Vec<&str> =
        TEXTURE_FLAG_NAMES.iter().filter(|(bit, _)| texture.flags & bit != 0).map(|(_, n)| *n).collect();
    ui.label(format!(
        "{}×{}, flags: {}",
        texture.width,
        texture.height,
        if flags.is_empty() { "none".into() } else { flags.join(" ") }
    ));
    rename_ui(ui, model, *current, cache, commands);
    tools_ui(ui, state, model, *current, cache);
    player_colours_ui(ui, state, model);
    pending_ui(ui, model, cache, commands);
    if texture.width == 0 || texture.height == 0 {
        return;
    }
    let handle = cache.handles.entry(*current).or_insert_with(|| {
        let rgba = shown_rgba(texture, state.player_colours);
        load_image(ui, texture.name.clone(), texture.width, texture.height, &rgba)
    });
    let scale = (ui.available_width() / texture.width as f32).clamp(0.25, 4.0);
    let size = egui::vec2(texture.width as f32, texture.height as f32) * scale;
    let response = ui.add(egui::Image::new(egui::load::SizedTexture::new(handle.id(), size)));
    // UV overlay: the triangles of the meshes that show this texture in the current skin.
    let rect = response.rect;
    let painter = ui.painter_at(rect);
    let stroke = egui::Stroke::new(1.0, egui::Color32::from_rgba_unmultiplied(255, 255, 0, 160));
    for part in &model.body_parts {
        for sub in &part.submodels {
            for mesh in
                sub.meshes.iter().filter(|m| model.skins.texture(state.skin, m.skin_ref) == Some(*current))
            {
                let at = |i: u32| {
                    let v = mesh.vertices.get(i as usize).copied().unwrap_or(studio_model::MeshVertex {
                        vertex: 0,
                        normal: 0,
                        s: 0,
                        t: 0,
                    });
                    rect.min + egui::vec2(f32::from(v.s) * scale, f32::from(v.t) * scale)
                };
                for t in &mesh.triangles {
                    painter.line_segment([at(t[0]), at(t[1])], stroke);
                    painter.line_segment([at(t[1]), at(t[2])], stroke);
                    painter.line_segment([at(t[2]), at(t[0])], stroke);
                }
            }
        }
    }
}

/// The name field: Enter or Rename renames the texture (1 to 63 printable ASCII characters).
fn rename_ui(
    ui: &mut egui::Ui,
    model: &Model,
    index: usize,
    cache: &mut TextureCache,
    commands: &mut Commands,
) {
    let name = &model.textures[index].name;
    if cache.rename.as_ref().is_none_or(|(i, _)| *i != index) {
        cache.rename = Some((index, name.clone()));
    }
    let Some((_, typed)) = &mut cache.rename else { return };
    ui.horizontal(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(typed)
                .char_limit(texture::MAX_NAME_BYTES)
                .desired_width(180.0)
                .id_salt("texture name"),
        );
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        let valid = texture::is_valid_name(typed);
        let changed = *typed != *name;
        let button = ui.add_enabled(valid && changed, egui::Button::new("Rename"));
        if !valid {
            ui.label("1–63 letters, digits or signs");
        }
        if (entered || button.clicked()) && valid && changed {
            commands.push(Command::edit_gold(
                format!("Rename texture {name}"),
                Change::Set {
                    before: GoldRecord::TextureName(index, name.clone()),
                    after: GoldRecord::TextureName(index, typed.clone()),
                },
            ));
        }
    });
}

/// Whether a file dialog can be shown; if not, says what to do instead.
fn dialog_or_say(state: &mut AppState) -> bool {
    let available = super::menu::dialog_available();
    if !available {
        state.say(
            Level::Error,
            "no file dialog is available here (no desktop portal and no zenity): drop an image on the window to import it, \
             or use `studioview texture export|import|uvmap`",
        );
    }
    available
}

/// Export, export all, import, UV map.
fn tools_ui(ui: &mut egui::Ui, state: &mut AppState, model: &Model, index: usize, cache: &mut TextureCache) {
    let texture = &model.textures[index];
    ui.horizontal_wrapped(|ui| {
        if ui.button("Export…").on_hover_text("Save this texture as an indexed PNG or BMP").clicked()
            && dialog_or_say(state)
            && let Some(path) = rfd::FileDialog::new()
                .add_filter("PNG image", &["png"])
                .add_filter("Windows bitmap", &["bmp"])
                .set_file_name(texture::default_file_name(texture, ImageFormat::Png))
                .save_file()
        {
            let format = ImageFormat::of_path(&path).unwrap_or_default();
            let result = texture::image_bytes(texture, format).map_err(|e| e.to_string()).and_then(|bytes| {
                std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
            });
            match result {
                Ok(()) => state.say(Level::Info, format!("Exported {} to {}", texture.name, path.display())),
                Err(error) => state.say(Level::Error, error),
            }
        }
        if ui.button("Export all…").on_hover_text("Save every texture as a PNG, named after it").clicked()
            && dialog_or_say(state)
            && let Some(dir) =
                rfd::FileDialog::new().set_title("Export all textures into folder").pick_folder()
        {
            match texture::export::write_all(&model.textures, &dir, ImageFormat::Png, None) {
                Ok(written) => state
                    .say(Level::Info, format!("Exported {} textures to {}", written.len(), dir.display())),
                Err(error) => state.say(Level::Error, error),
            }
        }
        if ui
            .button("Import…")
            .on_hover_text("Replace this texture with an image (shown before it is applied)")
            .clicked()
            && let Some(path) = rfd::FileDialog::new().add_filter("Image", &IMAGE_EXTENSIONS).pick_file()
        {
            cache.queue_import(path);
        }
        if ui.button("UV map…").on_hover_text("Save this texture's UV layout as a PNG").clicked()
            && dialog_or_say(state)
            && let Some(path) = rfd::FileDialog::new()
                .add_filter("PNG image", &["png"])
                .set_file_name(
                    texture::default_file_name(texture, ImageFormat::Png).replace(".png", "_uv.png"),
                )
                .save_file()
        {
            match export_uv_map(model, index, &cache.uv, &path) {
                Ok((w, h)) => {
                    state.say(Level::Info, format!("Saved the UV map of {} ({w} × {h})", texture.name))
                }
                Err(error) => state.say(Level::Error, error),
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("UV map:");
        ui.add(egui::DragValue::new(&mut cache.uv.scale).range(0.25..=16.0).speed(0.05).suffix("×"));
        ui.checkbox(&mut cache.uv.over_texture, "over the texture");
        ui.checkbox(&mut cache.uv.anti_alias, "smooth");
    });
}

/// Writes texture `index`'s UV map to `path` as a PNG.
pub fn export_uv_map(
    model: &Model,
    index: usize,
    options: &UvMapOptions,
    path: &Path,
) -> Result<(u32, u32), String> {
    let (width, height, pixels) = texture::uv_map(model, index, options).map_err(|e| e.to_string())?;
    studio_document::png_file::write_png(path, &studio_render::RgbaImage { width, height, pixels })?;
    Ok((width, height))
}

/// Player colours, when the model has a `DM_Base` or `Remap` texture.
fn player_colours_ui(ui: &mut egui::Ui, state: &mut AppState, model: &Model) {
    if !model.textures.iter().any(|t| studio_model::remap::remap_ranges(&t.name).is_some()) {
        return;
    }
    let mut on = state.player_colours.is_some();
    let mut colours = state.player_colours.unwrap_or_default();
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut on, "Player colours")
            .on_hover_text("Recolour the DM_Base and Remap textures as the game does for a player");
        ui.add_enabled(on, egui::Slider::new(&mut colours.top, 0..=255).text("top"));
        ui.add_enabled(on, egui::Slider::new(&mut colours.bottom, 0..=255).text("bottom"));
    });
    state.set_player_colours(on.then_some(colours));
}

/// The import waiting for approval: the texture before and after, what was done, Apply and
/// Cancel.
fn pending_ui(ui: &mut egui::Ui, model: &Model, cache: &mut TextureCache, commands: &mut Commands) {
    let Some(pending) = &mut cache.pending else { return };
    let mut close = false;
    ui.group(|ui| {
        let name = model.textures.get(pending.index).map_or("?", |t| t.name.as_str());
        ui.strong(format!(
            "Import {} over {name}",
            pending.path.file_name().unwrap_or_default().to_string_lossy()
        ));
        ui.label(pending.report.summary());
        ui.label(format!("read and converted in {:.0} ms", pending.milliseconds));
        ui.horizontal(|ui| {
            if ui.button("Apply import").clicked() {
                commands.push(Command::edit_gold(
                    format!("Import texture {name}"),
                    Change::Set {
                        before: GoldRecord::TextureImage(pending.index, Box::new(pending.before.clone())),
                        after: GoldRecord::TextureImage(pending.index, Box::new(pending.after.clone())),
                    },
                ));
                close = true;
            }
            if ui.button("Cancel import").clicked() {
                close = true;
            }
        });
        // The imported texture, at most 256 points wide, so the buttons above stay in view.
        let after = &pending.after.texture;
        let preview = pending.preview.get_or_insert_with(|| {
            load_image(ui, format!("{} (imported)", after.name), after.width, after.height, &after.rgba())
        });
        let scale = (ui.available_width().min(256.0) / after.width.max(1) as f32).clamp(0.125, 2.0);
        ui.add(egui::Image::new(egui::load::SizedTexture::new(
            preview.id(),
            egui::vec2(after.width as f32, after.height as f32) * scale,
        )));
    });
    if close {
        cache.pending = None;
    }
}
