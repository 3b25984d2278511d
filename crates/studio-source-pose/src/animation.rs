//! `CalcAnimation` (source-animdata.md, "Evaluating one animation for a sequence"): one
//! animation at a cycle into a pose, from its section's chain (decoded tables where built, the
//! value streams otherwise), its zero-frame data where it has no chain, then its local
//! hierarchy.

use glam::{Quat, Vec3};
use studio_source::STUDIO_DELTA;

use crate::decode::{BoneBase, position, rotation};
use crate::local_hierarchy::local_hierarchy_into;
use crate::local_pose::{LocalPose, Scratch};
use crate::pose::Ctx;
use crate::rig::{AnimRef, Rig, SeqRef};
use crate::zero_frames::zero_frames_into;

/// The section entry holding `frame` of an animation of `frames` frames cut every
/// `section_frames`, and the frame within it: the last frame is stored alone.
fn section_of(frames: u32, section_frames: u32, frame: u32) -> (usize, u32) {
    if frames > section_frames && frame == frames - 1 {
        ((frames / section_frames + 1) as usize, 0)
    } else {
        let section = frame / section_frames;
        (section as usize, frame - section * section_frames)
    }
}

/// `CalcAnimation`: one animation at `cycle` into `pose`, for the bones the sequence weights.
pub(crate) fn animation_into(
    ctx: Ctx<'_, '_>,
    scratch: &mut Scratch,
    seq: SeqRef<'_>,
    anim: AnimRef<'_>,
    cycle: f32,
    pose: &mut LocalPose,
) {
    let frames = anim.animation.frames.max(1);
    let position_in = cycle * (frames - 1) as f32;
    let mut frame = (position_in.floor().max(0.0) as u32).min(frames - 1);
    let mut s = position_in - frame as f32;
    if frame >= frames - 1 {
        frame = frames - 1;
        s = 0.0;
    }
    animation_at(ctx, scratch, seq, anim, (frame, s, position_in), cycle, pose);
}

/// [`animation_into`] at keyframe `frame` and fraction `s` (`position_in` = their sum, as the
/// zero-frame data reads it).
fn animation_at(
    ctx: Ctx<'_, '_>,
    scratch: &mut Scratch,
    seq: SeqRef<'_>,
    anim: AnimRef<'_>,
    (frame, s, position_in): (u32, f32, f32),
    cycle: f32,
    pose: &mut LocalPose,
) {
    let (rig, group, animation) = (ctx.rig, anim.group, anim.animation);
    // Records name bones of the animation's model; defaults and scales are that model's.
    let model = rig.group(group);
    let frames = animation.frames.max(1);
    let delta = animation.flags & STUDIO_DELTA != 0;
    // The chain holding `frame`, and the frame within it (source-animdata.md, "Sections").
    let (chain, local, entry) = if animation.section_frames == 0 {
        (animation.chains.first().and_then(Option::as_ref), frame, 0)
    } else {
        let sf = animation.section_frames;
        let (mut section, mut local) = section_of(frames, sf, frame);
        // An unavailable section: the last frame of the nearest earlier one that is there.
        loop {
            match animation.chains.get(section).and_then(Option::as_ref) {
                Some(chain) => break (Some(chain), local, section),
                // The fraction is kept: the reference interpolates from that last frame.
                None if section > 0 => {
                    section -= 1;
                    local = sf.saturating_sub(1);
                }
                None => break (None, 0, 0),
            }
        }
    };
    // Every bone the sequence weights starts at its default in the sequence's model.
    let seq_model = rig.group(seq.group);
    for i in 0..pose.rotations.len() {
        if rig.weight(seq, i) <= 0.0 {
            continue;
        }
        let Some(bone) = rig.group_bone(seq.group, i).and_then(|b| seq_model.bones.get(b)) else { continue };
        (pose.rotations[i], pose.positions[i]) =
            if delta { (Quat::IDENTITY, Vec3::ZERO) } else { (bone.quaternion, bone.position) };
    }
    let Some(chain) = chain else {
        // No chain: the zero-frame data over those defaults (source-animdata.md).
        zero_frames_into(rig, seq, group, animation, position_in, pose);
        return;
    };
    let bytes = model.chain_bytes(chain);
    let table = ctx.tables.and_then(|t| t.chain(group, anim.index, entry));
    for (r, record) in chain.records.iter().enumerate() {
        let Some(i) = rig.render_bone(group, record.bone) else { continue };
        if rig.weight(seq, i) <= 0.0 {
            continue;
        }
        if let Some((rotation, position)) = table.and_then(|t| t.sample(r, local, s)) {
            (pose.rotations[i], pose.positions[i]) = (rotation, position);
            continue;
        }
        let bone = &model.bones[record.bone];
        let base = BoneBase::of(bone);
        pose.rotations[i] = rotation(bytes, record, &base, local, s);
        pose.positions[i] = position(bytes, record, &base, local, s);
    }
    if !animation.local_hierarchy.is_empty() {
        local_hierarchy_into(ctx, scratch, anim, (frame, s), cycle, pose);
    }
}

/// One animation on its own at keyframe `frame` (clamped to its last): animation `index` of
/// group `group`'s model, as `CalcAnimation` gives it for a sequence that weights every bone.
/// `pose` holds, per render bone, its transform relative to its parent: the animation's where it
/// moves the bone, else the bone's default (identity for a delta animation); bones the group
/// lacks keep the render model's defaults. This is what a decompiled animation file holds.
pub fn animation_frame(rig: &Rig<'_>, group: usize, index: usize, frame: u32, pose: &mut LocalPose) {
    pose.set_defaults(rig.render());
    let Some(anim) = rig.animation(group, index) else { return };
    let every_bone = studio_source::Sequence::default();
    let seq = SeqRef { group, seq: &every_bone };
    let ctx = Ctx { rig, params: &[], tables: None, time: 0.0 };
    let frames = anim.animation.frames.max(1);
    let frame = frame.min(frames - 1);
    let cycle = if frames > 1 { frame as f32 / (frames - 1) as f32 } else { 0.0 };
    animation_at(ctx, &mut Scratch::default(), seq, anim, (frame, 0.0, frame as f32), cycle, pose);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_frame_of_a_sectioned_animation_is_stored_alone() {
        // 30 frames every 8: frame 29 is entry 30 / 8 + 1 = 4, local frame 0; frame 24 is
        // section 3, local 0; frame 8 starts section 1.
        assert_eq!(section_of(30, 8, 29), (4, 0));
        assert_eq!(section_of(30, 8, 28), (3, 4));
        assert_eq!(section_of(30, 8, 8), (1, 0));
        assert_eq!(section_of(30, 8, 7), (0, 7));
        // No longer than a section: the last frame is in section 0.
        assert_eq!(section_of(5, 8, 4), (0, 4));
    }
}
