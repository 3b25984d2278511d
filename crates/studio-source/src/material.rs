//! Textures (material names), material directories and the skin table (source-header.md,
//! "Textures", "Where the tables live").

use crate::error::{Record, Result, Warning};
use crate::raw::{RawHeader, RawTexture};
use crate::reader::{FileData, required};

/// A material slot's material: its name, found under each material directory in turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// The material name (without `materials/` and `.vmt`).
    pub name: String,
    /// Flags.
    pub flags: i32,
}

/// The skin table: per skin family, per material slot, a texture.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skins {
    /// Material slots per family.
    pub num_refs: usize,
    /// The families, each `num_refs` texture indices (checked against the textures).
    pub families: Vec<Vec<usize>>,
}

/// The material slots; a name that cannot be read is a warning and reads as empty (a material
/// that is not found, drawn as such).
pub(crate) fn parse_textures(
    file: &FileData<'_>,
    raw: &RawHeader,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<Texture>> {
    let table = file.table::<RawTexture>(
        Record::Texture,
        None,
        0,
        "numtextures",
        raw.numtextures,
        "textureindex",
        raw.textureindex,
    )?;
    let mut out = Vec::with_capacity(table.len());
    for (i, at, t) in table.iter() {
        out.push(Texture {
            name: file.optional_name(Record::Texture, Some(i), at, "sznameindex", t.sznameindex, warnings),
            flags: t.flags,
        });
    }
    Ok(out)
}

/// The material directories (`$cdmaterials`), in search order; one whose name cannot be read is
/// a warning and reads as empty (the top of `materials/`).
pub(crate) fn parse_directories(
    file: &FileData<'_>,
    raw: &RawHeader,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<String>> {
    let table = file.table::<i32>(
        Record::TextureDirectory,
        None,
        0,
        "numcdtextures",
        raw.numcdtextures,
        "cdtextureindex",
        raw.cdtextureindex,
    )?;
    let mut out = Vec::with_capacity(table.len());
    for (i, _, offset) in table.iter() {
        out.push(file.optional_name_at(
            Record::TextureDirectory,
            Some(i),
            offset,
            "cdtextureindex",
            warnings,
        ));
    }
    Ok(out)
}

pub(crate) fn parse_skins(file: &FileData<'_>, raw: &RawHeader, num_textures: usize) -> Result<Skins> {
    let refs = file.at(Record::SkinTable, None, 0, "numskinref", raw.numskinref)?;
    let families = file.at(Record::SkinTable, None, 0, "numskinfamilies", raw.numskinfamilies)?;
    let count = i32::try_from(refs.saturating_mul(families)).unwrap_or(i32::MAX);
    let table = file.table::<i16>(
        Record::SkinTable,
        None,
        0,
        "numskinref × numskinfamilies",
        count,
        "skinindex",
        raw.skinindex,
    )?;
    let num_refs = usize::try_from(refs).unwrap_or(0);
    // The table has been checked to lie in the file; the family count alone is not.
    let mut skins =
        Skins { num_refs, families: Vec::with_capacity(table.len().checked_div(num_refs).unwrap_or(0)) };
    let mut family = Vec::with_capacity(num_refs.min(table.len()));
    for (i, at, texture) in table.iter() {
        family.push(required(
            file,
            (Record::SkinTable, Some(i), at),
            "skin",
            i32::from(texture),
            "texture",
            num_textures,
        )?);
        if family.len() == num_refs {
            skins.families.push(std::mem::take(&mut family));
        }
    }
    Ok(skins)
}
