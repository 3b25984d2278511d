//! Where an archive's bytes are: a file on disk, read at offsets through one open handle, or
//! bytes in memory (tests and fuzzing). Either way only what is asked for is read: an archive is
//! never copied into memory whole.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use crate::error::{Error, truncated};

/// An archive file's bytes.
#[derive(Clone, Debug)]
pub(crate) enum Backing {
    /// An open file and its length.
    File(Arc<File>, u64),
    /// Bytes in memory.
    Memory(Arc<[u8]>),
}

impl Backing {
    /// The file at `path`, opened.
    pub(crate) fn open(path: &Path) -> std::io::Result<Self> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        Ok(Self::File(Arc::new(file), len))
    }

    /// Its length in bytes.
    pub(crate) fn len(&self) -> u64 {
        match self {
            Backing::File(_, len) => *len,
            Backing::Memory(bytes) => bytes.len() as u64,
        }
    }

    /// `len` bytes at `offset`, appended to `out`; `record` names what is read in an error.
    pub(crate) fn read_into(
        &self,
        record: &'static str,
        offset: u64,
        len: u64,
        out: &mut Vec<u8>,
    ) -> Result<(), Error> {
        let end = offset
            .checked_add(len)
            .filter(|&end| end <= self.len())
            .ok_or_else(|| truncated(record, offset, len, self.len()))?;
        let count = usize::try_from(len).map_err(|_| Error::new(record, offset, "too large to read"))?;
        match self {
            Backing::Memory(bytes) => {
                // In range: checked against the length above.
                out.extend_from_slice(&bytes[offset as usize..end as usize]);
            }
            Backing::File(file, _) => {
                let start = out.len();
                out.resize(start + count, 0);
                read_exact_at(file, &mut out[start..], offset)
                    .map_err(|e| Error::new(record, offset, format!("reading {len} bytes: {e}")))?;
            }
        }
        Ok(())
    }

    /// `len` bytes at `offset`.
    pub(crate) fn read(&self, record: &'static str, offset: u64, len: u64) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        self.read_into(record, offset, len, &mut out)?;
        Ok(out)
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(file, buf, offset) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}
