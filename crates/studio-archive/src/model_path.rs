//! A model's path that may name a file inside an archive: `GAME/pak01_dir.vpk:models/crate.mdl`
//! or `valve/pak0.pak:models/scientist.mdl`, the archive's path, a colon, and the path inside
//! it. Every command and the viewer take such paths where they take a model.

use std::path::{Path, PathBuf};

/// A file inside an archive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivePath {
    /// The archive (the directory file of a `.vpk`).
    pub archive: PathBuf,
    /// The path inside it, with `/`.
    pub inner: String,
}

impl ArchivePath {
    /// The archive path `path` names, if it names one: the text up to the last `.vpk:` or
    /// `.pak:` (any case) is the archive, the rest the path inside it.
    pub fn parse(path: &Path) -> Option<Self> {
        let text = path.to_str()?;
        let lower = text.to_ascii_lowercase();
        let split =
            [".vpk:", ".pak:"].iter().filter_map(|s| lower.rfind(s).map(|at| at + s.len() - 1)).max()?;
        let inner = text[split + 1..].replace('\\', "/").trim_start_matches('/').to_owned();
        if inner.is_empty() {
            return None;
        }
        Some(Self { archive: PathBuf::from(&text[..split]), inner })
    }

    /// The path that names it: `archive:inner`.
    pub fn to_path(&self) -> PathBuf {
        PathBuf::from(format!("{}:{}", self.archive.display(), self.inner))
    }

    /// Its game folder: the folder that holds the archive.
    pub fn game(&self) -> PathBuf {
        self.archive.parent().map(Path::to_path_buf).unwrap_or_default()
    }
}

impl std::fmt::Display for ArchivePath {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.archive.display(), self.inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archive_paths_split_at_the_last_archive_name() {
        let p = ArchivePath::parse(Path::new("hl2/hl2_misc_dir.vpk:models/props/crate.mdl")).unwrap();
        assert_eq!(p.archive, Path::new("hl2/hl2_misc_dir.vpk"));
        assert_eq!(p.inner, "models/props/crate.mdl");
        assert_eq!(p.game(), Path::new("hl2"));
        assert_eq!(p.to_path(), Path::new("hl2/hl2_misc_dir.vpk:models/props/crate.mdl"));
        let p = ArchivePath::parse(Path::new("valve/PAK0.PAK:models\\scientist.mdl")).unwrap();
        assert_eq!(
            (p.archive.to_str().unwrap(), p.inner.as_str()),
            ("valve/PAK0.PAK", "models/scientist.mdl")
        );
        // A folder named like an archive, then one: the last is the archive.
        let p = ArchivePath::parse(Path::new("/x/a.vpk:b/c_dir.vpk:models/m.mdl")).unwrap();
        assert_eq!(p.archive, Path::new("/x/a.vpk:b/c_dir.vpk"));
        for plain in ["models/x.mdl", "a.vpk", "a.vpk:", "C:/games/x.mdl"] {
            assert_eq!(ArchivePath::parse(Path::new(plain)), None, "{plain}");
        }
    }
}
