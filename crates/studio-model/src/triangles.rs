//! Triangle commands: strips and fans of vertices, resolved into triangles
//! (goldsrc-geometry.md, "Triangle commands").

use crate::error::{Problem, Record, Result};
use crate::raw::RawTriVertex;
use crate::reader::FileData;

/// One vertex of a triangle command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeshVertex {
    /// Index into the submodel's vertices (valid).
    pub vertex: u16,
    /// Index into the submodel's normals (valid).
    pub normal: u16,
    /// Texel column; divide by the texture's width for a 0..1 coordinate.
    pub s: i16,
    /// Texel row; divide by the texture's height.
    pub t: i16,
}

/// One triangle command: a strip or a fan over `count` consecutive vertices of its mesh,
/// starting at `first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TriangleCommand {
    /// Strip (`true`, count c > 0 in the file) or fan (`false`, count −c).
    pub strip: bool,
    /// Index of its first vertex in the mesh's vertices.
    pub first: u32,
    /// Number of vertices, 1 to 32768.
    pub count: u32,
}

/// Resolves commands into triangles (indices into the mesh's vertices). A strip of n vertices
/// makes n − 2 triangles, odd ones with the first two vertices swapped to keep the facing (as
/// OpenGL draws `GL_TRIANGLE_STRIP`); a fan's triangles all share its first vertex.
pub fn resolve_commands(commands: &[TriangleCommand]) -> Vec<[u32; 3]> {
    let mut triangles = Vec::new();
    for command in commands {
        let first = command.first;
        if first.checked_add(command.count).is_none() {
            continue;
        }
        for k in 0..command.count.saturating_sub(2) {
            let (a, b, c) = (first + k, first + k + 1, first + k + 2);
            triangles.push(match (command.strip, k % 2) {
                (true, 0) => [a, b, c],
                (true, _) => [b, a, c],
                (false, _) => [first, b, c],
            });
        }
    }
    triangles
}

fn check_index(
    file: &FileData<'_>,
    mesh: usize,
    offset: u64,
    field: &'static str,
    target: &'static str,
    value: i16,
    count: usize,
) -> Result<u16> {
    match u16::try_from(value) {
        Ok(v) if usize::from(v) < count => Ok(v),
        _ => Err(file.error(
            Record::TriangleCommands,
            Some(mesh),
            offset,
            Problem::BadTriangleIndex { field, value: i64::from(value), target, count },
        )),
    }
}

/// Reads the commands of mesh `mesh` at `triindex` up to the terminating 0: each command's
/// vertices once, in order, and the commands over them.
pub(crate) fn read_triangle_commands(
    file: &FileData<'_>,
    mesh: usize,
    triindex: i32,
    num_verts: usize,
    num_norms: usize,
) -> Result<(Vec<MeshVertex>, Vec<TriangleCommand>)> {
    let mut pos = file.offset(Record::TriangleCommands, Some(mesh), "triindex", triindex)?;
    let mut vertices = Vec::new();
    let mut commands = Vec::new();
    loop {
        let count = i16::from_le_bytes(file.read::<[u8; 2]>(Record::TriangleCommands, Some(mesh), pos)?);
        pos += 2;
        if count == 0 {
            break;
        }
        let n = usize::from(count.unsigned_abs());
        let bytes = file.slice(Record::TriangleCommands, Some(mesh), pos, n as u64 * 8)?;
        // `vertices` never outgrows the file's size / 8, which fits in u32 for any file the
        // parser accepts (lengths are int32).
        let first = u32::try_from(vertices.len()).unwrap_or(u32::MAX);
        for (i, chunk) in bytes.chunks_exact(8).enumerate() {
            let raw: RawTriVertex = bytemuck::pod_read_unaligned(chunk);
            let at = pos + i as u64 * 8;
            vertices.push(MeshVertex {
                vertex: check_index(file, mesh, at, "vertex", "vertices", raw.vertex, num_verts)?,
                normal: check_index(file, mesh, at + 2, "normal", "normals", raw.normal, num_norms)?,
                s: raw.s,
                t: raw.t,
            });
        }
        pos += n as u64 * 8;
        commands.push(TriangleCommand { strip: count > 0, first, count: n as u32 });
    }
    Ok((vertices, commands))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::FileRole;

    /// Commands as int16s: each command's count, then (vertex, normal, s, t) per vertex.
    fn commands(words: &[i16]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    fn vertex_order(words: &[i16]) -> Vec<[u16; 3]> {
        let bytes = commands(words);
        let file = FileData::new(&bytes, FileRole::Main);
        let (vertices, commands) = read_triangle_commands(&file, 0, 0, 10, 10).unwrap();
        resolve_commands(&commands).iter().map(|t| t.map(|i| vertices[i as usize].vertex)).collect()
    }

    #[test]
    fn strips_alternate_winding_and_fans_share_the_first_vertex() {
        let strip = [5, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0];
        assert_eq!(vertex_order(&strip), [[0, 1, 2], [2, 1, 3], [2, 3, 4]]);
        let fan = [-4, 5, 0, 0, 0, 6, 0, 0, 0, 7, 0, 0, 0, 8, 0, 0, 0, 0];
        assert_eq!(vertex_order(&fan), [[5, 6, 7], [5, 7, 8]]);
        // Degenerate commands of one or two vertices make no triangles.
        assert_eq!(vertex_order(&[2, 0, 0, 0, 0, 1, 0, 0, 0, -1, 3, 0, 0, 0, 0]), Vec::<[u16; 3]>::new());
    }

    #[test]
    fn a_fan_of_32768_vertices_is_read_without_overflow() {
        let bytes = commands(&[i16::MIN, 0, 0, 0, 0]);
        let file = FileData::new(&bytes, FileRole::Main);
        let error = read_triangle_commands(&file, 0, 0, 10, 10).unwrap_err();
        assert_eq!(error.problem, Problem::Truncated { needed: 32768 * 8, end: 10 });
    }
}
