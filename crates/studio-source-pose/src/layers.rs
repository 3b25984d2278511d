//! Autolayers (source-bonesetup.md, "Autolayers"): the sequences a sequence adds on top of
//! itself, each over a range of its cycle or of a pose parameter, ramped in and out.

use studio_source::STUDIO_AL_POSE;

use crate::accumulate::accumulate;
use crate::local_pose::{LocalPose, Scratch};
use crate::pose::Ctx;
use crate::rig::SeqRef;

/// `STUDIO_AL_SPLINE`.
const STUDIO_AL_SPLINE: i32 = 0x40;

/// `STUDIO_AL_XFADE`.
const STUDIO_AL_XFADE: i32 = 0x80;

/// `STUDIO_AL_NOBLEND`.
const STUDIO_AL_NOBLEND: i32 = 0x200;

/// `STUDIO_AL_LOCAL`.
pub(crate) const STUDIO_AL_LOCAL: i32 = 0x1000;

/// One autolayer of `parent` at its cycle `cycle` and weight `w` (source-bonesetup.md,
/// "Autolayers").
#[allow(clippy::too_many_arguments)]
pub(crate) fn layer_into(
    ctx: Ctx<'_, '_>,
    scratch: &mut Scratch,
    parent: SeqRef<'_>,
    pose: &mut LocalPose,
    layer: &studio_source::AutoLayer,
    cycle: f32,
    w: f32,
    depth: usize,
    local: bool,
) {
    let (rig, params) = (ctx.rig, ctx.params);
    // The layer's sequence is local to its parent's group.
    let Some(target) = usize::try_from(layer.sequence).ok().and_then(|s| rig.local_sequence(parent.group, s))
    else {
        return;
    };
    let (start, peak, tail, end) = (layer.start, layer.peak, layer.tail, layer.end);
    if ![start, peak, tail, end].iter().all(|v| v.is_finite()) {
        // A NaN range: always on at weight w, frame 0.
        accumulate(ctx, scratch, pose, target, 0.0, w, depth + 1);
        return;
    }
    if start == end {
        accumulate(ctx, scratch, pose, target, cycle, w, depth + 1);
        return;
    }
    let pose_driven = layer.flags & STUDIO_AL_POSE != 0 && !local;
    let x = if pose_driven {
        // `GetSharedPoseParameter(iRelativeSeq(sequence, iSequence), iPose)`: the pose
        // parameter is the layer sequence's own group's, which is not the parent's where an
        // include model's sequence layers one that an earlier group supplies.
        let group = rig.sequence(target).map_or(parent.group, |s| s.group);
        let pose_param = usize::try_from(layer.pose).ok().and_then(|p| rig.param(group, p));
        match pose_param.and_then(|p| Some((p, rig.pose_parameters.get(p)?))) {
            Some((p, desc)) => crate::params::real(desc, params.get(p).copied().unwrap_or(0.0)),
            None => 0.0,
        }
    } else {
        cycle
    };
    if x < start || x >= end {
        return;
    }
    let weight = layer_weight(layer, x, w);
    let layer_cycle = if pose_driven { cycle } else { (cycle - start) / (end - start) };
    accumulate(ctx, scratch, pose, target, layer_cycle, weight, depth + 1);
}

/// A layer's weight at index `x` (in its range) for a parent weight `w`: the ramp in from start
/// to peak and out from tail to end, smoothed with `STUDIO_AL_SPLINE`, cross-faded with
/// `STUDIO_AL_XFADE`, or not blended with `STUDIO_AL_NOBLEND`.
fn layer_weight(layer: &studio_source::AutoLayer, x: f32, w: f32) -> f32 {
    let (start, peak, tail, end) = (layer.start, layer.peak, layer.tail, layer.end);
    let mut f = if x < peak && start != peak {
        (x - start) / (peak - start)
    } else if x > tail && end != tail {
        (end - x) / (end - tail)
    } else {
        1.0
    };
    if layer.flags & STUDIO_AL_SPLINE != 0 {
        f = 3.0 * f * f - 2.0 * f * f * f;
    }
    if layer.flags & STUDIO_AL_XFADE != 0 && x > tail {
        f * w / (1.0 - w + f * w)
    } else if layer.flags & STUDIO_AL_NOBLEND != 0 {
        f
    } else {
        w * f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layers_ramp() {
        let layer = |flags| studio_source::AutoLayer {
            sequence: 0,
            pose: 0,
            flags,
            start: 0.1,
            peak: 0.3,
            tail: 0.6,
            end: 0.9,
        };
        let close = |a: f32, b: f32| (a - b).abs() < 1e-6;
        // Linear in from start to peak, full between, out from tail to end; times the parent's.
        assert!(close(layer_weight(&layer(0), 0.2, 1.0), 0.5));
        assert!(close(layer_weight(&layer(0), 0.45, 0.8), 0.8));
        assert!(close(layer_weight(&layer(0), 0.75, 1.0), 0.5));
        // Spline: 3f² − 2f³ of the same ramp.
        assert!(close(layer_weight(&layer(STUDIO_AL_SPLINE), 0.15, 1.0), 3.0 * 0.0625 - 2.0 * 0.015625));
        // No blend: the ramp alone, whatever the parent's weight.
        assert!(close(layer_weight(&layer(STUDIO_AL_NOBLEND), 0.2, 0.3), 0.5));
        // Cross-fade past the tail: f·w / (1 − w + f·w).
        assert!(close(layer_weight(&layer(STUDIO_AL_XFADE), 0.75, 0.5), 0.25 / 0.75));
    }
}
