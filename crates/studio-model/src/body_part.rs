//! Body parts, `mstudiobodyparts_t` (goldsrc-geometry.md, "Body parts").

use crate::error::{Record, Result, WarningKind};
use crate::raw::{RawBodyPart, RawHeader};
use crate::reader::{FileData, name, table};
use crate::submodel::{Submodel, read_submodels};
use crate::warnings::Warnings;

/// A part of the model with submodels to choose from, such as `heads`.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyPart {
    /// Name, such as `body`.
    pub name: String,
    /// Divisor that picks this part's digit out of the entity's body number.
    pub base: i32,
    /// The submodels to choose from.
    pub submodels: Vec<Submodel>,
}

impl BodyPart {
    /// The submodel drawn for an entity's body number: `(body ÷ base) mod nummodels`; `None`
    /// when the part has no submodels or a `base` the game would divide by zero with.
    pub fn submodel_index(&self, body: i32) -> Option<usize> {
        let n = i32::try_from(self.submodels.len()).ok().filter(|&n| n > 0)?;
        let digit = body.checked_div(self.base)?.rem_euclid(n);
        usize::try_from(digit).ok()
    }
}

pub(crate) fn read_body_parts(
    file: &FileData<'_>,
    header: &RawHeader,
    num_bones: usize,
    warnings: &mut Warnings,
) -> Result<Vec<BodyPart>> {
    let table = file.table::<RawBodyPart>(Record::BodyPart, table!(header, numbodyparts, bodypartindex))?;
    table
        .iter()
        .map(|(index, offset, raw)| {
            if raw.base <= 0 {
                warnings.push(
                    file.place(Record::BodyPart, Some(index), offset),
                    WarningKind::Unusable {
                        field: "base",
                        value: i64::from(raw.base),
                        consequence: "the game would divide by it; the first submodel is shown",
                    },
                );
            }
            Ok(BodyPart {
                name: name(&raw.name),
                base: raw.base,
                submodels: read_submodels(file, &raw, num_bones, warnings)?,
            })
        })
        .collect()
}
