//! Studio model data (SMD) files, the text sources studiomdl compiles: `nodes` (the skeleton),
//! `skeleton` (bone transforms per frame) and `triangles` (the mesh, in model space).
//!
//! Numbers are written in the shortest form that reads back to the same value: an `f32`'s
//! shortest form when the value is one (every value taken straight from a model), else the
//! `f64`'s (values the decompiler adjusted, such as a root bone turned for studiomdl), with 17
//! significant digits where that form would also be an `f32`'s. Our
//! reader ([`crate::smd_read`]) takes a token that is an `f32`'s shortest form as that `f32`,
//! so it recovers what was written (studiomdl reads floats either way).

use std::fmt::Write;

/// A bone of the `nodes` section.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Name.
    pub name: String,
    /// Parent node (`None`: a root, written −1).
    pub parent: Option<usize>,
}

/// One bone's transform in a frame of the `skeleton` section: relative to its parent,
/// rotation as Euler angles in radians (x, y, z; studiomdl's order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneKey {
    /// Node index.
    pub bone: usize,
    /// Position.
    pub position: [f64; 3],
    /// Euler angles, radians.
    pub rotation: [f64; 3],
}

/// A frame of the `skeleton` section.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The `time` line's number.
    pub time: i32,
    /// The bones given at this time.
    pub bones: Vec<BoneKey>,
}

/// A triangle corner: model-space position and normal, texture coordinate and bone weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Corner {
    /// The corner's bone (for a weighted corner, studiomdl's "parent", unused when `links`
    /// are given).
    pub bone: usize,
    /// Position in model space.
    pub position: [f64; 3],
    /// Normal in model space.
    pub normal: [f64; 3],
    /// Texture coordinate (u right, v up from the bottom).
    pub uv: [f64; 2],
    /// Bone weights (empty: the corner follows `bone` alone).
    pub links: Vec<(usize, f64)>,
}

/// A triangle of the `triangles` section.
#[derive(Clone, Debug, PartialEq)]
pub struct Triangle {
    /// Material: the texture file (Half-Life) or material name (Source).
    pub material: String,
    /// Corners, in studiomdl's order.
    pub corners: [Corner; 3],
}

/// One vertex of a `vertexanimation` frame (a `.vta` file's flex shapes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeVertex {
    /// The vertex's number (frame 0 gives every vertex; later frames those that move).
    pub index: usize,
    /// Position in model space.
    pub position: [f64; 3],
    /// Normal in model space.
    pub normal: [f64; 3],
}

/// A frame of the `vertexanimation` section: time 0 the base shape, later times flex shapes.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeFrame {
    /// The `time` line's number.
    pub time: i32,
    /// Its vertices.
    pub vertices: Vec<ShapeVertex>,
}

/// An SMD file (a `.vta` is one with a `vertexanimation` section).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Smd {
    /// The skeleton's bones.
    pub nodes: Vec<Node>,
    /// Frames (one, time 0, for a reference file).
    pub frames: Vec<Frame>,
    /// Triangles (none for an animation file).
    pub triangles: Vec<Triangle>,
    /// Vertex animation frames (a `.vta`'s shapes; none in other files).
    pub shapes: Vec<ShapeFrame>,
}

/// A number in the shortest form that reads back to the same value (see the module's text).
pub fn number(value: f64) -> String {
    let single = value as f32;
    if f64::from(single) == value {
        return format!("{single}");
    }
    let double = format!("{value}");
    // An f64 whose shortest form is also an f32's (0.1) would read back as that f32: it is
    // written with 17 significant digits instead, a form no f32 is written in.
    if double == format!("{single}") { format!("{value:.16e}") } else { double }
}

fn three(out: &mut String, v: &[f64; 3]) {
    let _ = write!(out, " {} {} {}", number(v[0]), number(v[1]), number(v[2]));
}

impl Smd {
    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut out = String::from("version 1\nnodes\n");
        for (i, node) in self.nodes.iter().enumerate() {
            let parent = node.parent.map_or(-1, |p| p as i64);
            let _ = writeln!(out, "{i} \"{}\" {parent}", node.name.replace('"', "'"));
        }
        out.push_str("end\nskeleton\n");
        for frame in &self.frames {
            let _ = writeln!(out, "time {}", frame.time);
            for key in &frame.bones {
                let _ = write!(out, "{}", key.bone);
                three(&mut out, &key.position);
                three(&mut out, &key.rotation);
                out.push('\n');
            }
        }
        out.push_str("end\n");
        if !self.triangles.is_empty() {
            out.push_str("triangles\n");
            for triangle in &self.triangles {
                out.push_str(&triangle.material);
                out.push('\n');
                for c in &triangle.corners {
                    let _ = write!(out, "{}", c.bone);
                    three(&mut out, &c.position);
                    three(&mut out, &c.normal);
                    let _ = write!(out, " {} {}", number(c.uv[0]), number(c.uv[1]));
                    if !c.links.is_empty() {
                        let _ = write!(out, " {}", c.links.len());
                        for (bone, weight) in &c.links {
                            let _ = write!(out, " {bone} {}", number(*weight));
                        }
                    }
                    out.push('\n');
                }
            }
            out.push_str("end\n");
        }
        if !self.shapes.is_empty() {
            out.push_str("vertexanimation\n");
            for frame in &self.shapes {
                let _ = writeln!(out, "time {}", frame.time);
                for v in &frame.vertices {
                    let _ = write!(out, "{}", v.index);
                    three(&mut out, &v.position);
                    three(&mut out, &v.normal);
                    out.push('\n');
                }
            }
            out.push_str("end\n");
        }
        out
    }
}
