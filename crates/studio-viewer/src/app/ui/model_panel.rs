//! The model panel: info, body parts and skins, bone tree, hit boxes, attachments, and the
//! textures (`textures.rs`).

use studio_model::{Model, hit_group_name};

use super::Commands;
use super::textures::{TextureCache, textures_ui};
use crate::app::command::Command;
use crate::app::state::AppState;

/// The panel's tabs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    /// Facts, body parts, skins.
    #[default]
    Info,
    /// Bone tree.
    Bones,
    /// Hit boxes.
    Hitboxes,
    /// Attachments.
    Attachments,
    /// Texture viewer.
    Textures,
    /// Eye position and boxes, the shown sequence's settings, texture flags, controllers.
    Edit,
}

/// The model panel.
pub fn model_ui(
    ui: &mut egui::Ui,
    state: &mut AppState,
    tab: &mut Tab,
    texture: &mut usize,
    cache: &mut TextureCache,
    commands: &mut Commands,
) {
    ui.horizontal_wrapped(|ui| {
        for (t, name) in [
            (Tab::Info, "Info"),
            (Tab::Bones, "Bones"),
            (Tab::Hitboxes, "Hit boxes"),
            (Tab::Attachments, "Attachments"),
            (Tab::Textures, "Textures"),
            (Tab::Edit, "Edit"),
        ] {
            ui.selectable_value(tab, t, name);
        }
    });
    ui.separator();
    let model = state.model().clone();
    egui::ScrollArea::vertical().id_salt("model panel").show(ui, |ui| match tab {
        Tab::Info => info_ui(ui, state, &model),
        Tab::Bones => bones_ui(ui, state, &model, None, commands),
        Tab::Hitboxes => hitboxes_ui(ui, state, &model, commands),
        Tab::Attachments => super::properties::gold_attachments_ui(ui, state, commands),
        Tab::Textures => textures_ui(ui, state, &model, texture, cache, commands),
        Tab::Edit => super::properties::gold_model_ui(ui, state, commands),
    });
}

/// Width of the keys' column in the info tab.
const INFO_KEY_WIDTH: f32 = 96.0;

fn info_ui(ui: &mut egui::Ui, state: &mut AppState, model: &Model) {
    let h = &model.header;
    {
        let mut row = |key: &str, value: String| super::fit::row(ui, INFO_KEY_WIDTH, key, value);
        row("name", h.name.clone());
        row("bones", model.bones.len().to_string());
        row("controllers", model.bone_controllers.len().to_string());
        row("hit boxes", model.hitboxes.len().to_string());
        row("sequences", model.sequences.len().to_string());
        row("attachments", model.attachments.len().to_string());
        row("textures", model.textures.len().to_string());
        let z = studio_document::readable::vec;
        row("eye position", z(h.eye_position).to_string());
        row("hull", format!("{} .. {}", z(h.min), z(h.max)));
        row("bounding box", format!("{} .. {}", z(h.bbmin), z(h.bbmax)));
        row("flags", format!("{:#x}", h.flags));
        if let Some(renderer) = &state.renderer {
            row("renderer", renderer.clone());
        }
    }
    for companion in &state.loaded.companions {
        super::fit::row(ui, INFO_KEY_WIDTH, "companion", companion.display().to_string());
    }
    ui.separator();
    for part in &model.body_parts {
        if part.submodels.len() < 2 {
            continue;
        }
        let current = part.submodel_index(state.body).unwrap_or(0);
        let base = part.base.max(1);
        egui::ComboBox::from_label(format!("Body part {}", part.name))
            .selected_text(part.submodels.get(current).map_or("?", |s| s.name.as_str()))
            .show_ui(ui, |ui| {
                for (j, sub) in part.submodels.iter().enumerate() {
                    if ui.selectable_label(j == current, sub.name.as_str()).clicked() {
                        // Replace this part's digit of the body number.
                        let count = part.submodels.len() as i32;
                        let digit = (state.body / base).rem_euclid(count);
                        state.body += (j as i32 - digit) * base;
                    }
                }
            });
    }
    let families = model.skins.num_families();
    if families > 1 {
        egui::ComboBox::from_label("Skin family").selected_text(state.skin.to_string()).show_ui(ui, |ui| {
            for f in 0..families {
                ui.selectable_value(&mut state.skin, f, f.to_string());
            }
        });
    }
}

fn bones_ui(
    ui: &mut egui::Ui,
    state: &mut AppState,
    model: &Model,
    parent: Option<usize>,
    commands: &mut Commands,
) {
    for (i, bone) in model.bones.iter().enumerate().filter(|(_, b)| b.parent == parent) {
        let has_children = model.bones.iter().any(|b| b.parent == Some(i));
        let selected = state.selected_bone == Some(i);
        let mut details = Vec::new();
        for (dof, c) in bone.controllers.iter().enumerate() {
            if let Some(c) = c {
                details.push(format!("controller {c} on {}", studio_model::CHANNEL_NAMES[dof]));
            }
        }
        for (h, hitbox) in model.hitboxes.iter().enumerate().filter(|(_, h)| h.bone == i) {
            details.push(format!("hit box {h} ({})", hit_group_name(hitbox.group).unwrap_or("other")));
        }
        let label = if details.is_empty() {
            format!("{i} {}", bone.name)
        } else {
            format!("{i} {} — {}", bone.name, details.join(", "))
        };
        if has_children {
            egui::CollapsingHeader::new(egui::RichText::new(label.clone()).strong().color(if selected {
                egui::Color32::WHITE
            } else {
                ui.visuals().text_color()
            }))
            .id_salt(("bone", i))
            .default_open(true)
            .show(ui, |ui| {
                if ui.selectable_label(selected, format!("select {}", bone.name)).clicked() {
                    commands.push(Command::SelectBone(if selected { None } else { Some(i) }));
                }
                bones_ui(ui, state, model, Some(i), commands);
            });
        } else if ui.selectable_label(selected, label).clicked() {
            commands.push(Command::SelectBone(if selected { None } else { Some(i) }));
        }
    }
}

fn hitboxes_ui(ui: &mut egui::Ui, state: &mut AppState, model: &Model, commands: &mut Commands) {
    // The selected box's fields first, where they can be seen without scrolling the list.
    super::properties::gold_hitbox_ui(ui, state, commands);
    for (i, hitbox) in model.hitboxes.iter().enumerate() {
        let bone = model.bones.get(hitbox.bone).map_or("?", |b| b.name.as_str());
        let group = hit_group_name(hitbox.group).unwrap_or("other");
        let size = hitbox.bbmax - hitbox.bbmin;
        let label = format!(
            "{i}  {bone}  group {} ({group})  {:.1}×{:.1}×{:.1}",
            hitbox.group, size.x, size.y, size.z
        );
        let selected = state.selected_hitbox == Some(i);
        if ui
            .selectable_label(selected, label)
            .on_hover_text(format!("{} .. {}", hitbox.bbmin, hitbox.bbmax))
            .clicked()
        {
            commands.push(Command::SelectHitbox(if selected { None } else { Some(i) }));
        }
    }
    if model.hitboxes.is_empty() {
        ui.label("no hit boxes");
    }
}
