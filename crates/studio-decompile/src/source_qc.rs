//! The QC of a decompiled Source model: studiomdl's commands for what the file holds, naming
//! the files of [`super::source::Layout`], and comments for what studiomdl has no command for
//! or what is not written yet.

use std::fmt::Write;

use glam::Vec3;
use studio_source::{FlexOp, SourceModel};

use super::flex_shapes::FlexShapes;
use super::source::{Layout, animation_stem, lods_of, material_name};
use super::stereo_split;
use crate::qc::{box_lines, q, source_skeleton_lines, v};

/// Source's motion flags (`studio.h`) by their QC names.
const MOTION_FLAGS: [(i32, &str); 12] = [
    (0x1, "X"),
    (0x2, "Y"),
    (0x4, "Z"),
    (0x8, "XR"),
    (0x10, "YR"),
    (0x20, "ZR"),
    (0x40, "LX"),
    (0x80, "LY"),
    (0x100, "LZ"),
    (0x200, "LXR"),
    (0x400, "LYR"),
    (0x800, "LZR"),
];

/// Sequence flags with a `$sequence` option of their own.
const SEQUENCE_OPTIONS: [(i32, &str); 7] = [
    (0x1, "loop"),
    (0x2, "snap"),
    (0x4, "delta"),
    (0x8, "autoplay"),
    (0x10, "post"),
    (0x100, "realtime"),
    (0x400, "hidden"),
];

/// Auto layer flags (`STUDIO_AL_*`) with a `blendlayer` option.
const LAYER_OPTIONS: [(i32, &str); 4] =
    [(0x40, "spline"), (0x80, "xfade"), (0x200, "noblend"), (0x1000, "local")];

fn name_of<T>(list: &[T], index: usize, name: impl Fn(&T) -> &str) -> String {
    list.get(index).map_or_else(|| format!("#{index}"), |t| name(t).to_owned())
}

/// The QC text of `model`, saved as `stem.mdl`, with the files of `layout`.
pub fn qc(
    model: &SourceModel,
    stem: &str,
    layout: &Layout,
    faces: &[Option<FlexShapes>],
    collision: Option<&str>,
) -> String {
    let mut out = String::new();
    let h = &model.header;
    let _ = writeln!(
        out,
        "// {stem}.qc: decompiled by studioview {} from {} (Source, version {})",
        env!("CARGO_PKG_VERSION"),
        q(&h.name),
        h.version
    );
    let _ = writeln!(out, "// Compile with the game's studiomdl from this folder: studiomdl {stem}.qc\n");
    let _ = writeln!(out, "$modelname {}", q(&h.name));
    for path in &model.material_paths {
        let _ = writeln!(out, "$cdmaterials {}", q(path));
    }
    if !h.surface_prop.is_empty() {
        let _ = writeln!(out, "$surfaceprop {}", q(&h.surface_prop));
    }
    for bone in model.bones.iter().filter(|b| !b.surface_prop.is_empty() && b.surface_prop != h.surface_prop)
    {
        let _ = writeln!(out, "$jointsurfaceprop {} {}", q(&bone.name), q(&bone.surface_prop));
    }
    if h.flags != 0 {
        let _ = writeln!(
            out,
            "// header flags 0x{:x} (studiomdl sets them from commands such as $opaque)",
            h.flags
        );
    }
    if h.mass != 0.0 && collision.is_none() {
        let _ = writeln!(out, "// mass {} (studiomdl takes it from $collisionmodel, with the .phy)", h.mass);
    }
    let _ = writeln!(out, "\n$illumposition {}", v(h.illum_position));
    box_lines(&mut out, h.eye_position, h.view_box, h.hull);

    body_parts(&mut out, model, layout, faces);
    lods(&mut out, model, layout);
    texture_groups(&mut out, model);

    for p in &model.pose_parameters {
        let mut line = format!("$poseparameter {} {} {}", q(&p.name), p.start, p.end);
        if p.loop_range != 0.0 {
            line.push_str(&format!(" loop {}", p.loop_range));
        }
        let _ = writeln!(out, "{line}");
    }
    source_skeleton_lines(&mut out, model);
    for chain in &model.ik_chains {
        let (Some(first), Some(last)) = (chain.links.first(), chain.links.last()) else { continue };
        let bone = name_of(&model.bones, last.bone, |b| b.name.as_str());
        let _ = writeln!(out, "$ikchain {} {} knee {}", q(&chain.name), q(&bone), v(first.knee_direction));
    }
    if let Some(collision) = collision {
        out.push_str(collision);
    }
    for include in &model.include_models {
        let _ = writeln!(out, "$includemodel {}", q(&include_path(&include.file)));
    }
    if !h.key_values.is_empty() {
        out.push_str("// $keyvalues of the model:\n");
        for line in h.key_values.lines() {
            let _ = writeln!(out, "//   {line}");
        }
    }
    out.push('\n');

    for (animation, file) in model.animations.iter().zip(&layout.animations) {
        let mut line = format!(
            "$animation {} {} fps {}",
            q(animation_stem(&animation.name)),
            q(file.trim_end_matches(".smd")),
            animation.fps
        );
        if animation.flags & studio_source::STUDIO_LOOPING != 0 {
            line.push_str(" loop");
        }
        let motion = animation.movements.iter().fold(0, |flags, m| flags | m.motion_flags);
        for (flag, name) in MOTION_FLAGS {
            if motion & flag != 0 {
                line.push(' ');
                line.push_str(name);
            }
        }
        if animation.flags & studio_source::STUDIO_DELTA != 0 {
            line.push_str(" // delta: the file holds each bone's offset from its default, not a pose");
        }
        let _ = writeln!(out, "{line}");
    }
    out.push('\n');
    for s in &model.sequences {
        sequence(&mut out, model, s);
    }
    out
}

/// `$bodygroup` per body part, or `$model` with its eyeballs and flex controllers for a part
/// whose first model has a face.
fn body_parts(out: &mut String, model: &SourceModel, layout: &Layout, faces: &[Option<FlexShapes>]) {
    for (p, (part, files)) in model.body_parts.iter().zip(&layout.models).enumerate() {
        let face = part
            .models
            .first()
            .is_some_and(|m| !m.eyeballs.is_empty() || m.meshes.iter().any(|x| !x.flexes.is_empty()));
        if face && part.models.len() == 1 {
            let file = files.first().and_then(|f| f.as_ref()).and_then(|l| l.first());
            let file = file.map_or("", |f| f.trim_end_matches(".smd"));
            let _ = writeln!(out, "$model {} {} {{", q(&part.name), q(file));
            face_lines(out, model, p, faces.get(p).and_then(Option::as_ref));
            out.push_str("}\n");
            continue;
        }
        let _ = writeln!(out, "$bodygroup {} {{", q(&part.name));
        for file in files {
            match file.as_ref().and_then(|lods| lods.first()) {
                Some(file) => {
                    let _ = writeln!(out, "\tstudio {}", q(file.trim_end_matches(".smd")));
                }
                None => out.push_str("\tblank\n"),
            }
        }
        out.push_str("}\n");
    }
    out.push('\n');
}

/// The eyeballs, flex shapes (`flexfile`), controllers and rules of body part `part`'s model.
fn face_lines(out: &mut String, model: &SourceModel, part: usize, shapes: Option<&FlexShapes>) {
    let Some(body) = model.body_parts.get(part).and_then(|p| p.models.first()) else { return };
    for eye in &body.eyeballs {
        // The QC gives the eye's centre in model space (studiomdl moves it into the bone's).
        let bone = model.bones.get(eye.bone);
        let to_model = bone
            .map_or(glam::Affine3A::IDENTITY, |b| studio_source_pose::affine_3x4(&b.pose_to_bone).inverse());
        let centre = to_model.transform_point3(eye.origin);
        let centre = Vec3::new(centre.y, -centre.x, centre.z);
        let angle = eye.z_offset.atan().to_degrees();
        let iris = if eye.iris_scale != 0.0 { 1.0 / eye.iris_scale } else { 0.0 };
        let _ = writeln!(
            out,
            "\teyeball {} {} {} {} {} {angle} \"iris_unused\" {iris}",
            q(&eye.name),
            q(bone.map_or("", |b| b.name.as_str())),
            v(centre),
            q(&material_name(model, eye.texture)),
            eye.radius * 2.0,
        );
    }
    let flexes = &model.flexes;
    let desc = |d: usize| name_of(&flexes.descs, d, String::as_str);
    let mut shaped = std::collections::HashSet::new();
    if let Some(shapes) = shapes {
        let _ = writeln!(
            out,
            "\tflexfile {} {{\n\t\tdefaultflex frame 0",
            q(shapes.file.trim_end_matches(".vta"))
        );
        for (f, key) in shapes.frames.iter().enumerate() {
            let d = key.desc;
            shaped.insert(d);
            let Some((pair, split)) = key.pair else {
                let _ = writeln!(out, "\t\tflex {} frame {}", q(&desc(d)), f + 1);
                continue;
            };
            shaped.insert(pair);
            let (own, partner) = (desc(d), desc(pair));
            match stereo_split::pair_stem(&own, &partner) {
                Some(stem) => {
                    let _ = write!(out, "\t\tflexpair {} {} frame {}", q(stem), split.split, f + 1);
                    if split.matched < split.of {
                        let _ = write!(
                            out,
                            " // this split gives {} of the {} moved vertices their side",
                            split.matched, split.of
                        );
                    }
                    out.push('\n');
                }
                None => {
                    let _ = writeln!(out, "\t\tflex {} frame {}", q(&own), f + 1);
                    let _ = writeln!(
                        out,
                        "\t\t// {own} is a stereo flex paired with {partner}, split {}: studiomdl's flexpair \
                         names a pair NAMER and NAMEL, which these names are not",
                        split.split
                    );
                }
            }
        }
        out.push_str("\t}\n");
    }
    for c in &flexes.controllers {
        let (low, high) = c.range();
        let _ = writeln!(out, "\tflexcontroller {} range {low} {high} {}", c.kind, q(&c.name));
    }
    // Descriptions that rules set but no shape has (the eyelids' targets, say) are locals.
    for rule in flexes.rules.iter().filter(|r| !shaped.contains(&r.flex)) {
        let _ = writeln!(out, "\tlocalvar %{}", desc(rule.flex));
    }
    for rule in &flexes.rules {
        let name = desc(rule.flex);
        match rule_expression(model, &rule.ops) {
            Some(expression) => {
                let _ = writeln!(out, "\t%{name} = {expression}");
            }
            None => {
                let _ = writeln!(
                    out,
                    "\t// %{name}: a rule of operations QC expressions have no form for (n-way, combo, dominate, eyelid)"
                );
            }
        }
    }
}

/// A flex rule's program as a QC expression, where it uses only what QC expressions can say.
fn rule_expression(model: &SourceModel, ops: &[FlexOp]) -> Option<String> {
    let flexes = &model.flexes;
    let mut stack: Vec<String> = Vec::new();
    for op in ops {
        let binary = |stack: &mut Vec<String>, f: &dyn Fn(String, String) -> String| {
            let b = stack.pop()?;
            let a = stack.pop()?;
            stack.push(f(a, b));
            Some(())
        };
        match *op {
            FlexOp::Const(c) => stack.push(c.to_string()),
            FlexOp::Fetch1(c) => stack.push(name_of(&flexes.controllers, c, |c| c.name.as_str())),
            FlexOp::Fetch2(d) => stack.push(format!("%{}", name_of(&flexes.descs, d, String::as_str))),
            FlexOp::Add => binary(&mut stack, &|a, b| format!("({a} + {b})"))?,
            FlexOp::Sub => binary(&mut stack, &|a, b| format!("({a} - {b})"))?,
            FlexOp::Mul => binary(&mut stack, &|a, b| format!("({a} * {b})"))?,
            FlexOp::Div => binary(&mut stack, &|a, b| format!("({a} / {b})"))?,
            FlexOp::Max => binary(&mut stack, &|a, b| format!("max({a}, {b})"))?,
            FlexOp::Min => binary(&mut stack, &|a, b| format!("min({a}, {b})"))?,
            FlexOp::Neg => {
                let a = stack.pop()?;
                stack.push(format!("-{a}"));
            }
            _ => return None,
        }
    }
    (stack.len() == 1).then(|| stack.pop()).flatten()
}

/// `$lod` blocks: from LOD 1 on, each model's file at that LOD in place of its LOD 0 file.
fn lods(out: &mut String, model: &SourceModel, layout: &Layout) {
    let most = layout.models.iter().flatten().flatten().map(Vec::len).max().unwrap_or(1);
    for lod in 1..most {
        let switch = model
            .vtx
            .as_ref()
            .and_then(|v| v.body_parts.iter().flatten().find_map(|m| m.lods.get(lod)))
            .map_or(0.0, |l| l.switch_point);
        let _ = writeln!(out, "$lod {switch} {{");
        for (p, models) in layout.models.iter().enumerate() {
            for (m, files) in models.iter().enumerate() {
                let Some(files) = files else { continue };
                if let (Some(base), Some(this)) =
                    (files.first(), files.get(lod.min(lods_of(model, p, m) - 1)))
                {
                    let _ = writeln!(
                        out,
                        "\treplacemodel {} {}",
                        q(base.trim_end_matches(".smd")),
                        q(this.trim_end_matches(".smd"))
                    );
                }
            }
        }
        out.push_str("}\n");
    }
}

/// `$texturegroup`: for each material slot that differs between families, each family's.
fn texture_groups(out: &mut String, model: &SourceModel) {
    let families = &model.skins.families;
    if families.len() < 2 {
        return;
    }
    let slots: Vec<usize> = (0..model.skins.num_refs)
        .filter(|&s| families.iter().any(|f| f.get(s) != families[0].get(s)))
        .collect();
    if slots.is_empty() {
        return;
    }
    out.push_str("$texturegroup \"skinfamilies\"\n{\n");
    for family in families {
        out.push_str("\t{");
        for &slot in &slots {
            let name = family.get(slot).and_then(|&t| model.textures.get(t)).map_or("", |t| t.name.as_str());
            let _ = write!(out, " {}", q(name));
        }
        out.push_str(" }\n");
    }
    out.push_str("}\n\n");
}

/// An include model's file as `$includemodel` takes it: `/`-separated, from the `models`
/// folder (the file stores `models/…`, sometimes with `\`).
fn include_path(file: &str) -> String {
    let file = file.replace('\\', "/");
    match file.get(..7) {
        Some(head) if head.eq_ignore_ascii_case("models/") => file[7..].to_owned(),
        _ => file,
    }
}

/// `STUDIO_OVERRIDE`: a placeholder an include model's sequence of that name replaces.
const STUDIO_OVERRIDE: i32 = 0x800;

/// A `$sequence` block (`$declaresequence` for a placeholder).
fn sequence(out: &mut String, model: &SourceModel, s: &studio_source::Sequence) {
    if s.flags & STUDIO_OVERRIDE != 0 && s.animations.is_empty() {
        let _ = writeln!(out, "$declaresequence {}", q(&s.label));
        return;
    }
    let anim_name = |a: usize| {
        model.animations.get(a).map_or_else(|| format!("#{a}"), |x| animation_stem(&x.name).to_owned())
    };
    let _ = writeln!(out, "$sequence {} {{", q(&s.label));
    let names: Vec<String> = s.animations.iter().map(|&a| q(&anim_name(a))).collect();
    if !names.is_empty() {
        let _ = writeln!(out, "\t{}", names.join(" "));
    }
    if s.animations.len() > 1 && s.grid[0] > 0 {
        let _ = writeln!(out, "\tblendwidth {}", s.grid[0]);
    }
    for axis in 0..2 {
        if let Some(p) = s.params[axis] {
            let param = name_of(&model.pose_parameters, p, |p| p.name.as_str());
            let _ = writeln!(out, "\tblend {} {} {}", q(&param), s.param_start[axis], s.param_end[axis]);
        }
    }
    if !s.pose_keys.is_empty() {
        let keys: Vec<String> = s.pose_keys.iter().map(f32::to_string).collect();
        let _ = writeln!(out, "\t// pose keys (the grid's parameter values): {}", keys.join(" "));
    }
    for (flag, name) in SEQUENCE_OPTIONS {
        if s.flags & flag != 0 {
            let _ = writeln!(out, "\t{name}");
        }
    }
    if s.flags & studio_source::STUDIO_CYCLEPOSE != 0
        && let Some(p) = s.cycle_pose
    {
        let _ = writeln!(out, "\tcyclepose {}", q(&name_of(&model.pose_parameters, p, |p| p.name.as_str())));
    }
    if !s.activity_name.is_empty() {
        let _ = writeln!(out, "\tactivity {} {}", s.activity_name, s.activity_weight);
    }
    for modifier in &s.activity_modifiers {
        let _ = writeln!(out, "\tactivitymodifier {}", q(modifier));
    }
    let _ = writeln!(out, "\tfadein {}\n\tfadeout {}", s.fade.0, s.fade.1);
    match (s.nodes, s.node_flags) {
        ((0, 0), _) => {}
        ((a, b), 0) if a == b => {
            let _ = writeln!(out, "\tnode {a}");
        }
        ((a, b), 0) => {
            let _ = writeln!(out, "\ttransition {a} {b}");
        }
        ((a, b), _) => {
            let _ = writeln!(out, "\trtransition {a} {b}");
        }
    }
    for layer in &s.layers {
        let target = usize::try_from(layer.sequence)
            .ok()
            .and_then(|i| model.sequences.get(i))
            .map_or("", |x| x.label.as_str());
        let ramps = [layer.start, layer.peak, layer.tail, layer.end];
        if ramps == [0.0; 4] && layer.flags == 0 {
            let _ = writeln!(out, "\taddlayer {}", q(target));
            continue;
        }
        let mut line =
            format!("\tblendlayer {} {} {} {} {}", q(target), ramps[0], ramps[1], ramps[2], ramps[3]);
        for (flag, name) in LAYER_OPTIONS {
            if layer.flags & flag != 0 {
                line.push(' ');
                line.push_str(name);
            }
        }
        if layer.flags & studio_source::STUDIO_AL_POSE != 0 {
            let param = usize::try_from(layer.pose)
                .map_or_else(|_| String::new(), |p| name_of(&model.pose_parameters, p, |p| p.name.as_str()));
            line.push_str(&format!(" poseparameter {}", q(&param)));
        }
        let _ = writeln!(out, "{line}");
    }
    for lock in &s.ik_locks {
        let chain = name_of(&model.ik_chains, lock.chain, |c| c.name.as_str());
        let _ =
            writeln!(out, "\tiklock {} {} {}", q(&chain), lock.position_weight, lock.local_rotation_weight);
    }
    if !s.weights.is_empty() && s.weights.iter().any(|&w| w != 1.0) {
        let weights: Vec<String> = model
            .bones
            .iter()
            .zip(&s.weights)
            .filter(|(_, w)| **w != 1.0)
            .map(|(b, w)| format!("{} {w}", q(&b.name)))
            .collect();
        let _ = writeln!(out, "\t// bone weights (a $weightlist): {}", weights.join(" "));
    }
    let frames = s.animations.first().and_then(|&a| model.animations.get(a)).map_or(1, |a| a.frames.max(1));
    for e in &s.events {
        let name = if e.name.is_empty() { e.event.to_string() } else { e.name.clone() };
        let frame = (e.cycle * (frames - 1) as f32).round();
        let options = if e.options.is_empty() { String::new() } else { format!(" {}", q(&e.options)) };
        let _ = writeln!(out, "\t{{ event {name} {frame}{options} }}");
    }
    if !s.key_values.is_empty() {
        let _ = writeln!(out, "\t// keyvalues: {}", s.key_values.replace('\n', " "));
    }
    out.push_str("}\n");
}
