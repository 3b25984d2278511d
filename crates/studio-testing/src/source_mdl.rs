//! Where things are in a Source `.mdl` (version 44–49), for tests that make a fixture of their
//! own by changing a few fields of a shared one: offsets of `studiohdr_t`'s fields and of the
//! records' name fields (source-header.md, source-bones.md, source-animation.md). Every record
//! is found from the header's own index fields, so a wrong offset here shows as a name that does
//! not read back, which [`name`] refuses loudly.

/// `studiohdr_t.length`.
pub const LENGTH: usize = 76;
/// `studiohdr_t.hitboxsetindex`.
pub const HITBOX_SET_INDEX: usize = 176;
/// `studiohdr_t.localanimindex`.
pub const ANIM_INDEX: usize = 184;
/// `studiohdr_t.localseqindex`.
pub const SEQ_INDEX: usize = 192;
/// `studiohdr_t.localattachmentindex`.
pub const ATTACHMENT_INDEX: usize = 244;
/// `studiohdr_t.numlocalposeparameters`.
pub const POSE_PARAM_COUNT: usize = 300;
/// `studiohdr_t.localposeparamindex`.
pub const POSE_PARAM_INDEX: usize = 304;

/// `mstudioseqdesc_t.flags`.
pub const SEQ_FLAGS: usize = 12;
/// `mstudioseqdesc_t.numautolayers`; `autolayerindex` follows.
pub const SEQ_AUTOLAYERS: usize = 148;
/// `mstudioseqdesc_t.numiklocks`; `iklockindex` follows.
pub const SEQ_IKLOCKS: usize = 164;
/// Size of `mstudioautolayer_t`: `iSequence` and `iPose` (i16), `flags`, then `start`, `peak`,
/// `tail` and `end` (f32).
pub const AUTOLAYER_SIZE: usize = 24;

/// Size of `mstudioanimdesc_t`.
pub const ANIMDESC_SIZE: usize = 100;
/// Size of `mstudioseqdesc_t`.
pub const SEQDESC_SIZE: usize = 212;
/// Size of `mstudioposeparamdesc_t`.
pub const POSE_PARAM_SIZE: usize = 20;
/// Size of `mstudioattachment_t`.
pub const ATTACHMENT_SIZE: usize = 92;
/// Size of `mstudiobbox_t`.
pub const BBOX_SIZE: usize = 68;
/// Size of `mstudioevent_t`.
pub const EVENT_SIZE: usize = 80;

/// The little-endian `i32` at `at`.
pub fn i32_at(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

/// The little-endian `i16` at `at`.
pub fn i16_at(bytes: &[u8], at: usize) -> i16 {
    i16::from_le_bytes(bytes[at..at + 2].try_into().unwrap())
}

/// Writes `value` as a little-endian `i32` at `at`.
pub fn set_i32(bytes: &mut [u8], at: usize, value: i32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// Writes `value` as a little-endian `f32` at `at`.
pub fn set_f32(bytes: &mut [u8], at: usize, value: f32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// Appends `data` at the end of the file, 4-byte aligned, and sets the header's `length`:
/// where it starts.
pub fn append(bytes: &mut Vec<u8>, data: &[u8]) -> usize {
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    let at = bytes.len();
    bytes.extend_from_slice(data);
    let length = i32::try_from(bytes.len()).unwrap();
    set_i32(bytes, LENGTH, length);
    at
}

/// Writes `value` as a little-endian `i16` at `at`.
pub fn set_i16(bytes: &mut [u8], at: usize, value: i16) {
    bytes[at..at + 2].copy_from_slice(&value.to_le_bytes());
}

/// Where record `i` of a table of `size`-byte records starts, the table found at the header's
/// index field `index_field` (the offset from the start of the file).
pub fn record(bytes: &[u8], index_field: usize, size: usize, i: usize) -> usize {
    usize::try_from(i32_at(bytes, index_field)).unwrap() + i * size
}

/// Where the name of the record at `record_at` is, by its name field at `record_at + field`
/// (offsets from the record), and the name; panics if it does not read as a NUL-terminated name.
pub fn name(bytes: &[u8], record_at: usize, field: usize) -> (usize, String) {
    let at = usize::try_from(record_at as i64 + i64::from(i32_at(bytes, record_at + field))).unwrap();
    let end = bytes[at..].iter().position(|&b| b == 0).map(|n| at + n).expect("a NUL-terminated name");
    (at, String::from_utf8(bytes[at..end].to_vec()).expect("a name"))
}

/// Points the name field at `record_at + field` at the absolute offset `target`.
pub fn point_name(bytes: &mut [u8], record_at: usize, field: usize, target: usize) {
    set_i32(bytes, record_at + field, i32::try_from(target as i64 - record_at as i64).unwrap());
}
