//! The renderer's pipelines, each created the first time a draw needs it.
//!
//! There are sixty-four slots (mesh: three blends × culling or not × plain or game shading ×
//! Half-Life's or Source's lighting, and the ground grid depth-tested or x-ray × either
//! lighting, wireframe and vertex normals, each for two or three bone slots; overlay lines and
//! translucent solids, depth-tested or x-ray), and a model's first frame uses two or three.
//! Creating one costs about 2 ms on Mesa's software Vulkan driver (SPIR-V to NIR, optimised),
//! so creating all of them up front put 20 ms before the viewer's first frame.

use std::sync::OnceLock;

use crate::gpu_types::{BoneSlots, MeshVertex, OverlayVertex};
use crate::renderer::DEPTH_FORMAT;
use crate::shaders;

/// How a mesh's texels combine with what is behind them: the pipeline's blend state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MeshBlend {
    /// Opaque, depth written.
    Opaque,
    /// Alpha-blended, depth tested only.
    Blended,
    /// Added, depth tested only.
    Additive,
}

/// One of the renderer's pipelines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PipelineId {
    /// The textured mesh; `double_sided` draws back faces too; `game` shades as the game does
    /// (normal maps, phong, light warps, masked self-illumination: mesh.wgsl's
    /// `GAME_SHADING`).
    /// `source` lights it by Source's rule (mesh.wgsl's `SOURCE_LIGHTING`), otherwise by
    /// Half-Life's: a constant, so that each pipeline computes one rule.
    Mesh { blend: MeshBlend, double_sided: bool, slots: BoneSlots, game: bool, source: bool },
    /// The mesh's triangle edges.
    Wire { slots: BoneSlots },
    /// The ground grid's lines (`grid.rs`): depth-tested, the opaque mesh pipeline in all but
    /// the primitive; x-ray ones over everything.
    Grid { xray: bool, slots: BoneSlots, source: bool },
    /// Overlay lines; x-ray ones are drawn over everything.
    Lines { xray: bool },
    /// Translucent overlay triangles.
    Solids { xray: bool },
    /// Each vertex's normal as a line, from the mesh's vertex buffer stepped per instance.
    Normals { slots: BoneSlots },
}

/// How many pipelines there are.
const COUNT: usize = 64;

impl PipelineId {
    /// Each pipeline's place in [`Pipelines`].
    fn slot(self) -> usize {
        let three = |slots: BoneSlots| usize::from(slots == BoneSlots::Three);
        match self {
            Self::Mesh { blend, double_sided, slots, game, source } => {
                let blend = match blend {
                    MeshBlend::Opaque => 0,
                    MeshBlend::Blended => 1,
                    MeshBlend::Additive => 2,
                };
                blend
                    + 3 * usize::from(double_sided)
                    + 6 * three(slots)
                    + 12 * usize::from(game)
                    + 24 * usize::from(source)
            }
            Self::Wire { slots } => 48 + three(slots),
            Self::Lines { xray } => 50 + usize::from(xray),
            Self::Solids { xray } => 52 + usize::from(xray),
            Self::Grid { xray, slots, source } => {
                54 + usize::from(xray) + 2 * three(slots) + 4 * usize::from(source)
            }
            Self::Normals { slots } => 62 + three(slots),
        }
    }
}

/// Shader modules, layouts and the pipelines made so far, for one colour format and sample
/// count.
#[derive(Debug)]
pub(crate) struct Pipelines {
    device: wgpu::Device,
    format: wgpu::TextureFormat,
    sample_count: u32,
    mesh_module: wgpu::ShaderModule,
    overlay_module: wgpu::ShaderModule,
    mesh_layout: wgpu::PipelineLayout,
    overlay_layout: wgpu::PipelineLayout,
    made: [OnceLock<wgpu::RenderPipeline>; COUNT],
}

impl Pipelines {
    /// Compiles the shaders, the mesh's from `mesh_source` (its bones' binding is the device's,
    /// [`crate::bones_binding`]); makes no pipeline yet. The mesh takes bind groups `frame` and
    /// `texture`, the overlays `frame` alone.
    pub(crate) fn new(
        device: &wgpu::Device,
        (format, sample_count): (wgpu::TextureFormat, u32),
        mesh_source: &str,
        frame: &wgpu::BindGroupLayout,
        texture: &wgpu::BindGroupLayout,
    ) -> Self {
        let module = |label, source: &str| {
            device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            })
        };
        let layout = |label, groups: &[Option<&wgpu::BindGroupLayout>]| {
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: groups,
                immediate_size: 0,
            })
        };
        Self {
            device: device.clone(),
            format,
            sample_count,
            mesh_module: module("mesh.wgsl", mesh_source),
            overlay_module: module("overlay.wgsl", shaders::OVERLAY),
            mesh_layout: layout("mesh pipeline layout", &[Some(frame), Some(texture)]),
            overlay_layout: layout("overlay pipeline layout", &[Some(frame)]),
            made: std::array::from_fn(|_| OnceLock::new()),
        }
    }

    /// The pipeline `id`, made now if no draw needed it before.
    pub(crate) fn get(&self, id: PipelineId) -> &wgpu::RenderPipeline {
        self.made[id.slot()].get_or_init(|| self.make(id))
    }

    fn make(&self, id: PipelineId) -> wgpu::RenderPipeline {
        let mesh_buffers = [Some(wgpu::VertexBufferLayout {
            array_stride: size_of::<MeshVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![
                0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Uint8x4, 4 => Float32x3, 5 => Float32x3,
                6 => Float32x4, 7 => Float32x2
            ],
        })];
        // The same vertices, one line (two corners) per vertex.
        let normal_buffers = [Some(wgpu::VertexBufferLayout {
            step_mode: wgpu::VertexStepMode::Instance,
            ..mesh_buffers[0].clone().expect("the mesh's layout")
        })];
        let overlay_buffers = [Some(wgpu::VertexBufferLayout {
            array_stride: size_of::<OverlayVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4],
        })];
        let mesh = |label, blend, depth_write, double_sided: bool, slots: BoneSlots| PipelineKind {
            label,
            module: &self.mesh_module,
            bone_slots: Some(slots),
            game_shading: false,
            source_lighting: false,
            layout: &self.mesh_layout,
            vertex: "vs_main",
            fragment: "fs_main",
            buffers: &mesh_buffers,
            topology: wgpu::PrimitiveTopology::TriangleList,
            blend,
            depth_write,
            depth_test: true,
            cull: (!double_sided).then_some(wgpu::Face::Back),
        };
        let overlay = |label, topology, xray: bool| PipelineKind {
            label,
            module: &self.overlay_module,
            bone_slots: None,
            game_shading: false,
            source_lighting: false,
            layout: &self.overlay_layout,
            vertex: "vs_main",
            fragment: "fs_main",
            buffers: &overlay_buffers,
            topology,
            blend: Some(wgpu::BlendState::ALPHA_BLENDING),
            depth_write: false,
            depth_test: !xray,
            cull: None,
        };
        let additive = wgpu::BlendState {
            color: wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::SrcAlpha,
                dst_factor: wgpu::BlendFactor::One,
                operation: wgpu::BlendOperation::Add,
            },
            alpha: wgpu::BlendComponent::OVER,
        };
        let kind = match id {
            PipelineId::Mesh { blend: MeshBlend::Opaque, double_sided, slots, game, source } => {
                PipelineKind {
                    game_shading: game,
                    source_lighting: source,
                    ..mesh("mesh opaque", None, true, double_sided, slots)
                }
            }
            PipelineId::Mesh { blend: MeshBlend::Blended, double_sided, slots, game, source } => {
                PipelineKind {
                    game_shading: game,
                    source_lighting: source,
                    ..mesh("mesh blended", Some(wgpu::BlendState::ALPHA_BLENDING), false, double_sided, slots)
                }
            }
            PipelineId::Mesh { blend: MeshBlend::Additive, double_sided, slots, game, source } => {
                PipelineKind {
                    game_shading: game,
                    source_lighting: source,
                    ..mesh("mesh additive", Some(additive), false, double_sided, slots)
                }
            }
            PipelineId::Wire { slots } => PipelineKind {
                label: "mesh wireframe",
                fragment: "fs_wire",
                topology: wgpu::PrimitiveTopology::LineList,
                ..mesh("", None, false, true, slots)
            },
            PipelineId::Normals { slots } => PipelineKind {
                label: "vertex normals",
                vertex: "vs_normal",
                fragment: "fs_normal",
                buffers: &normal_buffers,
                topology: wgpu::PrimitiveTopology::LineList,
                ..mesh("", None, false, true, slots)
            },
            // Lines, and no other difference from the opaque mesh: lavapipe then finds the code
            // compiled for the mesh (see grid.rs).
            PipelineId::Grid { xray: false, slots, source } => PipelineKind {
                label: "ground grid",
                topology: wgpu::PrimitiveTopology::LineList,
                source_lighting: source,
                ..mesh("", None, true, false, slots)
            },
            PipelineId::Grid { xray: true, slots, source } => PipelineKind {
                label: "ground grid x-ray",
                topology: wgpu::PrimitiveTopology::LineList,
                depth_test: false,
                source_lighting: source,
                ..mesh("", None, false, false, slots)
            },
            PipelineId::Lines { xray: false } => {
                overlay("overlay lines", wgpu::PrimitiveTopology::LineList, false)
            }
            PipelineId::Lines { xray: true } => {
                overlay("overlay lines x-ray", wgpu::PrimitiveTopology::LineList, true)
            }
            PipelineId::Solids { xray: false } => {
                overlay("overlay solids", wgpu::PrimitiveTopology::TriangleList, false)
            }
            PipelineId::Solids { xray: true } => {
                overlay("overlay solids x-ray", wgpu::PrimitiveTopology::TriangleList, true)
            }
        };
        self.create(&kind)
    }

    fn create(&self, kind: &PipelineKind<'_>) -> wgpu::RenderPipeline {
        let constants = kind.bone_slots.map(|slots| {
            [
                ("BONE_SLOTS", f64::from(slots.count())),
                ("GAME_SHADING", f64::from(u8::from(kind.game_shading))),
                ("SOURCE_LIGHTING", f64::from(u8::from(kind.source_lighting))),
            ]
        });
        let compilation_options = wgpu::PipelineCompilationOptions {
            constants: constants.as_ref().map_or(&[], |c| &c[..]),
            ..Default::default()
        };
        let targets = [Some(wgpu::ColorTargetState {
            format: self.format,
            blend: kind.blend,
            write_mask: wgpu::ColorWrites::ALL,
        })];
        self.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(kind.label),
            layout: Some(kind.layout),
            vertex: wgpu::VertexState {
                module: kind.module,
                entry_point: Some(kind.vertex),
                compilation_options: compilation_options.clone(),
                buffers: kind.buffers,
            },
            primitive: wgpu::PrimitiveState {
                topology: kind.topology,
                cull_mode: kind.cull,
                // Half-Life's triangle commands are clockwise seen from the front (its renderer
                // culls `GL_FRONT` with OpenGL's counter-clockwise default).
                front_face: wgpu::FrontFace::Cw,
                ..Default::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(kind.depth_write),
                depth_compare: Some(if kind.depth_test {
                    wgpu::CompareFunction::LessEqual
                } else {
                    wgpu::CompareFunction::Always
                }),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState { count: self.sample_count, ..Default::default() },
            fragment: Some(wgpu::FragmentState {
                module: kind.module,
                entry_point: Some(kind.fragment),
                compilation_options,
                targets: &targets,
            }),
            multiview_mask: None,
            cache: None,
        })
    }
}

/// Everything that differs between the pipelines.
struct PipelineKind<'a> {
    label: &'a str,
    module: &'a wgpu::ShaderModule,
    /// The mesh shader's `BONE_SLOTS` (`None` for the overlay shader, which has none).
    bone_slots: Option<BoneSlots>,
    /// The mesh shader's `GAME_SHADING`.
    game_shading: bool,
    /// The mesh shader's `SOURCE_LIGHTING`.
    source_lighting: bool,
    layout: &'a wgpu::PipelineLayout,
    vertex: &'a str,
    fragment: &'a str,
    buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
    topology: wgpu::PrimitiveTopology,
    blend: Option<wgpu::BlendState>,
    depth_write: bool,
    depth_test: bool,
    cull: Option<wgpu::Face>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pipeline_has_its_own_slot() {
        let mut ids = vec![];
        for xray in [false, true] {
            ids.push(PipelineId::Lines { xray });
            ids.push(PipelineId::Solids { xray });
        }
        for slots in [BoneSlots::Two, BoneSlots::Three] {
            ids.push(PipelineId::Wire { slots });
            ids.push(PipelineId::Normals { slots });
            for source in [false, true] {
                ids.push(PipelineId::Grid { xray: false, slots, source });
                ids.push(PipelineId::Grid { xray: true, slots, source });
                for blend in [MeshBlend::Opaque, MeshBlend::Blended, MeshBlend::Additive] {
                    for double_sided in [false, true] {
                        for game in [false, true] {
                            ids.push(PipelineId::Mesh { blend, double_sided, slots, game, source });
                        }
                    }
                }
            }
        }
        let mut slots: Vec<usize> = ids.iter().map(|id| id.slot()).collect();
        slots.sort_unstable();
        assert_eq!(slots, (0..COUNT).collect::<Vec<_>>());
    }
}
