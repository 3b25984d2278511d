//! Submodels and meshes, `mstudiomodel_t` and `mstudiomesh_t`
//! (goldsrc-geometry.md, "Submodels", "Meshes").

use glam::Vec3;

use crate::error::{Problem, Record, Result, WarningKind};
use crate::raw::{RawBodyPart, RawMesh, RawSubmodel};
use crate::reader::{FileData, name, table};
use crate::triangles::{MeshVertex, TriangleCommand, read_triangle_commands, resolve_commands};
use crate::warnings::Warnings;

/// A mesh: triangles sharing one skin slot.
#[derive(Clone, Debug, PartialEq)]
pub struct Mesh {
    /// The `numtris` field as stored (a warning says when the commands disagree).
    pub num_tris: i32,
    /// Skin slot: the column of the skin table that gives the texture.
    pub skin_ref: i32,
    /// The `numnorms` field.
    pub num_norms: i32,
    /// Each vertex of the triangle commands, in command order.
    pub vertices: Vec<MeshVertex>,
    /// The triangle commands over `vertices`, in file order.
    pub commands: Vec<TriangleCommand>,
    /// Triangles as indices into `vertices`, strips and fans resolved with Valve's winding.
    pub triangles: Vec<[u32; 3]>,
}

/// One choice of a body part: its geometry, rigidly skinned to bones.
#[derive(Clone, Debug, PartialEq)]
pub struct Submodel {
    /// Name.
    pub name: String,
    /// The `type` field; unused.
    pub kind: i32,
    /// Radius of a sphere holding the submodel.
    pub bounding_radius: f32,
    /// Meshes.
    pub meshes: Vec<Mesh>,
    /// Vertex positions, each in its bone's space.
    pub vertices: Vec<Vec3>,
    /// The bone of each vertex (valid index).
    pub vertex_bones: Vec<u8>,
    /// Normals, each in its bone's space.
    pub normals: Vec<Vec3>,
    /// The bone of each normal (valid index).
    pub normal_bones: Vec<u8>,
}

fn read_points(
    file: &FileData<'_>,
    record: Record,
    index: usize,
    count: usize,
    offset: i32,
) -> Result<Vec<Vec3>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let offset = file.offset(record, Some(index), "index", offset)?;
    let bytes = file.slice(record, Some(index), offset, (count as u64).saturating_mul(12))?;
    Ok(bytes
        .chunks_exact(12)
        .map(|c| Vec3::from_array(bytemuck::pod_read_unaligned::<[f32; 3]>(c)))
        .collect())
}

fn read_point_bones(
    file: &FileData<'_>,
    record: Record,
    index: usize,
    count: usize,
    offset: i32,
    num_bones: usize,
) -> Result<Vec<u8>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let offset = file.offset(record, Some(index), "infoindex", offset)?;
    let bones = file.slice(record, Some(index), offset, count as u64)?;
    if let Some(i) = bones.iter().position(|&b| usize::from(b) >= num_bones) {
        return Err(file.error(
            record,
            Some(i),
            offset + i as u64,
            Problem::BadReference {
                field: "bone",
                value: i64::from(bones[i]),
                target: "bone",
                count: num_bones,
            },
        ));
    }
    Ok(bones.to_vec())
}

fn count(
    file: &FileData<'_>,
    record: Record,
    index: usize,
    offset: u64,
    field: &'static str,
    value: i32,
) -> Result<usize> {
    usize::try_from(value).map_err(|_| {
        file.error(record, Some(index), offset, Problem::Negative { field, value: i64::from(value) })
    })
}

pub(crate) fn read_submodels(
    file: &FileData<'_>,
    part: &RawBodyPart,
    num_bones: usize,
    warnings: &mut Warnings,
) -> Result<Vec<Submodel>> {
    let table = file.table::<RawSubmodel>(Record::Submodel, table!(part, nummodels, modelindex))?;
    table
        .iter()
        .map(|(index, offset, raw)| {
            let num_verts = count(file, Record::Submodel, index, offset, "numverts", raw.numverts)?;
            let num_norms = count(file, Record::Submodel, index, offset, "numnorms", raw.numnorms)?;
            let vertex_bones =
                read_point_bones(file, Record::VertexBones, index, num_verts, raw.vertinfoindex, num_bones)?;
            let vertices = read_points(file, Record::Vertices, index, num_verts, raw.vertindex)?;
            let normal_bones =
                read_point_bones(file, Record::NormalBones, index, num_norms, raw.norminfoindex, num_bones)?;
            let normals = read_points(file, Record::Normals, index, num_norms, raw.normindex)?;
            let meshes = file
                .table::<RawMesh>(Record::Mesh, table!(raw, nummesh, meshindex))?
                .iter()
                .map(|(mesh_index, mesh_offset, mesh)| {
                    let (vertices, commands) =
                        read_triangle_commands(file, mesh_index, mesh.triindex, num_verts, num_norms)?;
                    let triangles = resolve_commands(&commands);
                    if usize::try_from(mesh.numtris).ok() != Some(triangles.len()) {
                        warnings.push(
                            file.place(Record::Mesh, Some(mesh_index), mesh_offset),
                            WarningKind::TriangleCount {
                                stored: i64::from(mesh.numtris),
                                actual: triangles.len(),
                            },
                        );
                    }
                    Ok(Mesh {
                        num_tris: mesh.numtris,
                        skin_ref: mesh.skinref,
                        num_norms: mesh.numnorms,
                        vertices,
                        commands,
                        triangles,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(Submodel {
                name: name(&raw.name),
                kind: raw.kind,
                bounding_radius: raw.boundingradius,
                meshes,
                vertices,
                vertex_bones,
                normals,
                normal_bones,
            })
        })
        .collect()
}
