//! A `.phy` collision model written from convex pieces, laid out as vphysics stores one (see
//! studio-source's `phy.rs` for the layout): for the fixtures' game folders, where no `.phy`
//! ships. Points are given in the engine's axes and inches and stored in IVP's (metres,
//! `(x, −z, y) × 0.0254`).

/// One convex piece: points (engine units) and triangles over them.
pub type Piece = (Vec<[f32; 3]>, Vec<[u16; 3]>);

fn put_i32(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_f32(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_le_bytes());
}

/// The bytes of one piece's ledge: its 16-byte header, triangles and points.
fn ledge(points: &[[f32; 3]], triangles: &[[u16; 3]]) -> Vec<u8> {
    let mut out = Vec::new();
    let size = 16 + 16 * (triangles.len() + points.len());
    put_i32(&mut out, (16 + 16 * triangles.len()) as i32); // c_point_offset
    put_i32(&mut out, 0); // client_data
    put_i32(&mut out, (1 << 2) | (((size / 16) as i32) << 8)); // is_compact, size_div_16
    out.extend_from_slice(&(triangles.len() as i16).to_le_bytes());
    out.extend_from_slice(&0i16.to_le_bytes());
    for (t, tri) in triangles.iter().enumerate() {
        put_i32(&mut out, t as i32); // tri_index
        for &corner in tri {
            put_i32(&mut out, i32::from(corner));
        }
    }
    for p in points {
        let metres = 0.0254f32;
        for v in [p[0] * metres, -p[2] * metres, p[1] * metres, 0.0] {
            put_f32(&mut out, v);
        }
    }
    out
}

/// A ledge tree over pieces whose ledges are at `ledges` (offsets from the tree's start `at`):
/// a leaf for one piece, else an inner node whose left child is the first piece's leaf and
/// whose right subtree holds the rest.
fn tree(out: &mut Vec<u8>, at: usize, ledges: &[usize]) {
    let node = at + out.len();
    let leaf = |out: &mut Vec<u8>, node: usize, ledge: usize| {
        put_i32(out, 0);
        put_i32(out, ledge as i32 - node as i32);
        out.extend_from_slice(&[0; 20]);
    };
    match ledges {
        [] => {}
        [only] => leaf(out, node, *only),
        [first, rest @ ..] => {
            let start = out.len();
            out.extend_from_slice(&[0; 28]);
            leaf(out, node + 28, *first);
            let right = at + out.len();
            out[start..start + 4].copy_from_slice(&((right - node) as i32).to_le_bytes());
            out[start + 4..start + 8].copy_from_slice(&((*first as i32) - node as i32).to_le_bytes());
            tree(out, at, rest);
        }
    }
}

/// A `.phy` with `solids` (each a list of pieces), the model's `checksum` and `text`.
pub fn write(solids: &[Vec<Piece>], checksum: i32, text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    put_i32(&mut out, 16);
    put_i32(&mut out, 0);
    put_i32(&mut out, solids.len() as i32);
    put_i32(&mut out, checksum);
    for pieces in solids {
        // compactsurfaceheader_t, IVP_Compact_Surface, the ledges, then the tree.
        let mut surface = vec![0u8; 48];
        let mut ledges = Vec::new();
        for (points, triangles) in pieces {
            ledges.push(surface.len());
            surface.extend(ledge(points, triangles));
        }
        let root = surface.len();
        let mut nodes = Vec::new();
        tree(&mut nodes, root, &ledges);
        surface.extend(nodes);
        let byte_size = (surface.len() as i32) << 8;
        surface[28..32].copy_from_slice(&byte_size.to_le_bytes());
        surface[32..36].copy_from_slice(&(root as i32).to_le_bytes());
        surface[44..48].copy_from_slice(b"IVPS");
        let mut solid = Vec::new();
        solid.extend_from_slice(b"VPHY");
        solid.extend_from_slice(&0x100i16.to_le_bytes());
        solid.extend_from_slice(&0i16.to_le_bytes());
        put_i32(&mut solid, surface.len() as i32);
        solid.extend_from_slice(&[0; 16]); // dragAxisAreas, axisMapSize
        solid.extend(surface);
        put_i32(&mut out, solid.len() as i32);
        out.extend(solid);
    }
    out.extend_from_slice(text.as_bytes());
    out.push(0);
    out
}

/// A box from `min` to `max` (engine units): 8 points, 12 triangles.
pub fn cuboid(min: [f32; 3], max: [f32; 3]) -> Piece {
    let points = (0..8)
        .map(|i| {
            [
                if i & 1 == 0 { min[0] } else { max[0] },
                if i & 2 == 0 { min[1] } else { max[1] },
                if i & 4 == 0 { min[2] } else { max[2] },
            ]
        })
        .collect();
    let faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6], [0, 2, 6, 4], [1, 5, 7, 3]];
    let triangles = faces.iter().flat_map(|&[a, b, c, d]| [[a, b, c], [a, c, d]]).collect();
    (points, triangles)
}
