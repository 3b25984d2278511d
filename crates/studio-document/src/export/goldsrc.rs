//! A Half-Life model as an export: the rest pose is the bone table's default values (Valve's
//! `AngleQuaternion` and matrix order), vertices are taken from bone space to that pose, and
//! every sequence, each blend alone (`NAME/blendK` when there are several), is sampled at each
//! frame by the pose evaluator with the controllers at their neutral settings.

use std::sync::Arc;

use glam::{Affine3A, Quat, Vec3, Vec4};
use studio_gltf::{ExportAnimation, ExportAttachment, ExportBone, ExportHitbox, ExportModel};
use studio_model::Model;
use studio_pose::math::{angle_quaternion, bone_matrix, concat_bone};
use studio_pose::{Pose, PoseEvaluator, PoseRequest, neutral_bytes};

use super::{ExportOptions, Progress, chosen, materials, meshes};

/// Frames per second for a sequence whose own is not a positive number.
const FALLBACK_FPS: f32 = 30.0;

/// Each bone's rest rotation (Valve's quaternion) and model-space rest transform.
pub fn rest_pose(model: &Model) -> (Vec<Vec4>, Vec<Affine3A>) {
    let mut rotations = Vec::with_capacity(model.bones.len());
    let mut world: Vec<Affine3A> = Vec::with_capacity(model.bones.len());
    for bone in &model.bones {
        let v = bone.value;
        let q = Vec4::from_array(angle_quaternion([v[3], v[4], v[5]]));
        let pos = glam::Vec3A::new(v[0], v[1], v[2]);
        let m = match bone.parent.and_then(|p| world.get(p)) {
            Some(parent) => concat_bone(parent, q, pos),
            None => bone_matrix(q, pos),
        };
        rotations.push(q);
        world.push(m);
    }
    (rotations, world)
}

/// `model` as an export.
pub fn export(
    model: &Arc<Model>,
    options: &ExportOptions,
    progress: &mut Progress,
) -> Result<(ExportModel, Vec<String>), String> {
    let (rotations, rest) = rest_pose(model);
    let bones: Vec<ExportBone> = model
        .bones
        .iter()
        .zip(rotations.iter().zip(&rest))
        .map(|(bone, (q, world))| ExportBone {
            name: bone.name.clone(),
            parent: bone.parent,
            translation: Vec3::new(bone.value[0], bone.value[1], bone.value[2]),
            rotation: Quat::from_vec4(*q).normalize(),
            bind: *world,
        })
        .collect();
    let render = studio_render::goldsrc::coloured_render_model(model, options.shown.colours());
    let names: Vec<String> = model
        .body_parts
        .iter()
        .map(|part| {
            let sub = part.submodel_index(options.shown.body).and_then(|i| part.submodels.get(i));
            format!("{}/{}", part.name, sub.map_or("", |s| s.name.as_str()))
        })
        .collect();
    let meshes = meshes(&render, options.shown.body, 0, options.shown.skin, &names, |b| rest.get(b).copied());

    let sequences =
        chosen(model.sequences.len(), &options.sequences, |w| crate::sequences::find_sequence(model, w))?;
    let parents: Vec<Option<usize>> = model.bones.iter().map(|b| b.parent).collect();
    let mut evaluator = PoseEvaluator::new(model.clone());
    let mut pose = Pose::new(model);
    let controllers = neutral_bytes(&model.bone_controllers);
    let mut animations = Vec::new();
    let mut warnings = Vec::new();
    for (done, &s) in sequences.iter().enumerate() {
        progress.update(done, sequences.len());
        let sequence = &model.sequences[s];
        if sequence.animation.is_none() {
            warnings.push(format!(
                "sequence {}: its animation is missing (sequence group file); not exported",
                sequence.label
            ));
            continue;
        }
        let blends = sequence.animation.as_ref().map_or(1, |a| a.num_blends()).max(1);
        let fps = if sequence.fps.is_finite() && sequence.fps > 0.0 { sequence.fps } else { FALLBACK_FPS };
        let frames = sequence.frames().max(1) as usize;
        let times: Vec<f32> = (0..frames).map(|k| k as f32 / fps).collect();
        for blend in 0..blends {
            let name =
                if blends > 1 { format!("{}/blend{blend}", sequence.label) } else { sequence.label.clone() };
            let mut failed = None;
            let animation = ExportAnimation::from_model_space(name, times.clone(), &parents, |k| {
                let request = PoseRequest { sequence: s, frame: k as f32, blend: [0, 0], controllers };
                if let Err(e) = evaluator.evaluate_blend(&request, blend, &mut pose) {
                    failed = Some(e.to_string());
                }
                pose.bones.clone()
            });
            match failed {
                Some(e) => warnings.push(format!("sequence {}: {e}; not exported", sequence.label)),
                None => animations.push(animation),
            }
        }
    }
    let attachments = model
        .attachments
        .iter()
        .enumerate()
        .map(|(i, a)| ExportAttachment {
            name: if a.name.is_empty() { format!("attachment {i}") } else { a.name.clone() },
            bone: Some(a.bone),
            local: Affine3A::from_translation(a.org),
        })
        .collect();
    let hitboxes = model
        .hitboxes
        .iter()
        .map(|h| ExportHitbox {
            name: String::new(),
            bone: h.bone,
            group: h.group,
            bbmin: h.bbmin,
            bbmax: h.bbmax,
            set: "default".to_owned(),
        })
        .collect();
    let export = ExportModel {
        name: model.header.name.clone(),
        bones,
        meshes,
        materials: materials(&render, &[]),
        animations,
        attachments,
        hitboxes,
        scale: options.scale,
    };
    Ok((export, warnings))
}
