//! A Source model's flex shapes back as a `.vta` (vertex animation) file for its `flexfile`
//! block: frame 0 every vertex of the body part model as the reference file has it, then a
//! frame per flex description its meshes carry, holding the vertices that flex moves at full
//! weight (the `.vvd` vertex plus the flex's delta). studiomdl takes the deltas back as each
//! frame's difference from frame 0. Positions and normals are turned for studiomdl's default
//! rotation, as in every decompiled file ([`super::source`]).

use std::collections::BTreeMap;

use studio_smd::{Frame, ShapeFrame, ShapeVertex, Smd};
use studio_source::SourceModel;

use super::source::{nodes, skeleton, turned};
use super::stereo_split::{Split, split_of};

/// The flex shapes of one body part model.
#[derive(Clone, Debug)]
pub struct FlexShapes {
    /// The `.vta` file's name.
    pub file: String,
    /// Its contents.
    pub vta: Smd,
    /// Per frame from 1, the flex it is.
    pub frames: Vec<ShapeKey>,
}

/// The flex a `.vta` frame is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeKey {
    /// Its flex description.
    pub desc: usize,
    /// A stereo flex's partner description, and the split that gives its vertices their sides
    /// ([`super::stereo_split`]).
    pub pair: Option<(usize, Split)>,
}

/// The flex shapes of model `index` of body part `part`, in the file `file`; `None` when its
/// meshes have no flexes.
pub fn flex_shapes(model: &SourceModel, part: usize, index: usize, file: &str) -> Option<FlexShapes> {
    let body = model.body_parts.get(part)?.models.get(index)?;
    let mut frames: Vec<(usize, Option<usize>)> = Vec::new();
    // Per frame, each moved vertex's x in the file and its side byte (stereo flexes).
    let mut sides: Vec<Vec<(f32, u8)>> = Vec::new();
    let mut base = Vec::new();
    let mut moved: Vec<BTreeMap<usize, ShapeVertex>> = Vec::new();
    for (m, mesh) in body.meshes.iter().enumerate() {
        let Some((vertices, _)) = model.mesh_vertices(part, index, m) else { continue };
        let first = usize::try_from(mesh.vertex_offset).unwrap_or(0);
        for (k, v) in vertices.iter().enumerate() {
            base.push(ShapeVertex {
                index: first + k,
                position: turned(v.position),
                normal: turned(v.normal),
            });
        }
        for flex in &mesh.flexes {
            let frame = match frames.iter().position(|&(desc, _)| desc == flex.desc) {
                Some(f) => f,
                None => {
                    frames.push((flex.desc, flex.pair));
                    moved.push(BTreeMap::new());
                    sides.push(Vec::new());
                    frames.len() - 1
                }
            };
            for va in &flex.vertices {
                let Some(v) = vertices.get(usize::from(va.index)) else { continue };
                let shape = ShapeVertex {
                    index: first + usize::from(va.index),
                    position: turned(v.position + va.delta),
                    normal: turned(v.normal + va.normal_delta),
                };
                if flex.pair.is_some() {
                    // The file's x is exact in f32: it is the model's y.
                    sides[frame].push((shape.position[0] as f32, va.side));
                }
                moved[frame].insert(shape.index, shape);
            }
        }
    }
    if frames.is_empty() {
        return None;
    }
    let rest = skeleton(model);
    let times = (0..=frames.len()).map(|t| Frame { time: t as i32, bones: rest.bones.clone() }).collect();
    let mut shapes = vec![ShapeFrame { time: 0, vertices: base }];
    shapes.extend(
        moved.into_iter().enumerate().map(|(f, vertices)| ShapeFrame {
            time: f as i32 + 1,
            vertices: vertices.into_values().collect(),
        }),
    );
    let vta = Smd { nodes: nodes(model), frames: times, triangles: Vec::new(), shapes };
    let frames = frames
        .into_iter()
        .zip(&sides)
        .map(|((desc, pair), points)| ShapeKey { desc, pair: pair.map(|p| (p, split_of(points))) })
        .collect();
    Some(FlexShapes { file: file.to_owned(), vta, frames })
}
