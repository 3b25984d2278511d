//! The model header, `studiohdr_t` (goldsrc-header.md, "Header").

use glam::Vec3;

use crate::error::{FileRole, Problem, Record, Result};
use crate::raw::{RawHeader, RawSequenceGroupHeader};
use crate::reader::{FileData, name};

/// The version this crate reads (`STUDIO_VERSION`).
pub const STUDIO_VERSION: i32 = 10;

/// Model flags that Half-Life's engine knows (`EF_*` in its headers), for display.
pub const MODEL_FLAG_NAMES: [(i32, &str); 11] = [
    (0x001, "ROCKET"),
    (0x002, "GRENADE"),
    (0x004, "GIB"),
    (0x008, "ROTATE"),
    (0x010, "TRACER"),
    (0x020, "ZOMGIB"),
    (0x040, "TRACER2"),
    (0x080, "TRACER3"),
    (0x100, "NOSHADELIGHT"),
    (0x200, "HITBOXCOLLISIONS"),
    (0x400, "FORCESKYLIGHT"),
];

/// The header facts that are not tables: name, stored length, eye position, boxes, flags.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Header {
    /// Model path as stored, such as `models/scientist.mdl`.
    pub name: String,
    /// The `length` field (the real size may differ; that is a warning).
    pub length: i32,
    /// Ideal eye position.
    pub eye_position: Vec3,
    /// Ideal movement hull, lower corner.
    pub min: Vec3,
    /// Ideal movement hull, upper corner.
    pub max: Vec3,
    /// Clipping bounding box, lower corner.
    pub bbmin: Vec3,
    /// Clipping bounding box, upper corner.
    pub bbmax: Vec3,
    /// Model flags, as given to the compiler's `$flags`.
    pub flags: i32,
}

impl Header {
    pub(crate) fn from_raw(raw: &RawHeader) -> Self {
        Self {
            name: name(&raw.name),
            length: raw.length,
            eye_position: Vec3::from_array(raw.eyeposition),
            min: Vec3::from_array(raw.min),
            max: Vec3::from_array(raw.max),
            bbmin: Vec3::from_array(raw.bbmin),
            bbmax: Vec3::from_array(raw.bbmax),
            flags: raw.flags,
        }
    }
}

fn check_id(file: &FileData<'_>, id: [u8; 4], expected: &'static str) -> Result<()> {
    if id != expected.as_bytes() {
        return Err(file.error(
            Record::Header,
            None,
            0,
            Problem::BadId { expected, found: String::from_utf8_lossy(&id).into_owned() },
        ));
    }
    Ok(())
}

/// Reads and checks a studio header (`IDST`, version 10) at the start of `file`.
pub(crate) fn read_studio_header(file: &FileData<'_>) -> Result<RawHeader> {
    if file.len() == 0 {
        return Err(file.error(Record::Header, None, 0, Problem::Empty));
    }
    let raw: RawHeader = file.read(Record::Header, None, 0)?;
    check_id(file, raw.id, "IDST")?;
    if raw.version != STUDIO_VERSION {
        return Err(file.error(Record::Header, None, 4, Problem::BadVersion(raw.version)));
    }
    Ok(raw)
}

/// Reads and checks a sequence group file's header (`IDSQ`, version 10).
pub(crate) fn read_group_header(file: &FileData<'_>) -> Result<RawSequenceGroupHeader> {
    debug_assert!(matches!(file.role(), FileRole::Group(_)));
    let raw: RawSequenceGroupHeader = file.read(Record::Header, None, 0)?;
    check_id(file, raw.id, "IDSQ")?;
    if raw.version != STUDIO_VERSION {
        return Err(file.error(Record::Header, None, 4, Problem::BadVersion(raw.version)));
    }
    Ok(raw)
}

/// Whether `bytes` start like a sequence group file (`IDSQ`).
pub fn is_group_file(bytes: &[u8]) -> bool {
    bytes.starts_with(b"IDSQ")
}
