//! Reader for Source engine studio models (`.mdl` versions 44 to 49).
//!
//! Safety contract, as for the GoldSrc reader: reading **must not panic, hang or allocate
//! without bound on any input**. Every count and offset read from a file goes through the
//! shared bounds-checked, budgeted reader ([`studio_bytes`]); references between tables are
//! checked; a file that cannot be used gives an [`Error`] naming the file, the record, its index
//! and the byte offset, and problems the engine tolerates become [`Warning`]s.
//!
//! The layout is described in `../shared/spec/source-*.md`; each module cites its table.
//! What is read so far: every table of the `.mdl` (the per-bone animation data they point at,
//! the `.vvd`, `.vtx` and `.ani` files and include models are still to come).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(target_endian = "big")]
compile_error!("studio-source reads little-endian records with bytemuck and needs a little-endian target");

mod animation;
mod attachment;
mod body_part;
mod bone;
mod bone_controller;
mod error;
mod header;
mod hitbox;
mod ik;
mod include;
mod material;
mod model;
mod pose_parameter;
mod raw;
mod reader;
mod sequence;

pub use animation::{
    Animation, Movement, SEQUENCE_FLAG_NAMES, STUDIO_DELTA, STUDIO_LOOPING, Section, ZeroFrames,
};
pub use attachment::{ATTACHMENT_FLAG_WORLD_ALIGN, Attachment};
pub use body_part::{BodyModel, BodyPart, Mesh};
pub use bone::{
    BONE_FLAG_NAMES, BONE_HAS_SAVEFRAME_POS, BONE_HAS_SAVEFRAME_ROT, Bone, Procedural, QuatTrigger,
};
pub use bone_controller::BoneController;
pub use error::{Error, FileRole, Place, Problem, Record, Result, Warning, WarningKind};
pub use header::{HEADER_FLAG_NAMES, Header, MAX_VERSION, MIN_VERSION};
pub use hitbox::{Hitbox, HitboxSet};
pub use ik::{IkChain, IkLink, IkLock};
pub use include::{AnimBlock, IncludeModel};
pub use material::{Skins, Texture};
pub use model::{SourceModel, is_source_model, parse_file, parse_mdl};
pub use pose_parameter::PoseParameter;
pub use sequence::{AutoLayer, Event, NEW_EVENT_STYLE, STUDIO_CYCLEPOSE, Sequence};
