//! The Source editors: the selected hit box (with its name) and attachment (with its angles),
//! and the model's eye position, boxes, sequence settings, events and bone controllers.

use glam::Vec3;
use studio_source::SourceModel;

use super::*;
use crate::app::command::Command;
use crate::app::state::AppState;
use crate::app::ui::Commands;
use studio_edit::{Change, SourceRecord};

/// The selected Source hit box's fields, with Add and Remove.
pub fn source_hitbox_ui(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    let Some(view) = state.source.as_deref() else { return };
    let model: &SourceModel = &view.doc.model;
    let set = view.doc.hitbox_set;
    let names: Vec<&str> = model.bones.iter().map(|b| b.name.as_str()).collect();
    if let Some(i) = state.selected_hitbox
        && let Some(h) = model.hitbox_sets.get(set).and_then(|s| s.hitboxes.get(i))
    {
        ui.strong(format!("Hit box {i} of set {set}"));
        let before = SourceRecord::Hitbox(set, i, h.clone());
        let mut after = h.clone();
        let mut response =
            box_fields_ui(ui, &names, &mut after.bone, &mut after.group, &mut after.bbmin, &mut after.bbmax);
        response |= ui
            .horizontal(|ui| {
                ui.label("name");
                ui.text_edit_singleline(&mut after.name)
            })
            .inner;
        submit(
            commands,
            &response,
            format!("Edit hit box {i}"),
            &before,
            SourceRecord::Hitbox(set, i, after),
            source,
        );
        ui.horizontal(|ui| {
            if ui.button("Duplicate").clicked() {
                commands.push(Command::edit_source(
                    format!("Add hit box {}", i + 1),
                    Change::Insert(SourceRecord::Hitbox(set, i + 1, h.clone())),
                ));
                commands.push(Command::SelectHitbox(Some(i + 1)));
            }
            if ui.button("Remove").clicked() {
                commands.push(Command::edit_source(
                    format!("Remove hit box {i}"),
                    Change::Remove(before.clone()),
                ));
                commands.push(Command::SelectHitbox(None));
            }
            copy_button(ui, "Copy QC", || qc::source_hbox(model, h));
        });
    } else {
        ui.weak("select a hit box to edit it; drag its handles in the viewport");
    }
    let count = model.hitbox_sets.get(set).map(|s| s.hitboxes.len());
    if let Some(at) = count
        && !model.bones.is_empty()
        && ui
            .button("Add a hit box")
            .on_hover_text("on the selected bone (or the first), 8 units wide")
            .clicked()
    {
        let bone = state.selected_bone.filter(|&b| b < model.bones.len()).unwrap_or(0);
        let h = studio_source::Hitbox {
            bone,
            group: 0,
            bbmin: Vec3::splat(-4.0),
            bbmax: Vec3::splat(4.0),
            name: String::new(),
        };
        commands.push(Command::edit_source(
            format!("Add hit box {at}"),
            Change::Insert(SourceRecord::Hitbox(set, at, h)),
        ));
        commands.push(Command::SelectHitbox(Some(at)));
    }
    ui.separator();
}

/// Adds an attachment named `attachmentN` on the selected bone (or the first), at its origin.
fn add_source_attachment(ui: &mut egui::Ui, state: &AppState, model: &SourceModel, commands: &mut Commands) {
    if model.bones.is_empty() || !ui.button("Add an attachment").clicked() {
        return;
    }
    let at = model.attachments.len();
    let bone = state.selected_bone.filter(|&b| b < model.bones.len()).unwrap_or(0);
    let identity = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0]];
    let a = studio_source::Attachment {
        name: format!("attachment{at}"),
        flags: 0,
        bone: Some(bone),
        local: identity,
    };
    commands.push(Command::edit_source(
        format!("Add attachment {at}"),
        Change::Insert(SourceRecord::Attachment(at, a)),
    ));
    commands.push(Command::SelectAttachment(Some(at)));
}

/// The selected Source attachment's fields.
pub fn source_attachment_ui(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    let Some(view) = state.source.as_deref() else { return };
    let model: &SourceModel = &view.doc.model;
    let names: Vec<&str> = model.bones.iter().map(|b| b.name.as_str()).collect();
    ui.separator();
    let Some((i, a)) = state.selected_attachment.and_then(|i| Some((i, model.attachments.get(i)?))) else {
        ui.weak("select an attachment to edit it; drag it in the viewport");
        add_source_attachment(ui, state, model, commands);
        return;
    };
    ui.strong(format!("Attachment {i}"));
    let before = SourceRecord::Attachment(i, a.clone());
    let mut after = a.clone();
    let m = a.local;
    let mut position = Vec3::new(m[0][3], m[1][3], m[2][3]);
    let rotation = glam::Mat3::from_cols(
        Vec3::new(m[0][0], m[1][0], m[2][0]),
        Vec3::new(m[0][1], m[1][1], m[2][1]),
        Vec3::new(m[0][2], m[1][2], m[2][2]),
    );
    // Valve's angles: the rotation is Rz(yaw) · Ry(pitch) · Rx(roll).
    let (yaw, pitch, roll) = glam::Quat::from_mat3(&rotation).to_euler(glam::EulerRot::ZYX);
    let mut angles = Vec3::new(pitch.to_degrees(), yaw.to_degrees(), roll.to_degrees());
    let angles_before = angles;
    let mut response = ui.horizontal(|ui| {
        ui.label("bone");
        let mut bone = after.bone.unwrap_or(0);
        if bone_ui(ui, &names, &mut bone, "attachment bone") {
            after.bone = Some(bone);
        }
        ui.label("name");
        ui.text_edit_singleline(&mut after.name)
    });
    response.inner |= vec3_ui(ui, "position", &mut position, "position");
    response.inner |= vec3_named(ui, "rotation", ["pitch", "yaw", "roll"], &mut angles, "angles");
    for (row, value) in position.to_array().into_iter().enumerate() {
        after.local[row][3] = value;
    }
    if angles != angles_before {
        let r = angles.to_array().map(f32::to_radians);
        let rotation = glam::Mat3::from_euler(glam::EulerRot::ZYX, r[1], r[0], r[2]);
        for row in 0..3 {
            for col in 0..3 {
                after.local[row][col] = rotation.col(col)[row];
            }
        }
    }
    submit(
        commands,
        &response.inner,
        format!("Edit attachment {i}"),
        &before,
        SourceRecord::Attachment(i, after),
        source,
    );
    ui.horizontal(|ui| {
        if ui.button("Remove").clicked() {
            commands
                .push(Command::edit_source(format!("Remove attachment {i}"), Change::Remove(before.clone())));
            commands.push(Command::SelectAttachment(None));
        }
        copy_button(ui, "Copy QC", || qc::source_attachment(model, a));
    });
    add_source_attachment(ui, state, model, commands);
}

/// Source model settings: eye position and boxes, the shown sequence (the main model's own),
/// bone controllers.
pub fn source_model_ui(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    let Some(view) = state.source.as_deref() else { return };
    let model = view.doc.model.clone();
    copy_button(ui, "Copy QC of the model", || qc::source(&model));
    let before = SourceRecord::boxes(&model);
    if let SourceRecord::Boxes(mut b) = before.clone() {
        let r = eye_and_boxes_ui(ui, &mut b.eye_position, &mut b.hull, &mut b.view);
        submit(commands, &r, "Edit eye position and boxes".into(), &before, SourceRecord::Boxes(b), source);
    }
    ui.separator();
    match view.doc.local_sequence(view.doc.sequence).and_then(|i| SourceRecord::sequence(&model, i)) {
        Some(before) => {
            if let SourceRecord::Sequence(i, mut s) = before.clone() {
                let label = model.sequences.get(i).map_or("", |s| s.label.as_str());
                ui.strong(format!("Sequence {i} {label}"));
                // `STUDIO_LOOPING` is the same bit in both formats.
                const _: () = assert!(studio_source::STUDIO_LOOPING == studio_model::STUDIO_LOOPING);
                let mut r = fps_and_loop_ui(ui, &mut s.fps, &mut s.flags);
                r |= ui
                    .horizontal(|ui| {
                        ui.label("activity");
                        let a = ui.add(egui::TextEdit::singleline(&mut s.activity_name).desired_width(140.0));
                        ui.label("weight");
                        a | ui.add(egui::DragValue::new(&mut s.activity_weight).range(0..=10_000))
                    })
                    .inner;
                ui.label("events: cycle, event, options");
                let events = events_ui(
                    ui,
                    &mut s.events,
                    |ui, e| {
                        let c = ui.add(egui::DragValue::new(&mut e.cycle).speed(0.01).range(0.0..=1.0));
                        // A named event (AE_…) is known by its name; its number is 0.
                        let n = if e.name.is_empty() {
                            ui.add(egui::DragValue::new(&mut e.event))
                        } else {
                            ui.weak(e.name.as_str())
                        };
                        let options =
                            egui::TextEdit::singleline(&mut e.options).desired_width(120.0).char_limit(63);
                        c | n | ui.add(options)
                    },
                    || studio_source::Event {
                        cycle: 0.0,
                        event: 0,
                        kind: 0,
                        options: String::new(),
                        name: String::new(),
                    },
                );
                if let Some(events) = events {
                    r |= events;
                }
                submit(
                    commands,
                    &r,
                    format!("Edit sequence {label}"),
                    &before,
                    SourceRecord::Sequence(i, s),
                    source,
                );
            }
        }
        None => {
            ui.weak("the shown sequence belongs to an include model: open that model to edit it");
        }
    }
    controllers_ui(
        ui,
        model.bone_controllers.iter().map(|c| (c.start, c.end, c.rest)).collect(),
        |i, (start, end, rest)| {
            model.bone_controllers.get(i).map(|c| {
                let after = studio_source::BoneController { start, end, rest, ..c.clone() };
                (SourceRecord::Controller(i, c.clone()), SourceRecord::Controller(i, after))
            })
        },
        commands,
        source,
    );
}
