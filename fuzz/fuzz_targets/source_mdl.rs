//! Feeds arbitrary bytes to the Source reader as a `.mdl`. Any panic, hang or runaway
//! allocation is a bug.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(model) = studio_source::parse_mdl(data) {
        // Walk what a viewer walks: every reference the reader checked must hold.
        for sequence in &model.sequences {
            for &animation in &sequence.animations {
                assert!(animation < model.animations.len());
            }
        }
        for set in &model.hitbox_sets {
            for hitbox in &set.hitboxes {
                assert!(hitbox.bone < model.bones.len());
            }
        }
        for (i, bone) in model.bones.iter().enumerate() {
            assert!(bone.parent.is_none_or(|p| p < i));
        }
    }
});
