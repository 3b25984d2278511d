//! The fixed pose-evaluation workload that `studioview bench` and the criterion benchmark time,
//! so that both measure the same thing.
//!
//! Pose i uses the (i mod n)th of the model's n evaluable sequences; with k = i div n, the frame
//! is k × 0.37 wrapped into [0, numframes − 1) for looping sequences and clamped to
//! numframes − 1.001 for the others (0 for one-frame sequences); the blend bytes are (37k) mod
//! 256 and (91k) mod 256, controller byte j is (13k + 64j) mod 256 and the mouth k mod 65. The
//! checksum is the sum over poses of the last bone's x translation plus the first bone's z
//! translation, in f64.

use studio_model::Model;

use crate::playback::normalize_frame;
use crate::{ControllerBytes, Pose, PoseRequest};

/// The sequences whose animation is available.
pub fn evaluable(model: &Model) -> Vec<usize> {
    (0..model.sequences.len()).filter(|&s| model.sequences[s].animation.is_some()).collect()
}

/// Pose `i` of the workload over `evaluable` (not empty).
pub fn request(model: &Model, evaluable: &[usize], i: usize) -> PoseRequest {
    let n = evaluable.len();
    let sequence = evaluable[i % n];
    let k = i / n;
    let byte = |v: usize| (v % 256) as u8;
    PoseRequest {
        sequence,
        frame: normalize_frame(&model.sequences[sequence], k as f64 * 0.37),
        blend: [byte(37 * k), byte(91 * k)],
        controllers: ControllerBytes {
            user: [byte(13 * k), byte(13 * k + 64), byte(13 * k + 128), byte(13 * k + 192)],
            mouth: (k % 65) as u8,
        },
    }
}

/// One pose's contribution to the checksum.
pub fn checksum(pose: &Pose) -> f64 {
    let last = pose.bones.last().map_or(0.0, |m| m.translation.x);
    let first = pose.bones.first().map_or(0.0, |m| m.translation.z);
    f64::from(last) + f64::from(first)
}
