//! The QC of a decompiled version 10 model: studiomdl's commands for everything the file
//! holds, naming the files of [`super::goldsrc::Layout`], and comments for what studiomdl has
//! no command for.

use std::fmt::Write;

use studio_model::Model;
use studio_model::motion::{MOTION_FLAG_NAMES, STUDIO_RLOOP};

use super::goldsrc::Layout;
use crate::qc::{box_lines, goldsrc_sequence_of, goldsrc_skeleton_lines, goldsrc_texture_lines, q};

/// A sequence's options besides fps, loop, activity and blends: its motion flags (studiomdl
/// extracts the movement again for `LX`, `LY`, `LZ`) and its transition nodes.
fn sequence_options(s: &studio_model::Sequence) -> String {
    let mut options = String::new();
    for (flag, name) in MOTION_FLAG_NAMES {
        if flag != STUDIO_RLOOP && s.motion_type & flag != 0 {
            options.push(' ');
            options.push_str(name);
        }
    }
    match (s.entry_node, s.exit_node, s.node_flags) {
        (0, 0, _) => {}
        (a, b, 0) if a == b => options.push_str(&format!(" node {a}")),
        (a, b, 0) => options.push_str(&format!(" transition {a} {b}")),
        (a, b, _) => options.push_str(&format!(" rtransition {a} {b}")),
    }
    options
}

/// The QC text of `model`, saved as `stem.mdl`, with the files of `layout`.
pub fn qc(model: &Model, stem: &str, layout: &Layout) -> String {
    let mut out = String::new();
    let h = &model.header;
    let _ = writeln!(
        out,
        "// {stem}.qc: decompiled by studioview {} from {}",
        env!("CARGO_PKG_VERSION"),
        q(&h.name)
    );
    let _ = writeln!(out, "// Compile with Half-Life's studiomdl from this folder: studiomdl {stem}.qc\n");
    let _ = writeln!(out, "$modelname {}", q(&format!("{stem}.mdl")));
    out.push_str("$cd \".\"\n$cdtexture \".\"\n$scale 1.0\n$cliptotextures\n");
    if model.texture_source == studio_model::TextureSource::TextureFile {
        out.push_str("$externaltextures\n");
    }
    if h.flags != 0 {
        let _ = writeln!(out, "$flags {}", h.flags);
    }
    out.push('\n');
    box_lines(&mut out, h.eye_position, (h.bbmin, h.bbmax), (h.min, h.max));

    for (part, files) in model.body_parts.iter().zip(&layout.submodels) {
        let _ = writeln!(out, "$bodygroup {}\n{{", q(&part.name));
        for file in files {
            match file {
                Some(file) => {
                    let _ = writeln!(out, "\tstudio {}", q(file.trim_end_matches(".smd")));
                }
                None => out.push_str("\tblank\n"),
            }
        }
        out.push_str("}\n");
    }
    out.push('\n');

    let names: Vec<&str> = layout.textures.iter().map(String::as_str).collect();
    goldsrc_texture_lines(&mut out, model, &names);
    texture_groups(&mut out, model, layout);

    goldsrc_skeleton_lines(&mut out, model);
    out.push('\n');

    if model.sequence_groups.len() > 1 {
        let _ = writeln!(
            out,
            "// The model kept its animations in {} sequence groups ({}01.mdl onwards); \
             $sequencegroupsize sets the size at which studiomdl splits them again.",
            model.sequence_groups.len(),
            stem
        );
    }
    for (s, files) in model.sequences.iter().zip(&layout.sequences) {
        if !s.pivots.is_empty() {
            let _ = writeln!(
                out,
                "// {}: {} foot pivots (studiomdl has no command for them)",
                s.label,
                s.pivots.len()
            );
        }
        out.push_str(&goldsrc_sequence_of(s, files, &sequence_options(s)));
    }
    out
}

/// `$texturegroup`: for each skin slot that differs between families, the texture each family
/// puts there.
fn texture_groups(out: &mut String, model: &Model, layout: &Layout) {
    let skins = &model.skins;
    if skins.num_families() < 2 {
        return;
    }
    let slots: Vec<usize> = (0..skins.num_refs())
        .filter(|&slot| {
            let first = skins.texture(0, slot as i32);
            (1..skins.num_families()).any(|f| skins.texture(f, slot as i32) != first)
        })
        .collect();
    if slots.is_empty() {
        return;
    }
    out.push_str("$texturegroup \"skinfamilies\"\n{\n");
    for family in 0..skins.num_families() {
        out.push_str("\t{");
        for &slot in &slots {
            let name = skins.texture(family, slot as i32).and_then(|t| layout.textures.get(t));
            let _ = write!(out, " {}", q(name.map_or("", String::as_str)));
        }
        out.push_str(" }\n");
    }
    out.push_str("}\n\n");
}
