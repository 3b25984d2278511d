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
        stem.truncate(100);
        if stem.is_empty() {
            stem = "unnamed".to_owned();
        }
        let mut candidate = format!("{stem}.{ext}");
        let mut n = 2;
        while !self.taken.insert(candidate.to_ascii_lowercase()) {
            candidate = format!("{stem}_{n}.{ext}");
            n += 1;
        }
        candidate
    }
}
