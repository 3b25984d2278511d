//! A Source model's `.mdl`, read whole: every table the spec pages describe, checked.

use crate::animation::{self, Animation};
use crate::attachment::{self, Attachment};
use crate::body_part::{self, BodyPart};
use crate::bone::{self, Bone};
use crate::bone_controller::{self, BoneController};
use crate::error::{FileRole, Record, Result, Warning, WarningKind};
use crate::flex::{self, Flexes};
use crate::header::{self, Header};
use crate::hitbox::{self, HitboxSet};
use crate::ik::{self, IkChain, IkLock};
use crate::include::{self, AnimBlock, IncludeModel};
use crate::material::{self, Skins, Texture};
use crate::pose_parameter::{self, PoseParameter};
use crate::raw::RawIkLock;
use crate::reader::{FileData, required};
use crate::sequence::{self, Sequence};

/// Everything a Source `.mdl` holds that a viewer needs, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceModel {
    /// Header facts.
    pub header: Header,
    /// Bones, parents first.
    pub bones: Vec<Bone>,
    /// Bone controllers.
    pub bone_controllers: Vec<BoneController>,
    /// Hit box sets.
    pub hitbox_sets: Vec<HitboxSet>,
    /// Attachments.
    pub attachments: Vec<Attachment>,
    /// Pose parameters.
    pub pose_parameters: Vec<PoseParameter>,
    /// IK chains.
    pub ik_chains: Vec<IkChain>,
    /// IK locks applied to every sequence (`$ikautoplaylock`).
    pub ik_autoplay_locks: Vec<IkLock>,
    /// Animation descriptions.
    pub animations: Vec<Animation>,
    /// Sequences.
    pub sequences: Vec<Sequence>,
    /// Textures (material names).
    pub textures: Vec<Texture>,
    /// Material directories, in search order.
    pub material_paths: Vec<String>,
    /// The skin table.
    pub skins: Skins,
    /// Flex descriptions, controllers, rules and mouths.
    pub flexes: Flexes,
    /// Body parts with their models and meshes.
    pub body_parts: Vec<BodyPart>,
    /// Include models.
    pub include_models: Vec<IncludeModel>,
    /// The `.ani` blocks.
    pub anim_blocks: Vec<AnimBlock>,
    /// The transition graph.
    pub transitions: crate::transition::Transitions,
    /// The `.vvd`'s vertices, when it was given, usable and of this build of the model.
    pub vertices: Option<crate::vvd::VertexData>,
    /// The `.vtx`'s strips, likewise.
    pub vtx: Option<crate::vtx::Vtx>,
    /// Each include model, in `include_models`' order, where it was found and usable.
    pub includes: Vec<Option<SourceModel>>,
    /// The bytes the animation chains' streams are read from: the `.mdl`, and the `.ani` when
    /// it was read. Kept so the pose stage can decode the streams on first use.
    pub data: AnimationBytes,
    /// Problems the engine tolerates.
    pub warnings: Vec<Warning>,
}

/// The files a model's animation chains lie in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnimationBytes {
    /// The `.mdl`.
    pub mdl: std::sync::Arc<[u8]>,
    /// The `.ani`, when it was read.
    pub ani: Option<std::sync::Arc<[u8]>>,
}

impl SourceModel {
    /// The `.vvd` LOD 0 vertices of mesh `mesh` of model `model` of body part `part`, with their
    /// tangents where the `.vvd` has one for every vertex (source-mesh.md, "Drawing LOD 0");
    /// `None` without a `.vvd`, or where the mesh's counts leave its list.
    pub fn mesh_vertices(
        &self,
        part: usize,
        model: usize,
        mesh: usize,
    ) -> Option<(&[crate::vvd::Vertex], Option<&[glam::Vec4]>)> {
        /// Bytes of a `.vvd` vertex, the unit of `vertexindex`.
        const VERTEX_SIZE: usize = 48;
        let mdl = self.body_parts.get(part)?.models.get(model)?;
        let mesh = mdl.meshes.get(mesh)?;
        let base = usize::try_from(mdl.vertex_index).ok()? / VERTEX_SIZE;
        let start = base.checked_add(usize::try_from(mesh.vertex_offset).ok()?)?;
        let end = start.checked_add(usize::try_from(mesh.num_vertices).ok()?)?;
        let data = self.vertices.as_ref()?;
        let vertices = data.vertices.get(start..end)?;
        let tangents = (data.tangents.len() == data.vertices.len()).then(|| &data.tangents[start..end]);
        Some((vertices, tangents))
    }

    /// The bytes of the file `chain` lies in (its streams' offsets are into them).
    pub fn chain_bytes(&self, chain: &crate::anim_data::Chain) -> &[u8] {
        self.file_bytes(chain.file)
    }

    /// The bytes of the file in role `role`: the `.ani` (empty when it was not read) or the
    /// `.mdl`.
    pub fn file_bytes(&self, role: FileRole) -> &[u8] {
        match role {
            FileRole::Ani => self.data.ani.as_deref().unwrap_or_default(),
            _ => &self.data.mdl,
        }
    }
}

/// Reads a Source `.mdl` from its bytes.
pub fn parse_mdl(bytes: &[u8]) -> Result<SourceModel> {
    parse_file(bytes, FileRole::Mdl)
}

/// Reads a `.mdl` in the role it plays in a model set (the main model or an include model).
pub fn parse_file(bytes: &[u8], role: FileRole) -> Result<SourceModel> {
    let file = FileData::new(bytes, role);
    let mut warnings = Vec::new();
    let (raw, _raw2, header) = header::parse(&file, &mut warnings)?;
    if i64::from(header.length) != file.len() as i64 {
        warnings.push(Warning {
            place: file.place(Record::Header, None, 76),
            kind: WarningKind::LengthMismatch { stored: header.length.into(), actual: file.len() },
        });
    }
    let bone_controllers = bone_controller::parse(&file, &raw)?;
    let bones = bone::parse(&file, &raw, bone_controllers.len(), &mut warnings)?;
    for (i, controller) in bone_controllers.iter().enumerate() {
        if controller.bone != -1 {
            required(
                &file,
                (Record::BoneController, Some(i), 0),
                "bone",
                controller.bone,
                "bone",
                bones.len(),
            )?;
        }
    }
    let hitbox_sets = hitbox::parse(&file, &raw, bones.len(), &mut warnings)?;
    let attachments = attachment::parse(&file, &raw, bones.len(), &mut warnings)?;
    let pose_parameters = pose_parameter::parse(&file, &raw)?;
    let ik_chains = ik::parse_chains(&file, &raw, bones.len(), &mut warnings)?;
    let lock_table = file.table::<RawIkLock>(
        Record::IkLock,
        None,
        0,
        "numlocalikautoplaylocks",
        raw.numlocalikautoplaylocks,
        "localikautoplaylockindex",
        raw.localikautoplaylockindex,
    )?;
    let ik_autoplay_locks = ik::locks(&file, lock_table, ik_chains.len())?;
    let animations = animation::parse(&file, &raw, &bones, ik_chains.len(), &mut warnings)?;
    let counts = sequence::Counts {
        bones: bones.len(),
        animations: animations.len(),
        pose_parameters: pose_parameters.len(),
        ik_chains: ik_chains.len(),
    };
    let sequences = sequence::parse(&file, &raw, &counts, &mut warnings)?;
    let textures = material::parse_textures(&file, &raw, &mut warnings)?;
    let material_paths = material::parse_directories(&file, &raw, &mut warnings)?;
    let skins = material::parse_skins(&file, &raw, textures.len())?;
    let flexes = flex::parse(&file, &raw, bones.len(), &mut warnings)?;
    let body_parts = body_part::parse(&file, &raw, (bones.len(), flexes.descs.len()), &mut warnings)?;
    let include_models = include::parse_includes(&file, &raw, &mut warnings)?;
    let anim_blocks = include::parse_blocks(&file, &raw)?;
    let transitions = crate::transition::parse(&file, &raw, &mut warnings)?;
    Ok(SourceModel {
        header,
        bones,
        bone_controllers,
        hitbox_sets,
        attachments,
        pose_parameters,
        ik_chains,
        ik_autoplay_locks,
        animations,
        sequences,
        textures,
        material_paths,
        skins,
        flexes,
        body_parts,
        include_models,
        anim_blocks,
        transitions,
        vertices: None,
        vtx: None,
        includes: Vec::new(),
        data: AnimationBytes { mdl: bytes.into(), ani: None },
        warnings,
    })
}

/// Whether `bytes` start like a Source model: `IDST` and a version from 44 to 49.
pub fn is_source_model(bytes: &[u8]) -> bool {
    let version = bytes.get(4..8).map(|v| i32::from_le_bytes([v[0], v[1], v[2], v[3]]));
    bytes.starts_with(b"IDST")
        && version.is_some_and(|v| (header::MIN_VERSION..=header::MAX_VERSION).contains(&v))
}
