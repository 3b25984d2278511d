//! Errors and warnings, each with the place in the model set it concerns: the file, the kind
//! of record (named as in studio.h), its index and the byte offset.

use std::fmt;

use studio_bytes::Fault;

/// Which file of a Source model set a place lies in (source-mesh.md, "Files").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileRole {
    /// `name.mdl`.
    Mdl,
    /// `name.vvd`.
    Vvd,
    /// `name.dx90.vtx` (or another `.vtx`).
    Vtx,
    /// The `.ani` file the header names.
    Ani,
    /// Include model `n` of the main model.
    Include(usize),
    /// `name.phy`, the collision model.
    Phy,
}

impl fmt::Display for FileRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileRole::Mdl => f.write_str(".mdl"),
            FileRole::Vvd => f.write_str(".vvd"),
            FileRole::Vtx => f.write_str(".vtx"),
            FileRole::Ani => f.write_str(".ani"),
            FileRole::Include(n) => write!(f, "include model {n}"),
            FileRole::Phy => f.write_str(".phy"),
        }
    }
}

/// The kind of record being read when a problem was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Record {
    Header,
    Header2,
    Bone,
    ProceduralBone,
    BoneController,
    HitboxSet,
    Hitbox,
    Attachment,
    PoseParameter,
    IkChain,
    IkLink,
    IkLock,
    Texture,
    TextureDirectory,
    SkinTable,
    BodyPart,
    Model,
    Mesh,
    IncludeModel,
    AnimBlock,
    Animation,
    Movement,
    Section,
    AnimationData,
    ValueStream,
    IkRule,
    LocalHierarchy,
    ZeroFrames,
    TransitionGraph,
    Sequence,
    Event,
    AutoLayer,
    ActivityModifier,
    BlendGrid,
    PoseKeys,
    WeightList,
    KeyValues,
    Name,
    Vertices,
    Tangents,
    Fixup,
    VtxBodyPart,
    VtxModel,
    VtxLod,
    VtxMesh,
    StripGroup,
    Strip,
    FlexDesc,
    FlexController,
    FlexControllerUi,
    FlexRule,
    FlexOp,
    Flex,
    VertAnim,
    Eyeball,
    Mouth,
    PhySolid,
    PhyLedgeNode,
    PhyLedge,
    PhyTriangle,
    PhyPoint,
}

impl Record {
    /// The name used in messages (studio.h's record, in words).
    pub fn name(self) -> &'static str {
        match self {
            Record::Header => "header (studiohdr_t)",
            Record::Header2 => "second header (studiohdr2_t)",
            Record::Bone => "bone",
            Record::ProceduralBone => "procedural rule of bone",
            Record::BoneController => "bone controller",
            Record::HitboxSet => "hit box set",
            Record::Hitbox => "hit box",
            Record::Attachment => "attachment",
            Record::PoseParameter => "pose parameter",
            Record::IkChain => "IK chain",
            Record::IkLink => "IK link",
            Record::IkLock => "IK lock",
            Record::Texture => "texture",
            Record::TextureDirectory => "texture directory",
            Record::SkinTable => "skin table",
            Record::BodyPart => "body part",
            Record::Model => "model",
            Record::Mesh => "mesh",
            Record::IncludeModel => "include model",
            Record::AnimBlock => "animation block",
            Record::Animation => "animation",
            Record::Movement => "movement of animation",
            Record::Section => "section of animation",
            Record::AnimationData => "bone data of animation",
            Record::ValueStream => "value stream of animation",
            Record::IkRule => "IK rule",
            Record::LocalHierarchy => "local hierarchy change",
            Record::ZeroFrames => "zero-frame data of animation",
            Record::TransitionGraph => "transition graph",
            Record::Sequence => "sequence",
            Record::Event => "event of sequence",
            Record::AutoLayer => "auto layer of sequence",
            Record::ActivityModifier => "activity modifier of sequence",
            Record::BlendGrid => "blend grid of sequence",
            Record::PoseKeys => "pose keys of sequence",
            Record::WeightList => "weight list of sequence",
            Record::KeyValues => "key values",
            Record::Name => "name",
            Record::Vertices => "vertex",
            Record::Tangents => "tangents",
            Record::Fixup => "vertex fixup",
            Record::VtxBodyPart => "body part",
            Record::VtxModel => "model",
            Record::VtxLod => "LOD",
            Record::VtxMesh => "mesh",
            Record::StripGroup => "strip group",
            Record::PhySolid => "collision solid",
            Record::PhyLedgeNode => "ledge tree node",
            Record::PhyLedge => "convex piece (compact ledge)",
            Record::PhyTriangle => "collision triangle",
            Record::PhyPoint => "collision point",
            Record::Strip => "strip",
            Record::FlexDesc => "flex description",
            Record::FlexController => "flex controller",
            Record::FlexControllerUi => "flex controller UI",
            Record::FlexRule => "flex rule",
            Record::FlexOp => "flex rule operation",
            Record::Flex => "flex",
            Record::VertAnim => "flex vertex",
            Record::Eyeball => "eyeball",
            Record::Mouth => "mouth",
        }
    }
}

/// Where in a model set something was found.
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
        write!(f, " at byte {} of the {}", self.offset, self.file)
    }
}

/// What is wrong at a [`Place`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Problem {
    /// The bytes needed run past the end of the file.
    #[error("{needed} {} needed here, but the file ends at byte {end}", studio_bytes::bytes_word(*.needed))]
    Truncated {
        /// Bytes needed from the offset.
        needed: u64,
        /// Where the file ends: its length.
        end: u64,
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
    /// A count or offset field holds a negative value (or an offset leads before the file).
    #[error("{field} is {value}, which cannot be negative")]
    Negative {
        /// The field's name in studio.h.
        field: &'static str,
        /// The value (for a relative offset, where it leads).
        value: i64,
    },
    /// A field holds a value the data it describes cannot have.
    #[error("{field} is {value}, but {needs}")]
    OutOfRange {
        /// The field's name in studio.h.
        field: &'static str,
        /// Its value.
        value: i64,
        /// What the data needs of it.
        needs: &'static str,
    },
    /// The file's tables point at the same bytes over and over.
    #[error("the file's records are read more than {0} bytes' worth; its tables overlap themselves")]
    OverBudget(u64),
    /// A name runs to the end of the file without its closing NUL.
    #[error("the name runs to the end of the file without its closing NUL")]
    Unterminated,
    /// The file does not start with the expected identifier.
    #[error("expected identifier {expected:?}, found {found:?}")]
    BadId {
        /// `IDST`, `IDSV`, `IDAG`.
        expected: &'static str,
        /// The four bytes found.
        found: String,
    },
    /// The file has no bytes at all.
    #[error("the file is empty (0 bytes)")]
    Empty,
    /// The version is not one this reader knows.
    #[error("version {found}; Source models of versions 44 to 49 are supported")]
    BadVersion {
        /// The version read.
        found: i32,
    },
    /// A field refers to a record that does not exist.
    #[error("{field} is {value}, but there is no {target} {value} (there are {count})")]
    BadReference {
        /// The field's name in studio.h.
        field: &'static str,
        /// Its value.
        value: i64,
        /// What it refers to.
        target: &'static str,
        /// How many there are.
        count: usize,
    },
    /// An animation's bone records are not in increasing bone order.
    #[error("bone {bone} follows bone {previous}; an animation's records are in increasing bone order")]
    ChainOrder {
        /// The record's bone.
        bone: u8,
        /// The bone of the record before it.
        previous: u8,
    },
    /// A bone record's `nextoffset` leads backwards.
    #[error("nextoffset is {next}; the next record must follow this one")]
    BackwardChain {
        /// The offset read.
        next: i16,
    },
    /// A value stream's runs stop covering frames before the stream has covered them all.
    #[error(
        "a run covers {total} frames with {valid} values after {covered} of the stream's {frames} frames"
    )]
    BadRun {
        /// The run's `valid`.
        valid: u8,
        /// The run's `total`.
        total: u8,
        /// Frames covered before it.
        covered: u64,
        /// Frames the stream must cover.
        frames: u32,
    },
    /// A flex rule's operation finds too few values on its stack, or would grow it past the
    /// engine's 32.
    #[error(
        "operation {op} (code {code}) finds {depth} values on the rule's stack, but needs {needs} and at most 32 fit"
    )]
    FlexStack {
        /// The operation's index in the rule.
        op: usize,
        /// Its code (`STUDIO_ADD`…).
        code: i32,
        /// Values on the stack before it.
        depth: i64,
        /// Values it needs.
        needs: i64,
    },
    /// A bone's parent does not come before it.
    #[error("parent {parent} does not come before the bone")]
    ParentOrder {
        /// The parent index read.
        parent: i32,
    },
}

impl From<Fault> for Problem {
    fn from(fault: Fault) -> Self {
        match fault {
            Fault::Truncated { needed, end } => Problem::Truncated { needed, end },
            Fault::TableOutside { count, size, offset, len } => {
                Problem::TableOutside { count, size, offset, len }
            }
            Fault::Negative { field, value } => Problem::Negative { field, value },
            Fault::OverBudget { limit } => Problem::OverBudget(limit),
            Fault::Unterminated => Problem::Unterminated,
        }
    }
}

/// A model set that cannot be used: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{place}: {problem}")]
pub struct Error {
    /// Where.
    pub place: Place,
    /// What.
    pub problem: Problem,
}

/// The result of reading.
pub type Result<T> = std::result::Result<T, Error>;

/// Something the engine tolerates but a modder wants to hear of.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// Where.
    pub place: Place,
    /// What.
    pub kind: WarningKind,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            // A file that is not there has no place in it; its name says which it is.
            WarningKind::MissingFile { .. } => write!(f, "{}: {}", self.place.file, self.kind),
            kind => write!(f, "{}: {kind}", self.place),
        }
    }
}

impl std::error::Error for Warning {}

/// A value read, or a warning that what depends on it is unavailable.
pub(crate) fn usable_or_warn<T>(
    result: Result<T>,
    consequence: &'static str,
    warnings: &mut Vec<Warning>,
) -> Option<T> {
    result
        .map_err(|error| {
            warnings.push(Warning {
                place: error.place,
                kind: WarningKind::Unusable { problem: error.problem, consequence },
            })
        })
        .ok()
}

/// The kinds of [`Warning`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum WarningKind {
    /// The header's length field disagrees with the file.
    #[error("the header says {stored} bytes, the file has {actual}")]
    LengthMismatch {
        /// The header's length.
        stored: i64,
        /// The file's.
        actual: u64,
    },
    /// Data the engine would read wrongly (or not at all); what depends on it is unavailable.
    #[error("{problem}; {consequence}")]
    Unusable {
        /// What is wrong.
        problem: Problem,
        /// What is unavailable because of it.
        consequence: &'static str,
    },
    /// A companion file is not there.
    #[error("{name} was not found (tried {tried}); what is in it is unavailable")]
    MissingFile {
        /// The name the model gives.
        name: String,
        /// Where it was looked for.
        tried: String,
    },
    /// A companion file's checksum is not the model's.
    #[error(
        "checksum {found} differs from the model's {expected}: the file belongs to another build of the model"
    )]
    ChecksumMismatch {
        /// The `.mdl`'s checksum.
        expected: i32,
        /// The companion's.
        found: i32,
    },
    /// A companion file cannot be used at all.
    #[error("{problem}; the file is not used")]
    BadFile {
        /// Why.
        problem: Problem,
    },
    /// A field holds a value studio.h does not define; it is kept as read.
    #[error("{field} has unknown value {value}")]
    UnknownValue {
        /// The field.
        field: &'static str,
        /// Its value.
        value: i64,
    },
}
