//! Errors with a place: the record being read and the byte offset in its file.

/// A problem in an archive, or another file a game folder holds (studio-material's materials and
/// textures use it too).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{record} at byte {offset}: {problem}")]
pub struct Error {
    /// What was being read (`VPK tree`, `PAK directory`, …).
    pub record: &'static str,
    /// Byte offset in the file.
    pub offset: u64,
    /// What is wrong.
    pub problem: String,
}

impl Error {
    /// An error in `record` at `offset`.
    pub fn new(record: &'static str, offset: u64, problem: impl Into<String>) -> Self {
        Self { record, offset, problem: problem.into() }
    }
}

/// The result of reading.
pub type Result<T> = std::result::Result<T, Error>;

/// `len` bytes needed at `offset` of `record`, in a file that ends at byte `end`.
pub fn truncated(record: &'static str, offset: u64, len: u64, end: u64) -> Error {
    let bytes = studio_bytes::bytes_word(len);
    Error::new(record, offset, format!("{len} {bytes} needed here, but the file ends at byte {end}"))
}

/// `len` bytes at `offset` of `bytes`, or an error naming `record`.
pub fn slice<'a>(bytes: &'a [u8], record: &'static str, offset: u64, len: u64) -> Result<&'a [u8]> {
    let end = offset.checked_add(len);
    end.filter(|&end| end <= bytes.len() as u64)
        .and_then(|end| bytes.get(usize::try_from(offset).ok()?..usize::try_from(end).ok()?))
        .ok_or_else(|| truncated(record, offset, len, bytes.len() as u64))
}

/// A little-endian `u32` at `offset`.
pub fn u32_at(bytes: &[u8], record: &'static str, offset: u64) -> Result<u32> {
    let b = slice(bytes, record, offset, 4)?;
    Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// A little-endian `u16` at `offset`.
pub fn u16_at(bytes: &[u8], record: &'static str, offset: u64) -> Result<u16> {
    let b = slice(bytes, record, offset, 2)?;
    Ok(u16::from_le_bytes([b[0], b[1]]))
}
