//! Bounds-checked reading of one file of a model set: [`studio_bytes::Reader`] (shared with the
//! Source reader), with this format's names for the file and record in every error.

use bytemuck::Pod;
use studio_bytes::{Fault, ReadError, Reader};

use crate::error::{Error, FileRole, Place, Problem, Record, Result};

pub(crate) use studio_bytes::{TableField, name, table};

/// One file's bytes, with its role for error messages and its read budget.
pub(crate) struct FileData<'a> {
    reader: Reader<'a>,
    role: FileRole,
}

/// This format's problem for a shared reader's fault.
fn problem(fault: Fault) -> Problem {
    match fault {
        Fault::Truncated { needed, end } => Problem::Truncated { needed, end },
        Fault::TableOutside { count, size, offset, len } => {
            Problem::TableOutside { count, size, offset, len }
        }
        Fault::Negative { field, value } => Problem::Negative { field, value },
        Fault::OverBudget { limit } => Problem::TooManyRuns(limit),
        Fault::Unterminated => Problem::Unterminated,
    }
}

impl<'a> FileData<'a> {
    pub(crate) fn new(bytes: &'a [u8], role: FileRole) -> Self {
        Self { reader: Reader::new(bytes), role }
    }

    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.reader.bytes()
    }

    pub(crate) fn len(&self) -> u64 {
        self.reader.len()
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

    /// A shared reader's error, placed in `record` `index` of this file.
    fn placed(&self, record: Record, index: Option<usize>) -> impl Fn(ReadError) -> Error + '_ {
        move |e| self.error(record, index, e.offset, problem(e.fault))
    }

    /// Takes `amount` from the read budget.
    pub(crate) fn charge(
        &self,
        record: Record,
        index: Option<usize>,
        offset: u64,
        amount: u64,
    ) -> Result<()> {
        self.reader.charge(offset, amount).map_err(self.placed(record, index))
    }

    /// `len` bytes at `offset`, charged to the budget.
    pub(crate) fn slice(
        &self,
        record: Record,
        index: Option<usize>,
        offset: u64,
        len: u64,
    ) -> Result<&'a [u8]> {
        self.reader.slice(offset, len).map_err(self.placed(record, index))
    }

    /// One record of type `T` at `offset`.
    pub(crate) fn read<T: Pod>(&self, record: Record, index: Option<usize>, offset: u64) -> Result<T> {
        self.reader.read(offset).map_err(self.placed(record, index))
    }

    /// Converts a file's signed offset field, refusing negative values.
    pub(crate) fn offset(
        &self,
        record: Record,
        index: Option<usize>,
        field: &'static str,
        value: i32,
    ) -> Result<u64> {
        self.reader.unsigned(0, field, value).map_err(self.placed(record, index))
    }

    /// A table of `count` records of `T` at `offset`, both read from the file: checked to lie
    /// inside the file. An empty table is not checked further (the game never reads it).
    pub(crate) fn table<T: Pod>(
        &self,
        record: Record,
        table: TableField,
    ) -> Result<studio_bytes::Table<'a, T>> {
        self.reader.table(table).map_err(self.placed(record, None))
    }
}
