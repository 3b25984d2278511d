//! The check a modder makes of a decompile: build it again with Valve's Half-Life studiomdl and
//! compare the model it writes with the original, with our reader and evaluator
//! (`studioview decompile MODEL --out DIR --check STUDIOMDL`, and the tests).
//!
//! The comparison expects what the decompile said would change and nothing else: the names
//! written other than the model has them ([`super::qc_names`]), the texture flags studiomdl
//! cannot give ([`super::texture_flags`]), a controller's rest value (studiomdl writes 0) and an
//! `RLOOP` its range does not imply, attachment names, a second blend axis, and the triangles of
//! zero area that keep bones ([`super::keep_bones`]), which it counts. Poses are compared at
//! every frame of every sequence and blend, within what studiomdl's quantisation explains: its
//! `SimplifyModel` stores each channel as `(value − default) / scale` cast to a `short`
//! (truncated, so up to one step off), the step being the bone's `scale` for that channel
//! (`max(128, |offset|) / 32767` units for positions, `max(π/8, |offset|) / 32767` radians for
//! angles, over every frame of every sequence). A bone's model-space position may be off by the
//! sum, along its chain from the root, of each bone's position step (`|scale[0..3]|`) and its
//! angle steps (`Σ scale[3..6]`, a bound on the rotation's angle) times that bone's distance to
//! it; its rotation by the sum of the angle steps. The larger of the two models' steps is used.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use glam::{Affine3A, Vec3};
use studio_model::Model;
use studio_pose::{Pose, PoseEvaluator, PoseRequest, neutral_bytes};

use super::goldsrc::{Layout, is_blank};
use super::keep_bones::OWN_PART;

/// What the comparison found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// What differs and should not: empty when the rebuilt model is the original.
    pub differences: Vec<String>,
    /// What differs as the decompile said it would (studiomdl cannot say it).
    pub expected: Vec<String>,
    /// Triangles the rebuilt model has beyond the original's.
    pub extra_triangles: usize,
    /// The triangles of zero area written to keep bones and textures.
    pub keeping_triangles: usize,
    /// Poses compared.
    pub poses: usize,
    /// The largest difference of a bone's model-space position, in units.
    pub worst_position: f32,
    /// The tolerance at that bone.
    pub worst_tolerance: f32,
}

impl Report {
    /// The report as lines for a person.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "poses: {} compared, worst bone position difference {:.6} units (allowed there {:.6})",
            self.poses, self.worst_position, self.worst_tolerance
        );
        let _ = writeln!(
            out,
            "triangles: {} more than the original, {} of zero area written to keep bones and textures",
            self.extra_triangles, self.keeping_triangles
        );
        for line in &self.expected {
            let _ = writeln!(out, "expected: {line}");
        }
        if self.differences.is_empty() {
            out.push_str("the rebuilt model equals the original\n");
        }
        for line in &self.differences {
            let _ = writeln!(out, "differs: {line}");
        }
        out
    }
}

/// Runs `studiomdl` on `dir/stem.qc` in `dir`, as a modder does, and gives the model it wrote
/// (`dir/stem.mdl`), or studiomdl's message.
pub fn compile(studiomdl: &Path, dir: &Path, stem: &str) -> Result<PathBuf, String> {
    // It runs in `dir`, so a relative path to it is made absolute first.
    let studiomdl = std::path::absolute(studiomdl).map_err(|e| format!("{}: {e}", studiomdl.display()))?;
    let output = std::process::Command::new(&studiomdl)
        .arg(format!("{stem}.qc"))
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("{}: {e}", studiomdl.display()))?;
    let text =
        String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    let model = dir.join(format!("{stem}.mdl"));
    if !output.status.success() || !model.exists() {
        let tail: Vec<&str> = text.lines().rev().take(8).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!("studiomdl failed ({}): {}", output.status, tail.join(" / ")));
    }
    Ok(model)
}

/// Compares `rebuilt`, studiomdl's build of `original` decompiled with `layout`.
pub fn compare(original: &Model, layout: &Layout, rebuilt: &Model) -> Report {
    let mut report = Report::default();
    let r = &mut report;
    for renamed in &layout.renamed {
        r.expected.push(renamed.to_string());
    }
    // What studiomdl does to each sequence's frames, for its movement and its poses.
    let rules: Vec<FrameRules> = (0..original.sequences.len()).map(|s| frame_rules(original, s)).collect();
    compare_header(original, rebuilt, r);
    compare_bones(original, layout, rebuilt, r);
    compare_sequences(original, layout, rebuilt, &rules, r);
    compare_skeleton_records(original, layout, rebuilt, r);
    compare_body(original, layout, rebuilt, r);
    compare_textures(original, layout, rebuilt, r);
    if r.differences.iter().all(|d| !d.starts_with("bones"))
        && original.sequences.len() == rebuilt.sequences.len()
    {
        compare_poses(original, rebuilt, &rules, r);
    }
    report
}

fn differ(r: &mut Report, what: String) {
    r.differences.push(what);
}

/// The header's eye position, hull, clipping box and flags, and the transition graph.
fn compare_header(original: &Model, rebuilt: &Model, r: &mut Report) {
    let (a, b) = (&original.header, &rebuilt.header);
    for (what, x, y) in [
        ("eye position", a.eye_position, b.eye_position),
        ("hull min", a.min, b.min),
        ("hull max", a.max, b.max),
        ("clipping box min", a.bbmin, b.bbmin),
        ("clipping box max", a.bbmax, b.bbmax),
    ] {
        if !same3(x, y) {
            differ(r, format!("header: {what} {x} → {y}"));
        }
    }
    if a.flags != b.flags {
        differ(r, format!("header: flags {:#x} → {:#x}", a.flags, b.flags));
    }
    let derived = transition_graph(original);
    if derived != original.transitions.table() {
        r.expected.push(format!(
            "the transition graph {:?} is not the one studiomdl makes from the sequences' nodes ({derived:?})",
            original.transitions.table()
        ));
    }
    if derived != rebuilt.transitions.table() {
        differ(r, format!("transition graph {derived:?} → {:?}", rebuilt.transitions.table()));
    }
}

/// The transition graph studiomdl makes from the sequences' entry and exit nodes
/// (`MakeTransitions`): each sequence between two nodes a direct step (both ways with the
/// reverse flag), then steps through other nodes until none is added, over as many nodes as the
/// largest entry node; row-major, as `WriteModel` stores it in bytes.
fn transition_graph(model: &Model) -> Vec<u8> {
    const MAX: usize = 100;
    let node = |n: i32| usize::try_from(n).ok().filter(|&n| (1..=MAX).contains(&n));
    let mut x = vec![[0i32; MAX]; MAX];
    let mut count = 0;
    for s in &model.sequences {
        if let (Some(entry), Some(exit)) = (node(s.entry_node), node(s.exit_node))
            && entry != exit
        {
            x[entry - 1][exit - 1] = exit as i32;
            if s.node_flags != 0 {
                x[exit - 1][entry - 1] = entry as i32;
            }
        }
        count = count.max(node(s.entry_node).unwrap_or(0));
    }
    loop {
        let mut hit = false;
        for i in 1..=count {
            for j in 1..=count {
                if i != j && x[i - 1][j - 1] == 0 {
                    // `k < numxnodes`: the last node is never a step.
                    if let Some(k) = (1..count).find(|&k| x[k - 1][j - 1] > 0 && x[i - 1][k - 1] > 0) {
                        x[i - 1][j - 1] = -x[i - 1][k - 1];
                        hit = true;
                    }
                }
            }
        }
        for row in x.iter_mut().take(count) {
            for v in row.iter_mut().take(count) {
                *v = v.abs();
            }
        }
        if !hit {
            break;
        }
    }
    x.iter().take(count).flat_map(|row| row[..count].iter().map(|&v| v as u8)).collect()
}

fn compare_bones(original: &Model, layout: &Layout, rebuilt: &Model, r: &mut Report) {
    if original.bones.len() != rebuilt.bones.len() {
        let names: Vec<&str> = rebuilt.bones.iter().map(|b| b.name.as_str()).collect();
        return differ(
            r,
            format!("bones: {} in the original, {} rebuilt ({names:?})", original.bones.len(), names.len()),
        );
    }
    for (i, (a, b)) in original.bones.iter().zip(&rebuilt.bones).enumerate() {
        let name = layout.bones.get(i).map_or("", String::as_str);
        if b.name != name || a.parent != b.parent {
            differ(
                r,
                format!(
                    "bones: bone {i} {:?} (parent {:?}) is {:?} (parent {:?})",
                    name, a.parent, b.name, b.parent
                ),
            );
        }
    }
}

/// Whether two numbers read from the same text are the same (the QC writes each in the shortest
/// form that reads back exactly; `atof` then rounds to `f32` once).
fn same(a: f32, b: f32) -> bool {
    a == b || (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
}

fn same3(a: Vec3, b: Vec3) -> bool {
    same(a.x, b.x) && same(a.y, b.y) && same(a.z, b.z)
}

fn compare_sequences(
    original: &Model,
    layout: &Layout,
    rebuilt: &Model,
    rules: &[FrameRules],
    r: &mut Report,
) {
    if original.sequences.len() != rebuilt.sequences.len() {
        return differ(
            r,
            format!(
                "sequences: {} in the original, {} rebuilt",
                original.sequences.len(),
                rebuilt.sequences.len()
            ),
        );
    }
    for (i, (a, b)) in original.sequences.iter().zip(&rebuilt.sequences).enumerate() {
        let label = layout.labels.get(i).map_or("", String::as_str);
        let mut wrong = Vec::new();
        if b.label != label {
            wrong.push(format!("label {:?}", b.label));
        }
        if a.num_frames != b.num_frames {
            wrong.push(format!("frames {} → {}", a.num_frames, b.num_frames));
        }
        if !same(a.fps, b.fps) {
            wrong.push(format!("fps {} → {}", a.fps, b.fps));
        }
        if a.flags != b.flags {
            wrong.push(format!("flags {:#x} → {:#x}", a.flags, b.flags));
        }
        if (a.activity, a.activity_weight) != (b.activity, b.activity_weight) {
            wrong.push(format!(
                "activity {} {} → {} {}",
                a.activity, a.activity_weight, b.activity, b.activity_weight
            ));
        }
        let events = |s: &studio_model::Sequence| -> Vec<(i32, i32, String)> {
            s.events.iter().map(|e| (e.frame, e.event, e.options.clone())).collect()
        };
        if a.events.iter().any(|e| e.kind != 0) {
            r.expected.push(format!("sequence {i} {label:?}: its events' type field (studiomdl writes 0)"));
        }
        if events(a) != events(b) {
            wrong.push(format!("events {:?} → {:?}", events(a), events(b)));
        }
        if a.motion_type != b.motion_type || a.motion_bone != b.motion_bone {
            wrong.push(format!(
                "motion {:#x} on {:?} → {:#x} on {:?}",
                a.motion_type, a.motion_bone, b.motion_type, b.motion_bone
            ));
        }
        let movement = a.linear_movement + rules[i].drift;
        let moved = (movement - b.linear_movement).abs().max_element();
        if moved > 1e-3 * movement.abs().max_element().max(1.0) {
            wrong.push(format!(
                "linear movement {} → {} (expected {movement})",
                a.linear_movement, b.linear_movement
            ));
        }
        let pivots = |s: &studio_model::Sequence| -> Vec<(i32, i32)> {
            s.pivots.iter().map(|p| (p.start, p.end)).collect()
        };
        if pivots(a) != pivots(b) || b.pivots.iter().any(|p| p.org != Vec3::ZERO) {
            wrong.push(format!("pivots {:?} → {:?}", a.pivots, b.pivots));
        }
        if a.pivots.iter().any(|p| p.org != Vec3::ZERO) {
            r.expected.push(format!("sequence {i} {label:?}: its pivots' origins (studiomdl writes 0 0 0)"));
        }
        if (a.entry_node, a.exit_node, a.node_flags) != (b.entry_node, b.exit_node, b.node_flags) {
            wrong.push(format!(
                "nodes {} {} {} → {} {} {}",
                a.entry_node, a.exit_node, a.node_flags, b.entry_node, b.exit_node, b.node_flags
            ));
        }
        if a.num_blends != b.num_blends {
            wrong.push(format!("blends {} → {}", a.num_blends, b.num_blends));
        } else if a.num_blends > 1 {
            if a.blend_type[0] != b.blend_type[0]
                || !same(a.blend_start[0], b.blend_start[0])
                || !same(a.blend_end[0], b.blend_end[0])
            {
                wrong.push(format!(
                    "blend axis {:?} → {:?}",
                    (a.blend_type[0], a.blend_start[0], a.blend_end[0]),
                    (b.blend_type[0], b.blend_start[0], b.blend_end[0])
                ));
            }
            if a.blend_type[1] != 0 {
                r.expected
                    .push(format!("sequence {i} {label:?}: its second blend axis (studiomdl reads one)"));
            }
        }
        if !wrong.is_empty() {
            differ(r, format!("sequence {i} {label:?}: {}", wrong.join(", ")));
        }
    }
}

fn compare_skeleton_records(original: &Model, layout: &Layout, rebuilt: &Model, r: &mut Report) {
    use studio_model::motion::STUDIO_RLOOP;
    if original.hitboxes.is_empty() {
        if !rebuilt.hitboxes.is_empty() {
            r.expected.push(format!(
                "no hit boxes: studiomdl makes its own for a model without $hbox ({} here)",
                rebuilt.hitboxes.len()
            ));
        }
    } else if original.hitboxes.len() != rebuilt.hitboxes.len() {
        differ(r, format!("hit boxes: {} → {}", original.hitboxes.len(), rebuilt.hitboxes.len()));
    } else {
        for (i, (a, b)) in original.hitboxes.iter().zip(&rebuilt.hitboxes).enumerate() {
            if a.bone != b.bone || a.group != b.group || !same3(a.bbmin, b.bbmin) || !same3(a.bbmax, b.bbmax)
            {
                differ(r, format!("hit box {i}: {a:?} → {b:?}"));
            }
        }
    }
    if original.attachments.len() != rebuilt.attachments.len() {
        differ(r, format!("attachments: {} → {}", original.attachments.len(), rebuilt.attachments.len()));
    } else {
        for (i, (a, b)) in original.attachments.iter().zip(&rebuilt.attachments).enumerate() {
            if a.bone != b.bone || !same3(a.org, b.org) {
                differ(
                    r,
                    format!("attachment {i}: bone {} at {} → bone {} at {}", a.bone, a.org, b.bone, b.org),
                );
            }
            if !a.name.is_empty() {
                r.expected.push(format!("attachment {i}: its name {:?} (studiomdl reads none)", a.name));
            }
        }
    }
    if original.bone_controllers.len() != rebuilt.bone_controllers.len() {
        return differ(
            r,
            format!("controllers: {} → {}", original.bone_controllers.len(), rebuilt.bone_controllers.len()),
        );
    }
    for (i, (a, b)) in original.bone_controllers.iter().zip(&rebuilt.bone_controllers).enumerate() {
        let rloop = crate::qc::goldsrc_rloop(a.kind, a.start, a.end);
        let kind = (a.kind & !STUDIO_RLOOP) | if rloop { STUDIO_RLOOP } else { 0 };
        if kind != a.kind {
            r.expected.push(format!(
                "controller {i}: RLOOP as studiomdl's rule gives it ({:#x} → {kind:#x})",
                a.kind
            ));
        }
        let index = a.index.min(4);
        if a.rest != 0 {
            r.expected.push(format!("controller {i}: rest {} (studiomdl writes 0)", a.rest));
        }
        if a.bone != b.bone
            || kind != b.kind
            || index != b.index
            || !same(a.start, b.start)
            || !same(a.end, b.end)
            || b.rest != 0
        {
            let bone = layout.bones.get(a.bone).map_or("", String::as_str);
            differ(r, format!("controller {i} on {bone}: {a:?} → {b:?}"));
        }
    }
}

fn compare_body(original: &Model, layout: &Layout, rebuilt: &Model, r: &mut Report) {
    let own = usize::from(layout.keep.own_part());
    if original.body_parts.len() + own != rebuilt.body_parts.len() {
        return differ(
            r,
            format!("body parts: {} → {}", original.body_parts.len(), rebuilt.body_parts.len()),
        );
    }
    if own == 1 {
        r.expected.push(format!(
            "a body part {OWN_PART:?} for the triangles that keep the bones (the model has no mesh)"
        ));
    }
    for (i, (a, b)) in original.body_parts.iter().zip(&rebuilt.body_parts).enumerate() {
        let name = layout.parts.get(i).map_or("", String::as_str);
        let blanks = |p: &studio_model::BodyPart| -> Vec<bool> { p.submodels.iter().map(is_blank).collect() };
        if b.name != name || a.base != b.base || blanks(a) != blanks(b) {
            differ(
                r,
                format!(
                    "body part {i} {name:?}: base {} {:?} → {:?} base {} {:?}",
                    a.base,
                    blanks(a),
                    b.name,
                    b.base,
                    blanks(b)
                ),
            );
        }
    }
    let triangles = |m: &Model| -> usize {
        m.body_parts
            .iter()
            .flat_map(|p| &p.submodels)
            .flat_map(|s| &s.meshes)
            .map(|x| x.triangles.len())
            .sum()
    };
    r.keeping_triangles = layout.added_triangles();
    r.extra_triangles = triangles(rebuilt).saturating_sub(triangles(original));
    if triangles(rebuilt) != triangles(original) + r.keeping_triangles {
        differ(
            r,
            format!(
                "triangles: {} → {} ({} written to keep bones)",
                triangles(original),
                triangles(rebuilt),
                r.keeping_triangles
            ),
        );
    }
}

fn compare_textures(original: &Model, layout: &Layout, rebuilt: &Model, r: &mut Report) {
    let find = |name: &str| rebuilt.textures.iter().position(|t| t.name.eq_ignore_ascii_case(name));
    let mut mapped = Vec::with_capacity(original.textures.len());
    let sizes = crate::texture_range::rebuilt_sizes(original, &layout.whole);
    for (i, (t, file)) in original.textures.iter().zip(&layout.textures).enumerate() {
        let Some(at) = find(file) else {
            differ(r, format!("texture {:?}: no {file:?} in the rebuilt model", t.name));
            mapped.push(None);
            continue;
        };
        mapped.push(Some(at));
        if !rebuilt.textures[at].name.eq_ignore_ascii_case(&t.name) {
            r.expected.push(format!(
                "texture {:?} is named {:?} (a BMP name studiomdl reads back, chrome said by it)",
                t.name, rebuilt.textures[at].name
            ));
        }
        let expected = crate::texture_flags::rebuilt(file, t.flags);
        for lost in crate::texture_flags::lost(t.flags) {
            r.expected.push(format!("texture {:?}: {lost}", t.name));
        }
        if rebuilt.textures[at].flags != expected {
            differ(
                r,
                format!(
                    "texture {:?}: flags {:#x} → {:#x} (expected {expected:#x})",
                    t.name, t.flags, rebuilt.textures[at].flags
                ),
            );
        }
        let size = sizes.get(i).copied().unwrap_or((t.width, t.height));
        if size != (t.width, t.height) {
            r.expected.push(format!(
                "texture {:?}: {}×{} becomes {}×{} (studiomdl sizes a texture to the texels its triangles reach, \
                 a chrome one to 64×64)",
                t.name, t.width, t.height, size.0, size.1
            ));
        }
        let got = (rebuilt.textures[at].width, rebuilt.textures[at].height);
        if got != size {
            differ(
                r,
                format!(
                    "texture {:?}: {}×{} → {}×{} (expected {}×{})",
                    t.name, t.width, t.height, got.0, got.1, size.0, size.1
                ),
            );
        }
    }
    // Skins by texture: each family's texture in each slot, where the original's differ.
    let (sa, sb) = (&original.skins, &rebuilt.skins);
    if sa.num_families() != sb.num_families() && sa.num_families() > 1 {
        return differ(r, format!("skin families: {} → {}", sa.num_families(), sb.num_families()));
    }
    for family in 1..sa.num_families() {
        for slot in 0..sa.num_refs() {
            let (Some(base), Some(skin)) = (sa.texture(0, slot as i32), sa.texture(family, slot as i32))
            else {
                continue;
            };
            let (Some(Some(b_base)), Some(Some(b_skin))) = (mapped.get(base), mapped.get(skin)) else {
                continue;
            };
            let rebuilt_slot = (0..sb.num_refs()).find(|&s| sb.texture(0, s as i32) == Some(*b_base));
            let got = rebuilt_slot.and_then(|s| sb.texture(family, s as i32));
            if got != Some(*b_skin) {
                differ(
                    r,
                    format!(
                        "skin family {family}: slot of {:?} shows {:?}",
                        layout.textures[base],
                        got.and_then(|g| rebuilt.textures.get(g)).map(|t| &t.name)
                    ),
                );
            }
        }
    }
}

/// Each bone's allowed position and rotation error (see the module's text), for the larger of
/// the two models' steps and the distances of `bones`.
fn tolerances(original: &Model, rebuilt: &Model, bones: &[Affine3A]) -> Vec<(f32, f32)> {
    let step = |b: usize, d: usize| original.bones[b].scale[d].abs().max(rebuilt.bones[b].scale[d].abs());
    (0..original.bones.len())
        .map(|b| {
            let (mut position, mut angle) = (1e-4f32, 1e-5f32);
            let mut at = Some(b);
            while let Some(a) = at {
                let p = Vec3::new(step(a, 0), step(a, 1), step(a, 2)).length();
                let turn = step(a, 3) + step(a, 4) + step(a, 5);
                let reach = (bones[b].translation - bones[a].translation).length();
                position += p + turn * reach;
                angle += turn;
                at = original.bones[a].parent;
            }
            (position, angle)
        })
        .collect()
}

/// What studiomdl does to a sequence's frames that its QC cannot prevent (`OptimizeAnimations`,
/// `ExtractMotion`), as the pose comparison allows for it: the root's drift along an `LX`, `LY`
/// or `LZ` axis (its first-to-last change besides the linear movement, which studiomdl takes
/// into the movement and spreads over the frames), and whether the last frame of a looping
/// sequence differs from its first (studiomdl makes it the first).
struct FrameRules {
    drift: Vec3,
    last_differs: bool,
}

fn frame_rules(model: &Model, s: usize) -> FrameRules {
    use studio_model::motion::{STUDIO_LX, STUDIO_LY, STUDIO_LZ};
    let sequence = &model.sequences[s];
    let frames = sequence.frames();
    if frames < 2 {
        return FrameRules { drift: Vec3::ZERO, last_differs: false };
    }
    let first = crate::goldsrc::frame_values(model, sequence, 0, 0);
    let last = crate::goldsrc::frame_values(model, sequence, 0, frames - 1);
    let axes = [STUDIO_LX, STUDIO_LY, STUDIO_LZ].map(|flag| sequence.motion_type & flag != 0);
    let mut drift = Vec3::ZERO;
    if let (Some(a), Some(b)) = (first.first(), last.first()) {
        for axis in 0..3 {
            if axes[axis] {
                drift[axis] = b[axis] - a[axis];
            }
        }
    }
    let mut last_differs = false;
    if sequence.is_looping() {
        for blend in 0..sequence.num_blends.max(1) {
            let first = crate::goldsrc::frame_values(model, sequence, blend, 0);
            let last = crate::goldsrc::frame_values(model, sequence, blend, frames - 1);
            for (a, b) in first.iter().zip(&last) {
                let positions = (0..3).any(|d| !axes[d] && (a[d] - b[d]).abs() > 1e-4);
                let angles = (3..6).any(|d| (a[d] - b[d]).abs() > 1e-5);
                last_differs |= positions || angles;
            }
        }
    }
    if drift.abs().max_element() < 1e-4 {
        drift = Vec3::ZERO;
    }
    FrameRules { drift, last_differs }
}

/// The part of the drift the poses show: none along an axis the game removes from the motion
/// bone (`STUDIO_X`, `STUDIO_Y`, `STUDIO_Z`: set to 0 after evaluation, in both models).
fn shown_drift(sequence: &studio_model::Sequence, drift: Vec3) -> Vec3 {
    use studio_model::motion::{STUDIO_X, STUDIO_Y, STUDIO_Z};
    let keep = |flag: i32| if sequence.motion_type & flag != 0 { 0.0 } else { 1.0 };
    drift * Vec3::new(keep(STUDIO_X), keep(STUDIO_Y), keep(STUDIO_Z))
}

/// The blend bytes that give each of a sequence's blends alone.
fn blend_corners(num_blends: usize) -> &'static [[u8; 2]] {
    match num_blends {
        0 | 1 => &[[0, 0]],
        2 => &[[0, 0], [255, 0]],
        _ => &[[0, 0], [255, 0], [0, 255], [255, 255]],
    }
}

/// Notes what [`frame_rules`] and studiomdl's event rule change in sequence `s`.
fn note_frame_rules(original: &Model, s: usize, rules: &FrameRules, r: &mut Report) {
    let sequence = &original.sequences[s];
    let label = &sequence.label;
    if rules.drift != Vec3::ZERO {
        r.expected.push(format!(
            "sequence {s} {label:?}: its root moves {} between its first and last frame besides its linear \
             movement; studiomdl's LX/LY/LZ takes that into the movement ({})",
            rules.drift,
            sequence.linear_movement + rules.drift
        ));
    }
    if rules.last_differs {
        r.expected.push(format!(
            "sequence {s} {label:?} loops but its last frame differs from its first; studiomdl makes it the \
             first, so that frame is not compared"
        ));
    }
    let frames = sequence.frames() as i32;
    for e in sequence.events.iter().filter(|e| e.frame < 0 || e.frame >= frames) {
        r.expected.push(format!(
            "sequence {s} {label:?}: event {} at frame {} is outside its frames; studiomdl moves it to the nearest",
            e.event, e.frame
        ));
    }
}

fn compare_poses(original: &Model, rebuilt: &Model, rules: &[FrameRules], r: &mut Report) {
    use studio_model::motion::STUDIO_RLOOP;
    // The controllers as studiomdl gives them (RLOOP by its rule), so that the same bytes give
    // the same angles.
    let mut expected = original.clone();
    for c in &mut expected.bone_controllers {
        let rloop = crate::qc::goldsrc_rloop(c.kind, c.start, c.end);
        c.kind = (c.kind & !STUDIO_RLOOP) | if rloop { STUDIO_RLOOP } else { 0 };
    }
    let (mut a_eval, mut b_eval) =
        (PoseEvaluator::new(Arc::new(expected)), PoseEvaluator::new(Arc::new(rebuilt.clone())));
    let (mut a, mut b) = (Pose::new(original), Pose::new(rebuilt));
    let controllers = neutral_bytes(&rebuilt.bone_controllers);
    let mut reported = 0;
    for (s, sequence) in original.sequences.iter().enumerate() {
        let rules = &rules[s];
        note_frame_rules(original, s, rules, r);
        let frames = sequence.frames();
        let compared = if rules.last_differs { frames - 1 } else { frames };
        for frame in 0..compared {
            let drift = shown_drift(sequence, rules.drift);
            let shift = if frames > 1 { drift * (frame as f32 / (frames - 1) as f32) } else { Vec3::ZERO };
            for &blend in blend_corners(sequence.num_blends) {
                let request = PoseRequest { sequence: s, frame: frame as f32, blend, controllers };
                if a_eval.evaluate_bones(&request, &mut a).is_err()
                    || b_eval.evaluate_bones(&request, &mut b).is_err()
                {
                    return differ(r, format!("sequence {s}: frame {frame} cannot be evaluated"));
                }
                r.poses += 1;
                let limits = tolerances(original, rebuilt, &a.bones);
                for (bone, ((x, y), (position, angle))) in
                    a.bones.iter().zip(&b.bones).zip(limits).enumerate()
                {
                    let moved = (Vec3::from(x.translation) - shift - Vec3::from(y.translation)).length();
                    let turned =
                        (x.matrix3 - y.matrix3).to_cols_array().iter().fold(0.0f32, |m, v| m.max(v.abs()));
                    if moved / position > r.worst_position / r.worst_tolerance.max(f32::MIN_POSITIVE) {
                        (r.worst_position, r.worst_tolerance) = (moved, position);
                    }
                    if (moved > position || turned > angle * 2.0) && reported < 10 {
                        reported += 1;
                        differ(
                            r,
                            format!(
                                "sequence {s} frame {frame} blend {blend:?} bone {bone}: moved {moved} (allowed \
                                 {position}), turned {turned} (allowed {})",
                                angle * 2.0
                            ),
                        );
                    }
                }
            }
        }
    }
}
