//! Bounds-checked reading of one file of a Source model set: [`studio_bytes::Reader`] (shared
//! with the GoldSrc reader), with this format's names for the file and record in every error.
//! Source records point at their tables and names with offsets from the record itself
//! (source-bones.md: "Every …index … is a byte offset from the start of the record that holds
//! it"), so the helpers here take the record's own offset as the base.

use bytemuck::Pod;
use studio_bytes::{ReadError, Reader, Table};

use crate::error::{Error, FileRole, Place, Problem, Record, Result, Warning, usable_or_warn};

/// The longest name read: real material paths and key-value names are far shorter.
const NAME_LIMIT: u64 = 4096;

/// One file's bytes, with its role for error messages and its read budget.
pub(crate) struct FileData<'a> {
    reader: Reader<'a>,
    role: FileRole,
}

impl<'a> FileData<'a> {
    pub(crate) fn new(bytes: &'a [u8], role: FileRole) -> Self {
        Self { reader: Reader::new(bytes), role }
    }

    pub(crate) fn role(&self) -> FileRole {
        self.role
    }

    pub(crate) fn len(&self) -> u64 {
        self.reader.len()
    }

    pub(crate) fn place(&self, record: Record, index: Option<usize>, offset: u64) -> Place {
        Place { file: self.role, record, index, offset }
    }

    pub(crate) fn error(&self, record: Record, index: Option<usize>, offset: u64, problem: Problem) -> Error {
        Error { place: self.place(record, index, offset), problem }
    }

    fn placed(&self, record: Record, index: Option<usize>) -> impl Fn(ReadError) -> Error + '_ {
        move |e| self.error(record, index, e.offset, e.fault.into())
    }

    /// One record of type `T` at `offset`.
    pub(crate) fn read<T: Pod>(&self, record: Record, index: Option<usize>, offset: u64) -> Result<T> {
        self.reader.read(offset).map_err(self.placed(record, index))
    }

    /// `len` bytes at `offset`.
    pub(crate) fn slice(
        &self,
        record: Record,
        index: Option<usize>,
        offset: u64,
        len: u64,
    ) -> Result<&'a [u8]> {
        self.reader.slice(offset, len).map_err(self.placed(record, index))
    }

    /// `base + relative`: where an offset field of the record at `base` points.
    pub(crate) fn at(
        &self,
        record: Record,
        index: Option<usize>,
        base: u64,
        field: &'static str,
        relative: i32,
    ) -> Result<u64> {
        self.reader.relative(base, field, relative).map_err(self.placed(record, index))
    }

    /// A table's record count and where it starts: `count` records at `base + relative`, both
    /// read from a record's fields (an empty table is not placed: nothing reads it).
    fn located(
        &self,
        record: Record,
        index: Option<usize>,
        base: u64,
        (count_field, count): (&'static str, i32),
        (offset_field, relative): (&'static str, i32),
    ) -> Result<(u64, u64)> {
        let count = self.reader.unsigned(base, count_field, count).map_err(self.placed(record, index))?;
        if count == 0 {
            return Ok((0, base));
        }
        Ok((count, self.at(record, index, base, offset_field, relative)?))
    }

    /// A table of `count` records of `T` at `base + relative`, checked to lie in the file.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn table<T: Pod>(
        &self,
        record: Record,
        index: Option<usize>,
        base: u64,
        count_field: &'static str,
        count: i32,
        offset_field: &'static str,
        relative: i32,
    ) -> Result<Table<'a, T>> {
        let (count, offset) =
            self.located(record, index, base, (count_field, count), (offset_field, relative))?;
        self.reader.table_at(count, offset).map_err(self.placed(record, index))
    }

    /// `count` packed records of `size` bytes at `base + relative`, checked to lie in the file:
    /// each with its index, its offset and its bytes.
    pub(crate) fn packed(
        &self,
        record: Record,
        index: Option<usize>,
        base: u64,
        size: u64,
        count: (&'static str, i32),
        offset: (&'static str, i32),
    ) -> Result<impl ExactSizeIterator<Item = (usize, u64, &'a [u8])> + use<'a>> {
        let (count, start) = self.located(record, index, base, count, offset)?;
        let bytes = self.reader.records(count, size, start).map_err(self.placed(record, index))?;
        let size_usize = usize::try_from(size).unwrap_or(usize::MAX).max(1);
        Ok(bytes
            .chunks_exact(size_usize)
            .enumerate()
            .map(move |(i, chunk)| (i, start + i as u64 * size, chunk)))
    }

    /// The name an offset field of the record at `base` points at; 0 means none (an empty
    /// name), as for unnamed hit boxes.
    pub(crate) fn name(
        &self,
        record: Record,
        index: Option<usize>,
        base: u64,
        field: &'static str,
        relative: i32,
    ) -> Result<String> {
        if relative == 0 {
            return Ok(String::new());
        }
        let offset = self.at(record, index, base, field, relative)?;
        self.reader.string(offset, NAME_LIMIT).map_err(self.placed(record, index))
    }

    /// A name the model is usable without (a hit box's, an attachment's, an event's, an
    /// activity's…): as [`Self::name`], but one that cannot be read is a warning naming the
    /// record and the offset, and reads as empty. The engine reads such names only on demand, so
    /// a model whose name points outside its file still loads and plays.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn optional_name(
        &self,
        record: Record,
        index: Option<usize>,
        base: u64,
        field: &'static str,
        relative: i32,
        warnings: &mut Vec<Warning>,
    ) -> String {
        let name = self.name(record, index, base, field, relative);
        usable_or_warn(name, "the name is read as empty", warnings).unwrap_or_default()
    }

    /// [`Self::optional_name`] at an absolute offset.
    pub(crate) fn optional_name_at(
        &self,
        record: Record,
        index: Option<usize>,
        offset: i32,
        field: &'static str,
        warnings: &mut Vec<Warning>,
    ) -> String {
        self.optional_name(record, index, 0, field, offset, warnings)
    }
}

/// Checks `value` as an index into `count` records of `target`; −1 means none.
pub(crate) fn reference(
    file: &FileData<'_>,
    place: (Record, Option<usize>, u64),
    field: &'static str,
    value: i32,
    target: &'static str,
    count: usize,
) -> Result<Option<usize>> {
    if value == -1 {
        return Ok(None);
    }
    required(file, place, field, value, target, count).map(Some)
}

/// Checks `value` as an index into `count` records of `target`, where none is not allowed.
pub(crate) fn required(
    file: &FileData<'_>,
    place: (Record, Option<usize>, u64),
    field: &'static str,
    value: i32,
    target: &'static str,
    count: usize,
) -> Result<usize> {
    match usize::try_from(value) {
        Ok(i) if i < count => Ok(i),
        _ => Err(file.error(
            place.0,
            place.1,
            place.2,
            Problem::BadReference { field, value: i64::from(value), target, count },
        )),
    }
}
