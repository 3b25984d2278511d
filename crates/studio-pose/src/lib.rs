//! Pose evaluation for Half-Life studio models: the game client's bone setup
//! (`StudioSetupBones` in the Half-Life SDK), to float precision, and fast.
//!
//! A [`PoseEvaluator`] turns a [`PoseRequest`] (sequence, frame, blend bytes, controller bytes,
//! mouth) into a [`Pose`]: model-space bone matrices, hit box corners and attachment points.
//! Each sequence's run-length channels are decoded once, on first use, into a keyframe table
//! ([`table`]); a pose then costs two table lookups, a slerp or two and one pass down the
//! hierarchy per bone, and allocates nothing. [`playback`] holds the clock arithmetic a viewer
//! needs: frames from time, events crossed, linear movement and transition paths.
//!
//! The semantics are Valve's, as pinned down by `../shared/reference/README.md`; the tests compare
//! every reference pose.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod blend;
pub mod channel;
pub mod controllers;
pub mod fast;
pub mod lanes;
pub mod math;
pub mod playback;
mod pose;
pub mod sample;
pub mod table;
pub mod turn;
pub mod workload;

pub use controllers::{ControllerBytes, neutral_bytes};
pub use pose::{Overlay, Pose, PoseError, PoseEvaluator, PoseRequest, TRANSITION_SECONDS, transition_weight};
