//! QC lines in studiomdl's syntax for what a model's file holds: `$eyeposition`, `$bbox`,
//! `$cbox`, `$hbox` (under `$hboxset` for Source), `$attachment`, `$controller`,
//! `$texrendermode` (version 10), `$bodygroup` and `$sequence` with its fps, loop, activity and
//! weight, blends and events. Numbers are written in the shortest form that reads back to the
//! same `f32`, so lines parsed back equal the file's records.

use std::fmt::Write;

use glam::Vec3;
use studio_model::Model;
use studio_source::SourceModel;

/// Half-Life's activity names by number (`activity.h`; `ACT_RESET` is 0, `ACT_IDLE` 1…).
const GOLDSRC_ACTIVITIES: [&str; 76] = [
    "ACT_IDLE",
    "ACT_GUARD",
    "ACT_WALK",
    "ACT_RUN",
    "ACT_FLY",
    "ACT_SWIM",
    "ACT_HOP",
    "ACT_LEAP",
    "ACT_FALL",
    "ACT_LAND",
    "ACT_STRAFE_LEFT",
    "ACT_STRAFE_RIGHT",
    "ACT_ROLL_LEFT",
    "ACT_ROLL_RIGHT",
    "ACT_TURN_LEFT",
    "ACT_TURN_RIGHT",
    "ACT_CROUCH",
    "ACT_CROUCHIDLE",
    "ACT_STAND",
    "ACT_USE",
    "ACT_SIGNAL1",
    "ACT_SIGNAL2",
    "ACT_SIGNAL3",
    "ACT_TWITCH",
    "ACT_COWER",
    "ACT_SMALL_FLINCH",
    "ACT_BIG_FLINCH",
    "ACT_RANGE_ATTACK1",
    "ACT_RANGE_ATTACK2",
    "ACT_MELEE_ATTACK1",
    "ACT_MELEE_ATTACK2",
    "ACT_RELOAD",
    "ACT_ARM",
    "ACT_DISARM",
    "ACT_EAT",
    "ACT_DIESIMPLE",
    "ACT_DIEBACKWARD",
    "ACT_DIEFORWARD",
    "ACT_DIEVIOLENT",
    "ACT_BARNACLE_HIT",
    "ACT_BARNACLE_PULL",
    "ACT_BARNACLE_CHOMP",
    "ACT_BARNACLE_CHEW",
    "ACT_SLEEP",
    "ACT_INSPECT_FLOOR",
    "ACT_INSPECT_WALL",
    "ACT_IDLE_ANGRY",
    "ACT_WALK_HURT",
    "ACT_RUN_HURT",
    "ACT_HOVER",
    "ACT_GLIDE",
    "ACT_FLY_LEFT",
    "ACT_FLY_RIGHT",
    "ACT_DETECT_SCENT",
    "ACT_SNIFF",
    "ACT_BITE",
    "ACT_THREAT_DISPLAY",
    "ACT_FEAR_DISPLAY",
    "ACT_EXCITED",
    "ACT_SPECIAL_ATTACK1",
    "ACT_SPECIAL_ATTACK2",
    "ACT_COMBAT_IDLE",
    "ACT_WALK_SCARED",
    "ACT_RUN_SCARED",
    "ACT_VICTORY_DANCE",
    "ACT_DIE_HEADSHOT",
    "ACT_DIE_CHESTSHOT",
    "ACT_DIE_GUTSHOT",
    "ACT_DIE_BACKSHOT",
    "ACT_FLINCH_HEAD",
    "ACT_FLINCH_CHEST",
    "ACT_FLINCH_STOMACH",
    "ACT_FLINCH_LEFTARM",
    "ACT_FLINCH_RIGHTARM",
    "ACT_FLINCH_LEFTLEG",
    "ACT_FLINCH_RIGHTLEG",
];

/// A version 10 activity's name (`None` for 0, no activity, or a number with no name).
pub fn goldsrc_activity(activity: i32) -> Option<&'static str> {
    usize::try_from(activity).ok()?.checked_sub(1).and_then(|i| GOLDSRC_ACTIVITIES.get(i)).copied()
}

/// The activity studiomdl's `lookupActivity` reads from a token: a name of `activity.h`
/// (without case), else `ACT_` and C's `atoi` of the rest; 0 for none.
pub fn goldsrc_activity_token(token: &str) -> i32 {
    if let Some(i) = GOLDSRC_ACTIVITIES.iter().position(|a| a.eq_ignore_ascii_case(token)) {
        return i as i32 + 1;
    }
    let Some(rest) = token.get(..4).filter(|p| p.eq_ignore_ascii_case("ACT_")).and(token.get(4..)) else {
        return 0;
    };
    // atoi: leading white space, a sign, then digits, as far as they go.
    let rest = rest.trim_start();
    let (sign, digits) = match rest.as_bytes().first() {
        Some(b'-') => (-1i64, &rest[1..]),
        Some(b'+') => (1, &rest[1..]),
        _ => (1, rest),
    };
    let value = digits
        .bytes()
        .take_while(u8::is_ascii_digit)
        .fold(0i64, |v, d| (v * 10 + i64::from(d - b'0')).min(i64::from(i32::MAX) + 1));
    i32::try_from(sign * value).unwrap_or(if sign < 0 { i32::MIN } else { i32::MAX })
}

/// The motion type's QC name (`XR`, `Y`…), with `RLOOP` dropped.
fn motion(kind: i32) -> &'static str {
    use studio_model::motion::*;
    match kind & STUDIO_TYPES {
        STUDIO_X => "X",
        STUDIO_Y => "Y",
        STUDIO_Z => "Z",
        STUDIO_XR => "XR",
        STUDIO_YR => "YR",
        STUDIO_ZR => "ZR",
        _ => "",
    }
}

/// Three numbers, each in the shortest form that reads back to the same `f32`.
pub(crate) fn v(v: Vec3) -> String {
    // Adding zero makes −0 (a negated zero, as a flipped box corner gives) print as `0`.
    let v = v + Vec3::ZERO;
    format!("{} {} {}", v.x, v.y, v.z)
}

/// A name as a quoted QC token (quotes inside cannot be written, so they become `'`).
pub(crate) fn q(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "'"))
}

/// The name of a Source model's bone `bone` (empty for none).
fn bone_name(model: &SourceModel, bone: usize) -> &str {
    model.bones.get(bone).map_or("", |b| b.name.as_str())
}

/// `$modelname`, `$eyeposition`, `$bbox` (the view box) and `$cbox` (the hull).
fn header_lines(out: &mut String, name: &str, eye: Vec3, view: (Vec3, Vec3), hull: (Vec3, Vec3)) {
    let _ = writeln!(out, "$modelname {}", q(name));
    box_lines(out, eye, view, hull);
}

/// A version 10 model's `$eyeposition`, `$bbox` and `$cbox` as Valve's Half-Life studiomdl
/// reads them, then a blank line. Its `Cmd_Eyeposition` stores (−y, x, z) of the three numbers
/// (turning them into the model's frame, which faces +x), so the eye position (x, y, z) is
/// written `y −x z`; and `WriteModel` stores `$bbox` as the header's `min`/`max` (the hull) and
/// `$cbox` as its `bbmin`/`bbmax` (the clipping box), the other way round from Source's compiler.
pub(crate) fn goldsrc_box_lines(out: &mut String, h: &studio_model::Header) {
    let eye = h.eye_position;
    let _ = writeln!(out, "$eyeposition {}", v(Vec3::new(eye.y, -eye.x, eye.z)));
    let _ = writeln!(out, "$bbox {} {}", v(h.min), v(h.max));
    let _ = writeln!(out, "$cbox {} {}\n", v(h.bbmin), v(h.bbmax));
}

/// `$eyeposition`, `$bbox` (the view box) and `$cbox` (the hull), then a blank line.
pub(crate) fn box_lines(out: &mut String, eye: Vec3, view: (Vec3, Vec3), hull: (Vec3, Vec3)) {
    let _ = writeln!(out, "$eyeposition {}", v(eye));
    let _ = writeln!(out, "$bbox {} {}", v(view.0), v(view.1));
    let _ = writeln!(out, "$cbox {} {}\n", v(hull.0), v(hull.1));
}

/// The `$controller` line of controller `i`, which reads `input` (0–3, above that the mouth),
/// with its rest value in a comment (studiomdl has no option for it: it writes 0).
fn controller_line(
    out: &mut String,
    i: usize,
    input: i32,
    bone: &str,
    kind: i32,
    range: (f32, f32),
    rest: i32,
) {
    let index = if input > 3 { "mouth".to_owned() } else { input.to_string() };
    let (start, end) = range;
    let _ = writeln!(
        out,
        "$controller {index} {} {} {start} {end} // controller {i}, rest {rest}",
        q(bone),
        motion(kind)
    );
}

/// The `$hbox` line of a version 10 hit box.
pub fn goldsrc_hbox(model: &Model, h: &studio_model::Hitbox) -> String {
    hbox_on(h, model.bones.get(h.bone).map_or("", |b| b.name.as_str()))
}

/// The `$hbox` line of a version 10 hit box on the bone written `bone`.
fn hbox_on(h: &studio_model::Hitbox, bone: &str) -> String {
    format!("$hbox {} {} {} {}", h.group, q(bone), v(h.bbmin), v(h.bbmax))
}

/// The `$attachment` line of a version 10 attachment.
pub fn goldsrc_attachment(model: &Model, index: usize, a: &studio_model::Attachment) -> String {
    attachment_on(index, a, model.bones.get(a.bone).map_or("", |b| b.name.as_str()))
}

/// The `$attachment` line of a version 10 attachment on the bone written `bone`.
fn attachment_on(index: usize, a: &studio_model::Attachment, bone: &str) -> String {
    format!("$attachment {index} {} {}", q(bone), v(a.org))
}

/// `$texrendermode` lines for each texture's render flags (`additive`, `masked`: all
/// studiomdl accepts), naming texture `i` `names[i]`, and a comment for each flag studiomdl
/// cannot give ([`crate::texture_flags`]; chrome comes from the name).
pub(crate) fn goldsrc_texture_lines(out: &mut String, model: &Model, names: &[&str]) {
    for (texture, name) in model.textures.iter().zip(names) {
        for mode in crate::texture_flags::render_modes(texture.flags) {
            let _ = writeln!(out, "$texrendermode {} {mode}", q(name));
        }
        for lost in crate::texture_flags::lost(texture.flags) {
            let _ = writeln!(out, "// {name}: {lost}");
        }
    }
}

/// Whether studiomdl gives a controller of `kind` from `start` to `end` `STUDIO_RLOOP`
/// (`Cmd_Controller`: a rotation whose ends are the same angle, compared as `(int)(a + 360) %
/// 360`).
pub fn goldsrc_rloop(kind: i32, start: f32, end: f32) -> bool {
    use studio_model::motion::{STUDIO_XR, STUDIO_YR, STUDIO_ZR};
    let turn = |a: f32| (a + 360.0) as i32 % 360;
    kind & (STUDIO_XR | STUDIO_YR | STUDIO_ZR) != 0 && turn(start) == turn(end)
}

/// The `$controller`, `$hbox` and `$attachment` lines of a version 10 model whose bones are
/// written `bones[i]`, with comments for what studiomdl cannot give back: a controller's rest
/// value, an `RLOOP` flag its range does not imply, an attachment's name.
pub(crate) fn goldsrc_skeleton_lines(out: &mut String, model: &Model, bones: &[String]) {
    use studio_model::motion::STUDIO_RLOOP;
    let name = |bone: usize| bones.get(bone).map_or("", String::as_str);
    for (i, c) in model.bone_controllers.iter().enumerate() {
        controller_line(out, i, c.index, name(c.bone), c.kind, (c.start, c.end), c.rest);
        if (c.kind & STUDIO_RLOOP != 0) != goldsrc_rloop(c.kind, c.start, c.end) {
            let _ = writeln!(
                out,
                "// controller {i}: RLOOP is {} here; studiomdl sets it for a rotation whose ends are one angle",
                if c.kind & STUDIO_RLOOP != 0 { "set" } else { "not set" }
            );
        }
    }
    for h in &model.hitboxes {
        let _ = writeln!(out, "{}", hbox_on(h, name(h.bone)));
    }
    for (i, a) in model.attachments.iter().enumerate() {
        let _ = writeln!(out, "{}", attachment_on(i, a, name(a.bone)));
        if !a.name.is_empty() {
            let _ = writeln!(
                out,
                "// attachment {i} is named {} (studiomdl reads no attachment name)",
                q(&a.name)
            );
        }
    }
}

/// The `$controller`, `$hboxset`/`$hbox` and `$attachment` lines of a Source model.
pub(crate) fn source_skeleton_lines(out: &mut String, model: &SourceModel) {
    for (i, c) in model.bone_controllers.iter().enumerate() {
        let bone = usize::try_from(c.bone).map_or("", |b| bone_name(model, b));
        controller_line(out, i, c.input, bone, c.kind, (c.start, c.end), c.rest);
    }
    for set in &model.hitbox_sets {
        let _ = writeln!(out, "$hboxset {}", q(&set.name));
        for h in &set.hitboxes {
            let _ = writeln!(out, "{}", source_hbox(model, h));
        }
    }
    for a in &model.attachments {
        let _ = writeln!(out, "{}", source_attachment(model, a));
    }
}

/// The QC lines of a version 10 model.
pub fn goldsrc(model: &Model) -> String {
    let mut out = String::new();
    let h = &model.header;
    let _ = writeln!(out, "$modelname {}", q(&h.name));
    goldsrc_box_lines(&mut out, h);
    for part in &model.body_parts {
        let _ = writeln!(out, "$bodygroup {} {{", q(&part.name));
        for sub in &part.submodels {
            if sub.name.eq_ignore_ascii_case("blank") || sub.vertices.is_empty() {
                let _ = writeln!(out, "\tblank");
            } else {
                let _ = writeln!(out, "\tstudio {}", q(sub.name.trim_end_matches(".smd")));
            }
        }
        out.push_str("}\n");
    }
    let names: Vec<&str> = model.textures.iter().map(|t| t.name.as_str()).collect();
    goldsrc_texture_lines(&mut out, model, &names);
    out.push('\n');
    let bones: Vec<String> = model.bones.iter().map(|b| b.name.clone()).collect();
    goldsrc_skeleton_lines(&mut out, model, &bones);
    out.push('\n');
    for s in &model.sequences {
        out.push_str(&goldsrc_sequence(s));
    }
    out
}

/// The `$sequence` block of a version 10 sequence.
pub fn goldsrc_sequence(s: &studio_model::Sequence) -> String {
    goldsrc_sequence_of(s, &s.label, std::slice::from_ref(&s.label), "")
}

/// The `$sequence` block of a version 10 sequence labelled `label` whose blends are the SMD
/// files `files`, with `options` (already formatted, each with a leading space) after its fps
/// and loop. Everything is on the `$sequence` line, the event block's `{` too: `Cmd_Sequence`
/// reads the options only from that line (`TokenAvailable`), and crosses lines only inside
/// braces. What studiomdl cannot read (a second blend axis: its `blend` option sets the first
/// axis only) is said in a comment line before it.
pub fn goldsrc_sequence_of(
    s: &studio_model::Sequence,
    label: &str,
    files: &[String],
    options: &str,
) -> String {
    let mut comments = String::new();
    let mut line = format!("$sequence {}", q(label));
    for file in files {
        line.push(' ');
        line.push_str(&q(file.trim_end_matches(".smd")));
    }
    line.push_str(&format!(" fps {}", s.fps));
    if s.is_looping() {
        line.push_str(" loop");
    }
    line.push_str(options);
    match goldsrc_activity(s.activity) {
        Some(name) => line.push_str(&format!(" {name} {}", s.activity_weight)),
        // `lookupActivity` reads `ACT_` and a number as that number.
        None if s.activity != 0 => line.push_str(&format!(" ACT_{} {}", s.activity, s.activity_weight)),
        None => {}
    }
    if s.num_blends > 1 && s.blend_type[0] != 0 {
        line.push_str(&format!(" blend {} {} {}", motion(s.blend_type[0]), s.blend_start[0], s.blend_end[0]));
    }
    if s.num_blends > 1 && s.blend_type[1] != 0 {
        let _ = writeln!(
            comments,
            "// {label}: second blend axis {} {} {} (studiomdl's blend option sets the first axis only)",
            motion(s.blend_type[1]),
            s.blend_start[1],
            s.blend_end[1]
        );
    }
    let events = s.events.iter().map(|e| (e.event.to_string(), e.frame.to_string(), e.options.as_str()));
    comments + &with_events(line, events)
}

/// A `$sequence` line and, when it has events, its block of `{ event NAME FRAME "OPTIONS" }`,
/// opened on the `$sequence` line (studiomdl reads a sequence's options from that line alone).
fn with_events<'a>(line: String, events: impl ExactSizeIterator<Item = (String, String, &'a str)>) -> String {
    if events.len() == 0 {
        return line + "\n";
    }
    let mut out = line + " {\n";
    for (name, frame, options) in events {
        let options = if options.is_empty() { String::new() } else { format!(" {}", q(options)) };
        let _ = writeln!(out, "\t{{ event {name} {frame}{options} }}");
    }
    out + "}\n"
}

/// Pitch, yaw and roll in degrees of a 3×4 matrix's rotation (Valve's `MatrixAngles`).
fn angles(m: &[[f32; 4]; 3]) -> Vec3 {
    let forward = Vec3::new(m[0][0], m[1][0], m[2][0]);
    let left = Vec3::new(m[0][1], m[1][1], m[2][1]);
    let up_z = m[2][2];
    let xy = (forward.x * forward.x + forward.y * forward.y).sqrt();
    if xy > 0.001 {
        Vec3::new(
            (-forward.z).atan2(xy).to_degrees(),
            forward.y.atan2(forward.x).to_degrees(),
            left.z.atan2(up_z).to_degrees(),
        )
    } else {
        Vec3::new((-forward.z).atan2(xy).to_degrees(), (-left.x).atan2(left.y).to_degrees(), 0.0)
    }
}

/// The `$hbox` line of a Source hit box.
pub fn source_hbox(model: &SourceModel, h: &studio_source::Hitbox) -> String {
    let mut line = format!("$hbox {} {} {} {}", h.group, q(bone_name(model, h.bone)), v(h.bbmin), v(h.bbmax));
    if !h.name.is_empty() {
        line.push(' ');
        line.push_str(&q(&h.name));
    }
    line
}

/// The `$attachment` line of a Source attachment.
pub fn source_attachment(model: &SourceModel, a: &studio_source::Attachment) -> String {
    let bone = a.bone.map_or("", |b| bone_name(model, b));
    let m = &a.local;
    let position = Vec3::new(m[0][3], m[1][3], m[2][3]);
    let mut line = format!("$attachment {} {} {} rotate {}", q(&a.name), q(bone), v(position), v(angles(m)));
    if a.flags & studio_source::ATTACHMENT_FLAG_WORLD_ALIGN != 0 {
        line.push_str(" world_align");
    }
    line
}

/// The QC lines of a Source model (its own records, not its include models').
pub fn source(model: &SourceModel) -> String {
    let mut out = String::new();
    let h = &model.header;
    header_lines(&mut out, &h.name, h.eye_position, h.view_box, h.hull);
    for part in &model.body_parts {
        let _ = writeln!(out, "$bodygroup {} {{", q(&part.name));
        for sub in &part.models {
            if sub.name.is_empty() || sub.name.eq_ignore_ascii_case("blank") {
                let _ = writeln!(out, "\tblank");
            } else {
                let _ = writeln!(out, "\tstudio {}", q(&sub.name));
            }
        }
        out.push_str("}\n");
    }
    source_skeleton_lines(&mut out, model);
    out.push('\n');
    for s in &model.sequences {
        out.push_str(&source_sequence(model, s));
    }
    out
}

/// The `$sequence` block of a Source sequence.
pub fn source_sequence(model: &SourceModel, s: &studio_source::Sequence) -> String {
    let first = s.animations.first().and_then(|&a| model.animations.get(a));
    let fps = first.map_or(30.0, |a| a.fps);
    let frames = first.map_or(1, |a| a.frames.max(1));
    let mut line = format!("$sequence {} {} fps {fps}", q(&s.label), q(&s.label));
    if s.flags & studio_source::STUDIO_LOOPING != 0 {
        line.push_str(" loop");
    }
    if s.flags & studio_source::STUDIO_DELTA != 0 {
        line.push_str(" delta");
    }
    if !s.activity_name.is_empty() {
        line.push_str(&format!(" activity {} {}", s.activity_name, s.activity_weight));
    }
    let params: Vec<_> = s.params.iter().enumerate().filter_map(|(axis, p)| p.map(|p| (axis, p))).collect();
    for (axis, p) in params {
        if let Some(param) = model.pose_parameters.get(p) {
            line.push_str(&format!(
                " blend {} {} {}",
                q(&param.name),
                s.param_start[axis],
                s.param_end[axis]
            ));
        }
    }
    let events = s.events.iter().map(|e| {
        let name = if e.name.is_empty() { e.event.to_string() } else { e.name.clone() };
        (name, (e.cycle * (frames - 1) as f32).round().to_string(), e.options.as_str())
    });
    with_events(line, events)
}
