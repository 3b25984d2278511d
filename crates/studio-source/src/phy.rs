//! The `.phy` collision model (vphysics' `phyfile.h` and IVP's compact surfaces): a 16-byte
//! `phyheader_t`, then per solid its byte size and a compact surface, then a key-values text
//! naming each solid's bone and its physics settings.
//!
//! A solid is a `compactsurfaceheader_t` (`VPHY`, 28 bytes; older files start the surface at
//! once) and an `IVP_Compact_Surface` (48 bytes) whose ledge tree leads to its convex pieces
//! (`IVP_Compact_Ledge`, 16 bytes, then its triangles of 16 bytes: 4 bytes of indices and
//! flags, then three edges whose low 16 bits are a point index). A tree node is 28 bytes: the
//! offset of its right child (0 for a leaf) and of its ledge; an inner node's ledge is the hull
//! of its children, so only the leaves' ledges are pieces. Points are 16 bytes (x, y, z, pad)
//! in IVP space: metres, y down and z forward; the engine's axes and inches are
//! `(x, z, −y) / 0.0254` (vphysics' `ConvertPositionToHL`).
//!
//! Every offset is checked against the file, the tree is walked with each node visited once,
//! and MOPP surfaces (`modelType` 1) are refused rather than guessed at.

use glam::Vec3;

use crate::error::{FileRole, Problem, Record, Result};
use crate::reader::FileData;

/// One convex piece: its points (engine units and axes) and triangles over them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConvexPiece {
    /// Points.
    pub points: Vec<Vec3>,
    /// Triangles, as indices of `points`, in the file's order.
    pub triangles: Vec<[u32; 3]>,
}

/// One solid: the convex pieces of one bone (or of the whole model).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Solid {
    /// Pieces, in the ledge tree's order.
    pub pieces: Vec<ConvexPiece>,
}

/// A `.phy`'s contents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Phy {
    /// Must equal the `.mdl`'s.
    pub checksum: i32,
    /// Solids, in the file's order (the text's `solid` blocks name them by index).
    pub solids: Vec<Solid>,
    /// The key-values text after the solids (`solid`, `ragdollconstraint`, `editparams`…).
    pub text: String,
}

/// Inches per metre, as vphysics converts (`1 / METERS_PER_INCH`).
const INCHES_PER_METRE: f32 = 1.0 / 0.0254;
/// `IVP_Compact_Surface`'s size.
const SURFACE: u64 = 48;
/// A ledge tree node's size.
const NODE: u64 = 28;
/// `IVP_Compact_Ledge`'s size, and a triangle's and a point's.
const LEDGE: u64 = 16;
const TRIANGLE: u64 = 16;
const POINT: u64 = 16;

fn i32_at(b: &[u8], at: usize) -> i32 {
    b.get(at..at + 4).map_or(0, |v| i32::from_le_bytes([v[0], v[1], v[2], v[3]]))
}

fn i16_at(b: &[u8], at: usize) -> i16 {
    b.get(at..at + 2).map_or(0, |v| i16::from_le_bytes([v[0], v[1]]))
}

/// A relative offset from `from`, checked to stay inside `[start, end)` with `size` bytes.
fn relative(
    file: &FileData<'_>,
    (record, index): (Record, Option<usize>),
    (from, offset): (u64, i32),
    (start, end, size): (u64, u64, u64),
    field: &'static str,
) -> Result<u64> {
    let to = i64::try_from(from).unwrap_or(i64::MAX).saturating_add(i64::from(offset));
    match u64::try_from(to) {
        Ok(to) if to >= start && to.checked_add(size).is_some_and(|e| e <= end) => Ok(to),
        _ => Err(file.error(
            record,
            index,
            from,
            Problem::OutOfRange { field, value: i64::from(offset), needs: "it leads inside its solid" },
        )),
    }
}

/// Reads a `.phy`.
pub fn parse_phy(bytes: &[u8]) -> Result<Phy> {
    let file = FileData::new(bytes, FileRole::Phy);
    let h = file.slice(Record::Header, None, 0, 16)?;
    let size = i32_at(h, 0);
    if size != 16 {
        let needs = "16, the size of phyheader_t";
        return Err(file.error(
            Record::Header,
            None,
            0,
            Problem::OutOfRange { field: "size", value: size.into(), needs },
        ));
    }
    let count = i32_at(h, 8);
    let count = usize::try_from(count).map_err(|_| {
        file.error(Record::Header, None, 8, Problem::Negative { field: "solidCount", value: count.into() })
    })?;
    // Every solid takes at least its 4-byte size.
    if count as u64 > file.len() / 4 {
        let needs = "each solid takes 4 bytes or more of the file";
        return Err(file.error(
            Record::Header,
            None,
            8,
            Problem::OutOfRange { field: "solidCount", value: count as i64, needs },
        ));
    }
    let mut at = 16u64;
    let mut solids = Vec::with_capacity(count);
    for i in 0..count {
        let size = i32_at(file.slice(Record::PhySolid, Some(i), at, 4)?, 0);
        let size = u64::try_from(size).map_err(|_| {
            file.error(Record::PhySolid, Some(i), at, Problem::Negative { field: "size", value: size.into() })
        })?;
        let start = at + 4;
        file.slice(Record::PhySolid, Some(i), start, size)?;
        solids.push(solid(&file, i, start, start + size)?);
        at = start + size;
    }
    let rest = bytes.get(at as usize..).unwrap_or_default();
    let text = String::from_utf8_lossy(rest).trim_end_matches('\0').to_owned();
    Ok(Phy { checksum: i32_at(h, 12), solids, text })
}

/// Solid `i`, the bytes `[start, end)`.
fn solid(file: &FileData<'_>, i: usize, start: u64, end: u64) -> Result<Solid> {
    let head = file.slice(Record::PhySolid, Some(i), start, 8.min(end - start))?;
    let surface = if head.starts_with(b"VPHY") {
        let model_type = i16_at(head, 6);
        if model_type != 0 {
            let needs = "0, a polygon surface (MOPP surfaces are not read)";
            let problem = Problem::OutOfRange { field: "modelType", value: model_type.into(), needs };
            return Err(file.error(Record::PhySolid, Some(i), start + 6, problem));
        }
        start + 28
    } else {
        start
    };
    if surface + SURFACE > end {
        return Err(file.error(
            Record::PhySolid,
            Some(i),
            surface,
            Problem::Truncated { needed: SURFACE, end },
        ));
    }
    let header = file.slice(Record::PhySolid, Some(i), surface, SURFACE)?;
    let here = (Record::PhySolid, Some(i));
    let root =
        relative(file, here, (surface, i32_at(header, 32)), (surface, end, NODE), "offset_ledgetree_root")?;
    // The tree, each node once: at most one node per 28 bytes of the solid.
    let mut pieces = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if !seen.insert(node) {
            continue;
        }
        let n = file.slice(Record::PhyLedgeNode, Some(seen.len() - 1), node, NODE)?;
        let here = (Record::PhyLedgeNode, Some(seen.len() - 1));
        let right = i32_at(n, 0);
        if right == 0 {
            let ledge =
                relative(file, here, (node, i32_at(n, 4)), (start, end, LEDGE), "offset_compact_ledge")?;
            pieces.push(piece(file, pieces.len(), ledge, (start, end))?);
        } else {
            // Right first on the stack, so the left subtree comes out first.
            stack.push(relative(file, here, (node, right), (start, end, NODE), "offset_right_node")?);
            stack.push(relative(file, here, (node, NODE as i32), (start, end, NODE), "left child")?);
        }
    }
    Ok(Solid { pieces })
}

/// The convex piece whose ledge is at `ledge`, inside the solid's `[start, end)`.
fn piece(file: &FileData<'_>, k: usize, ledge: u64, (start, end): (u64, u64)) -> Result<ConvexPiece> {
    let here = (Record::PhyLedge, Some(k));
    let l = file.slice(Record::PhyLedge, Some(k), ledge, LEDGE)?;
    let count = i16_at(l, 12);
    let count = u64::try_from(count).map_err(|_| {
        file.error(
            Record::PhyLedge,
            Some(k),
            ledge + 12,
            Problem::Negative { field: "n_triangles", value: count.into() },
        )
    })?;
    let triangles_at = ledge + LEDGE;
    if triangles_at + count * TRIANGLE > end {
        return Err(file.error(
            Record::PhyLedge,
            Some(k),
            ledge + 12,
            Problem::Truncated { needed: count * TRIANGLE, end },
        ));
    }
    let points_at = relative(file, here, (ledge, i32_at(l, 0)), (start, end, 0), "c_point_offset")?;
    let mut piece = ConvexPiece::default();
    let mut local: std::collections::HashMap<u16, u32> = std::collections::HashMap::new();
    for t in 0..count {
        let tri = file.slice(Record::PhyTriangle, Some(t as usize), triangles_at + t * TRIANGLE, TRIANGLE)?;
        let mut corners = [0u32; 3];
        for (e, corner) in corners.iter_mut().enumerate() {
            let index = (i32_at(tri, 4 + 4 * e) as u32 & 0xFFFF) as u16;
            let next = piece.points.len() as u32;
            *corner = match local.get(&index) {
                Some(&c) => c,
                None => {
                    let at = points_at + u64::from(index) * POINT;
                    if at + POINT > end {
                        return Err(file.error(
                            Record::PhyPoint,
                            Some(index.into()),
                            at,
                            Problem::Truncated { needed: POINT, end },
                        ));
                    }
                    let p = file.slice(Record::PhyPoint, Some(index.into()), at, 12)?;
                    let f = |o: usize| f32::from_bits(i32_at(p, o) as u32);
                    piece.points.push(Vec3::new(f(0), f(8), -f(4)) * INCHES_PER_METRE);
                    local.insert(index, next);
                    next
                }
            };
        }
        piece.triangles.push(corners);
    }
    Ok(piece)
}
