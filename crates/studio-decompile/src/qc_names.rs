//! Names Valve's Half-Life studiomdl reads back as they were written and tells apart: bones,
//! sequences, body parts (and through [`super::names`], the files made from them).
//!
//! Every name is written quoted, and studiomdl's tokenizer (`utils/common/scriplib.c`,
//! `GetToken`) copies a quoted token up to the next `"` whatever it holds: spaces (Valve's own
//! `Bip01 Pelvis`), braces, `;`, `//` and a leading `$` all come back (the comment and command
//! checks look at a token's first byte, which is the quote). So a name may not hold a `"`, and
//! not a control character either (the QC and SMD files are read a line at a time, and a NUL
//! ends a C string); a character our reader could not decode (U+FFFD) has no byte to write. An
//! SMD's `nodes` line is read with `sscanf("%d \"%[^\"]\" %d")`, which refuses an empty name
//! ("bogus bone index" follows). Names are copied with `strncpy(a, b, sizeof(a))`: a bone's and
//! a sequence's field is 32 bytes (`mstudiobone_t.name`, `mstudioseqdesc_t.label`, and the
//! label is `strcpy`'d), a body part's 64; a name that fills its field has no NUL. Bones are
//! found by name with `strcmp` when the bone table is built and with `stricmp` when hit boxes,
//! attachments and controllers are linked, so two names that differ only in case would link to
//! the first. So a written name has none of those characters, fits its field with its NUL, and
//! differs from every other name of its kind in more than case.

use std::collections::HashSet;

/// A name written other than the model has it, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Renamed {
    /// `bone`, `sequence` or `body part`.
    pub kind: &'static str,
    /// Its index among its kind.
    pub index: usize,
    /// The model's name.
    pub from: String,
    /// The name written.
    pub to: String,
    /// Why it changed.
    pub why: &'static str,
}

impl std::fmt::Display for Renamed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} {:?} is written as {:?} ({})", self.kind, self.index, self.from, self.to, self.why)
    }
}

/// Whether `c` may stand in a written (quoted) name.
fn kept(c: char) -> bool {
    c != '"' && c != char::REPLACEMENT_CHARACTER && !c.is_control()
}

/// The names of one kind given so far, compared without case.
#[derive(Debug)]
pub struct QcNames {
    kind: &'static str,
    /// The most bytes a name may have (its field less the NUL).
    max: usize,
    /// What an empty name becomes, numbered.
    fallback: &'static str,
    taken: HashSet<String>,
}

impl QcNames {
    /// Names of `kind` (for messages) of at most `max` bytes; an empty one becomes `fallback`.
    pub fn new(kind: &'static str, max: usize, fallback: &'static str) -> Self {
        Self { kind, max: max.max(8), fallback, taken: HashSet::new() }
    }

    /// Bones: 31 bytes, `bone`.
    pub fn bones() -> Self {
        Self::new("bone", 31, "bone")
    }

    /// Sequences: 31 bytes, `sequence`.
    pub fn sequences() -> Self {
        Self::new("sequence", 31, "sequence")
    }

    /// Body parts: 63 bytes, `bodypart`.
    pub fn body_parts() -> Self {
        Self::new("body part", 63, "bodypart")
    }

    /// The name written for name `index` `name`, and the renaming where it differs.
    pub fn take(&mut self, index: usize, name: &str) -> (String, Option<Renamed>) {
        let mut why = None;
        let mut out: String = name.chars().map(|c| if kept(c) { c } else { '_' }).collect();
        if out != name {
            why = Some("a quote or a character studiomdl cannot read back");
        }
        if out.is_empty() {
            out = format!("{}{index}", self.fallback);
            why = Some("empty");
        }
        if out.len() > self.max {
            out.truncate(floor_char_boundary(&out, self.max));
            why = Some("longer than the file's field");
        }
        let mut candidate = out.clone();
        let mut n = 2;
        while !self.taken.insert(candidate.to_ascii_lowercase()) {
            let suffix = format!("_{n}");
            let mut base = out.clone();
            base.truncate(floor_char_boundary(&out, self.max.saturating_sub(suffix.len())));
            candidate = base + &suffix;
            why = Some("the same name as an earlier one (compared without case)");
            n += 1;
        }
        let renamed = why.map(|why| Renamed {
            kind: self.kind,
            index,
            from: name.to_owned(),
            to: candidate.clone(),
            why,
        });
        (candidate, renamed)
    }
}

/// The largest char boundary of `s` at or below byte `at`.
fn floor_char_boundary(s: &str, at: usize) -> usize {
    (0..=at.min(s.len())).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0)
}

/// Whether `Cmd_Sequence` would read `token`, a file name on a `$sequence` line, as one of its
/// options instead: it compares `deform`, `event`, `pivot`, `fps`, `origin`, `rotate`, `scale`
/// and `animation` whole, the first 4 or 5 letters of `loop`, `frame`, `blend`, `node`,
/// `transition` and `rtransition` (so `loop_run` is `loop`), the motion types (`lookupControl`)
/// and the activity names (`lookupActivity`), all without case.
pub fn is_sequence_option(token: &str) -> bool {
    let lower = token.to_ascii_lowercase();
    let whole = ["deform", "event", "pivot", "fps", "origin", "rotate", "scale", "animation", "{", "}"];
    let prefixes = ["loop", "frame", "blend", "node", "tran", "rtra"];
    let controls = ["x", "y", "z", "xr", "yr", "zr", "lx", "ly", "lz", "ax", "ay", "az", "axr", "ayr", "azr"];
    whole.contains(&lower.as_str())
        || prefixes.iter().any(|p| lower.starts_with(p))
        || controls.contains(&lower.as_str())
        || crate::qc::goldsrc_activity_token(token) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_readable_unique_and_fit_their_field() {
        let mut bones = QcNames::bones();
        // What studiomdl reads back from a quoted token stays as it is.
        assert_eq!(bones.take(0, "Bip01 Pelvis"), ("Bip01 Pelvis".to_owned(), None));
        assert_eq!(bones.take(1, "$root {x}; // y"), ("$root {x}; // y".to_owned(), None));
        let (name, renamed) = bones.take(2, "");
        assert_eq!((name.as_str(), renamed.unwrap().why), ("bone2", "empty"));
        let (name, renamed) = bones.take(3, "BIP01 PELVIS");
        assert_eq!(name, "BIP01 PELVIS_2");
        assert!(renamed.unwrap().why.contains("same name"));
        let (name, renamed) = bones.take(4, "say \"hi\"\tnow");
        assert_eq!(
            (name.as_str(), renamed.unwrap().why),
            ("say _hi__now", "a quote or a character studiomdl cannot read back")
        );
        let (name, renamed) = bones.take(5, &"k".repeat(40));
        assert_eq!((name.len(), renamed.unwrap().why), (31, "longer than the file's field"));
        let (name, _) = bones.take(6, &"k".repeat(40));
        assert_eq!(name, format!("{}_2", "k".repeat(29)));
        let (name, _) = bones.take(7, &"é".repeat(20));
        assert_eq!(name, "é".repeat(15), "cut at a character's boundary");
        assert_eq!(bones.take(8, "spine"), ("spine".to_owned(), None));
    }

    #[test]
    fn file_names_that_cmd_sequence_reads_as_options_are_known() {
        for token in [
            "loop", "LOOP_run", "frames", "blend01", "node", "transit", "rtrans", "fps", "X", "lx",
            "ACT_IDLE", "act_150",
        ] {
            assert!(is_sequence_option(token), "{token}");
        }
        for token in ["idle", "run", "walk_loop", "act_nothing", "fps2", "xy", "act_0"] {
            assert!(!is_sequence_option(token), "{token}");
        }
    }
}
