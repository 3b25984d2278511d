//! A game's models, loose and inside its archives, each described from its header without
//! reading the rest of it: what `studioview list` prints and the model browser searches.
//!
//! Loose models are those below the game folder's `models` folder (any case); archived ones
//! every `.mdl` of each archive the folder holds (studio-archive's search order). For each, a
//! [`Summary`] is read from the first bytes (format, version, bones, sequences) and, when asked
//! for, the sequence table and its names; every count and offset is checked against the file.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use studio_archive::{Archive, ArchivePath, archive_paths};

use studio_document::model_files::is_mdl;

/// How a model's bytes are read: part by part.
trait Parts {
    /// Its size in bytes.
    fn size(&self) -> u64;
    /// `len` bytes at `offset` (fewer at its end).
    fn part(&self, offset: u64, len: u64) -> Result<Vec<u8>, String>;
}

/// A loose file.
struct LooseParts {
    path: PathBuf,
    size: u64,
    file: std::cell::RefCell<std::fs::File>,
}

impl Parts for LooseParts {
    fn size(&self) -> u64 {
        self.size
    }

    fn part(&self, offset: u64, len: u64) -> Result<Vec<u8>, String> {
        let failed = |e: std::io::Error| format!("{}: {e}", self.path.display());
        let mut file = self.file.borrow_mut();
        file.seek(SeekFrom::Start(offset)).map_err(failed)?;
        let mut out = Vec::new();
        (&mut *file).take(len.min(self.size.saturating_sub(offset))).read_to_end(&mut out).map_err(failed)?;
        Ok(out)
    }
}

/// A file inside an archive.
struct ArchivedParts<'a> {
    archive: &'a Archive,
    inner: &'a str,
    size: u64,
}

impl Parts for ArchivedParts<'_> {
    fn size(&self) -> u64 {
        self.size
    }

    fn part(&self, offset: u64, len: u64) -> Result<Vec<u8>, String> {
        self.archive
            .read_part(self.inner, offset, len)
            .unwrap_or_else(|| Err(format!("{} is gone", self.inner)))
    }
}

/// The two formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Half-Life, version 10.
    GoldSrc,
    /// Source, versions 44 to 49.
    Source,
}

impl Format {
    /// Its name in `list`'s output.
    pub fn name(self) -> &'static str {
        match self {
            Format::GoldSrc => "goldsrc",
            Format::Source => "source",
        }
    }
}

/// One sequence: its label and activity (Source: the activity's name; Half-Life: its number).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SequenceName {
    /// Its label.
    pub label: String,
    /// Its activity.
    pub activity: String,
}

/// What a model's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The format.
    pub format: Format,
    /// The version.
    pub version: i32,
    /// Bytes in the file.
    pub size: u64,
    /// Bones.
    pub bones: u32,
    /// Sequences.
    pub sequences: u32,
    /// The sequences' labels and activities, when read.
    pub names: Option<Vec<SequenceName>>,
}

/// A model of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its path: on disk, or `archive:inner`.
    pub path: PathBuf,
    /// Its path below the game folder, with `/` (`models/props/crate.mdl`): what map editors
    /// and the game name it by.
    pub relative: String,
    /// The archive it is in, if any.
    pub archive: Option<PathBuf>,
    /// Its header, or why it could not be read.
    pub summary: Result<Summary, String>,
    /// The model the game loads instead, when a place earlier in its search path holds one of
    /// the same path (browsing a game's search path).
    pub overridden_by: Option<PathBuf>,
}

/// Largest name read.
const NAME_LIMIT: u64 = 256;
/// Bytes of a header read at first: both formats' counts lie inside them.
const HEAD: u64 = 408;

/// The little-endian i32 at `at` of `bytes`, if it lies inside.
fn i32_at(bytes: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

/// A NUL-terminated name at the start of `bytes` (all of it when there is no NUL).
fn name_of(bytes: &[u8]) -> String {
    studio_bytes::name(bytes)
}

/// A count field: not negative, and its table of `size`-byte records at `offset` inside the
/// file.
fn table(
    head: &[u8],
    (count_at, offset_at): (usize, usize),
    size: u64,
    file: u64,
) -> Result<(u32, u64), String> {
    let count = i32_at(head, count_at).ok_or("the header is cut short")?;
    let offset = i32_at(head, offset_at).ok_or("the header is cut short")?;
    let (Ok(count), Ok(offset)) = (u32::try_from(count), u64::try_from(offset)) else {
        return Err(format!("header at byte {count_at}: count {count} or offset {offset} is negative"));
    };
    if count > 0 && offset + u64::from(count) * size > file {
        return Err(format!(
            "header at byte {offset_at}: {count} records of {size} bytes at {offset} run past the end of the file ({file} bytes)"
        ));
    }
    Ok((count, offset))
}

/// Reads a model's summary from its parts; `names` reads its sequence table too.
fn summarize(parts: &dyn Parts, names: bool) -> Result<Summary, String> {
    let size = parts.size();
    let head = parts.part(0, HEAD)?;
    let version = i32_at(&head, 4).ok_or("the file is too short for a studio header")?;
    let format = match (head.get(..4), version) {
        (Some(b"IDST"), 10) => Format::GoldSrc,
        (Some(b"IDST"), 44..=49) => Format::Source,
        (Some(b"IDSQ"), _) => return Err("a sequence group file, not a model".into()),
        _ => {
            return Err(format!(
                "header at byte 0: not a studio model of a known version (version {version})"
            ));
        }
    };
    // (numbones, boneindex), (numseq, seqindex) and the sequence record's size.
    let (bones_at, seqs_at, seq_size) = match format {
        Format::GoldSrc => ((140, 144), (164, 168), 176),
        Format::Source => ((156, 160), (188, 192), 212),
    };
    let bone_size = if format == Format::GoldSrc { 112 } else { 216 };
    let (bones, _) = table(&head, bones_at, bone_size, size)?;
    let (sequences, seq_index) = table(&head, seqs_at, seq_size, size)?;
    let names = if names {
        let records = parts.part(seq_index, u64::from(sequences) * seq_size)?;
        let mut out = Vec::with_capacity(sequences as usize);
        for (i, record) in records.chunks_exact(seq_size as usize).enumerate() {
            let at = seq_index + i as u64 * seq_size;
            out.push(match format {
                Format::GoldSrc => SequenceName {
                    label: name_of(&record[..32]),
                    activity: i32_at(record, 40).unwrap_or(0).to_string(),
                },
                Format::Source => {
                    let name = |field: usize| -> Result<String, String> {
                        let relative = i64::from(i32_at(record, field).unwrap_or(0));
                        if relative == 0 {
                            return Ok(String::new());
                        }
                        let offset = u64::try_from(at as i64 + relative)
                            .map_err(|_| format!("sequence {i} at byte {at}: a name before the file"))?;
                        Ok(name_of(&parts.part(offset, NAME_LIMIT)?))
                    };
                    SequenceName { label: name(4)?, activity: name(8)? }
                }
            });
        }
        Some(out)
    } else {
        None
    };
    Ok(Summary { format, version, size, bones, sequences, names })
}

fn summarize_loose(path: &Path, names: bool) -> Result<Summary, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let size = file.metadata().map_err(|e| format!("{}: {e}", path.display()))?.len();
    summarize(&LooseParts { path: path.to_owned(), size, file: file.into() }, names)
}

/// Whether a summary is of a Half-Life companion (a texture file: a version 10 header without
/// bones or sequences), which is listed with its main file, not alone.
fn is_companion(summary: &Result<Summary, String>) -> bool {
    match summary {
        Ok(s) => s.format == Format::GoldSrc && s.bones == 0 && s.sequences == 0,
        Err(e) => e.starts_with("a sequence group file"),
    }
}

/// Every loose `.mdl` below `dir`, sorted.
fn loose_models(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            loose_models(&path, out);
        } else if is_mdl(&path) {
            out.push(path);
        }
    }
}

/// The models of the game folder `root`: loose ones below its `models` folder, then those in its
/// archives, in search order; each with its summary (and its sequences' names with `names`).
/// Archives that cannot be read are returned apart, with why.
pub fn index(root: &Path, names: bool) -> (Vec<Entry>, Vec<String>) {
    let mut entries = loose_entries(root, names);
    let mut broken = Vec::new();
    for archive_path in archive_paths(root) {
        match Archive::open(&archive_path) {
            Ok(archive) => entries.extend(archive_entries(&archive, names)),
            Err(e) => broken.push(e),
        }
    }
    (entries, broken)
}

/// The loose models below `root`'s `models` folder (any case), without texture and sequence
/// group files.
pub fn loose_entries(root: &Path, names: bool) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut loose = Vec::new();
    if let Ok(dirs) = std::fs::read_dir(root) {
        for dir in dirs.filter_map(|e| e.ok()).map(|e| e.path()) {
            let named_models =
                dir.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.eq_ignore_ascii_case("models"));
            if named_models && dir.is_dir() {
                loose_models(&dir, &mut loose);
            }
        }
    }
    for path in loose {
        let summary = summarize_loose(&path, names);
        if is_companion(&summary) {
            continue;
        }
        let relative = path.strip_prefix(root).map_or_else(
            |_| path.display().to_string(),
            |r| {
                r.components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect::<Vec<_>>()
                    .join("/")
            },
        );
        entries.push(Entry { path, relative, archive: None, summary, overridden_by: None });
    }
    entries
}

/// The models inside `archive`, by path, without texture and sequence group files.
pub fn archive_entries(archive: &Archive, names: bool) -> Vec<Entry> {
    let archive_path = archive.path().to_path_buf();
    let mut inside: Vec<(&str, u64)> = archive.files().filter(|(name, _)| is_mdl(Path::new(name))).collect();
    inside.sort();
    let mut entries = Vec::new();
    for (inner, size) in inside {
        let summary = summarize(&ArchivedParts { archive, inner, size }, names);
        if is_companion(&summary) {
            continue;
        }
        let path = ArchivePath { archive: archive_path.clone(), inner: inner.to_owned() }.to_path();
        entries.push(Entry {
            path,
            relative: inner.to_owned(),
            archive: Some(archive_path.clone()),
            summary,
            overridden_by: None,
        });
    }
    entries
}

/// Every model of a game's search path `games`, place by place in its order; a model whose path
/// an earlier place also holds is marked as overridden by that one, as the game loads it.
pub fn game_entries(games: &studio_archive::GameFolders, names: bool) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut first: std::collections::HashMap<String, PathBuf> = std::collections::HashMap::new();
    for place in &games.places {
        let mut found = match place.at {
            studio_archive::Where::Folder(i) => loose_entries(&games.roots[i], names),
            studio_archive::Where::Archive(i) => archive_entries(&games.archives[i], names),
        };
        for entry in &mut found {
            let key = entry.relative.to_ascii_lowercase();
            match first.get(&key) {
                Some(winner) => entry.overridden_by = Some(winner.clone()),
                None => {
                    first.insert(key, entry.path.clone());
                }
            }
        }
        entries.extend(found);
    }
    entries
}

impl Entry {
    /// Its path, and its sequences' labels and activities when read, in lower case, a line each:
    /// what a search looks in.
    pub fn haystack(&self) -> String {
        let mut text = self.path.to_string_lossy().to_ascii_lowercase();
        if let Ok(Summary { names: Some(names), .. }) = &self.summary {
            for name in names {
                for part in [&name.label, &name.activity] {
                    text.push('\n');
                    text.push_str(&part.to_ascii_lowercase());
                }
            }
        }
        text
    }

    /// Whether `text` (lower case, one line) is in its path, or one of its sequences' labels or
    /// activities (when read).
    pub fn matches(&self, text: &str) -> bool {
        text.is_empty() || self.haystack().contains(text)
    }
}
