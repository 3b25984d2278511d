//! The files an archive lists, whatever its kind: each file's path as the archive spells it and
//! its size, found by path in any case, with `/` or `\`. The first of two spellings of one path
//! wins, as a lookup would find it.

use std::collections::HashMap;

/// An archive's list of files; file `i` is entry `i` of the archive's own records.
#[derive(Debug, Default)]
pub struct Directory {
    names: Vec<String>,
    sizes: Vec<u64>,
    index: HashMap<String, usize>,
}

/// The lookup key of a path: lower case, `/`, no leading `/`.
pub(crate) fn key(path: &str) -> String {
    path.replace('\\', "/").trim_start_matches('/').to_ascii_lowercase()
}

impl Directory {
    /// The files `(path, size)`, in the archive's order.
    pub(crate) fn new(files: impl Iterator<Item = (String, u64)>) -> Self {
        let mut directory = Self::default();
        for (i, (name, size)) in files.enumerate() {
            directory.index.entry(key(&name)).or_insert(i);
            directory.names.push(name);
            directory.sizes.push(size);
        }
        directory
    }

    /// Files listed.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether it lists none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The number of the file at `path`, if listed.
    pub fn find(&self, path: &str) -> Option<usize> {
        self.index.get(&key(path)).copied()
    }

    /// Whether it lists `path`.
    pub fn contains(&self, path: &str) -> bool {
        self.find(path).is_some()
    }

    /// The path of the file at `path` as the archive spells it.
    pub fn name_of(&self, path: &str) -> Option<&str> {
        Some(self.names[self.find(path)?].as_str())
    }

    /// Every file: its path as the archive spells it, and its size in bytes.
    pub fn files(&self) -> impl ExactSizeIterator<Item = (&str, u64)> + '_ {
        self.names.iter().map(String::as_str).zip(self.sizes.iter().copied())
    }
}
