//! A mesh's flexes and their vertex animations (`mstudioflex_t`, `mstudiovertanim_t` and
//! `mstudiovertanim_wrinkle_t`; source-mesh.md, "Models and meshes in the .mdl", numflexes at
//! 16; the records in `docs/flex.md`).
//!
//! The deltas are stored as half floats; the engine converts them at load to 16-bit fixed point
//! (`ConvertToFixed`: the half float divided by the scale, truncated to an integer and kept in
//! a `short`) and multiplies back by the scale when it flexes. They are decoded here as the
//! engine ends up using them, so a delta finer than the scale is lost as it is in the game.

use glam::Vec3;

use crate::compressed::half;
use crate::error::{Record, Result};
use crate::raw::{RawFlex, RawMesh};
use crate::reader::{FileData, required};

/// `STUDIOHDR_FLAGS_FLEXES_CONVERTED`: the deltas are already fixed point.
pub const FLEXES_CONVERTED: i32 = 0x4000;
/// `STUDIOHDR_FLAGS_VERT_ANIM_FIXED_POINT_SCALE`: the header gives the fixed-point scale.
pub const VERT_ANIM_FIXED_POINT_SCALE: i32 = 0x0020_0000;
/// `STUDIO_VERT_ANIM_WRINKLE`: the vertex records carry a wrinkle delta.
pub const VERT_ANIM_WRINKLE: u8 = 1;

/// One moved vertex of a flex (`mstudiovertanim_t`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VertAnim {
    /// The vertex, counted from the mesh's first.
    pub index: u16,
    /// How fast it follows the delayed weight (255: at once).
    pub speed: u8,
    /// How much it follows the flex's right-hand partner (0: the flex, 255: the partner).
    pub side: u8,
    /// Position delta, as the engine applies it.
    pub delta: Vec3,
    /// Normal delta (the tangent is moved by it too).
    pub normal_delta: Vec3,
    /// Wrinkle map weight delta (0 for a plain flex).
    pub wrinkle: f32,
}

/// One flex of a mesh (`mstudioflex_t`).
#[derive(Clone, Debug, PartialEq)]
pub struct MeshFlex {
    /// The flex description whose weight drives it.
    pub desc: usize,
    /// The description driving its right side, for a stereo flex (`flexpair`, 0 for none).
    pub pair: Option<usize>,
    /// The weight ramp: 0 at or below `targets[0]`, rising to 1 at `targets[1]`, 1 to
    /// `targets[2]`, falling to 0 at `targets[3]`.
    pub targets: [f32; 4],
    /// Whether its records carry wrinkle deltas.
    pub wrinkle: bool,
    /// The vertices it moves, in increasing vertex order as the engine sorts them at load.
    pub vertices: Vec<VertAnim>,
}

/// How the file's deltas decode: the fixed-point scale and whether they are already fixed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DeltaFormat {
    scale: f32,
    converted: bool,
}

impl DeltaFormat {
    /// The format the header's flags and scale give (`VertAnimFixedPointScale`).
    pub(crate) fn new(flags: i32, header_scale: f32) -> Self {
        let scale = if flags & VERT_ANIM_FIXED_POINT_SCALE != 0 { header_scale } else { 1.0 / 4096.0 };
        Self { scale, converted: flags & FLEXES_CONVERTED != 0 }
    }

    /// One stored component as the engine uses it.
    fn decode(self, bits: u16) -> f32 {
        let fixed = if self.converted {
            bits as i16
        } else {
            // `short = float16 / scale`: truncated towards zero, then the low 16 bits kept.
            let quotient = half(bits) / self.scale;
            if quotient.is_finite() { quotient as i32 as i16 } else { 0 }
        };
        f32::from(fixed) * self.scale
    }

    fn vector(self, bytes: &[u8]) -> Vec3 {
        let c = |i: usize| self.decode(u16::from_le_bytes([bytes[i], bytes[i + 1]]));
        Vec3::new(c(0), c(2), c(4))
    }
}

/// The flexes of the mesh at `mesh_at`; each names a flex description of the `descs` there
/// are, and each vertex one of the mesh's `numvertices`.
pub(crate) fn parse(
    file: &FileData<'_>,
    (m, mesh_at, mesh): (usize, u64, &RawMesh),
    descs: usize,
    format: DeltaFormat,
) -> Result<Vec<MeshFlex>> {
    let table = file.table::<RawFlex>(
        Record::Mesh,
        Some(m),
        mesh_at,
        "numflexes",
        mesh.numflexes,
        "flexindex",
        mesh.flexindex,
    )?;
    let mut out = Vec::with_capacity(table.len());
    for (f, flex_at, flex) in table.iter() {
        let desc = required(
            file,
            (Record::Flex, Some(f), flex_at),
            "flexdesc",
            flex.flexdesc,
            "flex description",
            descs,
        )?;
        let pair = match flex.flexpair {
            0 => None,
            p => Some(required(
                file,
                (Record::Flex, Some(f), flex_at + 32),
                "flexpair",
                p,
                "flex description",
                descs,
            )?),
        };
        let wrinkle = flex.vertanimtype == VERT_ANIM_WRINKLE;
        let size = if wrinkle { 18 } else { 16 };
        let records = file.packed(
            Record::Flex,
            Some(f),
            flex_at,
            size,
            ("numverts", flex.numverts),
            ("vertindex", flex.vertindex),
        )?;
        let mut vertices = Vec::with_capacity(records.len());
        for (v, at, b) in records {
            let index = u16::from_le_bytes([b[0], b[1]]);
            required(
                file,
                (Record::VertAnim, Some(v), at),
                "index",
                index.into(),
                "mesh vertex",
                usize::try_from(mesh.numvertices).unwrap_or(0),
            )?;
            vertices.push(VertAnim {
                index,
                speed: b[2],
                side: b[3],
                delta: format.vector(&b[4..10]),
                normal_delta: format.vector(&b[10..16]),
                wrinkle: if wrinkle { format.decode(u16::from_le_bytes([b[16], b[17]])) } else { 0.0 },
            });
        }
        vertices.sort_by_key(|v| v.index);
        out.push(MeshFlex { desc, pair, targets: flex.target, wrinkle, vertices });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deltas_decode_as_the_engine_converts_them() {
        let plain = DeltaFormat::new(0, 0.0);
        // 1.0 is 4096 steps of 1/4096 exactly.
        assert_eq!(plain.decode(0x3C00), 1.0);
        // 0.0001 (half 0x068E ≈ 1.0001e-4) is 0.41 steps: truncated to nothing.
        assert_eq!(plain.decode(0x068E), 0.0);
        // -1.5 keeps its sign.
        assert_eq!(plain.decode(0xBE00), -1.5);
        // 8.0 is 32768 steps, which a short cannot hold: it wraps to -32768, as the engine's does.
        assert_eq!(plain.decode(0x4800), -8.0);
        let scaled = DeltaFormat::new(VERT_ANIM_FIXED_POINT_SCALE, 1.0 / 256.0);
        assert_eq!(scaled.decode(0x4800), 8.0);
        let converted = DeltaFormat::new(FLEXES_CONVERTED, 0.0);
        assert_eq!(converted.decode(4096), 1.0);
        assert_eq!(converted.decode((-2048i16) as u16), -0.5);
    }
}
