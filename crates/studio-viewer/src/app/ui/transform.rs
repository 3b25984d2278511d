//! The Edit tab's Transform section (version 10 models), as HLAM's Transform panel: scale, turn
//! about z and move the whole model, or flip its normals; each an undoable edit of the whole
//! model (studio-edit's `transform`).

use studio_edit::transform::{ModelTransform, flip_normals, transform};
use studio_edit::{Change, GoldRecord};

use super::Commands;
use crate::app::command::Command;
use crate::app::state::AppState;

/// What the section's fields hold between frames, and what the last transform reported.
#[derive(Clone, Debug, Default)]
struct Fields {
    transform: ModelTransform,
    notes: Vec<String>,
}

/// The Transform section.
pub fn transform_ui(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    let id = egui::Id::unique("transform fields");
    let mut fields: Fields = ui.data_mut(|d| d.get_temp(id)).unwrap_or_default();
    ui.strong("Transform the whole model");
    let t = &mut fields.transform;
    ui.horizontal(|ui| {
        let label = ui.label("scale");
        ui.add(egui::DragValue::new(&mut t.scale).range(0.01..=100.0).speed(0.01)).labelled_by(label.id);
        let label = ui.label("turn about z°");
        ui.add(egui::DragValue::new(&mut t.rotate_z).range(-360.0..=360.0).speed(1.0)).labelled_by(label.id);
    });
    super::properties::vec3_ui(ui, "move", &mut t.offset, "transform move");
    let model = state.model();
    let (apply, flip) = ui
        .horizontal(|ui| {
            let apply = ui.add_enabled(!t.is_identity(), egui::Button::new("Apply transform")).clicked();
            let flip = ui
                .button("Flip normals")
                .on_hover_text("Turn every normal round: the mesh is lit from its other side")
                .clicked();
            (apply, flip)
        })
        .inner;
    if apply {
        match transform(model, &fields.transform) {
            Ok((after, notes)) => {
                let name = format!("Transform model ({})", describe(&fields.transform));
                commands.push(whole(model, after, name));
                fields.notes = notes;
                fields.transform = ModelTransform::default();
            }
            Err(error) => fields.notes = vec![error.to_string()],
        }
    }
    if flip {
        commands.push(whole(model, flip_normals(model), "Flip normals".to_owned()));
    }
    for note in &fields.notes {
        ui.colored_label(ui.visuals().warn_fg_color, note);
    }
    ui.data_mut(|d| d.insert_temp(id, fields));
}

fn whole(before: &studio_model::Model, after: studio_model::Model, name: String) -> Command {
    Command::edit_gold(
        name,
        Change::Set {
            before: GoldRecord::Whole(Box::new(before.clone())),
            after: GoldRecord::Whole(Box::new(after)),
        },
    )
}

/// "×2, 90°, moved 0 0 4": what a transform does, for the Undo menu.
fn describe(t: &ModelTransform) -> String {
    let mut parts = Vec::new();
    if t.scale != 1.0 {
        parts.push(format!("×{}", t.scale));
    }
    if t.rotate_z != 0.0 {
        parts.push(format!("{}°", t.rotate_z));
    }
    if t.offset != glam::Vec3::ZERO {
        parts.push(format!("moved {} {} {}", t.offset.x, t.offset.y, t.offset.z));
    }
    parts.join(", ")
}
