//! Decompiling a Source model (versions 44–49): a reference SMD per body part model and LOD,
//! an animation SMD per animation (its `.ani` data included), and the QC
//! ([`super::source_qc`]) naming its materials.
//!
//! The files follow Source studiomdl's conventions, so they compile back to the same model:
//! - studiomdl turns every source it loads by its default `$origin` rotation, +90° about Z
//!   (`g_defaultrotation`, given to each reference and animation source). So every file here is
//!   turned −90° about Z: vertices, normals and root bones (`x, y → y, −x`, exact), with
//!   [`super::turn::ROOT_TURN`] added to a root's z angle.
//! - Reference files: the bones' default positions and Euler angles as the skeleton, the
//!   `.vvd`'s vertices (already in model space) with their weights, `v` flipped (`1 − v`;
//!   the `.vvd` counts from the top), triangles in the opposite order of the `.vtx`'s.
//! - Animation files: each frame's local bone transforms as the evaluator computes them
//!   ([`studio_source_pose::animation_frame`]), rotations as Euler angles by Valve's
//!   `QuaternionAngles` (its matrix and `MatrixAngles`, in double, the near-vertical branch
//!   taken only where the forward vector has no horizontal length at all). A root bone gets the
//!   animation's piecewise movement put back (`Studio_AnimPosition`): studiomdl takes it out
//!   again for the motion flags the QC gives.

use glam::{DQuat, DVec3, Quat, Vec3};
use studio_source::{Phy, SourceModel};
use studio_source_pose::playback::animation_movement;
use studio_source_pose::{LocalPose, Rig, animation_frame};

use super::flex_shapes::{FlexShapes, flex_shapes};
use super::names::FileNames;
use super::turn::{ROOT_TURN, turn, unturn};
use super::{DecompileError, Decompiled};
use studio_smd::{BoneKey, Corner, Frame, Node, Smd, Triangle};

/// The file names a Source model's sources get.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Per body part, per model, its reference SMD per LOD (`None`: blank).
    pub models: Vec<Vec<Option<Vec<String>>>>,
    /// Per animation, its SMD.
    pub animations: Vec<String>,
}

/// Whether a body part model is a blank choice.
pub fn is_blank(model: &studio_source::BodyModel) -> bool {
    model.meshes.is_empty() || model.name.is_empty() || model.name.eq_ignore_ascii_case("blank")
}

/// The LODs the `.vtx` gives body part model (`part`, `index`) (1 without a `.vtx`).
pub fn lods_of(model: &SourceModel, part: usize, index: usize) -> usize {
    model.vtx.as_ref().and_then(|v| v.body_parts.get(part)?.get(index)).map_or(1, |m| m.lods.len().max(1))
}

/// The name an animation's file is made from (`@idle` → `idle`).
pub fn animation_stem(name: &str) -> &str {
    name.strip_prefix('@').unwrap_or(name)
}

/// Names every file of `model`.
pub fn layout(model: &SourceModel) -> Layout {
    let mut names = FileNames::default();
    let models = model
        .body_parts
        .iter()
        .enumerate()
        .map(|(p, part)| {
            part.models
                .iter()
                .enumerate()
                .map(|(m, body)| {
                    (!is_blank(body)).then(|| {
                        let stem = body.name.trim_end_matches(".smd").to_owned();
                        (0..lods_of(model, p, m))
                            .map(|lod| {
                                if lod == 0 {
                                    names.take(&stem, "smd")
                                } else {
                                    names.take(&format!("{stem}_lod{lod}"), "smd")
                                }
                            })
                            .collect()
                    })
                })
                .collect()
        })
        .collect();
    let animations = model.animations.iter().map(|a| names.take(animation_stem(&a.name), "smd")).collect();
    Layout { models, animations }
}

fn f64s(v: Vec3) -> [f64; 3] {
    [f64::from(v.x), f64::from(v.y), f64::from(v.z)]
}

/// A point or direction of the model as the files hold it ([`super::turn`]).
pub(crate) fn turned(v: Vec3) -> [f64; 3] {
    turn(f64s(v))
}

/// Valve's `QuaternionAngles`: the rotation's Euler angles (x roll, y pitch, z yaw, radians)
/// through `QuaternionMatrix` and `MatrixAngles`, in double. Where the forward vector is
/// vertical (no horizontal length at all) yaw is read from the left vector and roll is 0.
pub fn quaternion_angles(q: DQuat) -> [f64; 3] {
    let q = q.normalize();
    let (x, y, z, w) = (q.x, q.y, q.z, q.w);
    let forward = [1.0 - 2.0 * y * y - 2.0 * z * z, 2.0 * x * y + 2.0 * w * z, 2.0 * x * z - 2.0 * w * y];
    let left = [2.0 * x * y - 2.0 * w * z, 1.0 - 2.0 * x * x - 2.0 * z * z, 2.0 * y * z + 2.0 * w * x];
    let up_z = 1.0 - 2.0 * x * x - 2.0 * y * y;
    let xy = (forward[0] * forward[0] + forward[1] * forward[1]).sqrt();
    let pitch = (-forward[2]).atan2(xy);
    if xy > 1e-12 {
        [left[2].atan2(up_z), pitch, forward[1].atan2(forward[0])]
    } else {
        [0.0, pitch, (-left[0]).atan2(left[1])]
    }
}

/// The SMD's nodes: the model's bones.
pub(crate) fn nodes(model: &SourceModel) -> Vec<Node> {
    model.bones.iter().map(|b| Node { name: b.name.clone(), parent: b.parent }).collect()
}

/// The reference skeleton: every bone's default position and Euler angles, roots turned.
pub(crate) fn skeleton(model: &SourceModel) -> Frame {
    let bones = model
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let (position, mut rotation) = (f64s(b.position), f64s(b.rotation));
            if b.parent.is_none() {
                rotation[2] += ROOT_TURN;
                return BoneKey { bone: i, position: turned(b.position), rotation };
            }
            BoneKey { bone: i, position, rotation }
        })
        .collect();
    Frame { time: 0, bones }
}

/// The material a mesh of slot `slot` shows in skin family 0.
pub fn material_name(model: &SourceModel, slot: i32) -> String {
    let texture = usize::try_from(slot)
        .ok()
        .and_then(|s| model.skins.families.first()?.get(s).copied())
        .and_then(|t| model.textures.get(t));
    match texture {
        Some(t) => t.name.replace(['\n', '\r'], " "),
        None => format!("material{slot}"),
    }
}

/// The reference SMD of body part model (`part`, `index`) at LOD `lod`.
pub fn reference_smd(model: &SourceModel, part: usize, index: usize, lod: usize) -> Smd {
    let mut triangles = Vec::new();
    let body = model.body_parts.get(part).and_then(|p| p.models.get(index));
    let vtx_lod = model.vtx.as_ref().and_then(|v| v.body_parts.get(part)?.get(index)?.lods.get(lod));
    if let (Some(body), Some(vtx_lod)) = (body, vtx_lod) {
        for (m, (mesh, vtx_mesh)) in body.meshes.iter().zip(&vtx_lod.meshes).enumerate() {
            let Some((vertices, _)) = model.mesh_vertices(part, index, m) else { continue };
            let material = material_name(model, mesh.material);
            let mut indices = Vec::new();
            for group in &vtx_mesh.strip_groups {
                group.triangles(vertices.len(), &mut indices);
            }
            let corner = |i: u32| {
                let v = &vertices[i as usize];
                let used = usize::from(v.num_bones).min(3);
                let links = (0..used).map(|k| (usize::from(v.bones[k]), f64::from(v.weights[k]))).collect();
                Corner {
                    bone: usize::from(v.bones[0]),
                    position: turned(v.position),
                    normal: turned(v.normal),
                    uv: [f64::from(v.uv.x), 1.0 - f64::from(v.uv.y)],
                    links,
                }
            };
            for [a, b, c] in indices {
                // The opposite order of the `.vtx`'s (studiomdl turns it back).
                triangles.push(Triangle {
                    material: material.clone(),
                    corners: [corner(c), corner(b), corner(a)],
                });
            }
        }
    }
    Smd { nodes: nodes(model), frames: vec![skeleton(model)], triangles, shapes: Vec::new() }
}

/// A root bone's movement at `frame` of `animation` (`Studio_AnimPosition`): offset and yaw
/// in degrees, zero without movement pieces.
pub fn movement_at(animation: &studio_source::Animation, frame: u32) -> (Vec3, f32) {
    let frames = animation.frames.max(1);
    let cycle = if frames > 1 { frame as f32 / (frames - 1) as f32 } else { 0.0 };
    animation_movement(animation, cycle).unwrap_or((Vec3::ZERO, 0.0))
}

/// A root's transform as written: the movement `(offset, yaw)` applied, then turned.
pub fn root_for_studiomdl(
    position: Vec3,
    rotation: Quat,
    (offset, yaw): (Vec3, f32),
) -> ([f64; 3], [f64; 3]) {
    let turn_yaw = DQuat::from_rotation_z(f64::from(yaw).to_radians());
    let p = turn_yaw * position.as_dvec3() + offset.as_dvec3();
    let q = turn_yaw * rotation.as_dquat();
    let mut angles = quaternion_angles(q);
    angles[2] += ROOT_TURN;
    (turn(p.to_array()), angles)
}

/// The inverse of [`root_for_studiomdl`]: the root's own position and rotation.
pub fn root_from_studiomdl(
    position: [f64; 3],
    rotation: [f64; 3],
    (offset, yaw): (Vec3, f32),
) -> (DVec3, DQuat) {
    let p = DVec3::from_array(unturn(position));
    let q = euler_quaternion([rotation[0], rotation[1], rotation[2] - ROOT_TURN]);
    let back = DQuat::from_rotation_z(-f64::from(yaw).to_radians());
    (back * (p - offset.as_dvec3()), back * q)
}

/// `AngleQuaternion` of a `RadianEuler` (x roll, y pitch, z yaw), in double: qZ · qY · qX.
pub fn euler_quaternion(angles: [f64; 3]) -> DQuat {
    let (sr, cr) = (angles[0] * 0.5).sin_cos();
    let (sp, cp) = (angles[1] * 0.5).sin_cos();
    let (sy, cy) = (angles[2] * 0.5).sin_cos();
    DQuat::from_xyzw(
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    )
}

/// The animation SMD of animation `index` of `model` (group 0 of `rig`).
pub fn animation_smd(rig: &Rig<'_>, model: &SourceModel, index: usize) -> Smd {
    let Some(animation) = model.animations.get(index) else { return Smd::default() };
    let mut pose = LocalPose::defaults(model);
    let frames = (0..animation.frames.max(1))
        .map(|k| {
            animation_frame(rig, 0, index, k, &mut pose);
            let bones = model
                .bones
                .iter()
                .enumerate()
                .map(|(i, bone)| {
                    let (position, rotation) = (pose.positions[i], pose.rotations[i]);
                    let (position, rotation) = if bone.parent.is_none() {
                        root_for_studiomdl(position, rotation, movement_at(animation, k))
                    } else {
                        (f64s(position), quaternion_angles(rotation.as_dquat()))
                    };
                    BoneKey { bone: i, position, rotation }
                })
                .collect();
            Frame { time: k as i32, bones }
        })
        .collect();
    Smd { nodes: nodes(model), frames, ..Smd::default() }
}

/// Per body part, the flex shapes of its model where it has one model with flexes (the QC's
/// `$model` block), in a `.vta` named after its reference file.
fn faces(model: &SourceModel, layout: &Layout) -> Vec<Option<FlexShapes>> {
    let mut names = FileNames::default();
    model
        .body_parts
        .iter()
        .zip(&layout.models)
        .enumerate()
        .map(|(p, (part, files))| {
            let reference = files.first()?.as_ref()?.first()?;
            if part.models.len() != 1 {
                return None;
            }
            let file = names.take(&format!("{}_flex", reference.trim_end_matches(".smd")), "vta");
            flex_shapes(model, p, 0, &file)
        })
        .collect()
}

/// Refuses what cannot be decompiled whole: meshes without their `.vvd` or `.vtx`, animations
/// whose data was not read (a missing `.ani`, an unusable chain) or is frame-encoded.
pub fn check(model: &SourceModel) -> Result<(), DecompileError> {
    super::check_size(model.animations.iter().map(|a| u64::from(a.frames.max(1))), model.bones.len())?;
    let has_meshes = model.body_parts.iter().flat_map(|p| &p.models).any(|m| !m.meshes.is_empty());
    if has_meshes && model.vertices.is_none() {
        return Err(DecompileError::Companion { file: ".vvd" });
    }
    if has_meshes && model.vtx.is_none() {
        return Err(DecompileError::Companion { file: ".vtx" });
    }
    for (i, animation) in model.animations.iter().enumerate() {
        let unread =
            |why: String| DecompileError::AnimationData { animation: i, name: animation.name.clone(), why };
        if animation.flags & studio_source::STUDIO_FRAMEANIM != 0 {
            return Err(unread("it is frame-encoded (STUDIO_FRAMEANIM), which is not read".into()));
        }
        for (entry, ((place, frames), chain)) in
            animation.places().into_iter().zip(&animation.chains).enumerate()
        {
            if frames.is_none() || chain.is_some() || place.index == 0 || place.block < 0 {
                continue;
            }
            return Err(unread(if place.block >= 1 {
                format!("section {entry} is in .ani block {}, which was not read", place.block)
            } else {
                format!("section {entry}'s data could not be read")
            }));
        }
    }
    Ok(())
}

/// Every source file of `model` saved as `stem.mdl`, and with `include_models` those of each
/// include model in a folder named after it; `progress` is told the share done.
pub fn decompile_with(
    model: &SourceModel,
    phy: Option<&Phy>,
    stem: &str,
    include_models: bool,
    progress: &mut dyn FnMut(f32),
) -> Result<Decompiled, DecompileError> {
    let mut out = decompile(model, phy, stem, progress)?;
    if !include_models {
        return Ok(out);
    }
    for (include, loaded) in model.include_models.iter().zip(&model.includes) {
        let loaded =
            loaded.as_ref().ok_or_else(|| DecompileError::IncludeMissing { file: include.file.clone() })?;
        let name = include.file.rsplit(['/', '\\']).next().unwrap_or(&include.file);
        let folder = super::stem_of(std::path::Path::new(name));
        for file in decompile(loaded, None, &folder, &mut |_| {})?.files {
            out.push(&format!("{folder}/{}", file.name), file.bytes);
        }
    }
    Ok(out)
}

/// Every source file of `model` saved as `stem.mdl`, with its collision model from `phy` when
/// it has one; `progress` is told the share done.
pub fn decompile(
    model: &SourceModel,
    phy: Option<&Phy>,
    stem: &str,
    progress: &mut dyn FnMut(f32),
) -> Result<Decompiled, DecompileError> {
    check(model)?;
    if let Some(phy) = phy
        && phy.checksum != model.header.checksum
    {
        let why = format!(
            "its checksum {} differs from the model's {}: it belongs to another build",
            phy.checksum, model.header.checksum
        );
        return Err(DecompileError::Phy(why));
    }
    let layout = layout(model);
    let rig = Rig::new(model);
    let total =
        (layout.models.iter().flatten().flatten().flatten().count() + layout.animations.len()).max(1) as f32;
    let mut done = 0.0;
    let mut out = Decompiled::default();
    for (p, models) in layout.models.iter().enumerate() {
        for (m, files) in models.iter().enumerate() {
            for (lod, file) in files.iter().flatten().enumerate() {
                out.push(file, reference_smd(model, p, m, lod).to_text().into_bytes());
                done += 1.0;
                progress(done / total);
            }
        }
    }
    for (i, file) in layout.animations.iter().enumerate() {
        out.push(file, animation_smd(&rig, model, i).to_text().into_bytes());
        done += 1.0;
        progress(done / total);
    }
    let collision = phy.map(|phy| super::collision::collision(model, phy, stem));
    if let Some(collision) = &collision {
        out.push(&collision.file, collision.smd.to_text().into_bytes());
    }
    let faces = faces(model, &layout);
    for shapes in faces.iter().flatten() {
        out.push(&shapes.file, shapes.vta.to_text().into_bytes());
    }
    let qc = super::source_qc::qc(model, stem, &layout, &faces, collision.as_ref().map(|c| c.qc.as_str()));
    out.push(&format!("{stem}.qc"), qc.into_bytes());
    Ok(out)
}
