//! The properties editors: numeric fields for the selected hit box and attachment, and for the
//! model's eye position and boxes, the shown sequence (fps, loop, activity, weight, events),
//! texture flags (version 10) and bone controllers. Every change is a [`Command::Edit`]; a
//! drag of a number merges into one edit that ends when the drag does.

use glam::Vec3;
use studio_model::Model;

use super::Commands;
use crate::app::command::{Command, DocEdit};
use crate::app::state::AppState;
use studio_decompile::qc;
use studio_edit::{Change, Edit, GoldRecord, SourceRecord};

mod source;

pub use source::{source_attachment_ui, source_hitbox_ui, source_model_ui};

/// Sends the edit `before` → `after` named `name` when they differ, merging while `response` is
/// dragged, and closes the edit when the drag stops.
fn submit<R: Clone + PartialEq>(
    commands: &mut Commands,
    response: &egui::Response,
    name: String,
    before: &R,
    after: R,
    wrap: fn(Edit<R>) -> DocEdit,
) {
    if *before != after {
        let edit = Edit { name, change: Change::Set { before: before.clone(), after } };
        commands.push(Command::Edit { edit: Box::new(wrap(edit)), merge: response.dragged() });
    }
    if response.drag_stopped() {
        commands.push(Command::EndEdit);
    }
}

/// Three drag fields for a vector, each named for screen readers and tests as
/// "`label` x", "`label` y", "`label` z".
pub fn vec3_ui(ui: &mut egui::Ui, label: &str, value: &mut Vec3, salt: &str) -> egui::Response {
    vec3_named(ui, label, ["x", "y", "z"], value, salt)
}

/// Three drag fields named `names`.
fn vec3_named(
    ui: &mut egui::Ui,
    label: &str,
    names: [&str; 3],
    value: &mut Vec3,
    salt: &str,
) -> egui::Response {
    ui.push_id(salt, |ui| {
        ui.horizontal_wrapped(|ui| {
            let row = ui.label(label).id;
            let field = |ui: &mut egui::Ui, name: &str, v: &mut f32| {
                let axis = ui.weak(name).id;
                ui.add(egui::DragValue::new(v).speed(0.1).max_decimals(4)).labelled_by(row).labelled_by(axis)
            };
            let x = field(ui, names[0], &mut value.x);
            let y = field(ui, names[1], &mut value.y);
            let z = field(ui, names[2], &mut value.z);
            x | y | z
        })
        .inner
    })
    .inner
}

/// A hit box's bone, group, min and max.
fn box_fields_ui(
    ui: &mut egui::Ui,
    names: &[&str],
    bone: &mut usize,
    group: &mut i32,
    bbmin: &mut Vec3,
    bbmax: &mut Vec3,
) -> egui::Response {
    let mut response = ui
        .horizontal(|ui| {
            ui.label("bone");
            bone_ui(ui, names, bone, "hitbox bone");
            ui.label("group");
            ui.add(egui::DragValue::new(group).range(0..=255))
        })
        .inner;
    response |= vec3_ui(ui, "min", bbmin, "bbmin");
    response | vec3_ui(ui, "max", bbmax, "bbmax")
}

/// The eye position, hull (`$cbox`) and view box (`$bbox`).
fn eye_and_boxes_ui(
    ui: &mut egui::Ui,
    eye: &mut Vec3,
    hull: &mut (Vec3, Vec3),
    view: &mut (Vec3, Vec3),
) -> egui::Response {
    ui.strong("Eye position and boxes");
    let mut r = vec3_ui(ui, "eye", eye, "eye");
    r |= vec3_ui(ui, "hull min", &mut hull.0, "hull min");
    r |= vec3_ui(ui, "hull max", &mut hull.1, "hull max");
    r |= vec3_ui(ui, "view min", &mut view.0, "view min");
    r | vec3_ui(ui, "view max", &mut view.1, "view max")
}

/// A sequence's fps and its loop flag (`STUDIO_LOOPING`, 1 in both formats).
fn fps_and_loop_ui(ui: &mut egui::Ui, fps: &mut f32, flags: &mut i32) -> egui::Response {
    const LOOPING: i32 = studio_model::STUDIO_LOOPING;
    ui.horizontal(|ui| {
        ui.label("fps");
        let r = ui.add(egui::DragValue::new(fps).speed(0.1).range(0.0..=1000.0));
        let mut looping = *flags & LOOPING != 0;
        let l = ui.checkbox(&mut looping, "loop");
        *flags = (*flags & !LOOPING) | if looping { LOOPING } else { 0 };
        r | l
    })
    .inner
}

/// A bone picker; true when the choice changed.
fn bone_ui(ui: &mut egui::Ui, names: &[&str], bone: &mut usize, salt: &str) -> bool {
    let before = *bone;
    egui::ComboBox::from_id_salt(salt).selected_text(names.get(*bone).copied().unwrap_or("?")).show_ui(
        ui,
        |ui| {
            for (i, name) in names.iter().enumerate() {
                ui.selectable_value(bone, i, format!("{i} {name}"));
            }
        },
    );
    *bone != before
}

fn gold(edit: Edit<GoldRecord>) -> DocEdit {
    DocEdit::Gold(edit)
}

fn source(edit: Edit<SourceRecord>) -> DocEdit {
    DocEdit::Source(edit)
}

/// A button that copies `text` to the clipboard.
pub fn copy_button(ui: &mut egui::Ui, label: &str, text: impl FnOnce() -> String) {
    if ui.button(label).on_hover_text("copies QC lines in studiomdl's syntax").clicked() {
        ui.ctx().copy_text(text());
    }
}

/// The selected version 10 hit box's fields, with Add and Remove.
pub fn gold_hitbox_ui(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    let model = state.model().clone();
    let names: Vec<&str> = model.bones.iter().map(|b| b.name.as_str()).collect();
    if let Some(i) = state.selected_hitbox
        && let Some(h) = model.hitboxes.get(i)
    {
        ui.strong(format!("Hit box {i}"));
        let before = GoldRecord::Hitbox(i, h.clone());
        let mut after = h.clone();
        let response =
            box_fields_ui(ui, &names, &mut after.bone, &mut after.group, &mut after.bbmin, &mut after.bbmax);
        submit(commands, &response, format!("Edit hit box {i}"), &before, GoldRecord::Hitbox(i, after), gold);
        ui.horizontal(|ui| {
            if ui.button("Duplicate").clicked() {
                commands.push(Command::edit_gold(
                    format!("Add hit box {}", i + 1),
                    Change::Insert(GoldRecord::Hitbox(i + 1, h.clone())),
                ));
                commands.push(Command::SelectHitbox(Some(i + 1)));
            }
            if ui.button("Remove").clicked() {
                commands
                    .push(Command::edit_gold(format!("Remove hit box {i}"), Change::Remove(before.clone())));
                commands.push(Command::SelectHitbox(None));
            }
            copy_button(ui, "Copy QC", || qc::goldsrc_hbox(&model, h));
        });
    } else {
        ui.weak("select a hit box to edit it; drag its handles in the viewport");
    }
    if ui.button("Add a hit box").on_hover_text("on the selected bone (or the first), 8 units wide").clicked()
    {
        let bone = state.selected_bone.filter(|&b| b < model.bones.len()).unwrap_or(0);
        if !model.bones.is_empty() {
            let at = model.hitboxes.len();
            let h =
                studio_model::Hitbox { bone, group: 0, bbmin: Vec3::splat(-4.0), bbmax: Vec3::splat(4.0) };
            commands.push(Command::edit_gold(
                format!("Add hit box {at}"),
                Change::Insert(GoldRecord::Hitbox(at, h)),
            ));
            commands.push(Command::SelectHitbox(Some(at)));
        }
    }
    ui.separator();
}

/// The version 10 attachments: a list to select from and the selected one's fields.
pub fn gold_attachments_ui(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    let model = state.model().clone();
    let names: Vec<&str> = model.bones.iter().map(|b| b.name.as_str()).collect();
    for (i, a) in model.attachments.iter().enumerate() {
        let bone = names.get(a.bone).copied().unwrap_or("?");
        let selected = state.selected_attachment == Some(i);
        if ui.selectable_label(selected, format!("{i}  {}  on {bone} at {}", a.name, a.org)).clicked() {
            commands.push(Command::SelectAttachment(if selected { None } else { Some(i) }));
        }
    }
    if model.attachments.is_empty() {
        ui.label("no attachments");
    }
    ui.separator();
    if let Some(i) = state.selected_attachment
        && let Some(a) = model.attachments.get(i)
    {
        ui.strong(format!("Attachment {i}"));
        let before = GoldRecord::Attachment(i, a.clone());
        let mut after = a.clone();
        let mut response = ui.horizontal(|ui| {
            ui.label("bone");
            bone_ui(ui, &names, &mut after.bone, "attachment bone");
            ui.label("name");
            // `mstudioattachment_t` keeps 32 bytes for it.
            ui.add(egui::TextEdit::singleline(&mut after.name).char_limit(31))
        });
        response.inner |= vec3_ui(ui, "position", &mut after.org, "org");
        submit(
            commands,
            &response.inner,
            format!("Edit attachment {i}"),
            &before,
            GoldRecord::Attachment(i, after),
            gold,
        );
        ui.horizontal(|ui| {
            if ui.button("Remove").clicked() {
                commands.push(Command::edit_gold(
                    format!("Remove attachment {i}"),
                    Change::Remove(before.clone()),
                ));
                commands.push(Command::SelectAttachment(None));
            }
            copy_button(ui, "Copy QC", || qc::goldsrc_attachment(&model, i, a));
        });
    }
    if ui.button("Add an attachment").clicked() && !model.bones.is_empty() {
        let bone = state.selected_bone.filter(|&b| b < model.bones.len()).unwrap_or(0);
        let at = model.attachments.len();
        let a = studio_model::Attachment {
            name: String::new(),
            kind: 0,
            bone,
            org: Vec3::ZERO,
            vectors: [Vec3::ZERO; 3],
        };
        commands.push(Command::edit_gold(
            format!("Add attachment {at}"),
            Change::Insert(GoldRecord::Attachment(at, a)),
        ));
        commands.push(Command::SelectAttachment(Some(at)));
    }
}

/// A sequence's events as editable rows; returns the drag response of the fields.
fn events_ui<E: Clone>(
    ui: &mut egui::Ui,
    events: &mut Vec<E>,
    fields: impl Fn(&mut egui::Ui, &mut E) -> egui::Response,
    new: impl FnOnce() -> E,
) -> Option<egui::Response> {
    let mut response: Option<egui::Response> = None;
    let mut remove = None;
    for (j, event) in events.iter_mut().enumerate() {
        ui.push_id(("event", j), |ui| {
            ui.horizontal(|ui| {
                let r = fields(ui, event);
                response = Some(match response.take() {
                    Some(all) => all | r,
                    None => r,
                });
                if ui.small_button("Remove").clicked() {
                    remove = Some(j);
                }
            });
        });
    }
    if let Some(j) = remove {
        events.remove(j);
    }
    if ui.small_button("Add an event").clicked() {
        events.push(new());
    }
    response
}

/// Version 10 model settings: eye position and boxes, the shown sequence, texture flags and
/// bone controllers.
pub fn gold_model_ui(ui: &mut egui::Ui, state: &AppState, commands: &mut Commands) {
    let model: std::sync::Arc<Model> = state.model().clone();
    ui.horizontal(|ui| {
        copy_button(ui, "Copy QC of the model", || qc::goldsrc(&model));
    });
    let before = GoldRecord::boxes(&model);
    if let GoldRecord::Boxes(mut b) = before.clone() {
        let r = eye_and_boxes_ui(ui, &mut b.eye_position, &mut b.hull, &mut b.view);
        submit(commands, &r, "Edit eye position and boxes".into(), &before, GoldRecord::Boxes(b), gold);
    }
    ui.separator();
    if let Some(before) = GoldRecord::sequence(&model, state.sequence)
        && let GoldRecord::Sequence(i, mut s) = before.clone()
    {
        let label = model.sequences.get(i).map_or("", |s| s.label.as_str());
        ui.strong(format!("Sequence {i} {label}"));
        let mut r = fps_and_loop_ui(ui, &mut s.fps, &mut s.flags);
        r |= ui
            .horizontal(|ui| {
                ui.label("activity");
                let a = ui.add(egui::DragValue::new(&mut s.activity).range(0..=10_000));
                ui.weak(qc::goldsrc_activity(s.activity).unwrap_or("none"));
                ui.label("weight");
                a | ui.add(egui::DragValue::new(&mut s.activity_weight).range(0..=10_000))
            })
            .inner;
        ui.label("events: frame, event, options");
        let events = events_ui(
            ui,
            &mut s.events,
            |ui, e| {
                let f = ui.add(egui::DragValue::new(&mut e.frame).range(0..=100_000));
                let n = ui.add(egui::DragValue::new(&mut e.event));
                // `mstudioevent_t` keeps 64 bytes for the options.
                f | n | ui.add(egui::TextEdit::singleline(&mut e.options).desired_width(120.0).char_limit(63))
            },
            || studio_model::Event { frame: 0, event: 1000, kind: 0, options: String::new() },
        );
        if let Some(events) = events {
            r |= events;
        }
        submit(commands, &r, format!("Edit sequence {label}"), &before, GoldRecord::Sequence(i, s), gold);
    }
    ui.separator();
    ui.strong("Texture flags");
    for (i, t) in model.textures.iter().enumerate() {
        let mut flags = t.flags;
        let r = ui
            .horizontal_wrapped(|ui| {
                super::fit::label(ui, t.name.clone());
                let mut all: Option<egui::Response> = None;
                for (bit, name) in [
                    (studio_model::STUDIO_NF_FLATSHADE, "flat"),
                    (studio_model::STUDIO_NF_CHROME, "chrome"),
                    (studio_model::STUDIO_NF_ADDITIVE, "additive"),
                    (studio_model::STUDIO_NF_MASKED, "masked"),
                    (studio_model::STUDIO_NF_FULLBRIGHT, "fullbright"),
                    (studio_model::STUDIO_NF_NOMIPS, "no mips"),
                ] {
                    let mut on = flags & bit != 0;
                    let r = ui.checkbox(&mut on, name);
                    flags = (flags & !bit) | if on { bit } else { 0 };
                    all = Some(match all {
                        Some(a) => a | r,
                        None => r,
                    });
                }
                all
            })
            .inner;
        if let Some(r) = r {
            let name = format!("Set flags of {}", t.name);
            submit(
                commands,
                &r,
                name,
                &GoldRecord::TextureFlags(i, t.flags),
                GoldRecord::TextureFlags(i, flags),
                gold,
            );
        }
    }
    controllers_ui(
        ui,
        model.bone_controllers.iter().map(|c| (c.start, c.end, c.rest)).collect(),
        |i, (start, end, rest)| {
            model.bone_controllers.get(i).map(|c| {
                let after = studio_model::BoneController { start, end, rest, ..c.clone() };
                (GoldRecord::Controller(i, c.clone()), GoldRecord::Controller(i, after))
            })
        },
        commands,
        gold,
    );
    ui.separator();
    super::transform::transform_ui(ui, state, commands);
}

/// Bone controllers' range and rest; `record` makes the before and after records of controller
/// `i` with the given values.
fn controllers_ui<R: Clone + PartialEq>(
    ui: &mut egui::Ui,
    values: Vec<(f32, f32, i32)>,
    record: impl Fn(usize, (f32, f32, i32)) -> Option<(R, R)>,
    commands: &mut Commands,
    wrap: fn(Edit<R>) -> DocEdit,
) {
    if values.is_empty() {
        return;
    }
    ui.separator();
    ui.strong("Bone controllers: start, end, rest");
    for (i, (mut start, mut end, mut rest)) in values.into_iter().enumerate() {
        let r = ui
            .push_id(("controller", i), |ui| {
                ui.horizontal(|ui| {
                    ui.label(i.to_string());
                    let s = ui.add(egui::DragValue::new(&mut start).speed(0.5));
                    let e = ui.add(egui::DragValue::new(&mut end).speed(0.5));
                    s | e | ui.add(egui::DragValue::new(&mut rest))
                })
                .inner
            })
            .inner;
        if let Some((before, after)) = record(i, (start, end, rest)) {
            submit(commands, &r, format!("Edit controller {i}"), &before, after, wrap);
        }
    }
}
