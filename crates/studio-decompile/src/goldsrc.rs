//! Decompiling a version 10 model: a reference SMD per submodel, an animation SMD per blend of
//! every sequence, the textures as 8-bit BMP files, and the QC ([`super::goldsrc_qc`]).
//!
//! The files follow Half-Life's studiomdl conventions (as mdldec writes them, so they compile
//! back to the same model):
//! - Reference files hold the bones' default values as their skeleton and the vertices in
//!   model space, each corner on its vertex's bone. Triangles are written in the opposite
//!   winding of the game's strips and fans, which studiomdl turns back.
//! - Texture coordinates are `u = s / (width − 1)` and `v = 1 − t / (height − 1)`.
//! - Animation frames hold each bone's six values (`value + raw × scale`, the numbers Valve's
//!   `CalcBoneAngles`/`CalcBonePosition` start from at that frame). Root bones get the
//!   sequence's linear movement added back (studiomdl takes it out again for `LX`, `LY`, `LZ`)
//!   and are turned −90° about Z, which studiomdl's default `$origin` rotation of +90° undoes
//!   ([`root_for_studiomdl`], [`super::turn`]).

use glam::{Affine3A, Vec3, Vec3A, Vec4};
use studio_model::{Model, Sequence};
use studio_pose::channel::{PositionKey, position_key, rotation_pair};
use studio_pose::math::{angle_quaternion, bone_matrix, concat_bone};

use super::keep_bones::{KeepBones, OWN_PART};
use super::names::FileNames;
use super::qc_names::{QcNames, Renamed, is_sequence_option};
use super::texture_flags;
use super::turn::{ROOT_TURN, turn, unturn};
use super::{DecompileError, Decompiled};
use studio_smd::bmp;
use studio_smd::{BoneKey, Corner, Frame, Node, Smd, Triangle};

/// The names a version 10 model's sources give: its files, and the names of its bones,
/// sequences and body parts as studiomdl reads them back ([`super::qc_names`]).
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Per texture, its BMP file ([`texture_flags::file_stem`]: chrome said by the name).
    pub textures: Vec<String>,
    /// Per body part, per submodel, its reference SMD (`None`: blank).
    pub submodels: Vec<Vec<Option<String>>>,
    /// Per sequence, per blend, its animation SMD (never a name `$sequence` takes as an
    /// option).
    pub sequences: Vec<Vec<String>>,
    /// Per bone, its name as written.
    pub bones: Vec<String>,
    /// Per sequence, its label as written.
    pub labels: Vec<String>,
    /// Per body part, its name as written.
    pub parts: Vec<String>,
    /// The names written other than the model has them.
    pub renamed: Vec<Renamed>,
    /// The bones studiomdl would drop and the triangles that keep them ([`super::keep_bones`]).
    pub keep: KeepBones,
    /// Per texture, the submodel that gets the triangle keeping it whole, if it needs one
    /// ([`super::texture_range`]).
    pub whole: Vec<Option<(usize, usize)>>,
}

impl Layout {
    /// The triangles of zero area the reference SMDs get beyond the model's own: one per bone
    /// kept and one per texture kept whole.
    pub fn added_triangles(&self) -> usize {
        self.keep.bones.len() + self.whole.iter().flatten().count()
    }

    /// Those of them submodel `at` (body part, submodel) gets, after its own.
    pub fn added_at(&self, at: (usize, usize)) -> usize {
        let keeping = if self.keep.submodel == Some(at) { self.keep.bones.len() } else { 0 };
        keeping + self.whole.iter().filter(|&&place| place == Some(at)).count()
    }
}

/// Whether a submodel is a blank choice of its body part.
pub fn is_blank(sub: &studio_model::Submodel) -> bool {
    sub.name.eq_ignore_ascii_case("blank") || sub.vertices.is_empty()
}

/// Names every file of `model`, and its bones, sequences and body parts.
pub fn layout(model: &Model) -> Layout {
    let mut renamed = Vec::new();
    let mut written = |mut names: QcNames, all: Vec<&str>| -> Vec<String> {
        let mut out = Vec::with_capacity(all.len());
        for (i, name) in all.into_iter().enumerate() {
            let (name, change) = names.take(i, name);
            renamed.extend(change);
            out.push(name);
        }
        out
    };
    let bones = written(QcNames::bones(), model.bones.iter().map(|b| b.name.as_str()).collect());
    let labels = written(QcNames::sequences(), model.sequences.iter().map(|s| s.label.as_str()).collect());
    let parts = written(QcNames::body_parts(), model.body_parts.iter().map(|p| p.name.as_str()).collect());
    let mut names = FileNames::default();
    let textures = model
        .textures
        .iter()
        .map(|t| names.take(&texture_flags::file_stem(&t.name, t.flags), "bmp"))
        .collect();
    let submodels = model
        .body_parts
        .iter()
        .map(|part| {
            part.submodels.iter().map(|sub| (!is_blank(sub)).then(|| names.take(&sub.name, "smd"))).collect()
        })
        .collect();
    let sequences = model
        .sequences
        .iter()
        .zip(&labels)
        .map(|(s, label)| {
            let blends = s.num_blends.max(1);
            (0..blends)
                .map(|b| {
                    let base = if blends == 1 { label.clone() } else { format!("{label}_blend{:02}", b + 1) };
                    let file = names.take(&base, "smd");
                    if is_sequence_option(file.trim_end_matches(".smd")) {
                        names.take(&format!("anim_{base}"), "smd")
                    } else {
                        file
                    }
                })
                .collect()
        })
        .collect();
    let keep = super::keep_bones::plan(model);
    let whole = super::texture_range::plan(model);
    Layout { textures, submodels, sequences, bones, labels, parts, renamed, keep, whole }
}

/// The SMD's nodes: the model's bones, named as written.
fn nodes(model: &Model, layout: &Layout) -> Vec<Node> {
    model
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| Node { name: layout.bones.get(i).cloned().unwrap_or_default(), parent: b.parent })
        .collect()
}

/// A triangle of zero area at bone `bone`'s origin in the reference pose, bound to it, with
/// `material` and texture coordinate `uv` ([`super::keep_bones`]).
fn keeping_triangle(bone: usize, matrices: &[Affine3A], material: &str, uv: [f64; 2]) -> Triangle {
    let at = matrices.get(bone).map_or(Vec3A::ZERO, |m| m.translation);
    let corner = Corner { bone, position: vec3(at), normal: [0.0, 0.0, 1.0], uv, links: Vec::new() };
    Triangle { material: material.to_owned(), corners: [corner.clone(), corner.clone(), corner] }
}

fn vec3(v: Vec3A) -> [f64; 3] {
    [f64::from(v.x), f64::from(v.y), f64::from(v.z)]
}

fn values3(v: &[f32]) -> [f64; 3] {
    [f64::from(v[0]), f64::from(v[1]), f64::from(v[2])]
}

/// The bones' model-space matrices at their default values (the reference pose).
pub fn reference_matrices(model: &Model) -> Vec<Affine3A> {
    let mut out: Vec<Affine3A> = Vec::with_capacity(model.bones.len());
    for bone in &model.bones {
        let q = Vec4::from_array(angle_quaternion([bone.value[3], bone.value[4], bone.value[5]]));
        let pos = Vec3A::new(bone.value[0], bone.value[1], bone.value[2]);
        let m = match bone.parent.and_then(|p| out.get(p)) {
            Some(parent) => concat_bone(parent, q, pos),
            None => bone_matrix(q, pos),
        };
        out.push(m);
    }
    out
}

/// The texture coordinate of texel (`s`, `t`) on a `width × height` texture, as studiomdl
/// reads it back (see the module's text).
pub fn uv(s: i16, t: i16, width: u32, height: u32) -> [f64; 2] {
    let span = |size: u32| if size > 1 { (size - 1) as f32 } else { 1.0 };
    let u = f32::from(s) / span(width);
    let v = 1.0 - f32::from(t) / span(height);
    [f64::from(u), f64::from(v)]
}

/// A reference SMD's one frame: every bone at its default values.
fn reference_skeleton(model: &Model) -> Vec<BoneKey> {
    model
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| BoneKey { bone: i, position: values3(&b.value[..3]), rotation: values3(&b.value[3..]) })
        .collect()
}

/// The reference SMD of submodel `at` (body part, submodel); `matrices` are the model's
/// [`reference_matrices`]. It gets the triangles of zero area the layout puts there: one per
/// bone to keep ([`super::keep_bones`]) and one per texture to keep whole
/// ([`super::texture_range`]).
pub fn reference_smd(model: &Model, at: (usize, usize), layout: &Layout, matrices: &[Affine3A]) -> Smd {
    let Some(sub) = model.body_parts.get(at.0).and_then(|p| p.submodels.get(at.1)) else {
        return Smd::default();
    };
    let skeleton = reference_skeleton(model);
    let mut triangles = Vec::new();
    for mesh in &sub.meshes {
        let texture = model.skins.texture(0, mesh.skin_ref).or(usize::try_from(mesh.skin_ref).ok());
        let (material, size) =
            match texture.and_then(|t| Some((layout.textures.get(t)?, model.textures.get(t)?))) {
                Some((name, t)) => (name.clone(), (t.width, t.height)),
                None => (format!("skin{}.bmp", mesh.skin_ref), (1, 1)),
            };
        for triangle in &mesh.triangles {
            let corner = |mv: studio_model::MeshVertex| {
                let vertex = usize::from(mv.vertex);
                let normal = usize::from(mv.normal);
                let vertex_bone = sub.vertex_bones.get(vertex).map_or(0, |&b| usize::from(b));
                let normal_bone = sub.normal_bones.get(normal).map_or(0, |&b| usize::from(b));
                let at = |bone: usize| matrices.get(bone).copied().unwrap_or(Affine3A::IDENTITY);
                let position =
                    at(vertex_bone).transform_point3(sub.vertices.get(vertex).copied().unwrap_or_default());
                let direction =
                    at(normal_bone).transform_vector3(sub.normals.get(normal).copied().unwrap_or_default());
                Corner {
                    bone: vertex_bone,
                    position: vec3(position.into()),
                    normal: vec3(direction.into()),
                    uv: uv(mv.s, mv.t, size.0, size.1),
                    links: Vec::new(),
                }
            };
            // The opposite winding of the game's (studiomdl turns it back).
            let vertex = |i: u32| mesh.vertices.get(i as usize).copied();
            let [Some(a), Some(b), Some(c)] = triangle.map(vertex) else { continue };
            triangles
                .push(Triangle { material: material.clone(), corners: [corner(c), corner(b), corner(a)] });
        }
    }
    let whole: Vec<&String> = (layout.whole.iter().zip(&layout.textures))
        .filter(|(place, _)| **place == Some(at))
        .map(|(_, name)| name)
        .collect();
    for name in whole {
        if let Some(first) = triangles.iter().find(|t| &t.material == name) {
            let corner = |uv: [f64; 2]| Corner { uv, ..first.corners[0].clone() };
            let corners = super::texture_range::CORNERS.map(corner);
            triangles.push(Triangle { material: name.clone(), corners });
        }
    }
    // On a texture coordinate the submodel already uses, so that no texture grows.
    if layout.keep.submodel == Some(at)
        && let Some(first) = triangles.first().map(|t| (t.material.clone(), t.corners[0].uv))
    {
        triangles.extend(
            layout.keep.bones.iter().map(|&bone| keeping_triangle(bone, matrices, &first.0, first.1)),
        );
    }
    Smd {
        nodes: nodes(model, layout),
        frames: vec![Frame { time: 0, bones: skeleton }],
        triangles,
        shapes: Vec::new(),
    }
}

/// A bone's six values at keyframe `frame` of blend `blend`: `value + raw × scale` from its
/// channels (the bone's `value` where a channel is absent), positions then angles, rounded as
/// the evaluator rounds them at that frame.
pub fn frame_values(model: &Model, sequence: &Sequence, blend: usize, frame: u32) -> Vec<[f32; 6]> {
    let data = model.animation_data(sequence);
    let anims = sequence.animation.as_ref().and_then(|a| a.blend(blend)).unwrap_or_default();
    let frame = i32::try_from(frame).unwrap_or(i32::MAX);
    model
        .bones
        .iter()
        .enumerate()
        .map(|(b, bone)| {
            let mut values = bone.value;
            if let Some(anim) = anims.get(b) {
                for (d, value) in values.iter_mut().enumerate() {
                    let Some(channel) = anim.channels[d] else { continue };
                    let (base, scale) = (bone.value[d], bone.scale[d]);
                    *value = if d >= 3 {
                        base + f32::from(rotation_pair(data, channel.offset as usize, frame).0) * scale
                    } else {
                        // As `CalcBonePosition`: a position between two stored values is mixed
                        // in double and rounded once; a held one is float arithmetic.
                        match position_key(data, channel.offset as usize, frame) {
                            PositionKey::Lerp(r, _) => {
                                (f64::from(base) + f64::from(r) * f64::from(scale)) as f32
                            }
                            PositionKey::Hold(r) => base + f32::from(r) * scale,
                        }
                    };
                }
            }
            values
        })
        .collect()
}

/// A root bone's values as written for studiomdl: the linear movement at `frame` of `frames`
/// added (`frame / (frames − 1)` of it), then turned −90° about Z (`x, y → y, −x`, exact) with
/// [`ROOT_TURN`] added to the z angle. Done in `f64` so that [`root_from_studiomdl`] recovers
/// the `f32` values exactly.
pub fn root_for_studiomdl(values: [f32; 6], movement: Vec3, frame: u32, frames: u32) -> ([f64; 3], [f64; 3]) {
    let [x, y, z] = movement_at(movement, frame, frames);
    let p = [f64::from(values[0]) + x, f64::from(values[1]) + y, f64::from(values[2]) + z];
    let r = [f64::from(values[3]), f64::from(values[4]), f64::from(values[5]) + ROOT_TURN];
    (turn(p), r)
}

/// The inverse of [`root_for_studiomdl`]: the six values of the file's root bone.
pub fn root_from_studiomdl(
    position: [f64; 3],
    rotation: [f64; 3],
    movement: Vec3,
    frame: u32,
    frames: u32,
) -> [f32; 6] {
    let [x, y, z] = movement_at(movement, frame, frames);
    let p = unturn(position);
    let p = [p[0] - x, p[1] - y, p[2] - z];
    [
        p[0] as f32,
        p[1] as f32,
        p[2] as f32,
        rotation[0] as f32,
        rotation[1] as f32,
        (rotation[2] - ROOT_TURN) as f32,
    ]
}

fn movement_at(movement: Vec3, frame: u32, frames: u32) -> [f64; 3] {
    if frames <= 1 || frame == 0 {
        return [0.0; 3];
    }
    let f = f64::from(frame) / f64::from(frames - 1);
    [f * f64::from(movement.x), f * f64::from(movement.y), f * f64::from(movement.z)]
}

/// The reference SMD of a model without meshes: a triangle of zero area on each bone of `keep`,
/// textured with `OWN_PART.bmp`.
pub fn own_part_smd(model: &Model, layout: &Layout, matrices: &[Affine3A]) -> Smd {
    let material = format!("{OWN_PART}.bmp");
    let skeleton = reference_skeleton(model);
    let triangles = layout
        .keep
        .bones
        .iter()
        .map(|&bone| keeping_triangle(bone, matrices, &material, [0.5, 0.5]))
        .collect();
    Smd {
        nodes: nodes(model, layout),
        frames: vec![Frame { time: 0, bones: skeleton }],
        triangles,
        shapes: Vec::new(),
    }
}

/// The one-colour 8 × 8 texture of [`own_part_smd`].
fn own_part_bmp() -> Option<Vec<u8>> {
    let image =
        bmp::Indexed { width: 8, height: 8, pixels: vec![0; 64], palette: vec![[128, 128, 128]; 256] };
    bmp::write(&image)
}

/// The animation SMD of blend `blend` of `sequence`: every frame, every bone.
pub fn animation_smd(model: &Model, layout: &Layout, sequence: &Sequence, blend: usize) -> Smd {
    let frames = sequence.frames();
    let frames_out = (0..frames)
        .map(|frame| {
            let values = frame_values(model, sequence, blend, frame);
            let bones = values
                .iter()
                .zip(&model.bones)
                .enumerate()
                .map(|(i, (v, bone))| {
                    let (position, rotation) = if bone.parent.is_none() {
                        root_for_studiomdl(*v, sequence.linear_movement, frame, frames)
                    } else {
                        (values3(&v[..3]), values3(&v[3..]))
                    };
                    BoneKey { bone: i, position, rotation }
                })
                .collect();
            Frame { time: frame as i32, bones }
        })
        .collect();
    Smd { nodes: nodes(model, layout), frames: frames_out, ..Smd::default() }
}

/// Every source file of a version 10 model saved as `stem.mdl`; `progress` is told the share
/// done (0 to 1) as files are made.
pub fn decompile(
    model: &Model,
    stem: &str,
    progress: &mut dyn FnMut(f32),
) -> Result<Decompiled, DecompileError> {
    // No textures at all is a model without meshes, or one whose texture file is missing.
    let has_meshes = model.body_parts.iter().flat_map(|p| &p.submodels).any(|s| !s.meshes.is_empty());
    if model.texture_source == studio_model::TextureSource::None && has_meshes {
        return Err(DecompileError::TexturesMissing);
    }
    for (i, s) in model.sequences.iter().enumerate() {
        if s.animation.is_none() {
            return Err(DecompileError::AnimationMissing {
                sequence: i,
                label: s.label.clone(),
                group: s.group,
            });
        }
    }
    let files =
        model.sequences.iter().flat_map(|s| std::iter::repeat_n(u64::from(s.frames()), s.num_blends.max(1)));
    super::check_size(files, model.bones.len())?;
    let layout = layout(model);
    let mut out = Decompiled {
        warnings: layout.renamed.iter().map(ToString::to_string).collect(),
        ..Decompiled::default()
    };
    let total = (model.textures.len()
        + layout.submodels.iter().flatten().count()
        + layout.sequences.iter().flatten().count())
    .max(1) as f32;
    let mut done = 0.0;
    let mut step = |progress: &mut dyn FnMut(f32)| {
        done += 1.0;
        progress(done / total);
    };
    for (texture, name) in model.textures.iter().zip(&layout.textures) {
        let image = bmp::Indexed {
            width: texture.width,
            height: texture.height,
            pixels: texture.pixels.clone(),
            palette: texture.palette.clone(),
        };
        let bytes =
            bmp::write(&image).ok_or_else(|| DecompileError::Texture { name: texture.name.clone() })?;
        out.push(name, bytes);
        step(progress);
    }
    let matrices = reference_matrices(model);
    for (p, names) in layout.submodels.iter().enumerate() {
        for (s, name) in names.iter().enumerate() {
            if let Some(name) = name {
                out.push(name, reference_smd(model, (p, s), &layout, &matrices).to_text().into_bytes());
                step(progress);
            }
        }
    }
    if layout.keep.own_part() {
        let bmp = own_part_bmp().ok_or_else(|| DecompileError::Texture { name: OWN_PART.to_owned() })?;
        out.push(&format!("{OWN_PART}.bmp"), bmp);
        out.push(&format!("{OWN_PART}.smd"), own_part_smd(model, &layout, &matrices).to_text().into_bytes());
    }
    for (sequence, names) in model.sequences.iter().zip(&layout.sequences) {
        for (blend, name) in names.iter().enumerate() {
            out.push(name, animation_smd(model, &layout, sequence, blend).to_text().into_bytes());
            step(progress);
        }
    }
    let qc = super::goldsrc_qc::qc(model, stem, &layout);
    out.push(&format!("{stem}.qc"), qc.into_bytes());
    Ok(out)
}
