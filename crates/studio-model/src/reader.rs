//! Bounds-checked reading of one file of a model set.
//!
//! Every count and offset read from a file goes through [`FileData`]: negative values, sizes that
//! overflow and tables that run past the end become an [`Error`] naming the place. Every read
//! also draws on a budget proportional to the file's size, so a file whose tables point at the
//! same bytes over and over cannot make the parser do (or allocate) more than a fixed multiple of
//! its size.

use std::cell::Cell;
use std::marker::PhantomData;

use bytemuck::Pod;

use crate::error::{Error, FileRole, Place, Problem, Record, Result};

/// How many times over a file's bytes may be read before it is refused as self-overlapping.
/// Valve's compiler writes every table once, so real files read each byte about once.
const BUDGET_PER_BYTE: u64 = 4;
/// A fixed allowance on top, for small files whose headers are read several times.
const BUDGET_BASE: u64 = 1 << 16;

/// One file's bytes, with its role for error messages and its read budget.
pub(crate) struct FileData<'a> {
    bytes: &'a [u8],
    role: FileRole,
    budget: Cell<u64>,
}

impl<'a> FileData<'a> {
    pub(crate) fn new(bytes: &'a [u8], role: FileRole) -> Self {
        let len = bytes.len() as u64;
        Self {
            bytes,
            role,
            budget: Cell::new(len.saturating_mul(BUDGET_PER_BYTE).saturating_add(BUDGET_BASE)),
        }
    }

    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    pub(crate) fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    pub(crate) fn role(&self) -> FileRole {
        self.role
    }

    pub(crate) fn place(&self, record: Record, index: Option<usize>, offset: u64) -> Place {
        Place { file: self.role, record, index, offset }
    }

    pub(crate) fn error(&self, record: Record, index: Option<usize>, offset: u64, problem: Problem) -> Error {
        Error { place: self.place(record, index, offset), problem }
    }

    /// Takes `amount` from the read budget.
    pub(crate) fn charge(
        &self,
        record: Record,
        index: Option<usize>,
        offset: u64,
        amount: u64,
    ) -> Result<()> {
        match self.budget.get().checked_sub(amount) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => Err(self.error(
                record,
                index,
                offset,
                Problem::TooManyRuns(self.len().saturating_mul(BUDGET_PER_BYTE)),
            )),
        }
    }

    /// `len` bytes at `offset`, charged to the budget.
    pub(crate) fn slice(
        &self,
        record: Record,
        index: Option<usize>,
        offset: u64,
        len: u64,
    ) -> Result<&'a [u8]> {
        let available = self.len().saturating_sub(offset);
        let truncated = || self.error(record, index, offset, Problem::Truncated { needed: len, available });
        if len > available {
            return Err(truncated());
        }
        let start = usize::try_from(offset).map_err(|_| truncated())?;
        let end = usize::try_from(offset + len).map_err(|_| truncated())?;
        self.charge(record, index, offset, len)?;
        self.bytes.get(start..end).ok_or_else(truncated)
    }

    /// One record of type `T` at `offset`.
    pub(crate) fn read<T: Pod>(&self, record: Record, index: Option<usize>, offset: u64) -> Result<T> {
        let bytes = self.slice(record, index, offset, size_of::<T>() as u64)?;
        Ok(bytemuck::pod_read_unaligned(bytes))
    }

    /// Converts a file's signed offset field, refusing negative values.
    pub(crate) fn offset(
        &self,
        record: Record,
        index: Option<usize>,
        field: &'static str,
        value: i32,
    ) -> Result<u64> {
        u64::try_from(value)
            .map_err(|_| self.error(record, index, 0, Problem::Negative { field, value: i64::from(value) }))
    }

    /// A table of `count` records of `T` at `offset`, both read from the file: checked to lie
    /// inside the file. An empty table is not checked further (the game never reads it).
    pub(crate) fn table<T: Pod>(&self, record: Record, table: TableField) -> Result<Table<'a, T>> {
        let TableField { count_field, count, offset_field, offset } = table;
        let at = |problem| self.error(record, None, u64::try_from(offset).unwrap_or(0), problem);
        let count = u64::try_from(count)
            .map_err(|_| at(Problem::Negative { field: count_field, value: i64::from(count) }))?;
        if count == 0 {
            return Ok(Table { bytes: &[], offset: 0, _record: PhantomData });
        }
        let offset = u64::try_from(offset)
            .map_err(|_| at(Problem::Negative { field: offset_field, value: i64::from(offset) }))?;
        let size = size_of::<T>() as u64;
        let outside = || {
            self.error(record, None, offset, Problem::TableOutside { count, size, offset, len: self.len() })
        };
        let total = count.checked_mul(size).ok_or_else(outside)?;
        if offset.checked_add(total).is_none_or(|end| end > self.len()) {
            return Err(outside());
        }
        let bytes = self.slice(record, None, offset, total)?;
        Ok(Table { bytes, offset, _record: PhantomData })
    }
}

/// A count field and an offset field of the header or a record, naming a table.
#[derive(Clone, Copy)]
pub(crate) struct TableField {
    pub count_field: &'static str,
    pub count: i32,
    pub offset_field: &'static str,
    pub offset: i32,
}

/// Shorthand for a [`TableField`]: `table!(raw, numbones, boneindex)`.
macro_rules! table {
    ($raw:expr, $count:ident, $offset:ident) => {
        $crate::reader::TableField {
            count_field: stringify!($count),
            count: $raw.$count,
            offset_field: stringify!($offset),
            offset: $raw.$offset,
        }
    };
}
pub(crate) use table;

/// A checked table of fixed-size records.
pub(crate) struct Table<'a, T> {
    bytes: &'a [u8],
    offset: u64,
    _record: PhantomData<T>,
}

impl<'a, T: Pod> Table<'a, T> {
    pub(crate) fn len(&self) -> usize {
        self.bytes.len() / size_of::<T>()
    }

    /// Each record with its index and byte offset.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = (usize, u64, T)> + 'a {
        let base = self.offset;
        let size = size_of::<T>();
        self.bytes
            .chunks_exact(size)
            .enumerate()
            .map(move |(i, chunk)| (i, base + (i * size) as u64, bytemuck::pod_read_unaligned(chunk)))
    }
}

/// Decodes a fixed-size, NUL-terminated name field. Valid UTF-8 is kept; anything else is read
/// as Latin-1 (Windows code pages agree with it on letters), so real files' non-ASCII names show.
pub(crate) fn name(field: &[u8]) -> String {
    let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
    let bytes = &field[..end];
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}
