//! The `.ani` file: animation blocks outside the `.mdl` (source-header.md, ".ani files";
//! source-animdata.md, "Blocks"). Its chains are read into the animations that point at them.

use crate::anim_data::read_chain;
use crate::animation::{Animation, STUDIO_FRAMEANIM, read_ik_data, usable};
use crate::error::{FileRole, Problem, Record, Result, Warning};
use crate::ik_rule::Counts;
use crate::include::AnimBlock;
use crate::reader::FileData;

/// Checks the `.ani` header and reads every chain of `animations` stored in its blocks.
/// A block outside the file, or a chain that is unusable, is a warning; the animation falls
/// back as the engine's does.
pub(crate) fn apply(
    bytes: &[u8],
    blocks: &[AnimBlock],
    animations: &mut [Animation],
    counts: &Counts,
    warnings: &mut Vec<Warning>,
) -> Result<()> {
    let num_bones = counts.bones;
    let file = FileData::new(bytes, FileRole::Ani);
    let id: [u8; 4] = file.read(Record::Header, None, 0)?;
    if &id != b"IDAG" {
        let found = id.iter().map(|&b| char::from(b)).collect();
        return Err(file.error(Record::Header, None, 0, Problem::BadId { expected: "IDAG", found }));
    }
    for (i, animation) in animations.iter_mut().enumerate() {
        // IK rules and local hierarchies of an animation in a block are at offsets from the
        // block's start (source-animdata.md, "Blocks").
        if animation.data.block >= 1 {
            let start = block_start(&file, blocks, animation.data.block);
            let indices = (animation.block_ik_rule_index, animation.local_hierarchy_index);
            read_ik_data(&file, i, &start, animation, indices, counts, warnings);
        }
        if animation.flags & STUDIO_FRAMEANIM != 0 {
            continue;
        }
        let places = animation.places();
        for (entry, (place, frames)) in places.into_iter().enumerate() {
            let Some(frames) = frames else { continue };
            if place.block < 1 {
                continue;
            }
            let chain = block_start(&file, blocks, place.block)
                .and_then(|start| file.at(Record::AnimationData, Some(i), start, "animindex", place.index))
                .and_then(|start| read_chain(&file, i, start, frames, num_bones));
            if let Some(slot) = animation.chains.get_mut(entry) {
                *slot = usable(chain, warnings);
            }
        }
    }
    Ok(())
}

/// Where block `block` starts in the `.ani`, checked to be a non-empty range inside it.
fn block_start(file: &FileData<'_>, blocks: &[AnimBlock], block: i32) -> Result<u64> {
    let unavailable = |problem| file.error(Record::AnimBlock, usize::try_from(block).ok(), 0, problem);
    let Some(range) = usize::try_from(block).ok().and_then(|b| blocks.get(b)) else {
        return Err(unavailable(Problem::BadReference {
            field: "animblock",
            value: i64::from(block),
            target: "animation block",
            count: blocks.len(),
        }));
    };
    let start = u64::try_from(range.start).unwrap_or(u64::MAX);
    let end = u64::try_from(range.end).unwrap_or(0);
    if start >= end || end > file.len() {
        return Err(unavailable(Problem::TableOutside {
            count: end.saturating_sub(start),
            size: 1,
            offset: start,
            len: file.len(),
        }));
    }
    Ok(start)
}
