//! `studioview info` for Source models (versions 44 to 49): what a Source modder wants to know,
//! as text and as JSON (the keys issue 10 lists).

use std::fmt::Write as _;
use std::path::Path;
use studio_document::readable::{num, vec};

use serde_json::{Value, json};
use studio_source::{
    Animation, BONE_FLAG_NAMES, HEADER_FLAG_NAMES, LoadedSource, SEQUENCE_FLAG_NAMES, STUDIO_LOOPING,
    Sequence, SourceModel,
};

use crate::info::flag_names;

fn v3(v: glam::Vec3) -> Value {
    json!([v.x, v.y, v.z])
}

/// A sequence's first animation: its frame count and rate are the sequence's.
fn first_animation<'a>(m: &'a SourceModel, q: &Sequence) -> Option<&'a Animation> {
    q.animations.first().and_then(|&a| m.animations.get(a))
}

/// LOD 0 triangles of model `model` of body part `part`, from the `.vtx` when it was read.
fn triangles(m: &SourceModel, part: usize, model: usize) -> Option<usize> {
    m.vtx.as_ref()?.body_parts.get(part)?.get(model).map(|model| model.triangles())
}

/// The include models: the name stored, and where it was found (or that it was not).
fn includes(loaded: &LoadedSource) -> Vec<(String, Option<String>)> {
    let m = &loaded.model;
    m.include_models
        .iter()
        .enumerate()
        .map(|(i, inc)| {
            let found = loaded.include_paths.get(i).cloned().flatten().map(|p| p.display().to_string());
            (inc.file.clone(), found)
        })
        .collect()
}

/// One sequence as JSON.
fn sequence_json(m: &SourceModel, q: &Sequence) -> Value {
    let first = first_animation(m, q);
    json!({
        "name": q.label,
        "activity": q.activity_name,
        "activity_modifiers": q.activity_modifiers,
        "flags": q.flags,
        "flag_names": flag_names(q.flags, &SEQUENCE_FLAG_NAMES),
        "frames": first.map(|a| a.frames),
        "fps": first.map(|a| a.fps),
        "looping": q.flags & STUDIO_LOOPING != 0,
        "grid": q.grid,
        "animations": q.animations,
        "params": q.params.iter().enumerate().filter_map(|(axis, p)| p.map(|p| json!({
            "parameter": p,
            "name": m.pose_parameters.get(p).map(|p| p.name.as_str()),
            "start": q.param_start[axis],
            "end": q.param_end[axis],
        }))).collect::<Vec<_>>(),
        "pose_keys": q.pose_keys,
        "layers": q.layers.iter().map(|l| json!({
            "sequence": l.sequence, "pose": l.pose, "flags": l.flags,
            "start": l.start, "peak": l.peak, "tail": l.tail, "end": l.end,
        })).collect::<Vec<_>>(),
        "ik_locks": q.ik_locks.len(),
        "events": q.events.iter().map(|e| json!({
            "cycle": e.cycle, "event": e.event, "type": e.kind, "name": e.name, "options": e.options,
        })).collect::<Vec<_>>(),
        "bbmin": v3(q.bbmin),
        "bbmax": v3(q.bbmax),
    })
}

/// Each material as looked up in the model's game: `name` (as the model gives it), `vmt` and
/// `vtf` (where they were found: `FILE` or `ARCHIVE_dir.vpk:inner/path`; null when not),
/// `search_path` (the entry that supplied the `.vmt`) and `tried` (every place looked).
fn materials_json(search: &studio_document::installs::Search, m: &SourceModel) -> Vec<Value> {
    let folders = studio_document::materials::material_folders(m);
    m.textures
        .iter()
        .map(|t| {
            let found = studio_material::find_material(&search.folders, &folders, &t.name);
            json!({
                "name": t.name,
                "vmt": found.vmt_origin,
                "vtf": found.vtf_origin,
                "search_path": found.search_path,
                "vtf_search_path": found.vtf_search_path,
                "problem": found.problem,
                "tried": found.tried,
            })
        })
        .collect()
}

/// The places the model's files are searched in, in order: `entry` (the search path line, or a
/// folder's path) and `path`; with `game`, the game folder whose search path it is.
fn search_path_json(search: &studio_document::installs::Search) -> Value {
    let games = &search.folders;
    json!({
        "game": search.game.as_ref().map(|g| g.display().to_string()),
        "places": games.places.iter().map(|p| json!({
            "entry": p.entry,
            "path": games.place_path(p).display().to_string(),
        })).collect::<Vec<_>>(),
        "missing": search.list.missing,
        "notes": search.list.notes.iter().chain(&search.problems).collect::<Vec<_>>(),
    })
}

/// The model as JSON.
pub fn to_json(path: &Path, loaded: &LoadedSource) -> Value {
    let m = &loaded.model;
    let search = studio_document::installs::search(path, &[]);
    let h = &m.header;
    json!({
        "format": "source",
        "version": h.version,
        "file": path.display().to_string(),
        "name": h.name,
        "checksum": h.checksum,
        "flags": h.flags,
        "flag_names": flag_names(h.flags, &HEADER_FLAG_NAMES),
        "eye_position": v3(h.eye_position),
        "hull": {"min": v3(h.hull.0), "max": v3(h.hull.1)},
        "surface_prop": h.surface_prop,
        "mass": h.mass,
        "ani_file": h.ani_name,
        "companions": loaded.companions.iter().map(|c| c.display().to_string()).collect::<Vec<_>>(),
        "lod_vertices": m.vertices.as_ref().map(|v| v.lod_vertices[..v.num_lods.clamp(0, 8) as usize].to_vec()),
        "bones": m.bones.iter().map(|b| json!({
            "name": b.name, "parent": b.parent, "flags": b.flags,
            "flag_names": flag_names(b.flags, &BONE_FLAG_NAMES),
            "procedural": b.procedural.as_ref().map(|p| p.name()),
            "surface_prop": b.surface_prop,
        })).collect::<Vec<_>>(),
        "bone_controllers": m.bone_controllers.iter().map(|c| json!({
            "bone": c.bone, "type": c.kind, "start": c.start, "end": c.end, "rest": c.rest, "input": c.input,
        })).collect::<Vec<_>>(),
        "hitbox_sets": m.hitbox_sets.iter().map(|s| json!({
            "name": s.name,
            "hitboxes": s.hitboxes.iter().map(|b| json!({
                "bone": b.bone, "group": b.group, "bbmin": v3(b.bbmin), "bbmax": v3(b.bbmax), "name": b.name,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "attachments": m.attachments.iter().map(|a| json!({
            "name": a.name, "bone": a.bone, "flags": a.flags,
        })).collect::<Vec<_>>(),
        "pose_parameters": m.pose_parameters.iter().map(|p| json!({
            "name": p.name, "start": p.start, "end": p.end, "loop": p.loop_range,
        })).collect::<Vec<_>>(),
        "ik_chains": m.ik_chains.iter().map(|c| json!({
            "name": c.name, "bones": c.links.iter().map(|l| l.bone).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "sequences": m.sequences.iter().map(|q| sequence_json(m, q)).collect::<Vec<_>>(),
        "animations": m.animations.iter().map(|a| json!({
            "name": a.name, "frames": a.frames, "fps": a.fps, "flags": a.flags,
            "looping": a.flags & STUDIO_LOOPING != 0,
            "block": a.data.block, "section_frames": a.section_frames, "sections": a.sections.len(),
            "movements": a.movements.len(), "ik_rules": a.num_ik_rules,
            "local_hierarchy": a.num_local_hierarchy,
            "frame_encoded": a.flags & studio_source::STUDIO_FRAMEANIM != 0,
            // Chains read (the .mdl's, and the .ani's when it was found) of those a frame reads.
            "data_available": [
                a.chains.iter().flatten().count(),
                a.places().iter().filter(|(_, frames)| frames.is_some()).count(),
            ],
        })).collect::<Vec<_>>(),
        "include_models": includes(loaded).into_iter().map(|(file, found)| json!({
            "file": file, "found": found,
        })).collect::<Vec<_>>(),
        "body_parts": m.body_parts.iter().enumerate().map(|(p, part)| json!({
            "name": part.name,
            "models": part.models.iter().enumerate().map(|(i, model)| json!({
                "name": model.name,
                "vertices": model.num_vertices,
                "triangles": triangles(m, p, i),
                "meshes": model.meshes.len(),
                "eyeballs": model.num_eyeballs,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "flex_controllers": m.flexes.controllers.iter().map(|c| json!({
            "name": c.name, "type": c.kind, "min": c.min, "max": c.max,
        })).collect::<Vec<_>>(),
        "flexes": flexes_json(m),
        "flex_rules": m.flexes.rules.len(),
        "flex_ui": m.flexes.ui.iter().map(|u| json!({
            "name": u.name, "controllers": u.controllers, "stereo": u.stereo,
        })).collect::<Vec<_>>(),
        "eyeballs": eyeballs_json(m),
        "transition_nodes": m.transitions.names,
        "textures": m.textures.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        "material_paths": m.material_paths,
        "materials": materials_json(&search, m),
        "search_path": search_path_json(&search),
        "skins": m.skins.families,
        "warnings": m.warnings.iter().map(ToString::to_string).collect::<Vec<_>>(),
    })
}

/// Each flex description: its name, the mesh flexes that move by it and their vertices.
fn flexes_json(m: &studio_source::SourceModel) -> Vec<serde_json::Value> {
    let meshes = m.body_parts.iter().flat_map(|p| &p.models).flat_map(|model| &model.meshes);
    let mut uses = vec![(0usize, 0usize); m.flexes.descs.len()];
    for flex in meshes.flat_map(|mesh| &mesh.flexes) {
        if let Some(u) = uses.get_mut(flex.desc) {
            u.0 += 1;
            u.1 += flex.vertices.len();
        }
    }
    m.flexes
        .descs
        .iter()
        .zip(uses)
        .map(|(name, (mesh_flexes, vertices))| {
            json!({
                "name": name, "mesh_flexes": mesh_flexes, "vertices": vertices,
            })
        })
        .collect()
}

/// Every eyeball, with the body part and model it is on.
fn eyeballs_json(m: &studio_source::SourceModel) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    for (p, part) in m.body_parts.iter().enumerate() {
        for (i, model) in part.models.iter().enumerate() {
            for e in &model.eyeballs {
                out.push(json!({
                    "name": e.name, "body_part": p, "model": i, "bone": e.bone,
                    "origin": v3(e.origin), "radius": e.radius, "z_offset": e.z_offset,
                    "up": v3(e.up), "forward": v3(e.forward), "iris_scale": e.iris_scale,
                    "upper_lid_flex": e.upper_lid_flex_desc, "lower_lid_flex": e.lower_lid_flex_desc,
                    "non_facs": e.non_facs,
                }));
            }
        }
    }
    out
}

/// The model as text for a person.
pub fn to_text(path: &Path, loaded: &LoadedSource) -> String {
    let m = &loaded.model;
    let h = &m.header;
    let mut s = String::new();
    let _ = writeln!(s, "{}  ({}, Source version {})", path.display(), h.name, h.version);
    for c in &loaded.companions {
        let _ = writeln!(s, "  companion file: {}", c.display());
    }
    let _ = writeln!(s, "flags          {} ({})", h.flags, flag_names(h.flags, &HEADER_FLAG_NAMES));
    if let Some(v) = &m.vertices {
        let lods = &v.lod_vertices[..v.num_lods.clamp(0, 8) as usize];
        let _ = writeln!(s, "vertices       {lods:?} per LOD ({} fixups)", v.num_fixups);
    }
    let _ = writeln!(s, "eye position   {}", vec(h.eye_position));
    let _ = writeln!(s, "hull           {} .. {}", vec(h.hull.0), vec(h.hull.1));
    if !h.surface_prop.is_empty() {
        let _ = writeln!(s, "surface prop   {}", h.surface_prop);
    }
    if !h.ani_name.is_empty() {
        let _ =
            writeln!(s, "animation file {} ({} blocks)", h.ani_name, m.anim_blocks.len().saturating_sub(1));
    }
    let _ = writeln!(
        s,
        "counts         {} bones, {} controllers, {} hit box sets, {} attachments, {} pose parameters, \
         {} IK chains, {} animations, {} sequences, {} include models, {} body parts, {} materials, {} skins",
        m.bones.len(),
        m.bone_controllers.len(),
        m.hitbox_sets.len(),
        m.attachments.len(),
        m.pose_parameters.len(),
        m.ik_chains.len(),
        m.animations.len(),
        m.sequences.len(),
        m.include_models.len(),
        m.body_parts.len(),
        m.textures.len(),
        m.skins.families.len(),
    );
    if !m.flexes.controllers.is_empty() {
        let eyeballs: usize =
            m.body_parts.iter().flat_map(|p| &p.models).map(|model| model.eyeballs.len()).sum();
        let _ = writeln!(
            s,
            "face           {} flex controllers, {} flex descriptions, {} rules, {} eyeballs",
            m.flexes.controllers.len(),
            m.flexes.descs.len(),
            m.flexes.rules.len(),
            eyeballs
        );
    }
    let _ = writeln!(s, "\nbones");
    for (i, b) in m.bones.iter().enumerate() {
        let parent = b.parent.map_or("-".to_owned(), |p| p.to_string());
        let procedural = b.procedural.as_ref().map_or(String::new(), |p| format!("  [{}]", p.name()));
        let _ = writeln!(
            s,
            "  {i:3} {:<28} parent {parent:>3}  {}{procedural}",
            b.name,
            flag_names(b.flags, &BONE_FLAG_NAMES)
        );
    }
    if !m.bone_controllers.is_empty() {
        let _ = writeln!(s, "\nbone controllers");
        for (i, c) in m.bone_controllers.iter().enumerate() {
            let _ = writeln!(
                s,
                "  {i:3} bone {:3} type {:#x} {} .. {}, input {}",
                c.bone,
                c.kind,
                num(c.start),
                num(c.end),
                c.input
            );
        }
    }
    for set in &m.hitbox_sets {
        let _ = writeln!(s, "\nhit box set {:?}", set.name);
        for (i, b) in set.hitboxes.iter().enumerate() {
            let bone = m.bones.get(b.bone).map_or("?", |b| b.name.as_str());
            let _ = writeln!(
                s,
                "  {i:3} {:<16} bone {bone:<16} group {} {} .. {}",
                b.name,
                b.group,
                vec(b.bbmin),
                vec(b.bbmax)
            );
        }
    }
    if !m.attachments.is_empty() {
        let _ = writeln!(s, "\nattachments");
        for (i, a) in m.attachments.iter().enumerate() {
            let bone = a.bone.and_then(|b| m.bones.get(b)).map_or("-", |b| b.name.as_str());
            let world = if a.flags & studio_source::ATTACHMENT_FLAG_WORLD_ALIGN != 0 {
                "  world aligned"
            } else {
                ""
            };
            let _ = writeln!(s, "  {i:3} {:<20} bone {bone}{world}", a.name);
        }
    }
    if !m.pose_parameters.is_empty() {
        let _ = writeln!(s, "\npose parameters");
        for (i, p) in m.pose_parameters.iter().enumerate() {
            let looping = if p.loop_range != 0.0 {
                format!(", loops over {}", num(p.loop_range))
            } else {
                String::new()
            };
            let _ = writeln!(s, "  {i:3} {:<20} {} .. {}{looping}", p.name, num(p.start), num(p.end));
        }
    }
    if !m.ik_chains.is_empty() {
        let _ = writeln!(s, "\nIK chains");
        for (i, c) in m.ik_chains.iter().enumerate() {
            let bones: Vec<&str> =
                c.links.iter().map(|l| m.bones.get(l.bone).map_or("?", |b| b.name.as_str())).collect();
            let _ = writeln!(s, "  {i:3} {:<12} {}", c.name, bones.join(" > "));
        }
    }
    let _ = writeln!(s, "\nsequences");
    for (i, q) in m.sequences.iter().enumerate() {
        let first = first_animation(m, q);
        let mut line = format!(
            "  {i:3} {:<24} {:>4} frames {:6.2} fps {:<8} {}",
            q.label,
            first.map_or(0, |a| a.frames),
            first.map_or(0.0, |a| a.fps),
            if q.flags & STUDIO_LOOPING != 0 { "looping" } else { "once" },
            if q.activity_name.is_empty() { "-" } else { &q.activity_name },
        );
        if q.grid != [1, 1] {
            let _ = write!(line, " grid {}×{}", q.grid[0], q.grid[1]);
            for (axis, p) in q.params.iter().enumerate() {
                if let Some(p) = p.and_then(|p| m.pose_parameters.get(p)) {
                    let _ =
                        write!(line, " {} {}..{}", p.name, num(q.param_start[axis]), num(q.param_end[axis]));
                }
            }
        }
        let extra = q.flags & !STUDIO_LOOPING;
        if extra != 0 {
            let _ = write!(line, " [{}]", flag_names(extra, &SEQUENCE_FLAG_NAMES));
        }
        let _ = writeln!(s, "{line}");
        for l in &q.layers {
            let _ = writeln!(
                s,
                "        layer sequence {} flags {:#x} {} {} {} {}",
                l.sequence, l.flags, l.start, l.peak, l.tail, l.end
            );
        }
        for e in &q.events {
            let what = if e.name.is_empty() { e.event.to_string() } else { e.name.clone() };
            let _ = writeln!(s, "        event {what} at cycle {} {:?}", num(e.cycle), e.options);
        }
        if !q.ik_locks.is_empty() {
            let _ = writeln!(s, "        {} IK locks", q.ik_locks.len());
        }
    }
    let _ = writeln!(s, "\nanimations");
    for (i, a) in m.animations.iter().enumerate() {
        let place = match (a.section_frames, a.data.block) {
            (0, 0) => "in the .mdl".to_owned(),
            (0, -1) => "no data".to_owned(),
            (0, block) => format!(".ani block {block}"),
            (frames, _) => format!("{} sections of {frames} frames", a.sections.len()),
        };
        let wanted = a.places().iter().filter(|(_, frames)| frames.is_some()).count();
        let read = a.chains.iter().flatten().count();
        let place = if a.flags & studio_source::STUDIO_FRAMEANIM != 0 {
            format!("{place}, frame-encoded (shown in its default pose)")
        } else if read < wanted {
            format!("{place}, {} of {wanted} parts unavailable", wanted - read)
        } else {
            place
        };
        let _ = writeln!(s, "  {i:3} {:<24} {:>4} frames {:6.2} fps  {place}", a.name, a.frames, num(a.fps));
    }
    if !m.include_models.is_empty() {
        let _ = writeln!(s, "\ninclude models");
        for (file, found) in includes(loaded) {
            let _ = writeln!(s, "  {file}  {}", found.unwrap_or_else(|| "(not found)".to_owned()));
        }
    }
    let _ = writeln!(s, "\nbody parts");
    for p in &m.body_parts {
        let _ = writeln!(s, "  {} (base {})", p.name, p.base);
        for (i, model) in p.models.iter().enumerate() {
            let _ = writeln!(
                s,
                "    {i:3} {:<24} {} vertices, {} meshes",
                model.name,
                model.num_vertices,
                model.meshes.len()
            );
        }
    }
    let _ = writeln!(s, "\nmaterials (searched in {})", m.material_paths.join(", "));
    for (i, t) in m.textures.iter().enumerate() {
        let _ = writeln!(s, "  {i:3} {}", t.name);
    }
    if !m.skins.families.is_empty() {
        let _ = writeln!(s, "\nskins");
        for (i, family) in m.skins.families.iter().enumerate() {
            let _ = writeln!(s, "  {i:3} {family:?}");
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
