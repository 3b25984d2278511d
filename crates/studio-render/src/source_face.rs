//! A Source model's moving meshes: those with flexes, whose vertices follow the flex
//! controllers (`docs/flex.md`), and eyeball meshes (`materialtype` 1), whose texture the engine
//! projects from the eyeball looking at a target (`docs/flex.md`, "Eyes"). [`SourceFace`] keeps
//! each one's bind-pose vertices and its vertices as the frame draws them, rewrites only those
//! whose inputs moved, and counts a revision the renderer uploads by.

use glam::{Affine3A, Vec3, Vec4};
use studio_source::{Eyeball, SourceModel, Vertex};
use studio_source_pose::{apply_flexes, flex_is_active, run_flex_rules};

use crate::gpu_types::MeshVertex;
use crate::scene::submodel_for_body;

/// `materialtype` of an eyeball mesh.
const MATERIAL_EYEBALL: i32 = 1;

/// Where a mesh is in its model: body part, model of the part, mesh of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeshKey {
    /// Body part.
    pub part: usize,
    /// Model of the part.
    pub model: usize,
    /// Mesh of the model.
    pub mesh: usize,
}

/// The `.vvd` vertices of a mesh at LOD 0 with their tangents (where the `.vvd` has them for
/// every vertex), where its counts fit the file.
pub(crate) fn mesh_vertices(
    model: &SourceModel,
    key: MeshKey,
) -> Option<impl ExactSizeIterator<Item = (&Vertex, Option<&Vec4>)> + Clone> {
    let (vertices, tangents) = model.mesh_vertices(key.part, key.model, key.mesh)?;
    Some(vertices.iter().enumerate().map(move |(k, v)| (v, tangents.and_then(|t| t.get(k)))))
}

/// The eyeball an eyeball mesh shows (its `materialparam`, an eyeball of its model), if it is
/// one and the eyeball exists.
fn eyeball_of(model: &SourceModel, key: MeshKey) -> Option<usize> {
    let mdl = model.body_parts.get(key.part)?.models.get(key.model)?;
    let mesh = mdl.meshes.get(key.mesh)?;
    let eyeball = usize::try_from(mesh.material_param).ok()?;
    (mesh.material_type == MATERIAL_EYEBALL && eyeball < mdl.eyeballs.len()).then_some(eyeball)
}

/// The meshes of `model` that move, in body part, model and mesh order: those with vertices and
/// either flexes or an eyeball.
pub fn moving_meshes(model: &SourceModel) -> Vec<MeshKey> {
    let mut keys = Vec::new();
    for (part, body_part) in model.body_parts.iter().enumerate() {
        for (m, mdl) in body_part.models.iter().enumerate() {
            for (mesh, record) in mdl.meshes.iter().enumerate() {
                let key = MeshKey { part, model: m, mesh };
                let moves = !record.flexes.is_empty() || eyeball_of(model, key).is_some();
                if moves && mesh_vertices(model, key).is_some_and(|v| v.len() > 0) {
                    keys.push(key);
                }
            }
        }
    }
    keys
}

/// The engine's eyeball state (`R_StudioEyeballPosition`): where the eye is and looks, and the
/// projection of its iris texture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EyeState {
    /// The eyeball's centre, in model space.
    pub origin: Vec3,
    /// Where it looks (towards the target, turned by `zoffset`), unit length.
    pub forward: Vec3,
    /// Its up, at right angles to `forward`.
    pub up: Vec3,
    /// Its right, at right angles to both.
    pub right: Vec3,
    /// The iris texture's u of a model-space point p: `dot(u.xyz, p) + u.w`.
    pub u: Vec4,
    /// Its v, the same way.
    pub v: Vec4,
}

/// `R_StudioEyeballPosition` with the game's settings (no eye shift, no extra size, eyes that
/// move): `eyeball` on a bone at model-space transform `bone`, looking at `target` (model
/// space). The steps and their order are the engine's, so that the float results round as its
/// do: forward towards the target, right = forward × up, forward moved by 2·zoffset along
/// right, right and up made square to it, and the projection's rows −right/scale and
/// −up/scale, where scale = 1 / iris_scale, each offset to put the eye's centre at 0.5.
pub fn eye_state(eyeball: &Eyeball, bone: &Affine3A, target: Vec3) -> EyeState {
    let origin = bone.transform_point3(eyeball.origin);
    let mut up = bone.transform_vector3(eyeball.up);
    let mut forward = (target - origin).normalize_or_zero();
    let mut right = forward.cross(up).normalize_or_zero();
    let dz = eyeball.z_offset;
    forward += right * (eyeball.z_offset + dz);
    forward = forward.normalize_or_zero();
    right = forward.cross(up).normalize_or_zero();
    up = right.cross(forward).normalize_or_zero();
    let mut scale = 1.0 / eyeball.iris_scale;
    if scale > 0.0 {
        scale = 1.0 / scale;
    }
    let u = right * -scale;
    let v = up * -scale;
    EyeState {
        origin,
        forward,
        up,
        right,
        u: u.extend(-origin.dot(u) + 0.5),
        v: v.extend(-origin.dot(v) + 0.5),
    }
}

/// `R_StudioEyelidFACS`: the lid heights the eye's look gives, written to the eyeball's lid
/// flex descriptions in `weights` (after the rules, before the vertices). Each lid's angle is
/// the weighted sum of the arcsines of its three targets over the radius (clamped to ±1), by
/// the weights of its raiser, neutral and lowerer descriptions; the height is that angle's
/// point on the eye, along the look turned into the bone's space, measured along the eyeball's
/// up. Non-FACS eyeballs are left alone.
pub fn eyelids(eyeball: &Eyeball, state: &EyeState, bone: &Affine3A, weights: &mut [f32]) {
    if eyeball.non_facs {
        return;
    }
    let weight = |d: Option<usize>, w: &[f32]| d.and_then(|d| w.get(d).copied()).unwrap_or(0.0);
    let angle = |descs: [Option<usize>; 3], targets: [f32; 3], w: &[f32]| {
        let t = targets.map(|t| (t / eyeball.radius).clamp(-1.0, 1.0));
        let mut a = weight(descs[0], w) * t[0].asin();
        a += weight(descs[1], w) * t[1].asin();
        a += weight(descs[2], w) * t[2].asin();
        a
    };
    let upper = angle(eyeball.upper_flex_desc, eyeball.upper_target, weights);
    let lower = angle(eyeball.lower_flex_desc, eyeball.lower_target, weights);
    // VectorIRotate: by the transpose of the bone's rotation.
    let rotation = glam::Mat3::from(bone.matrix3).transpose();
    let head_up = rotation * state.up;
    let head_forward = rotation * state.forward;
    let height = |angle: f32| {
        let (sin, cos) = angle.sin_cos();
        let pos = head_up * (sin * eyeball.radius) + head_forward * (cos * eyeball.radius);
        pos.dot(eyeball.up)
    };
    let (upper_height, lower_height) = (height(upper), height(lower));
    if let Some(slot) = eyeball.upper_lid_flex_desc.and_then(|d| weights.get_mut(d)) {
        *slot = upper_height;
    }
    if let Some(slot) = eyeball.lower_lid_flex_desc.and_then(|d| weights.get_mut(d)) {
        *slot = lower_height;
    }
}

/// One moving mesh.
#[derive(Debug)]
struct Moving {
    key: MeshKey,
    /// Its bind-pose vertices, as uploaded.
    bind: Vec<MeshVertex>,
    /// The place in [`SourceFace::eyes`] of the eyeball it shows, if it is an eyeball mesh.
    eye: Option<usize>,
    /// Whether its vertices are the bind pose's (no flex moved them).
    at_rest: bool,
}

/// A Source model's moving meshes and their vertices this frame. Allocates only in
/// [`SourceFace::new`].
#[derive(Debug, Default)]
pub struct SourceFace {
    meshes: Vec<Moving>,
    /// Per moving mesh ([`moving_meshes`] order, the renderer's [`crate::RenderMesh::moving`]),
    /// its vertices this frame.
    pub vertices: Vec<Vec<MeshVertex>>,
    /// Each flex description's weight this frame.
    pub weights: Vec<f32>,
    /// The weights the flexed vertices were last computed at.
    applied: Vec<f32>,
    /// Each eyeball's state this frame: (body part, model, eyeball of the model), state.
    pub eyes: Vec<((usize, usize, usize), EyeState)>,
    positions: Vec<Vec3>,
    normals: Vec<Vec3>,
    moved: Vec<bool>,
    /// Counts the frames whose vertices differ from the frame before.
    pub revision: u64,
}

impl SourceFace {
    /// The moving meshes of `model`, at the bind pose.
    pub fn new(model: &SourceModel) -> Self {
        let eyes: Vec<((usize, usize, usize), EyeState)> = model
            .body_parts
            .iter()
            .enumerate()
            .flat_map(|(part, p)| p.models.iter().enumerate().map(move |(m, mdl)| (part, m, mdl)))
            .flat_map(|(part, m, mdl)| {
                (0..mdl.eyeballs.len()).map(move |e| ((part, m, e), eye_state_at_rest()))
            })
            .collect();
        let meshes: Vec<Moving> = moving_meshes(model)
            .into_iter()
            .map(|key| {
                let bind = mesh_vertices(model, key)
                    .map_or_else(Vec::new, |v| v.map(crate::source::mesh_vertex).collect());
                let eye = eyeball_of(model, key)
                    .and_then(|e| eyes.iter().position(|(k, _)| *k == (key.part, key.model, e)));
                Moving { key, bind, eye, at_rest: true }
            })
            .collect();
        let longest = meshes.iter().map(|m| m.bind.len()).max().unwrap_or(0);
        Self {
            vertices: meshes.iter().map(|m| m.bind.clone()).collect(),
            meshes,
            weights: vec![0.0; model.flexes.descs.len()],
            applied: vec![f32::NAN; model.flexes.descs.len()],
            eyes,
            positions: Vec::with_capacity(longest),
            normals: Vec::with_capacity(longest),
            moved: Vec::with_capacity(longest),
            revision: 0,
        }
    }

    /// Whether the model has anything that moves.
    pub fn is_empty(&self) -> bool {
        self.meshes.is_empty() && self.eyes.is_empty()
    }

    /// Poses the moving meshes of `model` for flex controller values `controllers` (each in its
    /// own range), bones `bones` with skinning matrices `skinning`, the submodels body number
    /// `body` chooses (whose eyeballs set the lids) and eyes looking at `target` (model
    /// space). A flexed mesh is computed again only when the weights changed; one no flex
    /// moves stays as it was. The revision moves on when any vertex changed.
    pub fn update(
        &mut self,
        model: &SourceModel,
        controllers: &[f32],
        (bones, skinning): (&[Affine3A], &[Affine3A]),
        body: i32,
        target: Vec3,
    ) {
        run_flex_rules(&model.flexes, controllers, &mut self.weights);
        for ((p, m, e), state) in &mut self.eyes {
            let (p, m, e) = (*p, *m, *e);
            let Some(part) = model.body_parts.get(p) else { continue };
            let Some(eyeball) = part.models.get(m).and_then(|mdl| mdl.eyeballs.get(e)) else { continue };
            let Some(bone) = bones.get(eyeball.bone) else { continue };
            *state = eye_state(eyeball, bone, target);
            if submodel_for_body(part.base, part.models.len(), body) == Some(m) {
                eyelids(eyeball, state, bone, &mut self.weights);
            }
        }
        let weights_changed = self.weights.iter().zip(&self.applied).any(|(a, b)| a.to_bits() != b.to_bits());
        let mut changed = false;
        for (moving, out) in self.meshes.iter_mut().zip(&mut self.vertices) {
            let Some(mesh) = model
                .body_parts
                .get(moving.key.part)
                .and_then(|p| p.models.get(moving.key.model))
                .and_then(|m| m.meshes.get(moving.key.mesh))
            else {
                continue;
            };
            let eye = moving.eye.and_then(|e| self.eyes.get(e));
            let active = mesh.flexes.iter().any(|f| flex_is_active(f, &self.weights));
            let reflex = weights_changed && (active || !moving.at_rest);
            if !reflex && eye.is_none() {
                continue;
            }
            if reflex {
                self.positions.clear();
                self.normals.clear();
                self.positions.extend(moving.bind.iter().map(|v| Vec3::from(v.position)));
                self.normals.extend(moving.bind.iter().map(|v| Vec3::from(v.normal)));
                apply_flexes(mesh, &self.weights, &mut self.positions, &mut self.normals, &mut self.moved);
                for ((vertex, bind), (p, n)) in
                    out.iter_mut().zip(&moving.bind).zip(self.positions.iter().zip(&self.normals))
                {
                    let mut next = *bind;
                    next.texel2 = vertex.texel2;
                    next.position = p.to_array();
                    next.normal = n.to_array();
                    changed |= next != *vertex;
                    *vertex = next;
                }
                moving.at_rest = !active;
            }
            if let Some((_, state)) = eye {
                for vertex in out.iter_mut() {
                    let p = skinned(vertex, skinning);
                    let texel =
                        [state.u.truncate().dot(p) + state.u.w, state.v.truncate().dot(p) + state.v.w];
                    changed |= texel != vertex.texel2;
                    vertex.texel2 = texel;
                }
            }
        }
        if weights_changed {
            self.applied.copy_from_slice(&self.weights);
        }
        if changed {
            self.revision = self.revision.wrapping_add(1);
        }
    }
}

/// An eye state before any frame: looking nowhere, projecting everything to the centre.
fn eye_state_at_rest() -> EyeState {
    EyeState {
        origin: Vec3::ZERO,
        forward: Vec3::ZERO,
        up: Vec3::ZERO,
        right: Vec3::ZERO,
        u: Vec4::new(0.0, 0.0, 0.0, 0.5),
        v: Vec4::new(0.0, 0.0, 0.0, 0.5),
    }
}

/// `vertex`'s position skinned by `skinning`, as the mesh shader places it.
fn skinned(vertex: &MeshVertex, skinning: &[Affine3A]) -> Vec3 {
    let p = Vec3::from(vertex.position);
    let mut out = Vec3::ZERO;
    for (bone, weight) in vertex.position_bones() {
        if let Some(m) = skinning.get(usize::from(bone)) {
            out += m.transform_point3(p) * weight;
        }
    }
    out
}
