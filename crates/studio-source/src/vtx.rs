//! The `.vtx` (version 7): per body part, model, LOD and mesh, strip groups of vertices and
//! triangle indices (source-mesh.md, ".vtx layout", "Drawing LOD 0"). Records are packed; both
//! strip layouts are read, the short one first (the spec page's detection).

use crate::error::{FileRole, Problem, Record, Result};
use crate::reader::FileData;

/// The `.vtx`'s contents.
#[derive(Clone, Debug, PartialEq)]
pub struct Vtx {
    /// Must equal the `.mdl`'s.
    pub checksum: i32,
    /// LODs.
    pub num_lods: i32,
    /// Whether strip groups and strips use the longer (33- and 35-byte) layout.
    pub long_strips: bool,
    /// Body parts, in the `.mdl`'s order.
    pub body_parts: Vec<Vec<VtxModel>>,
}

/// One model: its LODs.
#[derive(Clone, Debug, PartialEq)]
pub struct VtxModel {
    /// LOD 0 first.
    pub lods: Vec<VtxLod>,
}

/// One LOD of a model.
#[derive(Clone, Debug, PartialEq)]
pub struct VtxLod {
    /// Distance at which it takes over.
    pub switch_point: f32,
    /// Its meshes, in the `.mdl` model's mesh order.
    pub meshes: Vec<VtxMesh>,
}

/// One mesh of a LOD: its strip groups.
#[derive(Clone, Debug, PartialEq)]
pub struct VtxMesh {
    /// 0x01 teeth, 0x02 eyes.
    pub flags: u8,
    /// Its strip groups; all are drawn.
    pub strip_groups: Vec<StripGroup>,
}

/// A strip group: vertices (by their mesh vertex) and indices into them.
#[derive(Clone, Debug, PartialEq)]
pub struct StripGroup {
    /// Flags: 0x01 flexed, 0x02 hardware skinned, 0x04 delta flexed.
    pub flags: u8,
    /// Per group vertex, its vertex in the mesh (`origMeshVertID`).
    pub mesh_vertices: Vec<u16>,
    /// Indices into `mesh_vertices`, each checked to be in range.
    pub indices: Vec<u16>,
    /// Strips: ranges of `indices`.
    pub strips: Vec<Strip>,
}

/// A strip: a range of its group's indices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strip {
    /// First index.
    pub first_index: usize,
    /// Indices.
    pub num_indices: usize,
    /// 0x01 triangle list, 0x02 triangle strip.
    pub flags: u8,
    /// Bones the hardware palette uses.
    pub num_bones: i16,
}

/// `.vtx` strip flag: the indices are a triangle list.
const STRIP_IS_TRILIST: u8 = 0x01;
/// `.vtx` strip flag: the indices are a triangle strip.
const STRIP_IS_TRISTRIP: u8 = 0x02;

impl StripGroup {
    /// Appends the group's triangles to `out` as indices of its mesh's vertices
    /// (`origMeshVertID`), clockwise as stored (source-mesh.md, "Drawing LOD 0"). Triangles with
    /// an index that leaves the group or the mesh's `mesh_vertices` are skipped, and so are a
    /// strip's degenerate ones.
    pub fn triangles(&self, mesh_vertices: usize, out: &mut Vec<[u32; 3]>) {
        let vertex = |index: u16| -> Option<u32> {
            let original = *self.mesh_vertices.get(usize::from(index))?;
            (usize::from(original) < mesh_vertices).then_some(u32::from(original))
        };
        for strip in &self.strips {
            let Some(indices) = strip
                .first_index
                .checked_add(strip.num_indices)
                .and_then(|end| self.indices.get(strip.first_index..end))
            else {
                continue;
            };
            if strip.flags & STRIP_IS_TRILIST != 0 {
                for t in indices.chunks_exact(3) {
                    if let (Some(a), Some(b), Some(c)) = (vertex(t[0]), vertex(t[1]), vertex(t[2])) {
                        out.push([a, b, c]);
                    }
                }
            } else if strip.flags & STRIP_IS_TRISTRIP != 0 {
                for (k, t) in indices.windows(3).enumerate() {
                    if let (Some(a), Some(b), Some(c)) = (vertex(t[0]), vertex(t[1]), vertex(t[2])) {
                        // Every other triangle of a strip is wound the other way.
                        if a != b && b != c && a != c {
                            out.push(if k % 2 == 0 { [a, b, c] } else { [b, a, c] });
                        }
                    }
                }
            }
        }
    }
}

impl Strip {
    /// Whether its indices are a triangle list.
    pub fn is_list(&self) -> bool {
        self.flags & STRIP_IS_TRILIST != 0
    }
}

impl VtxModel {
    /// Triangles of LOD 0 (triangle-list strips, three indices each).
    pub fn triangles(&self) -> usize {
        let Some(lod) = self.lods.first() else { return 0 };
        lod.meshes
            .iter()
            .flat_map(|m| &m.strip_groups)
            .flat_map(|g| &g.strips)
            .filter(|s| s.is_list())
            .map(|s| s.num_indices / 3)
            .sum()
    }
}

/// Reads a `.vtx`.
pub fn parse_vtx(bytes: &[u8]) -> Result<Vtx> {
    match read(bytes, false) {
        Ok(vtx) => Ok(vtx),
        Err(short) => read(bytes, true).map_err(|_| short),
    }
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    b.get(at..at + 4).map_or(0, |v| i32::from_le_bytes([v[0], v[1], v[2], v[3]]))
}

fn read(bytes: &[u8], long: bool) -> Result<Vtx> {
    let file = FileData::new(bytes, FileRole::Vtx);
    let h = file.slice(Record::Header, None, 0, 36)?;
    let version = i32_at(h, 0);
    if version != 7 {
        return Err(file.error(Record::Header, None, 0, Problem::BadVersion { found: version }));
    }
    let parts = file.packed(
        Record::VtxBodyPart,
        None,
        0,
        8,
        ("numBodyParts", i32_at(h, 28)),
        ("bodyPartOffset", i32_at(h, 32)),
    )?;
    let mut body_parts = Vec::with_capacity(parts.len());
    for (p, part_at, part) in parts {
        let models = file.packed(
            Record::VtxModel,
            Some(p),
            part_at,
            8,
            ("numModels", i32_at(part, 0)),
            ("modelOffset", i32_at(part, 4)),
        )?;
        let mut out_models = Vec::with_capacity(models.len());
        for (m, model_at, model) in models {
            let lods = file.packed(
                Record::VtxLod,
                Some(m),
                model_at,
                12,
                ("numLODs", i32_at(model, 0)),
                ("lodOffset", i32_at(model, 4)),
            )?;
            let mut out_lods = Vec::with_capacity(lods.len());
            for (l, lod_at, lod) in lods {
                let meshes = file.packed(
                    Record::VtxMesh,
                    Some(l),
                    lod_at,
                    9,
                    ("numMeshes", i32_at(lod, 0)),
                    ("meshOffset", i32_at(lod, 4)),
                )?;
                let mut out_meshes = Vec::with_capacity(meshes.len());
                for (k, mesh_at, mesh) in meshes {
                    let group_size = if long { 33 } else { 25 };
                    let groups = file.packed(
                        Record::StripGroup,
                        Some(k),
                        mesh_at,
                        group_size,
                        ("numStripGroups", i32_at(mesh, 0)),
                        ("stripGroupHeaderOffset", i32_at(mesh, 4)),
                    )?;
                    let mut strip_groups = Vec::with_capacity(groups.len());
                    for (g, group_at, group) in groups {
                        strip_groups.push(strip_group(&file, g, group_at, group, long)?);
                    }
                    out_meshes.push(VtxMesh { flags: mesh[8], strip_groups });
                }
                let switch_point = f32::from_bits(i32_at(lod, 8) as u32);
                out_lods.push(VtxLod { switch_point, meshes: out_meshes });
            }
            out_models.push(VtxModel { lods: out_lods });
        }
        body_parts.push(out_models);
    }
    Ok(Vtx { checksum: i32_at(h, 16), num_lods: i32_at(h, 20), long_strips: long, body_parts })
}

fn strip_group(file: &FileData<'_>, g: usize, at: u64, group: &[u8], long: bool) -> Result<StripGroup> {
    let index = Some(g);
    let vertices = file.packed(
        Record::StripGroup,
        index,
        at,
        9,
        ("numVerts", i32_at(group, 0)),
        ("vertOffset", i32_at(group, 4)),
    )?;
    let mesh_vertices: Vec<u16> = vertices.map(|(_, _, v)| u16::from_le_bytes([v[4], v[5]])).collect();
    let index_records = file.packed(
        Record::StripGroup,
        index,
        at,
        2,
        ("numIndices", i32_at(group, 8)),
        ("indexOffset", i32_at(group, 12)),
    )?;
    let mut indices = Vec::with_capacity(index_records.len());
    for (_, index_at, bytes) in index_records {
        let value = u16::from_le_bytes([bytes[0], bytes[1]]);
        if usize::from(value) >= mesh_vertices.len() {
            return Err(file.error(
                Record::StripGroup,
                index,
                index_at,
                Problem::BadReference {
                    field: "index",
                    value: i64::from(value),
                    target: "vertex of the strip group",
                    count: mesh_vertices.len(),
                },
            ));
        }
        indices.push(value);
    }
    let strip_size = if long { 35 } else { 27 };
    let strip_records = file.packed(
        Record::Strip,
        index,
        at,
        strip_size,
        ("numStrips", i32_at(group, 16)),
        ("stripOffset", i32_at(group, 20)),
    )?;
    let mut strips = Vec::with_capacity(strip_records.len());
    for (s, strip_at, strip) in strip_records {
        let first = usize::try_from(i32_at(strip, 4)).ok();
        let count = usize::try_from(i32_at(strip, 0)).ok();
        let Some((first_index, num_indices)) =
            first.zip(count).filter(|&(f, n)| f.checked_add(n).is_some_and(|end| end <= indices.len()))
        else {
            return Err(file.error(
                Record::Strip,
                Some(s),
                strip_at,
                Problem::BadReference {
                    field: "indexOffset + numIndices",
                    value: i64::from(i32_at(strip, 4)) + i64::from(i32_at(strip, 0)),
                    target: "index of the strip group",
                    count: indices.len(),
                },
            ));
        };
        strips.push(Strip {
            first_index,
            num_indices,
            flags: strip[18],
            num_bones: i16::from_le_bytes([strip[16], strip[17]]),
        });
    }
    Ok(StripGroup { flags: group[24], mesh_vertices, indices, strips })
}
