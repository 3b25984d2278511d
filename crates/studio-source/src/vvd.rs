//! The `.vvd`: vertices with up to three bone weights, and tangents (source-mesh.md, ".vvd
//! layout"), with the LOD 0 list rebuilt from the fixup table.

use bytemuck::{Pod, Zeroable};
use glam::{Vec2, Vec3, Vec4};

use crate::error::{FileRole, Problem, Record, Result};
use crate::reader::FileData;

/// `vertexFileHeader_t`, 64 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
struct RawVvdHeader {
    id: [u8; 4],
    version: i32,
    checksum: i32,
    num_lods: i32,
    num_lod_vertexes: [i32; 8],
    num_fixups: i32,
    fixup_table_start: i32,
    vertex_data_start: i32,
    tangent_data_start: i32,
}

/// `mstudiovertex_t`, 48 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
struct RawVertex {
    weight: [f32; 3],
    bone: [i8; 3],
    num_bones: u8,
    position: [f32; 3],
    normal: [f32; 3],
    texcoord: [f32; 2],
}

/// `vertexFileFixup_t`, 12 bytes.
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
#[repr(C)]
struct RawFixup {
    lod: i32,
    source_vertex_id: i32,
    num_vertexes: i32,
}

const _: () =
    assert!(size_of::<RawVvdHeader>() == 64 && size_of::<RawVertex>() == 48 && size_of::<RawFixup>() == 12);

/// One vertex of the LOD 0 list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vertex {
    /// Bone weights; the first `num_bones` are used.
    pub weights: [f32; 3],
    /// Bone indices (checked against the model's bones), the first `num_bones` used.
    pub bones: [u8; 3],
    /// 1 to 3.
    pub num_bones: u8,
    /// Pose-space position.
    pub position: Vec3,
    /// Pose-space normal.
    pub normal: Vec3,
    /// Texture coordinates; v = 0 is the top of the image.
    pub uv: Vec2,
}

/// The `.vvd`'s contents.
#[derive(Clone, Debug, PartialEq)]
pub struct VertexData {
    /// Must equal the `.mdl`'s.
    pub checksum: i32,
    /// LODs present.
    pub num_lods: i32,
    /// Vertices needed with each LOD as the top LOD.
    pub lod_vertices: [i32; 8],
    /// Fixup entries used to rebuild the LOD 0 list.
    pub num_fixups: usize,
    /// The LOD 0 vertices, in mesh order.
    pub vertices: Vec<Vertex>,
    /// Their tangents (xyz dP/du, w ±1), or empty when the file has none.
    pub tangents: Vec<Vec4>,
}

/// Reads a `.vvd` for a model of `num_bones` bones.
pub fn parse_vvd(bytes: &[u8], num_bones: usize) -> Result<VertexData> {
    let file = FileData::new(bytes, FileRole::Vvd);
    let h: RawVvdHeader = file.read(Record::Header, None, 0)?;
    if &h.id != b"IDSV" {
        let found = h.id.iter().map(|&b| char::from(b)).collect();
        return Err(file.error(Record::Header, None, 0, Problem::BadId { expected: "IDSV", found }));
    }
    if h.version != 4 {
        return Err(file.error(Record::Header, None, 4, Problem::BadVersion { found: h.version }));
    }
    let count = h.num_lod_vertexes[0];
    let stored = file.table::<RawVertex>(
        Record::Vertices,
        None,
        0,
        "numLODVertexes[0]",
        count,
        "vertexDataStart",
        h.vertex_data_start,
    )?;
    let tangents_stored = if h.tangent_data_start == 0 {
        None
    } else {
        Some(file.table::<[f32; 4]>(
            Record::Tangents,
            None,
            0,
            "numLODVertexes[0]",
            count,
            "tangentDataStart",
            h.tangent_data_start,
        )?)
    };
    // The LOD 0 order: every fixup's range in table order, or the stored order without fixups.
    let fixups = file.table::<RawFixup>(
        Record::Fixup,
        None,
        0,
        "numFixups",
        h.num_fixups,
        "fixupTableStart",
        h.fixup_table_start,
    )?;
    let mut order: Vec<std::ops::Range<usize>> = Vec::with_capacity(fixups.len());
    for (i, at, f) in fixups.iter() {
        let start = usize::try_from(f.source_vertex_id).ok();
        let end = start.zip(usize::try_from(f.num_vertexes).ok()).and_then(|(s, n)| s.checked_add(n));
        match start.zip(end) {
            Some((start, end)) if end <= stored.len() => order.push(start..end),
            _ => {
                return Err(file.error(
                    Record::Fixup,
                    Some(i),
                    at,
                    Problem::BadReference {
                        field: "sourceVertexID + numVertexes",
                        value: i64::from(f.source_vertex_id) + i64::from(f.num_vertexes),
                        target: "stored vertex",
                        count: stored.len(),
                    },
                ));
            }
        }
    }
    if order.is_empty() {
        order.push(0..stored.len());
    }
    let rebuilt: usize = order.iter().map(|r| r.len()).sum();
    if rebuilt != stored.len() {
        return Err(file.error(
            Record::Fixup,
            None,
            u64::try_from(h.fixup_table_start).unwrap_or(0),
            Problem::BadReference {
                field: "fixups",
                value: rebuilt as i64,
                target: "LOD 0 vertex",
                count: stored.len(),
            },
        ));
    }
    let raw: Vec<(u64, RawVertex)> = stored.iter().map(|(_, at, v)| (at, v)).collect();
    let mut vertices = Vec::with_capacity(stored.len());
    for range in &order {
        for (at, v) in &raw[range.clone()] {
            vertices.push(vertex(&file, vertices.len(), *at, v, num_bones)?);
        }
    }
    let tangents = match tangents_stored {
        Some(table) => {
            let raw: Vec<[f32; 4]> = table.iter().map(|(_, _, t)| t).collect();
            order.iter().flat_map(|r| raw[r.clone()].iter().map(|&t| Vec4::from_array(t))).collect()
        }
        None => Vec::new(),
    };
    Ok(VertexData {
        checksum: h.checksum,
        num_lods: h.num_lods,
        lod_vertices: h.num_lod_vertexes,
        num_fixups: fixups.len(),
        vertices,
        tangents,
    })
}

fn vertex(file: &FileData<'_>, index: usize, at: u64, v: &RawVertex, num_bones: usize) -> Result<Vertex> {
    let used = usize::from(v.num_bones);
    if !(1..=3).contains(&used) {
        return Err(file.error(
            Record::Vertices,
            Some(index),
            at + 15,
            Problem::BadReference {
                field: "numbones",
                value: i64::from(v.num_bones),
                target: "weight slot",
                count: 3,
            },
        ));
    }
    let mut bones = [0u8; 3];
    for (slot, (&bone, out)) in v.bone.iter().zip(&mut bones).enumerate().take(used) {
        match u8::try_from(bone) {
            Ok(b) if usize::from(b) < num_bones => *out = b,
            _ => {
                return Err(file.error(
                    Record::Vertices,
                    Some(index),
                    at + 12 + slot as u64,
                    Problem::BadReference {
                        field: "bone",
                        value: i64::from(bone),
                        target: "bone",
                        count: num_bones,
                    },
                ));
            }
        }
    }
    Ok(Vertex {
        weights: v.weight,
        bones,
        num_bones: v.num_bones,
        position: Vec3::from_array(v.position),
        normal: Vec3::from_array(v.normal),
        uv: Vec2::from_array(v.texcoord),
    })
}
