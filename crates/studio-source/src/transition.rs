//! The transition graph between sequences' entry and exit nodes (source-animation.md, "Pose
//! parameters, transitions and included models").

use crate::error::{Record, Result, Warning};
use crate::raw::RawHeader;
use crate::reader::FileData;

/// The nodes and, for each pair, the next node on the way from one to the other.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Transitions {
    /// Each node's name.
    pub names: Vec<String>,
    /// `names.len()` × `names.len()` bytes, read as `from × count + to`.
    pub next: Vec<u8>,
}

impl Transitions {
    /// Nodes.
    pub fn count(&self) -> usize {
        self.names.len()
    }
}

/// The transition graph; a node's name that cannot be read is a warning and reads as empty.
pub(crate) fn parse(
    file: &FileData<'_>,
    raw: &RawHeader,
    warnings: &mut Vec<Warning>,
) -> Result<Transitions> {
    let names = file.table::<i32>(
        Record::TransitionGraph,
        None,
        0,
        "numlocalnodes",
        raw.numlocalnodes,
        "localnodenameindex",
        raw.localnodenameindex,
    )?;
    let count = u64::try_from(names.len()).unwrap_or(0);
    let cells = i32::try_from(count.saturating_mul(count)).unwrap_or(i32::MAX);
    let next = file.table::<u8>(
        Record::TransitionGraph,
        None,
        0,
        "numlocalnodes²",
        cells,
        "localnodeindex",
        raw.localnodeindex,
    )?;
    let mut out = Transitions {
        names: Vec::with_capacity(names.len()),
        next: next.iter().map(|(_, _, b)| b).collect(),
    };
    for (i, _, offset) in names.iter() {
        out.names.push(file.optional_name_at(
            Record::TransitionGraph,
            Some(i),
            offset,
            "localnodenameindex",
            warnings,
        ));
    }
    Ok(out)
}
