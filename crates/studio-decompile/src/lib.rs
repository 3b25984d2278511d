//! A model's sources back — the QC, an SMD per submodel and per animation, and the textures
//! (Half-Life) — in studiomdl's formats (`studioview decompile MODEL --out DIR`).
//!
//! Every file is made in memory first, so a model that cannot be decompiled whole gives an
//! error and writes nothing; a folder that cannot be written is left as it was found.

pub mod collision;
pub mod flex_shapes;
pub mod goldsrc;
pub mod goldsrc_qc;
pub mod keep_bones;
pub mod names;
pub mod qc;
pub mod qc_names;
pub mod rebuild;
pub mod source;
pub mod source_qc;
pub mod stereo_split;
pub mod texture_flags;
pub mod texture_range;
pub mod turn;

pub use studio_smd::{bmp, smd, smd_read};

use std::path::{Path, PathBuf};

/// Why a model cannot be decompiled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecompileError {
    /// The model could not be loaded.
    #[error("{0}")]
    Load(String),
    /// A sequence's animation was not loaded (its sequence group file is missing or unusable).
    #[error(
        "sequence {sequence} ({label:?}): its animation is not loaded (sequence group {group} is missing or unusable)"
    )]
    AnimationMissing {
        /// The sequence.
        sequence: usize,
        /// Its name.
        label: String,
        /// Its group.
        group: usize,
    },
    /// The model keeps its textures in `NAMEt.mdl`, which is missing or unusable.
    #[error("its textures are in its texture file (NAMEt.mdl), which is missing or unusable")]
    TexturesMissing,
    /// The animation files would be larger than any real model's.
    #[error(
        "its animations would take {lines} bone lines (frames × bones), more than the {limit} a decompile writes"
    )]
    TooLarge {
        /// Bone lines the animation files would hold.
        lines: u64,
        /// The most written.
        limit: u64,
    },
    /// A texture's pixels do not fit a bitmap.
    #[error("texture {name:?} cannot be written as a bitmap")]
    Texture {
        /// The texture's name.
        name: String,
    },
    /// An include model whose sources were asked for was not found.
    #[error("include model {file:?} was not found or is unusable")]
    IncludeMissing {
        /// Its file, as the model names it.
        file: String,
    },
    /// The `.phy` beside the model cannot be read, or is not this build's.
    #[error("its collision model (.phy): {0}")]
    Phy(String),
    /// A companion file the meshes need is missing or unusable.
    #[error("its {file} file is missing or unusable, so its meshes cannot be written")]
    Companion {
        /// `.vvd` or `.vtx`.
        file: &'static str,
    },
    /// A Source animation's data was not read.
    #[error("animation {animation} ({name:?}): {why}")]
    AnimationData {
        /// The animation.
        animation: usize,
        /// Its name.
        name: String,
        /// What is missing.
        why: String,
    },
    /// A file could not be written.
    #[error("{path}: {message}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
}

/// The most bone lines (one bone at one frame) the animation files of one decompile may hold:
/// about a gigabyte of text, a hundred times Natural Selection's largest model. A damaged
/// frame count asks for far more, and is refused before anything is made.
pub const MAX_BONE_LINES: u64 = 16_000_000;

/// Refuses animations of `frames` (per animation file) over `bones` bones that would take more
/// than [`MAX_BONE_LINES`] lines.
pub(crate) fn check_size(frames: impl Iterator<Item = u64>, bones: usize) -> Result<(), DecompileError> {
    let lines = frames.fold(0u64, |sum, f| sum.saturating_add(f.saturating_mul(bones as u64)));
    if lines > MAX_BONE_LINES {
        return Err(DecompileError::TooLarge { lines, limit: MAX_BONE_LINES });
    }
    Ok(())
}

/// A decompiled file: its name in the output folder and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutFile {
    /// File name.
    pub name: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

/// The files of a decompiled model, the QC last.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Decompiled {
    /// Files, in the order they were made.
    pub files: Vec<OutFile>,
    /// What the sources say other than the model does, so that the compiler reads them back
    /// (a name made valid, for one); the QC says each in a comment too.
    pub warnings: Vec<String>,
}

impl Decompiled {
    pub(crate) fn push(&mut self, name: &str, bytes: Vec<u8>) {
        self.files.push(OutFile { name: name.to_owned(), bytes });
    }

    /// The file called `name`.
    pub fn file(&self, name: &str) -> Option<&[u8]> {
        self.files.iter().find(|f| f.name == name).map(|f| f.bytes.as_slice())
    }

    /// Bytes in all.
    pub fn size(&self) -> u64 {
        self.files.iter().map(|f| f.bytes.len() as u64).sum()
    }

    /// Writes every file into `dir` (made if missing). On a failure the files written so far
    /// are removed again.
    pub fn write_to(&self, dir: &Path) -> Result<(), DecompileError> {
        let failed = |path: &Path, error: std::io::Error| DecompileError::Write {
            path: path.to_owned(),
            message: error.to_string(),
        };
        std::fs::create_dir_all(dir).map_err(|e| failed(dir, e))?;
        let mut written = Vec::new();
        for file in &self.files {
            let path = dir.join(&file.name);
            let made = path.parent().map_or(Ok(()), std::fs::create_dir_all);
            if let Err(error) = made.and_then(|()| std::fs::write(&path, &file.bytes)) {
                for path in &written {
                    let _ = std::fs::remove_file(path);
                }
                return Err(failed(&path, error));
            }
            written.push(path);
        }
        Ok(())
    }
}

/// The file stem a model's sources are named after (`soldier` for `soldier.mdl`).
pub fn stem_of(path: &Path) -> String {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("model");
    let stem = stem.rsplit(':').next().unwrap_or(stem);
    names::FileNames::default().take(stem, "qc").trim_end_matches(".qc").to_owned()
}
