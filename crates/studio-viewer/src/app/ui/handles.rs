//! Handles in the viewport for the selected hit box and attachment: a square on each face of
//! the box moves that face along its bone's axis, a dot on each corner moves the corner in the
//! plane facing the camera, the attachment's dot moves the attachment the same way. Ctrl snaps
//! to half units. The bone's axes are drawn (x red, y green, z blue) while something is selected.
//! Each drag is one edit, merged as the pointer moves, closed when it is let go.

use glam::{Affine3A, Vec2, Vec3};

use crate::app::command::{Command, DocEdit};
use crate::app::state::AppState;
use studio_edit::{Change, Edit, GoldRecord, SourceRecord};

/// Snapping step with Ctrl held, in model units.
const SNAP: f32 = 0.5;

/// Half the size of a handle, in points.
const HANDLE_RADIUS: f32 = 5.0;

/// One handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handle {
    /// The face of the box on `axis` (0 x, 1 y, 2 z), at `bbmax` when `max`, else at `bbmin`.
    Face {
        /// The axis.
        axis: usize,
        /// Which side.
        max: bool,
    },
    /// Corner N: bit `a` set takes `bbmax` on axis `a`.
    Corner(u8),
    /// The attachment point.
    Attachment,
}

/// What the handles move: a record of the open model, in its bone's frame.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    Box { bone: Affine3A, min: Vec3, max: Vec3, record: DocRecord },
    Point { bone: Affine3A, at: Vec3, record: DocRecord },
}

#[derive(Clone, Debug, PartialEq)]
enum DocRecord {
    Gold(GoldRecord),
    Source(SourceRecord),
}

/// A drag in progress: the handle, the record as it was and where the pointer started.
#[derive(Clone, Debug, PartialEq)]
pub struct HandleDrag {
    handle: Handle,
    before: DocRecord,
    start: egui::Pos2,
}

fn target(state: &AppState) -> Option<Target> {
    if let Some(view) = state.source.as_deref() {
        let model = &view.doc.model;
        let bones = &view.doc.frame.bones;
        if let Some(i) = state.selected_hitbox {
            let h = model.hitbox_sets.get(view.doc.hitbox_set)?.hitboxes.get(i)?;
            let record = DocRecord::Source(SourceRecord::Hitbox(view.doc.hitbox_set, i, h.clone()));
            return Some(Target::Box { bone: *bones.get(h.bone)?, min: h.bbmin, max: h.bbmax, record });
        }
        let i = state.selected_attachment?;
        let a = model.attachments.get(i)?;
        let bone = a.bone.and_then(|b| bones.get(b)).copied().unwrap_or(Affine3A::IDENTITY);
        let at = Vec3::new(a.local[0][3], a.local[1][3], a.local[2][3]);
        return Some(Target::Point {
            bone,
            at,
            record: DocRecord::Source(SourceRecord::Attachment(i, a.clone())),
        });
    }
    let model = state.model();
    let bones = &state.pose.bones;
    if let Some(i) = state.selected_hitbox {
        let h = model.hitboxes.get(i)?;
        let record = DocRecord::Gold(GoldRecord::Hitbox(i, h.clone()));
        return Some(Target::Box { bone: *bones.get(h.bone)?, min: h.bbmin, max: h.bbmax, record });
    }
    let i = state.selected_attachment?;
    let a = model.attachments.get(i)?;
    Some(Target::Point {
        bone: *bones.get(a.bone)?,
        at: a.org,
        record: DocRecord::Gold(GoldRecord::Attachment(i, a.clone())),
    })
}

/// The point of `handle` in its bone's frame.
fn local_point(handle: Handle, min: Vec3, max: Vec3) -> Vec3 {
    match handle {
        Handle::Face { axis, max: at_max } => {
            let mut p = (min + max) * 0.5;
            p[axis] = if at_max { max[axis] } else { min[axis] };
            p
        }
        Handle::Corner(k) => Vec3::select(glam::BVec3::new(k & 1 != 0, k & 2 != 0, k & 4 != 0), max, min),
        Handle::Attachment => min,
    }
}

fn handles_of(target: &Target) -> Vec<(Handle, Affine3A, Vec3)> {
    match target {
        Target::Box { bone, min, max, .. } => {
            let faces = (0..3).flat_map(|axis| [false, true].map(|max| Handle::Face { axis, max }));
            faces.chain((0..8).map(Handle::Corner)).map(|h| (h, *bone, local_point(h, *min, *max))).collect()
        }
        Target::Point { bone, at, .. } => vec![(Handle::Attachment, *bone, *at)],
    }
}

/// Where each handle of the selection lies in a viewport at `rect`.
pub fn handle_positions(state: &AppState, rect: egui::Rect) -> Vec<(Handle, egui::Pos2)> {
    target(state).map_or_else(Vec::new, |target| positions(state, &target, rect))
}

/// Where each handle of `target` lies in a viewport at `rect`.
fn positions(state: &AppState, target: &Target, rect: egui::Rect) -> Vec<(Handle, egui::Pos2)> {
    let (w, h) = (rect.width().max(1.0) as u32, rect.height().max(1.0) as u32);
    handles_of(target)
        .into_iter()
        .filter_map(|(handle, bone, p)| {
            let at = state.camera.project(bone.transform_point3(p), w, h)?;
            Some((handle, rect.min + egui::vec2(at.x, at.y)))
        })
        .collect()
}

/// How far, on screen, one unit along each of the bone's axes moves a point at `p` (bone frame).
fn screen_axes(state: &AppState, rect: egui::Rect, bone: &Affine3A, p: Vec3) -> Option<[Vec2; 3]> {
    let (w, h) = (rect.width().max(1.0) as u32, rect.height().max(1.0) as u32);
    let at = |q: Vec3| state.camera.project(bone.transform_point3(q), w, h);
    let origin = at(p)?;
    Some([Vec3::X, Vec3::Y, Vec3::Z].map(|axis| at(p + axis).map_or(Vec2::ZERO, |q| q - origin)))
}

/// The smallest move in the bone's frame whose image on screen is `m`.
fn solve_plane(axes: [Vec2; 3], m: Vec2) -> Vec3 {
    let (mut a, mut b, mut c) = (0.0, 0.0, 0.0);
    for s in axes {
        a += s.x * s.x;
        b += s.x * s.y;
        c += s.y * s.y;
    }
    let det = a * c - b * b;
    if det.abs() < 1e-9 {
        return Vec3::ZERO;
    }
    // (S Sᵀ)⁻¹ m, then Sᵀ times that.
    let k = Vec2::new((c * m.x - b * m.y) / det, (a * m.y - b * m.x) / det);
    Vec3::new(axes[0].dot(k), axes[1].dot(k), axes[2].dot(k))
}

fn snap(value: f32, on: bool) -> f32 {
    if on { (value / SNAP).round() * SNAP } else { value }
}

/// The record `before` with `handle` moved by `m` on screen.
fn moved(
    state: &AppState,
    rect: egui::Rect,
    bone: Affine3A,
    drag: &HandleDrag,
    m: Vec2,
    snapping: bool,
) -> Option<DocRecord> {
    let (min, max) = match &drag.before {
        DocRecord::Gold(GoldRecord::Hitbox(_, h)) => (h.bbmin, h.bbmax),
        DocRecord::Source(SourceRecord::Hitbox(_, _, h)) => (h.bbmin, h.bbmax),
        DocRecord::Gold(GoldRecord::Attachment(_, a)) => (a.org, a.org),
        DocRecord::Source(SourceRecord::Attachment(_, a)) => {
            let at = Vec3::new(a.local[0][3], a.local[1][3], a.local[2][3]);
            (at, at)
        }
        _ => return None,
    };
    let p = local_point(drag.handle, min, max);
    let axes = screen_axes(state, rect, &bone, p)?;
    let (mut min, mut max) = (min, max);
    match drag.handle {
        Handle::Face { axis, max: at_max } => {
            let s = axes[axis];
            if s.length_squared() < 1e-6 {
                return None;
            }
            let value = p[axis] + m.dot(s) / s.length_squared();
            let slot = if at_max { &mut max[axis] } else { &mut min[axis] };
            *slot = snap(value, snapping);
        }
        Handle::Corner(k) => {
            let d = solve_plane(axes, m);
            for axis in 0..3 {
                let slot = if k >> axis & 1 != 0 { &mut max[axis] } else { &mut min[axis] };
                *slot = snap(p[axis] + d[axis], snapping);
            }
        }
        Handle::Attachment => {
            let d = solve_plane(axes, m);
            min = (p + d).to_array().map(|v| snap(v, snapping)).into();
        }
    }
    Some(match drag.before.clone() {
        DocRecord::Gold(GoldRecord::Hitbox(i, mut h)) => {
            (h.bbmin, h.bbmax) = (min, max);
            DocRecord::Gold(GoldRecord::Hitbox(i, h))
        }
        DocRecord::Source(SourceRecord::Hitbox(s, i, mut h)) => {
            (h.bbmin, h.bbmax) = (min, max);
            DocRecord::Source(SourceRecord::Hitbox(s, i, h))
        }
        DocRecord::Gold(GoldRecord::Attachment(i, mut a)) => {
            a.org = min;
            DocRecord::Gold(GoldRecord::Attachment(i, a))
        }
        DocRecord::Source(SourceRecord::Attachment(i, mut a)) => {
            for (row, value) in min.to_array().into_iter().enumerate() {
                a.local[row][3] = value;
            }
            DocRecord::Source(SourceRecord::Attachment(i, a))
        }
        _ => return None,
    })
}

fn edit_command(before: &DocRecord, after: DocRecord) -> Option<Command> {
    let name = |what: &str, i: usize| format!("Move {what} {i}");
    let edit = match (before.clone(), after) {
        (DocRecord::Gold(before), DocRecord::Gold(after)) => {
            let name = match &before {
                GoldRecord::Hitbox(i, _) => name("hit box", *i),
                GoldRecord::Attachment(i, _) => name("attachment", *i),
                _ => return None,
            };
            DocEdit::Gold(Edit { name, change: Change::Set { before, after } })
        }
        (DocRecord::Source(before), DocRecord::Source(after)) => {
            let name = match &before {
                SourceRecord::Hitbox(_, i, _) => name("hit box", *i),
                SourceRecord::Attachment(i, _) => name("attachment", *i),
                _ => return None,
            };
            DocEdit::Source(Edit { name, change: Change::Set { before, after } })
        }
        _ => return None,
    };
    Some(Command::Edit { edit: Box::new(edit), merge: true })
}

/// Draws the selection's bone frame and handles in the viewport at `rect`, and carries out
/// drags of them.
pub fn handles_ui(ui: &egui::Ui, rect: egui::Rect, state: &mut AppState, drag: &mut Option<HandleDrag>) {
    let Some(target) = target(state) else {
        *drag = None;
        return;
    };
    let painter = ui.painter_at(rect);
    let (w, h) = (rect.width().max(1.0) as u32, rect.height().max(1.0) as u32);
    let project = |p: Vec3| state.camera.project(p, w, h).map(|v| rect.min + egui::vec2(v.x, v.y));
    // The bone's frame.
    let (Target::Box { bone, .. } | Target::Point { bone, .. }) = &target;
    let length = match &target {
        Target::Box { min, max, .. } => ((*max - *min).abs().max_element() * 0.6).clamp(2.0, 32.0),
        Target::Point { .. } => 6.0,
    };
    if let Some(origin) = project(bone.translation.into()) {
        for (axis, color) in [
            (bone.matrix3.x_axis, (230, 60, 60)),
            (bone.matrix3.y_axis, (60, 200, 60)),
            (bone.matrix3.z_axis, (70, 110, 255)),
        ] {
            if let Some(end) = project(Vec3::from(bone.translation) + Vec3::from(axis) * length) {
                painter.line_segment(
                    [origin, end],
                    egui::Stroke::new(2.0, egui::Color32::from_rgb(color.0, color.1, color.2)),
                );
            }
        }
    }
    let snapping = ui.input(|i| i.modifiers.ctrl || i.modifiers.command);
    for (k, (handle, position)) in positions(state, &target, rect).into_iter().enumerate() {
        let id = ui.scope_id().with(("edit handle", k));
        let area = egui::Rect::from_center_size(position, egui::Vec2::splat(HANDLE_RADIUS * 2.0 + 4.0));
        let response = ui.interact(area, id, egui::Sense::drag());
        let hot = response.hovered() || response.dragged();
        let color = if hot { egui::Color32::WHITE } else { egui::Color32::from_rgb(255, 200, 40) };
        match handle {
            Handle::Face { .. } => {
                let square = egui::Rect::from_center_size(position, egui::Vec2::splat(HANDLE_RADIUS * 2.0));
                painter.rect_filled(square, 1.0, color);
            }
            Handle::Corner(_) => {
                painter.circle_filled(position, HANDLE_RADIUS * 0.8, color);
            }
            Handle::Attachment => {
                painter.circle_stroke(position, HANDLE_RADIUS + 1.0, egui::Stroke::new(2.0, color));
            }
        }
        let response = response.on_hover_text(match handle {
            Handle::Face { .. } => "drag to move this face along the bone's axis (Ctrl snaps to half units)",
            Handle::Corner(_) => "drag to move this corner (Ctrl snaps to half units)",
            Handle::Attachment => "drag to move the attachment (Ctrl snaps to half units)",
        });
        if response.drag_started() {
            let record = match &target {
                Target::Box { record, .. } | Target::Point { record, .. } => record.clone(),
            };
            let start = response.interact_pointer_pos().unwrap_or(position);
            *drag = Some(HandleDrag { handle, before: record, start });
        }
        if response.dragged()
            && let Some(d) = drag.as_ref().filter(|d| d.handle == handle)
            && let Some(pointer) = response.interact_pointer_pos()
        {
            let m = pointer - d.start;
            if let Some(command) = moved(state, rect, *bone, d, Vec2::new(m.x, m.y), snapping)
                .and_then(|after| edit_command(&d.before, after))
            {
                state.apply(command);
            }
        }
        if response.drag_stopped() {
            *drag = None;
            state.apply(Command::EndEdit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plane_solution_moves_the_point_where_the_pointer_went() {
        // Screen axes of a bone seen at an angle: x to the right, y up and a little right,
        // z toward the viewer (nearly nothing on screen).
        let axes = [Vec2::new(10.0, 0.0), Vec2::new(3.0, -8.0), Vec2::new(0.5, 0.5)];
        let m = Vec2::new(7.0, -4.0);
        let d = solve_plane(axes, m);
        let image = axes[0] * d.x + axes[1] * d.y + axes[2] * d.z;
        assert!((image - m).length() < 1e-4, "{image} {m}");
    }

    #[test]
    fn ctrl_snaps_to_half_units() {
        assert_eq!(snap(1.26, true), 1.5);
        assert_eq!(snap(-0.74, true), -0.5);
        assert_eq!(snap(1.26, false), 1.26);
    }

    #[test]
    fn corners_take_min_or_max_by_bit() {
        let (min, max) = (Vec3::new(-1.0, -2.0, -3.0), Vec3::new(1.0, 2.0, 3.0));
        assert_eq!(local_point(Handle::Corner(0), min, max), min);
        assert_eq!(local_point(Handle::Corner(7), min, max), max);
        assert_eq!(local_point(Handle::Corner(5), min, max), Vec3::new(1.0, -2.0, 3.0));
        assert_eq!(local_point(Handle::Face { axis: 1, max: true }, min, max), Vec3::new(0.0, 2.0, 0.0));
    }
}
