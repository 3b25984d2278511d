//! The QC of a decompiled version 10 model: studiomdl's commands for everything the file
//! holds, naming the files of [`super::goldsrc::Layout`], and comments for what studiomdl has
//! no command for.

use std::fmt::Write;

use studio_model::Model;
use studio_model::motion::{MOTION_FLAG_NAMES, STUDIO_RLOOP};

use super::goldsrc::Layout;
use super::keep_bones::OWN_PART;
use crate::qc::{goldsrc_box_lines, goldsrc_sequence_of, goldsrc_skeleton_lines, goldsrc_texture_lines, q};

/// A sequence's options besides fps, loop, activity and blends: its motion flags (studiomdl
/// extracts the movement again for `LX`, `LY`, `LZ`), its pivots and its transition nodes.
fn sequence_options(s: &studio_model::Sequence) -> String {
    let mut options = String::new();
    for (flag, name) in MOTION_FLAG_NAMES {
        if flag != STUDIO_RLOOP && s.motion_type & flag != 0 {
            options.push(' ');
            options.push_str(name);
        }
    }
    // `Option_AddPivot`: index, first and last frame; studiomdl never sets a pivot's origin.
    for (i, pivot) in s.pivots.iter().enumerate() {
        options.push_str(&format!(" pivot {i} {} {}", pivot.start, pivot.end));
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
    for renamed in &layout.renamed {
        let _ = writeln!(out, "// {renamed}");
    }
    keep_comment(&mut out, model, layout);
    goldsrc_box_lines(&mut out, h);

    for (files, name) in layout.submodels.iter().zip(&layout.parts) {
        let _ = writeln!(out, "$bodygroup {} {{", q(name));
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
    if layout.keep.own_part() {
        let _ = writeln!(out, "$bodygroup {} {{\n\tstudio {}\n}}", q(OWN_PART), q(OWN_PART));
    }
    out.push('\n');

    let names: Vec<&str> = layout.textures.iter().map(String::as_str).collect();
    for (texture, file) in model.textures.iter().zip(&layout.textures) {
        let stem = file.trim_end_matches(".bmp");
        let original = texture.name.trim_end_matches(".bmp").trim_end_matches(".BMP");
        if stem != original {
            let _ = writeln!(
                out,
                "// texture {} is written as {} (a name studiomdl reads back{})",
                q(&texture.name),
                q(file),
                if texture.flags & studio_model::STUDIO_NF_CHROME != 0 {
                    "; it gives chrome to a texture whose name holds \"chrome\", and to no other"
                } else {
                    ""
                }
            );
        }
    }
    goldsrc_texture_lines(&mut out, model, &names);
    texture_groups(&mut out, model, layout);

    goldsrc_skeleton_lines(&mut out, model, &layout.bones);
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
    for ((s, files), label) in model.sequences.iter().zip(&layout.sequences).zip(&layout.labels) {
        if s.pivots.iter().any(|p| p.org != glam::Vec3::ZERO) {
            let _ = writeln!(
                out,
                "// {label}: its {} foot pivots' origins (studiomdl's pivot option gives frames, and every origin 0 0 0)",
                s.pivots.len()
            );
        }
        out.push_str(&goldsrc_sequence_of(s, label, files, &sequence_options(s)));
    }
    out
}

/// A comment naming the bones given a triangle of zero area so that studiomdl keeps them
/// ([`super::keep_bones`]).
fn keep_comment(out: &mut String, model: &Model, layout: &Layout) {
    let keep = &layout.keep;
    if keep.bones.is_empty() {
        return;
    }
    let names: Vec<&str> =
        keep.bones.iter().filter_map(|&b| layout.bones.get(b)).map(String::as_str).collect();
    let place = match keep.submodel {
        Some((p, s)) => format!(
            "{} (the first reference file)",
            layout
                .submodels
                .get(p)
                .and_then(|f| f.get(s))
                .and_then(Option::as_ref)
                .map_or("", String::as_str)
        ),
        None => format!("{OWN_PART}.smd, a body part of its own (the model has no mesh)"),
    };
    let _ = writeln!(
        out,
        "// studiomdl keeps only bones a vertex uses: {} of the {} bones ({}) get a triangle of zero \
         area in {place}, so that every bone stays, in this order",
        names.len(),
        model.bones.len(),
        names.join(", ")
    );
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
    out.push_str("$texturegroup \"skinfamilies\" {\n");
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
