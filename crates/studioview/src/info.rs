//! `studioview info MODEL [--json]`: what a modder wants to know about a model.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;
use studio_document::readable::{num, vec};

use serde_json::{Value, json};
use studio_model::motion::motion_flags_text;
use studio_model::{
    GroupStatus, Loaded, MODEL_FLAG_NAMES, Model, TEXTURE_FLAG_NAMES, TextureSource, hit_group_name,
};

/// Runs the command.
pub fn run(path: &Path, as_json: bool) -> ExitCode {
    studio_document::installs::shared(|| run_now(path, as_json))
}

/// [`run`], inside [`studio_document::installs::shared`]: the model's game opened once.
fn run_now(path: &Path, as_json: bool) -> ExitCode {
    if let Some(result) = source_model(path) {
        return match result {
            Ok(loaded) => {
                if as_json {
                    let json = crate::info_source::to_json(path, &loaded);
                    crate::stdout::outln!("{}", serde_json::to_string_pretty(&json).unwrap_or_default());
                } else {
                    crate::stdout::out!("{}", crate::info_source::to_text(path, &loaded));
                }
                ExitCode::SUCCESS
            }
            Err(error) => {
                eprintln!("error {error}");
                ExitCode::FAILURE
            }
        };
    }
    match studio_document::model_files::goldsrc_load(path) {
        Ok(loaded) => {
            if as_json {
                crate::stdout::outln!(
                    "{}",
                    serde_json::to_string_pretty(&to_json(path, &loaded)).unwrap_or_default()
                );
            } else {
                crate::stdout::out!("{}", to_text(path, &loaded));
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error {error}");
            ExitCode::FAILURE
        }
    }
}

/// Names of the set bits of `flags`, and any unknown ones in hex.
pub fn flag_names(flags: i32, names: &[(i32, &str)]) -> String {
    let mut parts: Vec<String> =
        names.iter().filter(|(bit, _)| flags & bit != 0).map(|(_, n)| (*n).to_owned()).collect();
    let known = names.iter().fold(0, |all, (bit, _)| all | bit);
    if flags & !known != 0 {
        parts.push(format!("{:#x}", flags & !known));
    }
    if parts.is_empty() { "none".to_owned() } else { parts.join("|") }
}

/// The model at `path` loaded as a Source model with its companions, when the file starts
/// like one.
pub fn source_model(path: &Path) -> Option<Result<studio_source::LoadedSource, String>> {
    studio_document::model_files::source_load(path).map(|result| result.map_err(|e| e.to_string()))
}

fn v3(v: glam::Vec3) -> Value {
    json!([v.x, v.y, v.z])
}

fn texture_source(model: &Model) -> &'static str {
    match model.texture_source {
        TextureSource::Main => "main file",
        TextureSource::TextureFile => "texture file",
        TextureSource::None => "none",
    }
}

fn group_status(status: &GroupStatus) -> String {
    match status {
        GroupStatus::Loaded => "loaded".to_owned(),
        GroupStatus::Missing { expected } => format!("missing: {expected} not found"),
        GroupStatus::Invalid(error) => format!("unusable: {error}"),
    }
}

/// The whole model as JSON.
pub fn to_json(path: &Path, loaded: &Loaded) -> Value {
    let m = &loaded.model;
    let h = &m.header;
    json!({
        "format": "goldsrc",
        "version": studio_model::STUDIO_VERSION,
        "file": path.display().to_string(),
        "name": h.name,
        "companions": loaded.companions.iter().map(|c| c.display().to_string()).collect::<Vec<_>>(),
        "eye_position": v3(h.eye_position),
        "hull": {"min": v3(h.min), "max": v3(h.max)},
        "bounding_box": {"min": v3(h.bbmin), "max": v3(h.bbmax)},
        "flags": h.flags,
        "flag_names": flag_names(h.flags, &MODEL_FLAG_NAMES),
        "counts": {
            "bones": m.bones.len(), "bone_controllers": m.bone_controllers.len(), "hitboxes": m.hitboxes.len(),
            "sequences": m.sequences.len(), "sequence_groups": m.sequence_groups.len(),
            "attachments": m.attachments.len(), "transitions": m.transitions.count(),
            "body_parts": m.body_parts.len(), "textures": m.textures.len(),
            "skin_families": m.skins.num_families(), "skin_refs": m.skins.num_refs(),
        },
        "bones": m.bones.iter().map(|b| json!({
            "name": b.name, "parent": b.parent, "flags": b.flags, "controllers": b.controllers,
            "value": b.value, "scale": b.scale,
        })).collect::<Vec<_>>(),
        "bone_controllers": m.bone_controllers.iter().map(|c| json!({
            "bone": c.bone, "type": motion_flags_text(c.kind), "start": c.start, "end": c.end,
            "rest": c.rest, "index": c.index,
        })).collect::<Vec<_>>(),
        "sequence_groups": m.sequence_groups.iter().map(|g| json!({
            "label": g.label, "name": g.name, "status": group_status(&g.status),
        })).collect::<Vec<_>>(),
        "sequences": m.sequences.iter().map(|s| json!({
            "name": s.label, "frames": s.num_frames, "fps": s.fps, "looping": s.is_looping(),
            "activity": s.activity, "activity_weight": s.activity_weight,
            "blends": s.num_blends,
            "blend_types": s.blend_type.map(motion_flags_text),
            "blend_start": s.blend_start, "blend_end": s.blend_end,
            "motion_type": motion_flags_text(s.motion_type), "linear_movement": v3(s.linear_movement),
            "group": s.group, "available": s.animation.is_some(),
            "entry_node": s.entry_node, "exit_node": s.exit_node, "node_flags": s.node_flags,
            "bbmin": v3(s.bbmin), "bbmax": v3(s.bbmax),
            "events": s.events.iter().map(|e| json!({
                "frame": e.frame, "event": e.event, "type": e.kind, "options": e.options,
            })).collect::<Vec<_>>(),
            "pivots": s.pivots.len(),
        })).collect::<Vec<_>>(),
        "hitboxes": m.hitboxes.iter().map(|b| json!({
            "bone": b.bone, "group": b.group, "group_name": hit_group_name(b.group),
            "bbmin": v3(b.bbmin), "bbmax": v3(b.bbmax),
        })).collect::<Vec<_>>(),
        "attachments": m.attachments.iter().map(|a| json!({
            "name": a.name, "bone": a.bone, "org": v3(a.org),
        })).collect::<Vec<_>>(),
        "body_parts": m.body_parts.iter().map(|p| json!({
            "name": p.name, "base": p.base,
            "submodels": p.submodels.iter().map(|s| json!({
                "name": s.name, "vertices": s.vertices.len(), "normals": s.normals.len(),
                "meshes": s.meshes.len(),
                "triangles": s.meshes.iter().map(|mesh| mesh.triangles.len()).sum::<usize>(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "transition_table": m.transitions.table(),
        "texture_source": texture_source(m),
        "textures": m.textures.iter().map(|t| json!({
            "name": t.name, "width": t.width, "height": t.height, "flags": t.flags,
            "flag_names": flag_names(t.flags, &TEXTURE_FLAG_NAMES),
        })).collect::<Vec<_>>(),
        "skins": (0..m.skins.num_families()).map(|f| m.skins.family(f).unwrap_or_default().to_vec()).collect::<Vec<_>>(),
        "warnings": m.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>(),
    })
}

/// The model as text for a person.
pub fn to_text(path: &Path, loaded: &Loaded) -> String {
    let m = &loaded.model;
    let h = &m.header;
    let mut s = String::new();
    let _ = writeln!(s, "{}  ({})", path.display(), h.name);
    for c in &loaded.companions {
        let _ = writeln!(s, "  companion file: {}", c.display());
    }
    let _ = writeln!(s, "eye position   {}", vec(h.eye_position));
    let _ = writeln!(s, "hull           {} .. {}", vec(h.min), vec(h.max));
    let _ = writeln!(s, "bounding box   {} .. {}", vec(h.bbmin), vec(h.bbmax));
    let _ = writeln!(s, "flags          {} ({})", h.flags, flag_names(h.flags, &MODEL_FLAG_NAMES));
    let _ = writeln!(
        s,
        "counts         {} bones, {} controllers, {} hit boxes, {} sequences in {} groups, {} attachments, \
         {} transition nodes, {} body parts, {} textures ({}), {} skin families",
        m.bones.len(),
        m.bone_controllers.len(),
        m.hitboxes.len(),
        m.sequences.len(),
        m.sequence_groups.len(),
        m.attachments.len(),
        m.transitions.count(),
        m.body_parts.len(),
        m.textures.len(),
        texture_source(m),
        m.skins.num_families(),
    );
    let _ = writeln!(s, "\nbones");
    for (i, b) in m.bones.iter().enumerate() {
        let parent = b.parent.map_or("-".to_owned(), |p| p.to_string());
        let controllers: Vec<String> = b
            .controllers
            .iter()
            .enumerate()
            .filter_map(|(dof, c)| c.map(|c| format!("{}:{c}", studio_model::CHANNEL_NAMES[dof])))
            .collect();
        let _ = writeln!(s, "  {i:3} {:<32} parent {parent:>3}  {}", b.name, controllers.join(" "));
    }
    if !m.bone_controllers.is_empty() {
        let _ = writeln!(s, "\nbone controllers");
        for (i, c) in m.bone_controllers.iter().enumerate() {
            let unit = if c.is_rotation() { "deg" } else { "units" };
            let _ = writeln!(
                s,
                "  {i:3} bone {:3} {:<10} {} .. {} {unit}, rest {}, index {}{}",
                c.bone,
                motion_flags_text(c.kind),
                num(c.start),
                num(c.end),
                c.rest,
                c.index,
                if c.index == 4 { " (mouth)" } else { "" },
            );
        }
    }
    let _ = writeln!(s, "\nsequence groups");
    for (i, g) in m.sequence_groups.iter().enumerate() {
        let _ = writeln!(s, "  {i:3} {:<16} {:<32} {}", g.label, g.name, group_status(&g.status));
    }
    let _ = writeln!(s, "\nsequences");
    for (i, q) in m.sequences.iter().enumerate() {
        let mut line = format!(
            "  {i:3} {:<24} {:4} frames {:6.2} fps {:<8} activity {:3}",
            q.label,
            q.num_frames,
            num(q.fps),
            if q.is_looping() { "looping" } else { "once" },
            q.activity,
        );
        if q.num_blends > 1 {
            let _ = write!(
                line,
                " blends {} ({} {}..{}",
                q.num_blends,
                motion_flags_text(q.blend_type[0]),
                num(q.blend_start[0]),
                num(q.blend_end[0])
            );
            if q.blend_type[1] != 0 {
                let _ = write!(
                    line,
                    ", {} {}..{}",
                    motion_flags_text(q.blend_type[1]),
                    num(q.blend_start[1]),
                    num(q.blend_end[1])
                );
            }
            line.push(')');
        }
        if q.group != 0 {
            let _ = write!(line, " group {}", q.group);
        }
        if q.animation.is_none() {
            line.push_str(" [unavailable]");
        }
        if q.motion_type != 0 {
            let _ = write!(line, " motion {} {}", motion_flags_text(q.motion_type), vec(q.linear_movement));
        }
        let _ = writeln!(s, "{line}");
        for e in &q.events {
            let _ = writeln!(s, "        event {} at frame {} {:?}", e.event, e.frame, e.options);
        }
        if !q.pivots.is_empty() {
            let _ = writeln!(s, "        {} pivots", q.pivots.len());
        }
        if q.entry_node != 0 || q.exit_node != 0 {
            let _ = writeln!(s, "        transition nodes {} -> {}", q.entry_node, q.exit_node);
        }
    }
    if m.transitions.count() > 0 {
        let _ = writeln!(s, "\ntransition graph (next node from row to column; 0 = straight there)");
        for from in 1..=m.transitions.count() {
            let row: Vec<String> = (1..=m.transitions.count())
                .map(|to| m.transitions.next(from, to).unwrap_or(0).to_string())
                .collect();
            let _ = writeln!(s, "  {from:3}: {}", row.join(" "));
        }
    }
    if !m.hitboxes.is_empty() {
        let _ = writeln!(s, "\nhit boxes");
        for (i, b) in m.hitboxes.iter().enumerate() {
            let group = hit_group_name(b.group).unwrap_or("?");
            let _ = writeln!(
                s,
                "  {i:3} bone {:3} ({}) group {} ({group}) {} .. {}",
                b.bone,
                m.bones[b.bone].name,
                b.group,
                vec(b.bbmin),
                vec(b.bbmax)
            );
        }
    }
    if !m.attachments.is_empty() {
        let _ = writeln!(s, "\nattachments");
        for (i, a) in m.attachments.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {i:3} bone {:3} ({}) at {} {}",
                a.bone,
                m.bones[a.bone].name,
                vec(a.org),
                a.name
            );
        }
    }
    let _ = writeln!(s, "\nbody parts");
    for (i, p) in m.body_parts.iter().enumerate() {
        let _ = writeln!(s, "  {i:3} {} (base {})", p.name, p.base);
        for (j, sm) in p.submodels.iter().enumerate() {
            let tris: usize = sm.meshes.iter().map(|mesh| mesh.triangles.len()).sum();
            let _ = writeln!(
                s,
                "      {j:3} {:<32} {} vertices, {} normals, {} meshes, {tris} triangles",
                sm.name,
                sm.vertices.len(),
                sm.normals.len(),
                sm.meshes.len()
            );
        }
    }
    if !m.textures.is_empty() {
        let _ = writeln!(s, "\ntextures");
        for (i, t) in m.textures.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {i:3} {:<32} {}x{} {}",
                t.name,
                t.width,
                t.height,
                flag_names(t.flags, &TEXTURE_FLAG_NAMES)
            );
        }
        let _ = writeln!(s, "\nskin families");
        for f in 0..m.skins.num_families() {
            let _ = writeln!(s, "  {f:3} {:?}", m.skins.family(f).unwrap_or_default());
        }
    }
    if !m.warnings.is_empty() {
        let _ = writeln!(s, "\nwarnings");
        for w in &m.warnings {
            let _ = writeln!(s, "  {w}");
        }
    }
    s
}
