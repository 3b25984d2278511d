//! Sequence groups, `mstudioseqgroup_t` (goldsrc-sequences.md, "Sequence groups"), and the
//! bytes their animation runs are read from.

use crate::error::{Error, Record, Result};
use crate::raw::{RawHeader, RawSequenceGroup};
use crate::reader::{FileData, name, table};

/// Whether a group's animation could be read.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupStatus {
    /// Its file was read and every channel of its sequences checked.
    Loaded,
    /// Its file was not supplied or not found.
    Missing {
        /// The file name expected (`name01.mdl`…).
        expected: String,
    },
    /// Its file was found but cannot be used.
    Invalid(Box<Error>),
}

/// A sequence group: group 0 is the main file, group n the file `name0n.mdl`.
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceGroup {
    /// Name, such as `default`.
    pub label: String,
    /// File name stored in the record (the game looks for `name0n.mdl` whatever it says).
    pub name: String,
    /// Whether the animation could be read.
    pub status: GroupStatus,
    /// The bytes of the file the group's animation is in (empty unless loaded).
    pub(crate) data: Vec<u8>,
}

impl SequenceGroup {
    /// A loaded group whose animation is read from `data` (see [`crate::Channel`]), for models
    /// built in code.
    pub fn with_data(label: &str, name: &str, data: Vec<u8>) -> Self {
        Self { label: label.to_owned(), name: name.to_owned(), status: GroupStatus::Loaded, data }
    }

    /// Bytes of the file its animation is read from (0 unless loaded).
    pub fn data_len(&self) -> usize {
        self.data.len()
    }

    /// Whether its sequences can be played.
    pub fn is_available(&self) -> bool {
        self.status == GroupStatus::Loaded
    }
}

pub(crate) fn read_sequence_groups(file: &FileData<'_>, header: &RawHeader) -> Result<Vec<SequenceGroup>> {
    let table =
        file.table::<RawSequenceGroup>(Record::SequenceGroup, table!(header, numseqgroups, seqgroupindex))?;
    Ok(table
        .iter()
        .map(|(_, _, raw)| SequenceGroup {
            label: name(&raw.label),
            name: name(&raw.name),
            status: GroupStatus::Loaded,
            data: Vec::new(),
        })
        .collect())
}
