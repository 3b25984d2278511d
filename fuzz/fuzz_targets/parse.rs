//! Feeds arbitrary bytes to the parser as a model set: the first two bytes choose how the rest
//! is split into a main file, a texture file and up to two sequence group files, so the fuzzer
//! reaches the companion-file code as well. Any panic, hang or runaway allocation is a bug.

#![no_main]

use libfuzzer_sys::fuzz_target;
use studio_model::{ModelFiles, parse};

fuzz_target!(|data: &[u8]| {
    let Some((&[split, companions], rest)) = data.split_first_chunk::<2>() else { return };
    let cut = (usize::from(split) * rest.len() / 255).min(rest.len());
    let (main, tail) = rest.split_at(cut);
    let (textures, groups) =
        if companions & 1 != 0 { (Some(tail), vec![]) } else { (None, vec![Some(tail)]) };
    let files =
        ModelFiles { stem: "fuzz", main: if companions & 2 != 0 { rest } else { main }, textures, groups };
    if let Ok(model) = parse(&files) {
        // Walk what a viewer walks, so lazily wrong data would show.
        for sequence in &model.sequences {
            if let Some(animation) = &sequence.animation {
                for blend in 0..animation.num_blends() {
                    for bone in animation.blend(blend).unwrap_or_default() {
                        for &channel in bone.channels.iter().flatten() {
                            let frames: u64 =
                                model.runs(sequence, channel).map(|run| u64::from(run.total)).sum();
                            assert!(frames >= u64::from(sequence.frames()), "a checked channel ends early");
                        }
                    }
                }
            }
        }
    }
});
