//! A Source model as an export: the rest pose is the bones' default position and rotation, the
//! bind transforms the inverses of their pose-to-bone matrices (the `.vvd` vertices are in that
//! pose already), and every sequence of the combined model is sampled at each frame of its
//! first animation by the evaluator, with the pose parameters at their defaults (layers and
//! locks applied as the evaluator does).

use studio_gltf::{ExportAnimation, ExportAttachment, ExportBone, ExportHitbox, ExportModel};
use studio_render::scene::submodel_for_body;
use studio_source_pose::{SourceRequest, affine_3x4, params};

use super::{ExportOptions, Progress, chosen, materials, meshes};
use crate::source_doc::SourceDoc;

/// `doc`'s model as an export.
pub fn export(
    doc: &mut SourceDoc,
    options: &ExportOptions,
    progress: &mut Progress,
) -> Result<(ExportModel, Vec<String>), String> {
    let model = doc.model.clone();
    let model = &*model;
    let bones: Vec<ExportBone> = model
        .bones
        .iter()
        .map(|bone| ExportBone {
            name: bone.name.clone(),
            parent: bone.parent,
            translation: bone.position,
            rotation: bone.quaternion.normalize(),
            bind: affine_3x4(&bone.pose_to_bone).inverse(),
        })
        .collect();
    let resolved = crate::materials::resolve(model, &doc.path, &options.shown.game);
    let mut warnings: Vec<String> = resolved
        .found
        .iter()
        .filter(|f| f.problem.is_some())
        .map(|f| format!("material {}: exported untextured ({})", f.name, f.problem.as_deref().unwrap_or("")))
        .collect();
    let missing: Vec<bool> = resolved.found.iter().map(|f| f.vtf.is_none()).collect();
    let render = studio_render::source::render_model(model, resolved.materials);
    let lods = studio_render::source::lod_count(model);
    if options.shown.lod >= lods {
        return Err(format!("{} has {lods} LOD(s)", doc.path.display()));
    }
    let names: Vec<String> = model
        .body_parts
        .iter()
        .map(|part| {
            let choice = submodel_for_body(part.base, part.models.len(), options.shown.body);
            let model = choice.and_then(|c| part.models.get(c));
            format!("{}/{}", part.name, model.map_or("", |m| m.name.as_str()))
        })
        .collect();
    let meshes = meshes(&render, options.shown.body, options.shown.lod, options.shown.skin, &names, |_| None);

    // What each sequence needs, read from the combined model before its evaluator is used.
    let rig = doc.evaluator.rig();
    let sequences =
        chosen(rig.num_sequences(), &options.sequences, |w| crate::sequences::find_rig_sequence(rig, w))?;
    let defaults: Vec<f32> = rig.pose_parameters.iter().map(params::default_value).collect();
    let plans: Vec<(usize, String, usize, f32, bool)> = sequences
        .iter()
        .filter_map(|&s| {
            let seq = rig.sequence(s)?;
            let first = rig.grid_cell(seq, 0, 0).map(|a| a.animation);
            let frames = first.map_or(1, |a| a.frames.max(1)) as usize;
            let fps = first.map_or(30.0, |a| if a.fps.is_finite() && a.fps > 0.0 { a.fps } else { 30.0 });
            Some((s, seq.seq.label.clone(), frames, fps, first.is_some()))
        })
        .collect();
    let parents: Vec<Option<usize>> = model.bones.iter().map(|b| b.parent).collect();
    let mut bones_out = Vec::with_capacity(model.bones.len());
    let mut animations = Vec::new();
    for (done, (s, label, frames, fps, animated)) in plans.into_iter().enumerate() {
        progress.update(done, sequences.len());
        if !animated {
            warnings.push(format!("sequence {label}: no animation in its grid; exported as its rest pose"));
        }
        let times: Vec<f32> = (0..frames).map(|k| k as f32 / fps).collect();
        let animation = ExportAnimation::from_model_space(label, times, &parents, |k| {
            let cycle = if frames > 1 { k as f32 / (frames - 1) as f32 } else { 0.0 };
            let request = SourceRequest {
                sequence: s,
                cycle,
                params: &defaults,
                controllers: None,
                time: 0.0,
                autoplay: false,
                layers: &[],
            };
            doc.evaluator.evaluate(&request, &mut bones_out);
            bones_out.clone()
        });
        animations.push(animation);
    }
    let attachments = model
        .attachments
        .iter()
        .map(|a| ExportAttachment { name: a.name.clone(), bone: a.bone, local: affine_3x4(&a.local) })
        .collect();
    let hitboxes = model
        .hitbox_sets
        .iter()
        .flat_map(|set| {
            set.hitboxes.iter().map(|h| ExportHitbox {
                name: h.name.clone(),
                bone: h.bone,
                group: h.group,
                bbmin: h.bbmin,
                bbmax: h.bbmax,
                set: set.name.clone(),
            })
        })
        .collect();
    let export = ExportModel {
        name: model.header.name.clone(),
        bones,
        meshes,
        materials: materials(&render, &missing),
        animations,
        attachments,
        hitboxes,
        scale: options.scale,
    };
    Ok((export, warnings))
}
