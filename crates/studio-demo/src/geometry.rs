//! The critter's mesh: a box per bone, rigidly skinned, its faces written as triangle strips
//! and fans wound as Half-Life's are (clockwise seen from outside).

use glam::Vec3;
use studio_model::{BodyPart, Mesh, MeshVertex, Submodel, TriangleCommand, resolve_commands};

use crate::skeleton::{BONES, bone};
use crate::textures::{SLOT_BODY, SLOT_CHROME, SLOT_CREST, SLOT_HEAD, slot_size};

/// A box on a bone, drawn with a skin slot.
struct BoneBox {
    bone: usize,
    min: Vec3,
    max: Vec3,
    skin_ref: i32,
}

fn bone_box(b: usize, skin_ref: i32) -> BoneBox {
    let (_, _, _, min, max) = BONES[b];
    BoneBox { bone: b, min: Vec3::from_array(min), max: Vec3::from_array(max), skin_ref }
}

/// The faces of a box: outward normal and two in-face axes with u × v = normal.
const FACES: [(Vec3, Vec3, Vec3); 6] = [
    (Vec3::X, Vec3::Y, Vec3::Z),
    (Vec3::NEG_X, Vec3::Z, Vec3::Y),
    (Vec3::Y, Vec3::Z, Vec3::X),
    (Vec3::NEG_Y, Vec3::X, Vec3::Z),
    (Vec3::Z, Vec3::X, Vec3::Y),
    (Vec3::NEG_Z, Vec3::Y, Vec3::X),
];

/// Builds a submodel from boxes: shared corner vertices per box, one normal per face, and per
/// skin slot a mesh whose faces are strips of four, except the top faces, which are fans.
fn submodel(name: &str, boxes: &[BoneBox]) -> Submodel {
    let mut vertices = Vec::new();
    let mut vertex_bones = Vec::new();
    let mut normals = Vec::new();
    let mut normal_bones = Vec::new();
    let mut meshes: Vec<Mesh> = Vec::new();
    for b in boxes {
        let centre = (b.min + b.max) * 0.5;
        let half = (b.max - b.min) * 0.5;
        let first_vertex = vertices.len() as u16;
        for k in 0..8 {
            let pick = |axis: usize| if k & (1 << axis) != 0 { 1.0 } else { -1.0 };
            vertices.push(centre + half * Vec3::new(pick(0), pick(1), pick(2)));
            vertex_bones.push(b.bone as u8);
        }
        let (width, height) = slot_size(b.skin_ref);
        let mesh = match meshes.iter_mut().find(|m| m.skin_ref == b.skin_ref) {
            Some(mesh) => mesh,
            None => {
                meshes.push(Mesh {
                    num_tris: 0,
                    skin_ref: b.skin_ref,
                    num_norms: 0,
                    vertices: Vec::new(),
                    commands: Vec::new(),
                    triangles: Vec::new(),
                });
                meshes.last_mut().expect("just pushed")
            }
        };
        for (normal, u, v) in FACES {
            let normal_index = normals.len() as u16;
            normals.push(normal);
            normal_bones.push(b.bone as u8);
            // The corner at (a, b) along the face's axes, as an index into the box's vertices.
            let corner = |a: f32, c: f32| {
                let p = normal + u * a + v * c;
                let bit = |axis: f32, i: u16| if axis > 0.0 { 1 << i } else { 0 };
                first_vertex + bit(p.x, 0) + bit(p.y, 1) + bit(p.z, 2)
            };
            let strip = normal != Vec3::Z;
            let order: [(f32, f32); 4] = if strip {
                [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)]
            } else {
                [(-1.0, -1.0), (-1.0, 1.0), (1.0, 1.0), (1.0, -1.0)]
            };
            let first = mesh.vertices.len() as u32;
            for (a, c) in order {
                let texel = |t: f32, size: u32| ((t + 1.0) * 0.5 * (size - 1) as f32) as i16;
                mesh.vertices.push(MeshVertex {
                    vertex: corner(a, c),
                    normal: normal_index,
                    s: texel(a, width),
                    t: texel(-c, height),
                });
            }
            mesh.commands.push(TriangleCommand { strip, first, count: 4 });
        }
    }
    for mesh in &mut meshes {
        mesh.triangles = resolve_commands(&mesh.commands);
        mesh.num_tris = mesh.triangles.len() as i32;
        mesh.num_norms = mesh.vertices.len() as i32;
    }
    let radius = vertices.iter().map(|v| v.length()).fold(0.0, f32::max);
    Submodel {
        name: name.into(),
        kind: 0,
        bounding_radius: radius,
        meshes,
        vertices,
        vertex_bones,
        normals,
        normal_bones,
    }
}

/// The body, and a head part with two choices: an antenna with a chrome rotor, or a masked
/// crest.
pub fn body_parts() -> Vec<BodyPart> {
    let body: Vec<BoneBox> = (0..BONES.len())
        .filter(|&b| ![bone::HEAD, bone::JAW, bone::ROTOR].contains(&b))
        .map(|b| bone_box(b, SLOT_BODY))
        .collect();
    let antenna =
        [bone_box(bone::HEAD, SLOT_HEAD), bone_box(bone::JAW, SLOT_HEAD), bone_box(bone::ROTOR, SLOT_CHROME)];
    let crest = BoneBox {
        bone: bone::HEAD,
        min: Vec3::new(-4.0, -0.6, 9.0),
        max: Vec3::new(5.0, 0.6, 16.0),
        skin_ref: SLOT_CREST,
    };
    let crested = [bone_box(bone::HEAD, SLOT_HEAD), bone_box(bone::JAW, SLOT_HEAD), crest];
    vec![
        BodyPart { name: "body".into(), base: 1, submodels: vec![submodel("critter", &body)] },
        BodyPart {
            name: "head".into(),
            base: 1,
            submodels: vec![submodel("antenna", &antenna), submodel("crested", &crested)],
        },
    ]
}
