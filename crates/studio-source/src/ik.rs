//! IK chains, their links, and IK locks (source-bones.md, "IK chains, rules and locks").

use glam::Vec3;
use studio_bytes::Table;

use crate::error::{Record, Result, Warning};
use crate::raw::{RawHeader, RawIkChain, RawIkLink, RawIkLock};
use crate::reader::{FileData, required};

/// One IK chain.
#[derive(Clone, Debug, PartialEq)]
pub struct IkChain {
    /// Its name.
    pub name: String,
    /// Link type.
    pub link_type: i32,
    /// Its links, from the root (thigh) to the end (foot).
    pub links: Vec<IkLink>,
}

/// One link of an IK chain.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IkLink {
    /// The bone.
    pub bone: usize,
    /// The ideal bending direction; zero when the solver derives it.
    pub knee_direction: Vec3,
}

/// An IK lock (`mstudioiklock_t`): the header's autoplay locks and a sequence's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IkLock {
    /// The chain.
    pub chain: usize,
    /// Position weight.
    pub position_weight: f32,
    /// Local rotation weight.
    pub local_rotation_weight: f32,
    /// Flags.
    pub flags: i32,
}

/// The IK chains; a name that cannot be read is a warning and reads as empty.
pub(crate) fn parse_chains(
    file: &FileData<'_>,
    raw: &RawHeader,
    num_bones: usize,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<IkChain>> {
    let table = file.table::<RawIkChain>(
        Record::IkChain,
        None,
        0,
        "numikchains",
        raw.numikchains,
        "ikchainindex",
        raw.ikchainindex,
    )?;
    let mut out = Vec::with_capacity(table.len());
    for (i, at, c) in table.iter() {
        let links = file.table::<RawIkLink>(
            Record::IkChain,
            Some(i),
            at,
            "numlinks",
            c.numlinks,
            "linkindex",
            c.linkindex,
        )?;
        let mut chain_links = Vec::with_capacity(links.len());
        for (l, link_at, link) in links.iter() {
            let bone =
                required(file, (Record::IkLink, Some(l), link_at), "bone", link.bone, "bone", num_bones)?;
            chain_links.push(IkLink { bone, knee_direction: Vec3::from_array(link.knee_dir) });
        }
        out.push(IkChain {
            name: file.optional_name(Record::IkChain, Some(i), at, "sznameindex", c.sznameindex, warnings),
            link_type: c.linktype,
            links: chain_links,
        });
    }
    Ok(out)
}

/// Reads a table of locks, each checked against the chains.
pub(crate) fn locks(
    file: &FileData<'_>,
    table: Table<'_, RawIkLock>,
    num_chains: usize,
) -> Result<Vec<IkLock>> {
    let mut out = Vec::with_capacity(table.len());
    for (i, at, l) in table.iter() {
        let chain = required(file, (Record::IkLock, Some(i), at), "chain", l.chain, "IK chain", num_chains)?;
        out.push(IkLock {
            chain,
            position_weight: l.pos_weight,
            local_rotation_weight: l.local_q_weight,
            flags: l.flags,
        });
    }
    Ok(out)
}
