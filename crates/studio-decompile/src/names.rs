//! File names for what a model names: safe on every file system and unique in the output
//! folder (compared without case, as Windows does), so no decompiled file overwrites another.

use std::collections::HashSet;

/// Characters kept in a file name; others become `_`.
fn kept(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '+' | '(' | ')' | '!' | '$' | '~')
}

/// The names given so far.
#[derive(Debug, Default)]
pub struct FileNames {
    taken: HashSet<String>,
}

impl FileNames {
    /// A new, unique file name `STEM.EXT` made from `name` (a model's name for a submodel,
    /// sequence or texture: any path, characters or case).
    pub fn take(&mut self, name: &str, ext: &str) -> String {
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let base = base.strip_suffix(&format!(".{ext}")).unwrap_or(base);
        let mut stem: String = base.chars().map(|c| if kept(c) { c } else { '_' }).collect();
        stem = stem.trim_start_matches('.').to_owned();
        // 59 + `.bmp` fills studiomdl's 64-byte texture and file name fields with their NUL.
        stem.truncate(59);
        if stem.is_empty() {
            stem = "unnamed".to_owned();
        }
        // Names Windows keeps for devices, whatever the extension.
        let device = stem.split('.').next().unwrap_or("").to_ascii_uppercase();
        let numbered = |prefix: &str| {
            device.strip_prefix(prefix).is_some_and(|n| n.len() == 1 && n.as_bytes()[0].is_ascii_digit())
        };
        if matches!(device.as_str(), "CON" | "PRN" | "AUX" | "NUL") || numbered("COM") || numbered("LPT") {
            stem.insert(0, '_');
        }
        let mut candidate = format!("{stem}.{ext}");
        let mut n = 2;
        while !self.taken.insert(candidate.to_ascii_lowercase()) {
            let suffix = format!("_{n}");
            let room = stem.len().min(59usize.saturating_sub(suffix.len()));
            candidate = format!("{}{suffix}.{ext}", &stem[..room]);
            n += 1;
        }
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::FileNames;

    #[test]
    fn names_are_safe_and_unique_without_regard_to_case() {
        let mut names = FileNames::default();
        assert_eq!(names.take("models/player/Idle", "smd"), "Idle.smd");
        assert_eq!(names.take("idle", "smd"), "idle_2.smd");
        assert_eq!(names.take("IDLE.smd", "smd"), "IDLE_3.smd");
        assert_eq!(names.take("a b:c*d?é", "smd"), "a_b_c_d__.smd");
        assert_eq!(names.take("..\\..\\evil", "smd"), "evil.smd");
        assert_eq!(names.take("...", "smd"), "unnamed.smd");
        assert_eq!(names.take("con", "smd"), "_con.smd");
        assert_eq!(names.take("COM1.x", "bmp"), "_COM1.x.bmp");
        assert_eq!(names.take("com10", "bmp"), "com10.bmp");
        assert_eq!(names.take(&"x".repeat(300), "smd").len(), 63);
    }
}
