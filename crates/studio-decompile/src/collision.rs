//! A Source model's collision model back as studiomdl's source: one SMD of every convex piece
//! of the `.phy`, and its `$collisionmodel` (one solid) or `$collisionjoints` (a solid per
//! bone, with the ragdoll's joint limits) block.
//!
//! A solid belongs to the bone its `solid` block names (`name`; the root bone where that is no
//! bone). With one solid its points are in model space; with several, each is in its bone's
//! space and is carried into model space by the bone's bind pose (the inverse of its
//! `poseToBone`). Then, as every decompiled file, the points are turned −90° about Z for
//! studiomdl's default rotation (see [`super::source`]).

use std::fmt::Write;

use glam::{Affine3A, Vec3};
use studio_material::keyvalues::{self, Pair};
use studio_smd::{Corner, Smd, Triangle};
use studio_source::{Phy, SourceModel};

use super::source::{nodes, skeleton, turned};
use crate::qc::q;

/// The collision SMD, its file name and the QC block naming it.
#[derive(Clone, Debug)]
pub struct Collision {
    /// `STEM_physics.smd`.
    pub file: String,
    /// The SMD.
    pub smd: Smd,
    /// The `$collisionmodel` or `$collisionjoints` block.
    pub qc: String,
}

/// The `.phy` text's top-level blocks named `key`, in order.
fn blocks<'a>(pairs: &'a [Pair], key: &str) -> impl Iterator<Item = &'a [Pair]> {
    let key = key.to_owned();
    pairs.iter().filter(move |p| p.key.eq_ignore_ascii_case(&key)).filter_map(Pair::block)
}

/// A block's value of `key`.
fn value<'a>(block: &'a [Pair], key: &str) -> Option<&'a str> {
    block.iter().find(|p| p.key.eq_ignore_ascii_case(key)).and_then(Pair::text)
}

fn bone_index(model: &SourceModel, name: &str) -> Option<usize> {
    model.bones.iter().position(|b| b.name.eq_ignore_ascii_case(name))
}

/// The collision model of `model` from `phy`, for the model saved as `stem.mdl`.
pub fn collision(model: &SourceModel, phy: &Phy, stem: &str) -> Collision {
    let text = keyvalues::parse(phy.text.as_bytes()).unwrap_or_default();
    let solids: Vec<&[Pair]> = blocks(&text, "solid").collect();
    let solid_block = |i: usize| {
        solids
            .iter()
            .copied()
            .find(|b| value(b, "index").and_then(|v| v.trim().parse::<usize>().ok()) == Some(i))
    };
    let root = model.bones.iter().position(|b| b.parent.is_none()).unwrap_or(0);
    let jointed = phy.solids.len() > 1;
    let mut triangles = Vec::new();
    let mut bones_of = Vec::new();
    for (i, solid) in phy.solids.iter().enumerate() {
        let bone =
            solid_block(i).and_then(|b| value(b, "name")).and_then(|n| bone_index(model, n)).unwrap_or(root);
        bones_of.push(bone);
        let to_model = match model.bones.get(bone) {
            Some(b) if jointed => studio_source_pose::affine_3x4(&b.pose_to_bone).inverse(),
            _ => Affine3A::IDENTITY,
        };
        for piece in &solid.pieces {
            let points: Vec<Vec3> = piece.points.iter().map(|&p| to_model.transform_point3(p)).collect();
            for t in &piece.triangles {
                let [a, b, c] = t.map(|i| points.get(i as usize).copied().unwrap_or_default());
                let normal = (b - a).cross(c - a).normalize_or_zero();
                let corner = |p: Vec3| Corner {
                    bone,
                    position: turned(p),
                    normal: turned(normal),
                    uv: [0.0, 0.0],
                    links: vec![],
                };
                triangles
                    .push(Triangle { material: "phy".into(), corners: [corner(a), corner(b), corner(c)] });
            }
        }
    }
    let file = format!("{stem}_physics.smd");
    let smd = Smd { nodes: nodes(model), frames: vec![skeleton(model)], triangles, shapes: Vec::new() };
    let qc = qc_block(model, phy, &text, &solids, &bones_of, &file);
    Collision { file, smd, qc }
}

/// `$collisionmodel` for one solid, `$collisionjoints` with `$jointconstrain` lines for more.
fn qc_block(
    model: &SourceModel,
    phy: &Phy,
    text: &[Pair],
    solids: &[&[Pair]],
    bones_of: &[usize],
    file: &str,
) -> String {
    let mut out = String::new();
    let jointed = phy.solids.len() > 1;
    let command = if jointed { "$collisionjoints" } else { "$collisionmodel" };
    let _ = writeln!(out, "\n{command} {} {{", q(file.trim_end_matches(".smd")));
    let edit = blocks(text, "editparams").next().unwrap_or_default();
    let mass = value(edit, "totalmass")
        .map(str::to_owned)
        .or_else(|| (model.header.mass != 0.0).then(|| model.header.mass.to_string()));
    if let Some(mass) = mass {
        let _ = writeln!(out, "\t$mass {mass}");
    }
    if let Some(root) = value(edit, "rootname").filter(|r| !r.is_empty()) {
        let _ = writeln!(out, "\t$rootbone {}", q(root));
    }
    if phy.solids.iter().any(|s| s.pieces.len() > 1) {
        out.push_str("\t$concave\n");
    }
    if let Some(first) = solids.first()
        && let Some(damping) = value(first, "damping")
    {
        let _ = writeln!(out, "\t$damping {damping}");
    }
    for constraint in blocks(text, "ragdollconstraint") {
        let child = value(constraint, "child").and_then(|c| c.trim().parse::<usize>().ok());
        let Some(bone) = child.and_then(|c| bones_of.get(c)).and_then(|&b| model.bones.get(b)) else {
            continue;
        };
        for axis in ["x", "y", "z"] {
            let (Some(min), Some(max)) =
                (value(constraint, &format!("{axis}min")), value(constraint, &format!("{axis}max")))
            else {
                continue;
            };
            let friction = value(constraint, &format!("{axis}friction")).unwrap_or("0");
            let kind = if min == max { "fixed" } else { "limit" };
            let _ = writeln!(out, "\t$jointconstrain {} {axis} {kind} {min} {max} {friction}", q(&bone.name));
        }
    }
    if !jointed && let Some(prop) = solids.first().and_then(|b| value(b, "surfaceprop")) {
        let _ = writeln!(out, "\t// surface property {}", q(prop));
    }
    out.push_str("}\n");
    out
}
