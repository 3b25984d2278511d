//! A model's long-lived GPU resources, uploaded once: per mesh, its vertices (in bone space,
//! each with its bone), triangle indices and wireframe edges; every texture with its mips.

use std::collections::HashSet;

use studio_model::{Mesh, Model, Submodel};
use wgpu::util::DeviceExt;

use crate::gpu_types::MeshVertex;
use crate::texture::{GpuTexture, upload};

/// One mesh's buffers.
#[derive(Debug)]
pub struct GpuMesh {
    /// Vertices.
    pub vertices: wgpu::Buffer,
    /// Triangle list indices.
    pub indices: wgpu::Buffer,
    /// Number of indices.
    pub index_count: u32,
    /// Line list indices of each distinct edge, for wireframe.
    pub edges: wgpu::Buffer,
    /// Number of edge indices.
    pub edge_count: u32,
    /// Skin slot: the column of the skin table that gives the texture.
    pub skin_ref: i32,
}

/// The meshes of one submodel (empty meshes are left out).
#[derive(Debug, Default)]
pub struct GpuSubmodel {
    /// Meshes.
    pub meshes: Vec<GpuMesh>,
}

/// Everything of a model the GPU keeps: per body part its submodels, and the textures.
#[derive(Debug)]
pub struct GpuModel {
    /// Per body part, per submodel.
    pub body_parts: Vec<Vec<GpuSubmodel>>,
    /// One per model texture.
    pub textures: Vec<GpuTexture>,
    /// Drawn for meshes whose skin names no texture.
    pub fallback: GpuTexture,
}

/// The vertices of a mesh as the mesh shader takes them.
pub fn mesh_vertices(submodel: &Submodel, mesh: &Mesh) -> Vec<MeshVertex> {
    mesh.vertices
        .iter()
        .map(|v| {
            let (vertex, normal) = (usize::from(v.vertex), usize::from(v.normal));
            MeshVertex {
                position: submodel.vertices.get(vertex).map_or([0.0; 3], |p| p.to_array()),
                normal: submodel.normals.get(normal).map_or([0.0, 0.0, 1.0], |n| n.to_array()),
                texel: [f32::from(v.s), f32::from(v.t)],
                bone: [
                    submodel.vertex_bones.get(vertex).map_or(0, |&b| u32::from(b)),
                    submodel.normal_bones.get(normal).map_or(0, |&b| u32::from(b)),
                ],
            }
        })
        .collect()
}

/// Each distinct edge of a mesh's triangles once, as line-list indices.
pub fn mesh_edges(mesh: &Mesh) -> Vec<u32> {
    let mut seen = HashSet::new();
    let mut edges = Vec::new();
    for t in &mesh.triangles {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            if seen.insert((a.min(b), a.max(b))) {
                edges.extend([a, b]);
            }
        }
    }
    edges
}

impl GpuModel {
    /// Uploads `model`.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        texture_layout: &wgpu::BindGroupLayout,
        sampler: &wgpu::Sampler,
        model: &Model,
    ) -> Self {
        let buffer = |label: &str, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        let body_parts = model
            .body_parts
            .iter()
            .map(|part| {
                part.submodels
                    .iter()
                    .map(|submodel| GpuSubmodel {
                        meshes: submodel
                            .meshes
                            .iter()
                            .filter(|mesh| !mesh.triangles.is_empty())
                            .map(|mesh| {
                                let indices: Vec<u32> = mesh.triangles.iter().flatten().copied().collect();
                                let edges = mesh_edges(mesh);
                                GpuMesh {
                                    vertices: buffer(
                                        "mesh vertices",
                                        bytemuck::cast_slice(&mesh_vertices(submodel, mesh)),
                                        wgpu::BufferUsages::VERTEX,
                                    ),
                                    indices: buffer(
                                        "mesh indices",
                                        bytemuck::cast_slice(&indices),
                                        wgpu::BufferUsages::INDEX,
                                    ),
                                    index_count: indices.len() as u32,
                                    edges: buffer(
                                        "mesh edges",
                                        bytemuck::cast_slice(&edges),
                                        wgpu::BufferUsages::INDEX,
                                    ),
                                    edge_count: edges.len() as u32,
                                    skin_ref: mesh.skin_ref,
                                }
                            })
                            .collect(),
                    })
                    .collect()
            })
            .collect();
        let textures =
            model.textures.iter().map(|t| upload(device, queue, texture_layout, sampler, Some(t))).collect();
        Self { body_parts, textures, fallback: upload(device, queue, texture_layout, sampler, None) }
    }

    /// The texture a mesh of skin slot `skin_ref` shows in skin family `skin`.
    pub fn texture(&self, model: &Model, skin: usize, skin_ref: i32) -> &GpuTexture {
        model.skins.texture(skin, skin_ref).and_then(|t| self.textures.get(t)).unwrap_or(&self.fallback)
    }
}
