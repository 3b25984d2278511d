//! Zero-frame data (source-animdata.md, "Zero-frame data"): the coarse frames a version 48 model
//! keeps in its `.mdl` for animations whose data is not available.

use glam::{Quat, Vec3, Vec4};
use studio_source::Animation;

use crate::local_pose::LocalPose;
use crate::quaternion::normalize;
use crate::rig::{Rig, SeqRef};

/// The zero-frame data of `animation` at frame `frame` (fractional) into the bones with saved
/// frames that the sequence weights: Hermite-interpolated between the stored frames.
pub(crate) fn zero_frames_into(
    rig: &Rig<'_>,
    seq: SeqRef<'_>,
    group: usize,
    animation: &Animation,
    frame: f32,
    pose: &mut LocalPose,
) {
    let model = rig.group(group);
    let Some(zero) = animation.zero_frames else { return };
    let Ok(count) = usize::try_from(zero.count) else { return };
    if count == 0 {
        return;
    }
    let bytes: &[u8] = &model.data.mdl;
    let Some(mut at) =
        i64::try_from(animation.offset).ok().and_then(|o| usize::try_from(o + i64::from(zero.index)).ok())
    else {
        return;
    };
    // Which stored frames and how far between them. One stored frame is the pose whatever the
    // span (`CalcZeroframeData` reads the span only in its branch for two or more).
    let (i, t) = if count == 1 {
        (0, 0.0)
    } else {
        let Some(span) = u16::try_from(zero.span).ok().filter(|&s| s > 0) else { return };
        let span = f32::from(span);
        let mut i = (frame / span).floor().max(0.0) as usize;
        let mut t = ((frame - i as f32 * span) / span).clamp(0.0, 1.0);
        if i >= count - 1 {
            i = count - 2;
            t = 1.0;
        }
        (i, t)
    };
    let picks = [i.saturating_sub(1), i, (i + 1).min(count - 1)];
    let b1 = 2.0 * t * t * t - 3.0 * t * t + 1.0;
    let b2 = 1.0 - b1;
    let b3 = t * t * t - 2.0 * t * t + t;
    let b4 = t * t * t - t * t;
    // The animation's own model's bones, in its order; each lands on its render bone.
    for (local, bone) in model.bones.iter().enumerate() {
        let render = rig.render_bone(group, local);
        let (has_pos, has_rot) = (
            bone.flags & studio_source::BONE_HAS_SAVEFRAME_POS != 0,
            bone.flags & studio_source::BONE_HAS_SAVEFRAME_ROT != 0,
        );
        let used = render.filter(|&b| rig.weight(seq, b) > 0.0);
        if has_pos {
            let read = |k: usize| -> Option<Vec3> {
                let from = at.checked_add(6 * k)?;
                Some(studio_source::vector48(bytes.get(from..from + 6)?.try_into().ok()?))
            };
            if let (Some(b), [Some(p0), Some(p1), Some(p2)]) = (used, picks.map(read)) {
                pose.positions[b] =
                    if count == 1 { p1 } else { p1 * b1 + p2 * b2 + (p1 - p0) * b3 + (p2 - p1) * b4 };
            }
            at = at.saturating_add(6 * count);
        }
        if has_rot {
            let read = |k: usize| -> Option<Quat> {
                let from = at.checked_add(8 * k)?;
                Some(studio_source::quaternion64(bytes.get(from..from + 8)?.try_into().ok()?))
            };
            if let (Some(b), [Some(q0), Some(q1), Some(q2)]) = (used, picks.map(read)) {
                pose.rotations[b] = if count == 1 {
                    q1
                } else {
                    let (q0, q1) = (
                        Vec4::from(crate::quaternion::align(q2, q0)),
                        Vec4::from(crate::quaternion::align(q2, q1)),
                    );
                    let q2 = Vec4::from(q2);
                    normalize(q1 * b1 + q2 * b2 + (q1 - q0) * b3 + (q2 - q1) * b4)
                };
            }
            at = at.saturating_add(8 * count);
        }
    }
}
