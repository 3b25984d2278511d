//! Reader for Source engine studio models (`.mdl` versions 44 to 49).
//!
//! Safety contract, as for the GoldSrc reader: reading **must not panic, hang or allocate
//! without bound on any input**. Every count and offset read from a file goes through the
//! shared bounds-checked, budgeted reader ([`studio_bytes`]); references between tables are
//! checked; a file that cannot be used gives an [`Error`] naming the file, the record, its index
//! and the byte offset, and problems the engine tolerates become [`Warning`]s.
//!
//! The layout is described in `../shared/spec/source-*.md`; each module cites its table.
//! [`parse_mdl`] and [`parse_set`] read byte slices; [`load`] finds the companions on disk.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(target_endian = "big")]
compile_error!("studio-source reads little-endian records with bytemuck and needs a little-endian target");

mod ani;
mod anim_data;
mod animation;
mod attachment;
mod body_part;
mod bone;
mod bone_controller;
mod compressed;
mod error;
mod eyeball;
mod flex;
mod header;
mod hitbox;
mod ik;
mod ik_rule;
mod include;
mod loader;
mod material;
mod model;
mod phy;
mod pose_parameter;
mod raw;
mod reader;
mod sequence;
mod set;
mod transition;
mod vert_anim;
mod vtx;
mod vvd;
mod write_edits;

pub use anim_data::{
    BoneRecord, Chain, Channel, STUDIO_ANIM_ANIMPOS, STUDIO_ANIM_ANIMROT, STUDIO_ANIM_DELTA,
    STUDIO_ANIM_RAWPOS, STUDIO_ANIM_RAWROT, STUDIO_ANIM_RAWROT2, decode_stream,
};
pub use animation::{
    Animation, Movement, SEQUENCE_FLAG_NAMES, STUDIO_DELTA, STUDIO_FRAMEANIM, STUDIO_LOOPING, Section,
    ZeroFrames,
};
pub use attachment::{ATTACHMENT_FLAG_WORLD_ALIGN, Attachment};
pub use body_part::{BodyModel, BodyPart, Mesh};
pub use bone::{
    BONE_FLAG_NAMES, BONE_HAS_SAVEFRAME_POS, BONE_HAS_SAVEFRAME_ROT, Bone, Procedural, QuatTrigger,
};
pub use bone_controller::BoneController;
pub use compressed::{half, quaternion48, quaternion64, vector48};
pub use error::{Error, FileRole, Place, Problem, Record, Result, Warning, WarningKind};
pub use eyeball::Eyeball;
pub use flex::{FLEX_STACK, FlexController, FlexControllerUi, FlexOp, FlexRule, Flexes, Mouth, RemapType};
pub use header::{HEADER_FLAG_NAMES, Header, MAX_VERSION, MIN_VERSION};
pub use hitbox::{Hitbox, HitboxSet};
pub use ik::{IkChain, IkLink, IkLock};
pub use ik_rule::{CompressedError, IkRule, LocalHierarchy};
pub use include::{AnimBlock, IncludeModel};
pub use loader::{LoadedSource, SourceLoadError, load, load_from, load_read, load_set};
pub use material::{Skins, Texture};
pub use model::{AnimationBytes, SourceModel, is_source_model, parse_file, parse_mdl};
pub use phy::{ConvexPiece, Phy, Solid, parse_phy};
pub use pose_parameter::PoseParameter;
pub use sequence::{AutoLayer, Event, NEW_EVENT_STYLE, STUDIO_AL_POSE, STUDIO_CYCLEPOSE, Sequence};
pub use set::{SourceFiles, missing, parse_set, uses_ani};
pub use transition::Transitions;
pub use vert_anim::{FLEXES_CONVERTED, MeshFlex, VERT_ANIM_FIXED_POINT_SCALE, VertAnim};
pub use vtx::{Strip, StripGroup, Vtx, VtxLod, VtxMesh, VtxModel, parse_vtx};
pub use vvd::{Vertex, VertexData, parse_vvd};
pub use write_edits::{EditWriteError, write_edits};
