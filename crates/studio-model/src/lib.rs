//! Parser for Half-Life studio models (`.mdl`, version 10).
//!
//! Safety contract: parsing **must not panic, hang or allocate without bound on any input**.
//! Every count and offset read from a file is checked against the file's length before use,
//! arithmetic on file values is checked, loops over file data always move forward through the
//! file, and every read draws on a budget proportional to the file's size. A file that cannot be
//! used gives an [`Error`] naming the file, the record and the byte offset; problems the game
//! tolerates become [`Warning`]s carried with the [`Model`].
//!
//! The core parses byte slices ([`parse`], [`ModelFiles`]); [`load`] finds companion files on disk.
//! The format is described in `../shared/spec/goldsrc-*.md`; each module cites its table.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(target_endian = "big")]
compile_error!("studio-model reads little-endian records with bytemuck and needs a little-endian target");

mod animation;
mod attachment;
mod body_part;
mod bone;
mod bone_controller;
mod error;
mod header;
mod hitbox;
mod loader;
mod model;
pub mod motion;
mod raw;
mod reader;
pub mod remap;
mod rle;
mod sequence;
mod sequence_group;
mod skin;
mod submodel;
mod texture;
mod transition;
mod triangles;
mod warnings;
mod writer;

pub use animation::{Animation, BoneAnimation, CHANNEL_NAMES, Channel, Run, Runs};
pub use attachment::Attachment;
pub use body_part::BodyPart;
pub use bone::Bone;
pub use bone_controller::{BoneController, ControllerInput};
pub use error::{ChannelProblem, Error, FileRole, Place, Problem, Record, Result, Warning, WarningKind};
pub use header::{Header, MODEL_FLAG_NAMES, STUDIO_VERSION, is_group_file};
pub use hitbox::{HIT_GROUP_NAMES, Hitbox, hit_group_name};
pub use loader::{LoadError, Loaded, companion_path, load, load_from, load_read, load_set};
pub use model::{CompanionsNeeded, Model, ModelFiles, TextureSource, companions_needed, parse};
pub use rle::{EncodedRun, decode_channel, encode_channel, encode_runs};
pub use sequence::{Event, Pivot, STUDIO_LOOPING, Sequence};
pub use sequence_group::{GroupStatus, SequenceGroup};
pub use skin::Skins;
pub use submodel::{Mesh, Submodel};
pub use texture::{
    STUDIO_NF_ADDITIVE, STUDIO_NF_ALPHA, STUDIO_NF_CHROME, STUDIO_NF_FLATSHADE, STUDIO_NF_FULLBRIGHT,
    STUDIO_NF_MASKED, STUDIO_NF_NOMIPS, TEXTURE_FLAG_NAMES, Texture,
};
pub use transition::Transitions;
pub use triangles::{MeshVertex, TriangleCommand, resolve_commands};
pub use writer::{WriteError, WrittenFiles, write};
