//! Skin families (goldsrc-geometry.md, "Skin families").

use crate::error::{Problem, Record, Result, WarningKind};
use crate::raw::RawHeader;
use crate::reader::FileData;
use crate::warnings::Warnings;

/// `numskinfamilies × numskinref` texture numbers: row f, column s is the texture drawn for
/// skin slot s when the entity's skin number is f.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Skins {
    num_refs: usize,
    table: Vec<i16>,
}

impl Skins {
    /// A skin table of `num_refs` columns; `table` holds whole rows (a partial last row is cut).
    pub fn new(num_refs: usize, mut table: Vec<i16>) -> Self {
        let rows = table.len().checked_div(num_refs).unwrap_or(0);
        table.truncate(rows * num_refs);
        Self { num_refs, table }
    }

    /// The whole table, row by row.
    pub fn table(&self) -> &[i16] {
        &self.table
    }

    /// Number of skin families (rows).
    pub fn num_families(&self) -> usize {
        self.table.len().checked_div(self.num_refs).unwrap_or(0)
    }

    /// Number of skin slots (columns).
    pub fn num_refs(&self) -> usize {
        self.num_refs
    }

    /// One family's row.
    pub fn family(&self, family: usize) -> Option<&[i16]> {
        let start = family.checked_mul(self.num_refs)?;
        self.table.get(start..start.checked_add(self.num_refs)?)
    }

    /// The texture number for a skin family and a mesh's skin slot, if both exist and the
    /// entry is not negative (it may still exceed the textures present: check before use).
    pub fn texture(&self, family: usize, skin_ref: i32) -> Option<usize> {
        let slot = usize::try_from(skin_ref).ok()?;
        let entry = *self.family(family)?.get(slot)?;
        usize::try_from(entry).ok()
    }
}

pub(crate) fn read_skins(
    file: &FileData<'_>,
    header: &RawHeader,
    num_textures: usize,
    warnings: &mut Warnings,
) -> Result<Skins> {
    let at = |field, value: i32| {
        file.error(Record::SkinTable, None, 0, Problem::Negative { field, value: i64::from(value) })
    };
    let num_refs = usize::try_from(header.numskinref).map_err(|_| at("numskinref", header.numskinref))?;
    let families =
        usize::try_from(header.numskinfamilies).map_err(|_| at("numskinfamilies", header.numskinfamilies))?;
    let count = (num_refs as u64).saturating_mul(families as u64);
    if count == 0 {
        return Ok(Skins::default());
    }
    let offset = file.offset(Record::SkinTable, None, "skinindex", header.skinindex)?;
    let bytes = file.slice(Record::SkinTable, None, offset, count.saturating_mul(2))?;
    let table: Vec<i16> = bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
    if let Some(&bad) = table.iter().find(|&&t| usize::try_from(t).map_or(true, |t| t >= num_textures)) {
        warnings.push(
            file.place(Record::SkinTable, None, offset),
            WarningKind::Unusable {
                field: "texture",
                value: i64::from(bad),
                consequence: "names no texture; meshes using it are drawn untextured",
            },
        );
    }
    Ok(Skins { num_refs, table })
}
