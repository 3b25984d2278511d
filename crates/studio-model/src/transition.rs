//! The transition graph (goldsrc-header.md, "Transition graph").

use crate::error::{Problem, Record, Result, WarningKind};
use crate::raw::RawHeader;
use crate::reader::FileData;
use crate::warnings::Warnings;

/// A table of `count × count` bytes: entry (a − 1, b − 1) is the node to go through next on
/// the way from node a to node b, 0 meaning straight to the goal. Nodes are numbered from 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transitions {
    count: usize,
    table: Vec<u8>,
}

impl Transitions {
    /// A graph of `count` nodes from its `count × count` table (padded or cut to size).
    pub fn new(count: usize, mut table: Vec<u8>) -> Self {
        table.resize(count.saturating_mul(count), 0);
        Self { count, table }
    }

    /// Number of nodes.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The next node on the way from node `from` to node `to` (both from 1): `Some(0)` means go
    /// straight to the goal; `None` when either is not a node.
    pub fn next(&self, from: usize, to: usize) -> Option<u8> {
        let (a, b) = (from.checked_sub(1)?, to.checked_sub(1)?);
        if a >= self.count || b >= self.count {
            return None;
        }
        self.table.get(a * self.count + b).copied()
    }

    /// The raw table, row by row.
    pub fn table(&self) -> &[u8] {
        &self.table
    }
}

pub(crate) fn read_transitions(
    file: &FileData<'_>,
    header: &RawHeader,
    warnings: &mut Warnings,
) -> Result<Transitions> {
    let offset = u64::try_from(header.transitionindex).unwrap_or(0);
    let count = usize::try_from(header.numtransitions).map_err(|_| {
        file.error(
            Record::Transitions,
            None,
            offset,
            Problem::Negative { field: "numtransitions", value: i64::from(header.numtransitions) },
        )
    })?;
    if count == 0 {
        return Ok(Transitions::default());
    }
    let offset = file.offset(Record::Transitions, None, "transitionindex", header.transitionindex)?;
    let size = (count as u64).saturating_mul(count as u64);
    let table = file.slice(Record::Transitions, None, offset, size)?.to_vec();
    if let Some(&bad) = table.iter().find(|&&node| usize::from(node) > count) {
        warnings.push(
            file.place(Record::Transitions, None, offset),
            WarningKind::Unusable {
                field: "node",
                value: i64::from(bad),
                consequence: "names no node; paths through it are ignored",
            },
        );
    }
    Ok(Transitions { count, table })
}
