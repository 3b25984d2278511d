//! A model's long-lived GPU resources, uploaded once: per body part, submodel, LOD and mesh its
//! vertices, triangle indices and wireframe edges; every material's texture; its ground grid;
//! and the little the overlays need of the model (the skeleton's shape, its box).

use std::collections::HashSet;

use glam::Vec3;
use wgpu::util::DeviceExt;

use crate::gpu_types::BoneSlots;
use crate::grid::GpuGrid;
use crate::scene::{RenderModel, submodel_for_body};
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
    /// Skin slot: the column of the skin table that gives the material.
    pub slot: usize,
    /// Its index among the model's moving meshes ([`crate::RenderMesh::moving`]): its vertex
    /// buffer can be written, and is, whenever the frame's moving vertices change.
    pub moving: Option<usize>,
    /// Number of vertices.
    pub vertex_count: usize,
}

/// The meshes of one submodel per LOD (empty meshes are left out).
#[derive(Debug, Default)]
pub struct GpuSubmodel {
    /// Per LOD, the meshes.
    pub lods: Vec<Vec<GpuMesh>>,
}

impl GpuSubmodel {
    /// The meshes of `lod`, or of the last LOD there is when it asks for more.
    pub fn meshes(&self, lod: usize) -> &[GpuMesh] {
        self.lods.get(lod).or(self.lods.last()).map_or(&[], Vec::as_slice)
    }
}

/// Everything of a model the GPU keeps, and what the renderer needs of it each frame.
#[derive(Debug)]
pub struct GpuModel {
    /// Per body part: its base (the divisor of the body number) and submodels.
    pub body_parts: Vec<(i32, Vec<GpuSubmodel>)>,
    /// One per material.
    pub textures: Vec<GpuTexture>,
    /// Drawn for meshes whose skin names no material.
    pub fallback: GpuTexture,
    /// Skin families (per family, per slot, the material).
    pub skins: Vec<Vec<Option<usize>>>,
    /// How many bone slots its vertices weigh in: the mesh pipelines it draws with.
    pub bone_slots: BoneSlots,
    /// Each bone's parent.
    pub parents: Vec<Option<usize>>,
    /// The model's box.
    pub bounds: (Vec3, Vec3),
    /// Per hit box set, each box's hit group.
    pub hitbox_sets: Vec<Vec<i32>>,
    /// The ground grid under it.
    pub grid: GpuGrid,
    /// The engine whose rules it follows (lighting, player hull).
    pub engine: crate::light::Engine,
}

/// The material of skin slot `slot` in skin family `skin`, `fallback` where there is none.
fn texture_of<'a>(
    skins: &[Vec<Option<usize>>],
    textures: &'a [GpuTexture],
    fallback: &'a GpuTexture,
    skin: usize,
    slot: usize,
) -> &'a GpuTexture {
    skins.get(skin).and_then(|family| *family.get(slot)?).and_then(|t| textures.get(t)).unwrap_or(fallback)
}

/// The submodel body number `body` chooses in each of `body_parts`.
fn submodels_of(body_parts: &[(i32, Vec<GpuSubmodel>)], body: i32) -> impl Iterator<Item = &GpuSubmodel> {
    body_parts
        .iter()
        .filter_map(move |(base, submodels)| submodels.get(submodel_for_body(*base, submodels.len(), body)?))
}

/// Each distinct edge of a mesh's triangles once, as line-list indices.
pub fn mesh_edges(triangles: &[[u32; 3]]) -> Vec<u32> {
    let mut seen = HashSet::new();
    let mut edges = Vec::new();
    for t in triangles {
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
        model: &RenderModel,
    ) -> Self {
        let buffer = |label: &str, contents: &[u8], usage| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents,
                usage,
            })
        };
        let body_parts: Vec<(i32, Vec<GpuSubmodel>)> = model
            .body_parts
            .iter()
            .map(|part| {
                let submodels = part
                    .submodels
                    .iter()
                    .map(|submodel| GpuSubmodel {
                        lods: submodel
                            .lods
                            .iter()
                            .map(|meshes| {
                                meshes
                                    .iter()
                                    .filter(|mesh| !mesh.triangles.is_empty() && !mesh.vertices.is_empty())
                                    .map(|mesh| {
                                        let edges = mesh_edges(&mesh.triangles);
                                        GpuMesh {
                                            vertices: buffer(
                                                "mesh vertices",
                                                bytemuck::cast_slice(&mesh.vertices),
                                                if mesh.moving.is_some() {
                                                    wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST
                                                } else {
                                                    wgpu::BufferUsages::VERTEX
                                                },
                                            ),
                                            indices: buffer(
                                                "mesh indices",
                                                bytemuck::cast_slice(&mesh.triangles),
                                                wgpu::BufferUsages::INDEX,
                                            ),
                                            index_count: (mesh.triangles.len() * 3) as u32,
                                            edges: buffer(
                                                "mesh edges",
                                                bytemuck::cast_slice(&edges),
                                                wgpu::BufferUsages::INDEX,
                                            ),
                                            edge_count: edges.len() as u32,
                                            slot: mesh.slot,
                                            moving: mesh.moving,
                                            vertex_count: mesh.vertices.len(),
                                        }
                                    })
                                    .collect()
                            })
                            .collect(),
                    })
                    .collect();
                (part.base, submodels)
            })
            .collect();
        let textures: Vec<GpuTexture> =
            model.materials.iter().map(|m| upload(device, queue, texture_layout, sampler, m)).collect();
        let fallback = upload(device, queue, texture_layout, sampler, &Default::default());
        // The grid's texture is of the kind of the first opaque texture the default view (skin,
        // body and level of detail 0) draws, the fallback's where it draws none: the mesh's
        // first draw compiles the code for it.
        let like = submodels_of(&body_parts, 0)
            .flat_map(|submodel| submodel.meshes(0))
            .map(|mesh| texture_of(&model.skins, &textures, &fallback, 0, mesh.slot))
            .find(|texture| texture.blend == crate::scene::Blend::Opaque)
            .unwrap_or(&fallback);
        let grid = GpuGrid::new(device, queue, texture_layout, sampler, model.bounds, &like.texture);
        let vertices = model.body_parts.iter().flat_map(|part| &part.submodels);
        let vertices = vertices.flat_map(|submodel| &submodel.lods).flatten().flat_map(|mesh| &mesh.vertices);
        Self {
            body_parts,
            textures,
            fallback,
            grid,
            skins: model.skins.clone(),
            bone_slots: BoneSlots::of(vertices),
            parents: model.parents.clone(),
            bounds: model.bounds,
            hitbox_sets: model.hitbox_sets.clone(),
            engine: model.engine,
        }
    }

    /// The material a mesh of skin slot `slot` shows in skin family `skin`.
    pub fn texture(&self, skin: usize, slot: usize) -> &GpuTexture {
        texture_of(&self.skins, &self.textures, &self.fallback, skin, slot)
    }

    /// The submodel body number `body` chooses in each body part.
    pub fn submodels(&self, body: i32) -> impl Iterator<Item = &GpuSubmodel> {
        submodels_of(&self.body_parts, body)
    }

    /// Every mesh of every LOD of every submodel that moves, with its moving index.
    pub fn moving_meshes(&self) -> impl Iterator<Item = (usize, &GpuMesh)> {
        let meshes = self.body_parts.iter().flat_map(|(_, submodels)| submodels);
        let meshes = meshes.flat_map(|submodel| &submodel.lods).flatten();
        meshes.filter_map(|mesh| Some((mesh.moving?, mesh)))
    }

    /// Triangles drawn for body number `body` at `lod`.
    pub fn triangles(&self, body: i32, lod: usize) -> u32 {
        self.submodels(body).flat_map(|s| s.meshes(lod)).map(|m| m.index_count / 3).sum()
    }
}
