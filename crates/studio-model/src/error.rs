//! Errors and warnings, each with the place in the file it concerns.
//!
//! A fatal [`Error`] names the file, the kind of record being read, its index and the byte offset.
//! A [`Warning`] is a problem the game tolerates; it is carried with the parsed model.

use std::fmt;

/// Which file of a model set a place lies in (goldsrc-header.md, "Companion files").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileRole {
    /// `name.mdl`.
    Main,
    /// `nameT.mdl`, the texture file.
    Textures,
    /// `nameNN.mdl`, the file of sequence group NN (1 or more).
    Group(usize),
}

impl fmt::Display for FileRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileRole::Main => f.write_str("main file"),
            FileRole::Textures => f.write_str("texture file"),
            FileRole::Group(n) => write!(f, "sequence group file {n:02}"),
        }
    }
}

/// The kind of record being read when a problem was found, named as in studio.h.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Record {
    Header,
    Bone,
    BoneController,
    Hitbox,
    SequenceGroup,
    Sequence,
    Event,
    Pivot,
    /// The `mstudioanim_t` records of a sequence; `index` is the sequence.
    Animation,
    /// The run-length data of a sequence's channels; `index` is the sequence.
    Channel,
    Attachment,
    Transitions,
    BodyPart,
    Submodel,
    Mesh,
    TriangleCommands,
    VertexBones,
    Vertices,
    NormalBones,
    Normals,
    Texture,
    TexturePixels,
    SkinTable,
}

impl Record {
    /// The name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            Record::Header => "header",
            Record::Bone => "bone",
            Record::BoneController => "bone controller",
            Record::Hitbox => "hit box",
            Record::SequenceGroup => "sequence group",
            Record::Sequence => "sequence",
            Record::Event => "event",
            Record::Pivot => "pivot",
            Record::Animation => "animation records of sequence",
            Record::Channel => "animation of sequence",
            Record::Attachment => "attachment",
            Record::Transitions => "transition table",
            Record::BodyPart => "body part",
            Record::Submodel => "submodel",
            Record::Mesh => "mesh",
            Record::TriangleCommands => "triangle commands",
            Record::VertexBones => "vertex bones",
            Record::Vertices => "vertices",
            Record::NormalBones => "normal bones",
            Record::Normals => "normals",
            Record::Texture => "texture",
            Record::TexturePixels => "texture pixels",
            Record::SkinTable => "skin table",
        }
    }
}

/// Where in a model set something was found: file, record kind and index, byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The file.
    pub file: FileRole,
    /// The kind of record.
    pub record: Record,
    /// The record's index in its table, where it has one.
    pub index: Option<usize>,
    /// Byte offset from the start of `file`.
    pub offset: u64,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.record.name())?;
        if let Some(index) = self.index {
            write!(f, " {index}")?;
        }
        write!(f, " at byte {}", self.offset)?;
        if self.file != FileRole::Main {
            write!(f, " of the {}", self.file)?;
        }
        Ok(())
    }
}

/// What is wrong at a [`Place`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Problem {
    /// The bytes needed run past the end of the file.
    #[error("{needed} {} needed here, but the file ends at byte {end}", studio_bytes::bytes_word(*.needed))]
    Truncated {
        /// Bytes the record or table needs from its offset.
        needed: u64,
        /// Where the file ends: its length.
        end: u64,
    },
    /// The file does not start with the expected identifier.
    #[error("expected identifier {expected:?}, found {found:?}")]
    BadId {
        /// `IDST` or `IDSQ`.
        expected: &'static str,
        /// The four bytes found, lossily decoded.
        found: String,
    },
    /// The version is not 10.
    #[error("{}", version_message(*.0))]
    BadVersion(i32),
    /// The file has no bytes at all.
    #[error("the file is empty (0 bytes)")]
    Empty,
    /// A count or offset field holds a negative value.
    #[error("{field} is {value}, which cannot be negative")]
    Negative {
        /// The field's name in studio.h.
        field: &'static str,
        /// The value read.
        value: i64,
    },
    /// A table does not fit in the file.
    #[error(
        "{count} records of {size} bytes from offset {offset} run past the end of the file ({len} bytes)"
    )]
    TableOutside {
        /// Records in the table.
        count: u64,
        /// Size of one record.
        size: u64,
        /// The table's offset.
        offset: u64,
        /// The file's length.
        len: u64,
    },
    /// A field refers to a record that does not exist.
    #[error("{field} is {value}, but there is no {target} {value} (there are {count})")]
    BadReference {
        /// The field's name in studio.h.
        field: &'static str,
        /// The value read.
        value: i64,
        /// What it should refer to.
        target: &'static str,
        /// How many of those there are.
        count: usize,
    },
    /// A bone's parent does not come before it, so the hierarchy cannot be walked in order.
    #[error("parent {parent} does not come before the bone")]
    ParentOrder {
        /// The parent read.
        parent: i32,
    },
    /// An animation channel's run-length data is not usable.
    #[error("blend {blend}, bone {bone}, {} channel: {detail}", crate::animation::CHANNEL_NAMES.get(*.channel).copied().unwrap_or("?"))]
    Channel {
        /// The blend.
        blend: usize,
        /// The bone.
        bone: usize,
        /// The degree of freedom, 0–5.
        channel: usize,
        /// What is wrong.
        detail: ChannelProblem,
    },
    /// The animation data makes the parser visit far more runs than its size allows.
    #[error("animation runs are visited more than {0} times; the data loops back on itself")]
    TooManyRuns(u64),
    /// A name runs to the end of the file without its closing NUL.
    #[error("the name runs to the end of the file without its closing NUL")]
    Unterminated,
    /// A triangle command's vertex or normal index is outside its submodel's arrays.
    #[error("{field} {value} is outside the submodel's {count} {target}")]
    BadTriangleIndex {
        /// `vertex` or `normal`.
        field: &'static str,
        /// The index read.
        value: i64,
        /// `vertices` or `normals`.
        target: &'static str,
        /// How many there are.
        count: usize,
    },
}

/// What a version other than 10 is, naming both families this program reads: versions below
/// 10 are Half-Life's early formats (alphas and demos before its release), 44 to 49 are Source
/// models (read by studio-source).
fn version_message(version: i32) -> String {
    const SUPPORTED: &str = "supported are 10 (Half-Life) and 44–49 (Source)";
    if (1..10).contains(&version) {
        format!("version {version} is an early Half-Life format; {SUPPORTED}")
    } else {
        format!("version {version}; {SUPPORTED}")
    }
}

/// What is wrong with one animation channel's runs (goldsrc-sequences.md, "Animation data").
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ChannelProblem {
    /// The runs end with the file before covering every frame.
    #[error("its runs cover {covered} of the sequence's {frames} frames before the file ends")]
    TooShort {
        /// Frames covered.
        covered: u64,
        /// Frames the sequence has.
        frames: u64,
    },
    /// A run's values run past the end of the file.
    #[error("a run at byte {offset} has {valid} values, which run past the end of the file")]
    ValuesOutside {
        /// Where the run starts.
        offset: u64,
        /// Its `valid` count.
        valid: u8,
    },
}

/// A fatal problem: the model set cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{place}: {problem}")]
pub struct Error {
    /// Where it was found.
    pub place: Place,
    /// What is wrong.
    pub problem: Problem,
}

/// What a [`Warning`] says.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum WarningKind {
    /// The header's length field disagrees with the file's real size.
    #[error("the header says {stored} bytes, the file has {actual}")]
    LengthMismatch {
        /// The `length` field.
        stored: i64,
        /// The real size.
        actual: u64,
    },
    /// A count is above the limit in studio.h; the game may refuse the model.
    #[error("{count} {what}, more than studio.h's limit of {limit}")]
    AboveLimit {
        /// What is counted.
        what: &'static str,
        /// The count.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// A texture file was supplied although the main file has its own textures.
    #[error("a texture file was given, but the main file has its own textures; it is ignored")]
    UnneededTextureFile,
    /// The main file has no textures and its texture file was not found.
    #[error("no textures: {expected} was not found")]
    MissingTextureFile {
        /// The file name expected.
        expected: String,
    },
    /// The texture file could not be read: the model has no textures.
    #[error("no textures: {expected} cannot be used: {error}")]
    BadTextureFile {
        /// The file name expected.
        expected: String,
        /// Why.
        error: Box<Error>,
    },
    /// A sequence group file was not found: that group's sequences are unavailable.
    #[error("sequence group {group}: {expected} was not found; its sequences are unavailable")]
    MissingGroupFile {
        /// The group.
        group: usize,
        /// The file name expected.
        expected: String,
    },
    /// A sequence group file could not be read: that group's sequences are unavailable.
    #[error("sequence group {group} is unavailable: {error}")]
    BadGroupFile {
        /// The group.
        group: usize,
        /// Why.
        error: Box<Error>,
    },
    /// A field holds bits or values the format does not define.
    #[error("{field} has unknown value {value:#x}")]
    UnknownValue {
        /// The field's name in studio.h.
        field: &'static str,
        /// The value read.
        value: i64,
    },
    /// A field holds a value that cannot be used; it is ignored as described.
    #[error("{field} is {value}: {consequence}")]
    Unusable {
        /// The field's name in studio.h.
        field: &'static str,
        /// The value read.
        value: i64,
        /// What the viewer does about it.
        consequence: &'static str,
    },
    /// A mesh's `numtris` disagrees with its triangle commands.
    #[error("numtris is {stored}, the triangle commands make {actual}")]
    TriangleCount {
        /// The `numtris` field.
        stored: i64,
        /// Triangles resolved.
        actual: usize,
    },
}

/// A problem the game tolerates, carried with the model.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// Where it was found, when it concerns one record.
    pub place: Option<Place>,
    /// What it is.
    pub kind: WarningKind,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.place {
            Some(place) => write!(f, "{place}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
