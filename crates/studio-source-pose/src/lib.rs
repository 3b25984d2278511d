//! Source engine bone setup (source-bonesetup.md, source-animdata.md): the pose of a Source
//! model's sequence at a cycle and pose parameter values, as the engine computes it, checked
//! against the references in `../shared/reference/source/`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod accumulate;
mod animation;
mod controllers;
pub mod decode;
pub mod flex_mesh;
pub mod flex_rules;
mod grid;
pub mod ik_lock;
mod layers;
mod local_hierarchy;
mod local_pose;
mod merge;
pub mod params;
pub mod playback;
pub mod points;
pub mod pose;
pub mod quaternion;
pub mod rig;
pub mod sequence_transitioner;
pub mod table;
#[cfg(test)]
mod testing;
pub mod transition;
mod zero_frames;

pub use animation::animation_frame;
pub use flex_mesh::{apply_flexes, flex_is_active, ramp_flex_weight};
pub use flex_rules::{remap_clamped, run_flex_rules};
pub use points::{
    affine_3x4, attachment_points, attachment_points_into, hitbox_corners, hitbox_corners_into,
    skinning_matrices,
};
pub use pose::{LocalPose, Scratch, SourceEvaluator, SourceLayer, SourceRequest, evaluate, matrices_into};
pub use rig::{Rig, STUDIO_AUTOPLAY, SeqRef};
