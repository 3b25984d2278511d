//! Finding a sequence the way every command and the viewer take one: by index or by name.

use studio_model::Model;
use studio_source_pose::Rig;

/// Finds a sequence by index or, failing that, by name (case-insensitively).
pub fn find_sequence(model: &Model, wanted: &str) -> Option<usize> {
    match wanted.parse::<usize>() {
        Ok(index) if index < model.sequences.len() => Some(index),
        _ => model.sequences.iter().position(|s| s.label.eq_ignore_ascii_case(wanted)),
    }
}

/// A sequence of the combined model by index or, failing that, by label (case-insensitively).
pub fn find_rig_sequence(rig: &Rig<'_>, wanted: &str) -> Option<usize> {
    match wanted.parse::<usize>() {
        Ok(index) if index < rig.num_sequences() => Some(index),
        _ => (0..rig.num_sequences()).find(|&i| rig.label(i).is_some_and(|l| l.eq_ignore_ascii_case(wanted))),
    }
}
