//! Bounds-checked reading of one untrusted file, shared by the GoldSrc and Source readers.
//!
//! Every count and offset read from a file goes through a [`Reader`]: negative values, sizes
//! that overflow and tables that run past the end become a [`ReadError`] with the byte offset,
//! which each format's reader turns into its own error naming the file and record. Every read
//! also draws on a budget proportional to the file's size, so a file whose tables point at the
//! same bytes over and over cannot make a parser do (or allocate) more than a fixed multiple of
//! its size.

#![forbid(unsafe_code)]

pub mod files;

use std::cell::Cell;
use std::marker::PhantomData;

use bytemuck::Pod;

/// How many times over a file's bytes may be read before it is refused as self-overlapping.
/// Valve's compilers write every table once, so real files read each byte about once.
pub const BUDGET_PER_BYTE: u64 = 4;
/// A fixed allowance on top, for small files whose headers are read several times.
const BUDGET_BASE: u64 = 1 << 16;

/// What went wrong reading a file, without the format's names for the place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The bytes needed run past the end of the file.
    Truncated {
        /// Bytes needed from the offset.
        needed: u64,
        /// Where the file ends: its length.
        end: u64,
    },
    /// A table of `count` records of `size` bytes at `offset` does not fit in `len` bytes.
    TableOutside {
        /// Records.
        count: u64,
        /// Bytes per record.
        size: u64,
        /// Where the table starts.
        offset: u64,
        /// The file's length.
        len: u64,
    },
    /// A count or offset field holds a negative value.
    Negative {
        /// The field, as the format's header names it.
        field: &'static str,
        /// Its value.
        value: i64,
    },
    /// The file's read budget ([`BUDGET_PER_BYTE`] times its size) is spent: its tables overlap
    /// themselves over and over.
    OverBudget {
        /// The budget, in bytes.
        limit: u64,
    },
    /// A string runs to the end of the file without its terminating NUL.
    Unterminated,
}

/// "byte" or "bytes", for a message that counts `n` of them.
pub fn bytes_word(n: u64) -> &'static str {
    if n == 1 { "byte" } else { "bytes" }
}

/// A [`Fault`] and the byte offset it was found at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadError {
    /// Byte offset from the start of the file.
    pub offset: u64,
    /// What is wrong there.
    pub fault: Fault,
}

/// The result of a read.
pub type Result<T> = std::result::Result<T, ReadError>;

/// One file's bytes and its read budget.
#[derive(Debug)]
pub struct Reader<'a> {
    bytes: &'a [u8],
    budget: Cell<u64>,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` with a full budget.
    pub fn new(bytes: &'a [u8]) -> Self {
        let len = bytes.len() as u64;
        Self { bytes, budget: Cell::new(len.saturating_mul(BUDGET_PER_BYTE).saturating_add(BUDGET_BASE)) }
    }

    /// All the bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The file's length.
    pub fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Takes `amount` from the read budget (for work done on bytes already read).
    pub fn charge(&self, offset: u64, amount: u64) -> Result<()> {
        match self.budget.get().checked_sub(amount) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => Err(ReadError {
                offset,
                fault: Fault::OverBudget { limit: self.len().saturating_mul(BUDGET_PER_BYTE) },
            }),
        }
    }

    /// `len` bytes at `offset`, charged to the budget.
    pub fn slice(&self, offset: u64, len: u64) -> Result<&'a [u8]> {
        let available = self.len().saturating_sub(offset);
        let truncated = ReadError { offset, fault: Fault::Truncated { needed: len, end: self.len() } };
        if len > available {
            return Err(truncated);
        }
        let start = usize::try_from(offset).map_err(|_| truncated)?;
        let end = usize::try_from(offset + len).map_err(|_| truncated)?;
        self.charge(offset, len)?;
        self.bytes.get(start..end).ok_or(truncated)
    }

    /// One record of type `T` at `offset`.
    pub fn read<T: Pod>(&self, offset: u64) -> Result<T> {
        let bytes = self.slice(offset, size_of::<T>() as u64)?;
        Ok(bytemuck::pod_read_unaligned(bytes))
    }

    /// `base + relative`, where `relative` is a file's signed offset field counted from `base`
    /// (the record that holds it); negative results and overflow are refused.
    pub fn relative(&self, base: u64, field: &'static str, relative: i32) -> Result<u64> {
        let negative =
            ReadError { offset: base, fault: Fault::Negative { field, value: i64::from(relative) } };
        let at =
            i64::try_from(base).map_err(|_| negative)?.checked_add(i64::from(relative)).ok_or(negative)?;
        u64::try_from(at).map_err(|_| ReadError { offset: base, fault: Fault::Negative { field, value: at } })
    }

    /// Converts a file's signed count or offset field, refusing negative values.
    pub fn unsigned(&self, at: u64, field: &'static str, value: i32) -> Result<u64> {
        u64::try_from(value)
            .map_err(|_| ReadError { offset: at, fault: Fault::Negative { field, value: i64::from(value) } })
    }

    /// A table of `count` records of `T` at `offset`: checked to lie inside the file. An empty
    /// table is not checked further (nothing reads it).
    pub fn table<T: Pod>(&self, field: TableField) -> Result<Table<'a, T>> {
        let TableField { count_field, count, offset_field, offset } = field;
        let shown = u64::try_from(offset).unwrap_or(0);
        let count = u64::try_from(count).map_err(|_| ReadError {
            offset: shown,
            fault: Fault::Negative { field: count_field, value: i64::from(count) },
        })?;
        if count == 0 {
            return Ok(Table { bytes: &[], offset: 0, _record: PhantomData });
        }
        let offset = u64::try_from(offset).map_err(|_| ReadError {
            offset: shown,
            fault: Fault::Negative { field: offset_field, value: offset },
        })?;
        self.table_at(count, offset)
    }

    /// A table of `count` records of `T` at the absolute `offset`, both already checked to be
    /// non-negative.
    pub fn table_at<T: Pod>(&self, count: u64, offset: u64) -> Result<Table<'a, T>> {
        let bytes = self.records(count, size_of::<T>() as u64, offset)?;
        Ok(Table { bytes, offset, _record: PhantomData })
    }

    /// The bytes of `count` packed records of `size` bytes at `offset`, checked to lie inside
    /// the file (for records whose layout has no Rust type, such as the `.vtx`'s packed ones).
    pub fn records(&self, count: u64, size: u64, offset: u64) -> Result<&'a [u8]> {
        if count == 0 {
            return Ok(&[]);
        }
        let outside =
            ReadError { offset, fault: Fault::TableOutside { count, size, offset, len: self.len() } };
        let total = count.checked_mul(size).ok_or(outside)?;
        if offset.checked_add(total).is_none_or(|end| end > self.len()) {
            return Err(outside);
        }
        self.slice(offset, total)
    }

    /// The NUL-terminated string at `offset`, decoded as [`name`] does; at most `limit` bytes
    /// are looked at (a longer string is cut there). The string and its NUL are charged to the
    /// budget, not the bytes after it: a name far from the file's end costs what it is long.
    pub fn string(&self, offset: u64, limit: u64) -> Result<String> {
        let available = self.len().saturating_sub(offset);
        if available == 0 {
            return Err(ReadError { offset, fault: Fault::Truncated { needed: 1, end: self.len() } });
        }
        let window = available.min(limit);
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        let end = usize::try_from(window).ok().and_then(|w| start.checked_add(w)).unwrap_or(usize::MAX);
        let Some(candidate) = self.bytes.get(start..end) else {
            return Err(ReadError { offset, fault: Fault::Truncated { needed: window, end: self.len() } });
        };
        let length = match candidate.iter().position(|&b| b == 0) {
            Some(nul) => nul as u64 + 1,
            None if window == available => return Err(ReadError { offset, fault: Fault::Unterminated }),
            None => window,
        };
        Ok(name(self.slice(offset, length)?))
    }
}

/// A count field and an offset field of a header or record, naming a table.
#[derive(Clone, Copy, Debug)]
pub struct TableField {
    /// The count field's name.
    pub count_field: &'static str,
    /// Its value.
    pub count: i32,
    /// The offset field's name.
    pub offset_field: &'static str,
    /// Its value: an offset from the start of the file.
    pub offset: i64,
}

/// Shorthand for a [`TableField`] from a raw record's fields:
/// `table!(raw, numbones, boneindex)`.
#[macro_export]
macro_rules! table {
    ($raw:expr, $count:ident, $offset:ident) => {
        $crate::TableField {
            count_field: stringify!($count),
            count: $raw.$count,
            offset_field: stringify!($offset),
            offset: i64::from($raw.$offset),
        }
    };
}

/// A checked table of fixed-size records.
#[derive(Debug)]
pub struct Table<'a, T> {
    bytes: &'a [u8],
    offset: u64,
    _record: PhantomData<T>,
}

impl<'a, T: Pod> Table<'a, T> {
    /// Records.
    pub fn len(&self) -> usize {
        self.bytes.len() / size_of::<T>()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Where the table starts.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Each record with its index and byte offset.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (usize, u64, T)> + 'a {
        let base = self.offset;
        let size = size_of::<T>();
        self.bytes
            .chunks_exact(size)
            .enumerate()
            .map(move |(i, chunk)| (i, base + (i * size) as u64, bytemuck::pod_read_unaligned(chunk)))
    }
}

/// Decodes a fixed-size or NUL-terminated name field. Valid UTF-8 is kept; anything else is
/// read as Latin-1 (Windows code pages agree with it on letters), so real files' non-ASCII
/// names show.
pub fn name(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let bytes = &field[..end];
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_stay_inside_the_file() {
        let bytes = [1u8, 2, 3, 4, 5, 6, 7, 8];
        let reader = Reader::new(&bytes);
        assert_eq!(reader.slice(2, 3).unwrap(), &[3, 4, 5]);
        assert_eq!(
            reader.slice(6, 4).unwrap_err(),
            ReadError { offset: 6, fault: Fault::Truncated { needed: 4, end: 8 } }
        );
        assert_eq!(reader.slice(u64::MAX, 1).unwrap_err().offset, u64::MAX);
        assert_eq!(reader.read::<u32>(4).unwrap(), u32::from_le_bytes([5, 6, 7, 8]));
    }

    #[test]
    fn tables_are_checked_before_use() {
        let bytes = [0u8; 16];
        let reader = Reader::new(&bytes);
        let field = |count, offset| TableField { count_field: "n", count, offset_field: "at", offset };
        assert_eq!(reader.table::<u32>(field(4, 0)).unwrap().len(), 4);
        assert_eq!(reader.table::<u32>(field(0, -7)).unwrap().len(), 0);
        assert!(matches!(
            reader.table::<u32>(field(-1, 0)).unwrap_err().fault,
            Fault::Negative { field: "n", value: -1 }
        ));
        assert!(matches!(reader.table::<u32>(field(5, 0)).unwrap_err().fault, Fault::TableOutside { .. }));
        assert!(matches!(
            reader.table::<u32>(field(i32::MAX, i64::MAX)).unwrap_err().fault,
            Fault::TableOutside { .. }
        ));
    }

    #[test]
    fn the_budget_runs_out() {
        let bytes = [0u8; 4];
        let reader = Reader::new(&bytes);
        let mut reads = 0u64;
        while reader.slice(0, 4).is_ok() {
            reads += 1;
        }
        assert_eq!(reads, (4 * BUDGET_PER_BYTE + BUDGET_BASE) / 4);
        assert!(matches!(reader.slice(0, 1).unwrap_err().fault, Fault::OverBudget { .. }));
    }

    #[test]
    fn strings_end_at_nul_or_limit() {
        let bytes = *b"bone\0hit\0abc";
        let reader = Reader::new(&bytes);
        assert_eq!(reader.string(0, 64).unwrap(), "bone");
        assert_eq!(reader.string(5, 64).unwrap(), "hit");
        assert_eq!(reader.string(0, 2).unwrap(), "bo");
        assert_eq!(reader.string(9, 64).unwrap_err().fault, Fault::Unterminated);
        assert!(matches!(reader.string(12, 64).unwrap_err().fault, Fault::Truncated { .. }));
        assert_eq!(reader.relative(100, "x", -40).unwrap(), 60);
        assert!(matches!(reader.relative(10, "x", -40).unwrap_err().fault, Fault::Negative { .. }));
        assert_eq!(name(&[b'a', 0xE9, 0]), "aé");
    }

    #[test]
    fn a_name_costs_its_length_not_the_bytes_after_it() {
        // A short name followed by a long stretch: reading it many times stays in budget.
        let mut bytes = b"eyes\0".to_vec();
        bytes.resize(1 << 20, 7);
        let reader = Reader::new(&bytes);
        let budget = reader.budget.get();
        for _ in 0..1000 {
            assert_eq!(reader.string(0, 4096).unwrap(), "eyes");
        }
        assert_eq!(budget - reader.budget.get(), 1000 * 5);
    }
}
