//! The renderer: pipelines, per-frame uniforms and overlay buffers, and drawing a model into
//! any colour target of its format. It knows nothing of windows or UI: the app, the command
//! line and the tests drive the same code.

use glam::Mat4;

use crate::bones_binding::BonesBinding;
use crate::context::GpuContext;
use crate::gpu_model::GpuModel;
use crate::gpu_types::{BonesBuffer, FrameUniform, MAX_BONES, OverlayVertex};
use crate::ground::GroundKey;
use crate::overlay::{Overlay, OverlayOptions, WeightView};
use crate::pipelines::{MeshBlend, PipelineId, Pipelines};
use crate::scene::{Blend, FramePose, RenderModel};

/// Depth buffer format.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// How the mesh is drawn and which overlays show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderOptions {
    /// Draw the mesh.
    pub mesh: bool,
    /// Light the mesh (otherwise fullbright).
    pub lighting: bool,
    /// Flat shading (one normal per face) instead of smooth.
    pub flat: bool,
    /// Draw the mesh's triangle edges.
    pub wireframe: bool,
    /// Draw back faces too. The game culls them (its triangles are clockwise seen from the
    /// front); models with inconsistent winding show holes that this fills.
    pub double_sided: bool,
    /// Mesh opacity, 0..1.
    pub opacity: f32,
    /// The entity's body number, choosing each body part's submodel.
    pub body: i32,
    /// Level of detail (0 the finest; past the last, the last).
    pub lod: usize,
    /// Skin family.
    pub skin: usize,
    /// Overlays.
    pub overlay: OverlayOptions,
    /// Draw hit boxes, boxes and the grid through the mesh (x-ray) instead of depth-tested; the
    /// skeleton and attachments are always drawn over the mesh.
    pub xray: bool,
    /// Background colour, sRGB bytes.
    pub background: [u8; 3],
    /// Shade Source materials as the game does (normal maps, phong, light warps, self-lit
    /// where the texture's alpha says); otherwise plain diffuse lighting.
    pub game_shading: bool,
    /// The light: direction (relative to the view), colour and ambient level.
    pub light: crate::light::Light,
    /// How far the ground has scrolled under the model (its X and Y; the sequence's linear
    /// movement, negated, to show a model walking in place).
    pub ground_offset: glam::Vec3,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self {
            mesh: true,
            lighting: true,
            flat: false,
            wireframe: false,
            double_sided: false,
            opacity: 1.0,
            body: 0,
            lod: 0,
            skin: 0,
            overlay: OverlayOptions::default(),
            xray: false,
            background: [48, 52, 60],
            game_shading: true,
            light: crate::light::Light::default(),
            ground_offset: glam::Vec3::ZERO,
        }
    }
}

impl RenderOptions {
    /// These options with no overlay shown but the ground grid (no skeleton, hit boxes,
    /// attachments or boxes): the mesh, its wireframe and the grid, drawn with the mesh's
    /// pipelines only.
    pub fn only_mesh_pipelines(&self) -> Self {
        let overlay = OverlayOptions {
            skeleton: false,
            hitboxes: false,
            attachments: false,
            bounding_box: false,
            sequence_box: false,
            ..self.overlay
        };
        Self { overlay, ..*self }
    }

    /// These options with neither the mesh nor its wireframe, nor the ground grid (drawn by
    /// the mesh's pipeline): the overlays alone, drawn with the overlays' pipelines only.
    pub fn only_overlays(&self) -> Self {
        let overlay = OverlayOptions { grid: false, ..self.overlay };
        Self { mesh: false, wireframe: false, overlay, ..*self }
    }
}

/// A model another renderer has prepared for the frame, drawn into the same pass
/// ([`Renderer::draw_over_kept_ground`]).
#[derive(Clone, Copy)]
pub struct PreparedModel<'a> {
    /// The renderer that prepared it (its bone matrices and overlays live there).
    pub renderer: &'a Renderer,
    /// The model uploaded by that renderer.
    pub gpu: &'a GpuModel,
    /// What of it is drawn (its ground grid is not).
    pub options: &'a RenderOptions,
}

/// Pipelines and per-frame buffers for one colour format and sample count.
#[derive(Debug)]
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// Colour format drawn into.
    pub format: wgpu::TextureFormat,
    /// Samples per pixel.
    pub sample_count: u32,
    frame_buffer: wgpu::Buffer,
    bones_buffer: wgpu::Buffer,
    frame_bind_group: wgpu::BindGroup,
    /// The ground grid's frame uniform: the frame's, fully opaque.
    grid_frame_buffer: wgpu::Buffer,
    /// Bind group 0 of the ground grid: its frame uniform, and bones whose first places it
    /// (the identity, or shifted as the ground scrolls).
    grid_bind_group: wgpu::BindGroup,
    /// The grid's bones.
    grid_bones_buffer: wgpu::Buffer,
    /// Where the grid's bone last put it.
    grid_shift: glam::Vec3,
    /// Layout of a texture's bind group (group 1).
    pub texture_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    pipelines: Pipelines,
    line_buffer: Option<wgpu::Buffer>,
    solid_buffer: Option<wgpu::Buffer>,
    line_count: u32,
    line_on_top: u32,
    solid_count: u32,
    bones: Box<BonesBuffer>,
    overlay: Overlay,
    belt: wgpu::util::StagingBelt,
    /// The revision of the moving vertices last written to the uploaded model's buffers.
    moving_written: Option<u64>,
    /// What the last [`Self::prepare`]'s ground depends on, when it is drawn under the model.
    ground_key: Option<GroundKey>,
}

/// Size of the staging belt's buffers: a frame's bones and overlays fit in one.
const STAGING_CHUNK: u64 = 256 << 10;

/// A bind group layout entry for a whole buffer of kind `ty`.
fn buffer_entry(
    binding: u32,
    visibility: wgpu::ShaderStages,
    ty: wgpu::BufferBindingType,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None },
        count: None,
    }
}

/// A bind group layout entry for a filterable 2D texture the fragment shader samples.
fn texture_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::FRAGMENT,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Float { filterable: true },
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

impl Renderer {
    /// A renderer drawing into `format` with `sample_count` samples per pixel. Its pipelines
    /// are made as draws first need them.
    pub fn new(context: &GpuContext, format: wgpu::TextureFormat, sample_count: u32) -> Self {
        let device = &context.device;
        let bones_binding = BonesBinding::of(context);
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("frame bind group layout"),
            entries: &[
                buffer_entry(0, wgpu::ShaderStages::VERTEX_FRAGMENT, wgpu::BufferBindingType::Uniform),
                // The bones: a storage buffer where the device allows (see mesh.wgsl for why).
                buffer_entry(1, wgpu::ShaderStages::VERTEX, bones_binding.binding_type()),
            ],
        });
        let texture_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("texture bind group layout"),
            entries: &[
                texture_entry(0),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
                buffer_entry(2, wgpu::ShaderStages::VERTEX_FRAGMENT, wgpu::BufferBindingType::Uniform),
                // The normal map, the light warp and the iris (mesh.wgsl).
                texture_entry(3),
                texture_entry(4),
                texture_entry(5),
            ],
        });
        let frame_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("frame uniform"),
            size: size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bones_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bones"),
            size: size_of::<BonesBuffer>() as u64,
            usage: bones_binding.usage() | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let frame_group = |label, frame: &wgpu::Buffer, bones: &wgpu::Buffer| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(label),
                layout: &frame_layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: frame.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 1, resource: bones.as_entire_binding() },
                ],
            })
        };
        let frame_bind_group = frame_group("frame bind group", &frame_buffer, &bones_buffer);
        // The grid's vertices follow bone 0 of bones of their own, the identity.
        let grid_frame_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("ground grid frame uniform"),
            size: size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut grid_bones: Box<BonesBuffer> = bytemuck::zeroed_box();
        grid_bones.model_from_bone[0] = Mat4::IDENTITY.to_cols_array_2d();
        let grid_bones_buffer = wgpu::util::DeviceExt::create_buffer_init(
            device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("ground grid bones"),
                contents: bytemuck::bytes_of(&*grid_bones),
                // Written when the ground scrolls.
                usage: bones_binding.usage() | wgpu::BufferUsages::COPY_DST,
            },
        );
        let grid_bind_group = frame_group("ground grid bind group", &grid_frame_buffer, &grid_bones_buffer);
        // Bilinear within the nearest mip level: GL_LINEAR_MIPMAP_NEAREST, the default texture
        // mode of GLQuake, whose renderer GoldSrc's descends from. Blending two levels as well
        // (trilinear) roughly doubles the sampling code a software rasterizer compiles: 130 ms
        // more before lavapipe draws the first frame.
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("texture sampler"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            mipmap_filter: wgpu::MipmapFilterMode::Nearest,
            ..Default::default()
        });
        Self {
            pipelines: Pipelines::new(
                device,
                (format, sample_count),
                &bones_binding.mesh_source(),
                &frame_layout,
                &texture_layout,
            ),
            device: context.device.clone(),
            queue: context.queue.clone(),
            format,
            sample_count,
            frame_buffer,
            bones_buffer,
            frame_bind_group,
            grid_frame_buffer,
            grid_bind_group,
            grid_bones_buffer,
            grid_shift: glam::Vec3::ZERO,
            texture_layout,
            sampler,
            line_buffer: None,
            solid_buffer: None,
            line_count: 0,
            line_on_top: 0,
            solid_count: 0,
            bones: bytemuck::zeroed_box(),
            overlay: Overlay::default(),
            belt: wgpu::util::StagingBelt::new(context.device.clone(), STAGING_CHUNK),
            moving_written: None,
            ground_key: None,
        }
    }

    /// Uploads a model, and makes room for its overlays: once per model.
    pub fn upload(&mut self, model: &RenderModel) -> GpuModel {
        self.overlay = Overlay::for_model(model);
        let buffer = |label, vertices: usize| {
            self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: (vertices.max(1) * size_of::<OverlayVertex>()) as u64,
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        self.line_buffer = Some(buffer("overlay lines", self.overlay.lines.capacity()));
        self.solid_buffer = Some(buffer("overlay solids", self.overlay.triangles.capacity()));
        self.moving_written = None;
        GpuModel::new(&self.device, &self.queue, &self.texture_layout, &self.sampler, model)
    }

    /// Writes one frame's uniforms, skinning matrices and overlays, as copies recorded into
    /// `encoder` ahead of the frame's render pass: the per-frame CPU work. Creates no buffer:
    /// the copies go through a staging belt whose buffers are reused once [`Self::finish`] has
    /// handed them back with the submission.
    pub fn prepare(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        model: &GpuModel,
        pose: &FramePose<'_>,
        clip_from_model: Mat4,
        view_from_model: Mat4,
        options: &RenderOptions,
    ) {
        // The light turns with the view: its direction is set in view space.
        let light = view_from_model
            .inverse()
            .transform_vector3(options.light.direction_in_view())
            .normalize_or_zero();
        let [r, g, b] = options.light.color_for(model.engine);
        let frame = FrameUniform {
            clip_from_model: clip_from_model.to_cols_array_2d(),
            view_from_model: view_from_model.to_cols_array_2d(),
            light: [light.x, light.y, light.z, 0.0],
            light_color: [r, g, b, options.light.ambient_for(model.engine)],
            debug: [
                match options.overlay.weights {
                    WeightView::Off => 0.0,
                    WeightView::PerBone => 1.0,
                    WeightView::Bone(_) => 2.0,
                },
                match options.overlay.weights {
                    WeightView::Bone(bone) => bone.min(MAX_BONES) as f32,
                    _ => 0.0,
                },
                crate::overlay::marker_size(model.bounds) * 3.0,
                0.0,
            ],
            options: [
                f32::from(u8::from(options.flat)),
                options.opacity.clamp(0.0, 1.0),
                f32::from(u8::from(options.lighting)),
                0.0,
            ],
            wire_color: crate::overlay::linear([255, 255, 255], 1.0),
        };
        for (slot, bone) in self.bones.model_from_bone.iter_mut().zip(pose.skinning).take(MAX_BONES) {
            *slot = Mat4::from(*bone).to_cols_array_2d();
        }
        let used = pose.skinning.len().clamp(1, MAX_BONES) * size_of::<[[f32; 4]; 4]>();
        self.overlay.build(
            &model.parents,
            model.bounds,
            &model.hitbox_sets,
            model.engine,
            pose,
            &options.overlay,
        );

        let belt = &mut self.belt;
        let mut write = |buffer: &wgpu::Buffer, bytes: &[u8]| {
            if let Some(size) = wgpu::BufferSize::new(bytes.len() as u64) {
                belt.write_buffer(encoder, buffer, 0, size).copy_from_slice(bytes);
            }
        };
        write(&self.frame_buffer, bytemuck::bytes_of(&frame));
        let (min, max) = model.bounds;
        let shift = crate::grid::grid_shift(model.bounds, options.ground_offset);
        self.ground_key = (options.overlay.grid && !options.xray).then(|| GroundKey {
            clip_from_model: clip_from_model.to_cols_array(),
            bounds: [min.x, min.y, min.z, max.x, max.y, max.z],
            shift: shift.to_array(),
            background: options.background,
        });
        if options.overlay.grid {
            let mut grid = frame;
            grid.options[1] = 1.0;
            // The ground is not the model: never in the bone weights' colours.
            grid.debug[0] = 0.0;
            write(&self.grid_frame_buffer, bytemuck::bytes_of(&grid));
            if shift != self.grid_shift {
                let bone = Mat4::from_translation(shift).to_cols_array_2d();
                write(&self.grid_bones_buffer, bytemuck::bytes_of(&bone));
                self.grid_shift = shift;
            }
        }
        write(&self.bones_buffer, &bytemuck::bytes_of(&*self.bones)[..used]);
        // The moving meshes (flexed faces, eyes), in every LOD that draws them, when they moved.
        if !pose.moving.is_empty() && self.moving_written != Some(pose.moving_revision) {
            for (index, mesh) in model.moving_meshes() {
                if let Some(vertices) = pose.moving.get(index).filter(|v| v.len() == mesh.vertex_count) {
                    write(&mesh.vertices, bytemuck::cast_slice(vertices));
                }
            }
            self.moving_written = Some(pose.moving_revision);
        }
        let fitting = |buffer: &Option<wgpu::Buffer>, vertices: &[OverlayVertex]| {
            buffer
                .as_ref()
                .map_or(0, |b| (b.size() as usize / size_of::<OverlayVertex>()).min(vertices.len()))
        };
        self.line_count = fitting(&self.line_buffer, &self.overlay.lines) as u32;
        self.line_on_top = (self.overlay.on_top as u32).min(self.line_count);
        self.solid_count = fitting(&self.solid_buffer, &self.overlay.triangles) as u32;
        if let Some(buffer) = &self.line_buffer {
            write(buffer, bytemuck::cast_slice(&self.overlay.lines[..self.line_count as usize]));
        }
        if let Some(buffer) = &self.solid_buffer {
            write(buffer, bytemuck::cast_slice(&self.overlay.triangles[..self.solid_count as usize]));
        }
    }

    /// Closes the frame's staging writes; call once the frame is recorded into `encoder`, which
    /// must then be submitted. The staging buffers come back for reuse when the GPU is done.
    pub fn finish(&mut self, encoder: &wgpu::CommandEncoder) {
        self.belt.finish_and_recall_on_submit(encoder);
    }

    /// Records the draws of the last [`Self::prepare`] into `pass`.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, gpu: &GpuModel, options: &RenderOptions) {
        self.draw_ground(pass, gpu, options);
        self.draw_over_ground(pass, gpu, options);
    }

    /// Records the draws of the last [`Self::prepare`] into `target` as a frame of the viewer:
    /// cleared to the background, over a ground kept between frames while it stays the same
    /// (`OffscreenTarget::pass_over_ground`, [`crate::ground`]); then each of `extras` (a
    /// second model, a sprite), each prepared by its own renderer for the same camera.
    pub fn draw_over_kept_ground(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        target: &mut crate::OffscreenTarget,
        gpu: &GpuModel,
        options: &RenderOptions,
        extras: &[PreparedModel<'_>],
    ) {
        target.pass_over_ground(
            device,
            encoder,
            options.background,
            self.ground_key,
            |pass| self.draw_ground(pass, gpu, options),
            |pass| {
                self.draw_over_ground(pass, gpu, options);
                for extra in extras {
                    extra.renderer.draw_model(pass, extra.gpu, extra.options);
                }
            },
        );
    }

    /// Records the draws of the last [`Self::prepare`] but the ground: a second model drawn into
    /// the pass of the first (an attached weapon, a model compared beside it).
    pub fn draw_model(&self, pass: &mut wgpu::RenderPass<'_>, gpu: &GpuModel, options: &RenderOptions) {
        self.draw_over_ground(pass, gpu, options);
    }

    /// Records the ground of the last [`Self::prepare`]: the grid, first, hiding what is below
    /// it (in x-ray it comes after the mesh, over it: [`Self::draw_over_ground`]).
    fn draw_ground(&self, pass: &mut wgpu::RenderPass<'_>, gpu: &GpuModel, options: &RenderOptions) {
        if options.overlay.grid && !options.xray {
            self.draw_grid(pass, gpu, false);
        }
    }

    /// Records the draws of the last [`Self::prepare`] but the ground into `pass`.
    fn draw_over_ground(&self, pass: &mut wgpu::RenderPass<'_>, gpu: &GpuModel, options: &RenderOptions) {
        pass.set_bind_group(0, &self.frame_bind_group, &[]);
        if options.mesh || options.wireframe {
            let translucent = options.opacity < 1.0;
            // Opaque meshes first, then blended ones over them, then additive ones.
            for blend in [Blend::Opaque, Blend::Translucent, Blend::Additive] {
                for submodel in gpu.submodels(options.body) {
                    for mesh in submodel.meshes(options.lod) {
                        let texture = gpu.texture(options.skin, mesh.slot);
                        if texture.blend != blend {
                            continue;
                        }
                        pass.set_bind_group(1, &texture.bind_group, &[]);
                        pass.set_vertex_buffer(0, mesh.vertices.slice(..));
                        if options.mesh {
                            let blend = match (blend, translucent) {
                                (Blend::Additive, _) => MeshBlend::Additive,
                                (Blend::Translucent, _) | (Blend::Opaque, true) => MeshBlend::Blended,
                                (Blend::Opaque, false) => MeshBlend::Opaque,
                            };
                            let double_sided = options.double_sided || texture.double_sided;
                            pass.set_pipeline(self.pipelines.get(PipelineId::Mesh {
                                blend,
                                double_sided,
                                slots: gpu.bone_slots,
                                game: options.game_shading && texture.game_shaded,
                                source: gpu.engine == crate::light::Engine::Source,
                            }));
                            pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
                            pass.draw_indexed(0..mesh.index_count, 0, 0..1);
                        }
                        if options.wireframe && mesh.edge_count > 0 {
                            pass.set_pipeline(self.pipelines.get(PipelineId::Wire { slots: gpu.bone_slots }));
                            pass.set_index_buffer(mesh.edges.slice(..), wgpu::IndexFormat::Uint32);
                            pass.draw_indexed(0..mesh.edge_count, 0, 0..1);
                        }
                    }
                }
            }
        }
        if options.overlay.normals {
            pass.set_pipeline(self.pipelines.get(PipelineId::Normals { slots: gpu.bone_slots }));
            for submodel in gpu.submodels(options.body) {
                for mesh in submodel.meshes(options.lod) {
                    pass.set_bind_group(1, &gpu.texture(options.skin, mesh.slot).bind_group, &[]);
                    pass.set_vertex_buffer(0, mesh.vertices.slice(..));
                    pass.draw(0..2, 0..mesh.vertex_count as u32);
                }
            }
        }
        if options.overlay.grid && options.xray {
            self.draw_grid(pass, gpu, true);
            pass.set_bind_group(0, &self.frame_bind_group, &[]);
        }
        if let Some(buffer) = self.solid_buffer.as_ref().filter(|_| self.solid_count > 0) {
            pass.set_pipeline(self.pipelines.get(PipelineId::Solids { xray: options.xray }));
            pass.set_vertex_buffer(0, buffer.slice(..));
            pass.draw(0..self.solid_count, 0..1);
        }
        if let Some(buffer) = self.line_buffer.as_ref().filter(|_| self.line_count > 0) {
            pass.set_vertex_buffer(0, buffer.slice(..));
            if self.line_on_top > 0 {
                pass.set_pipeline(self.pipelines.get(PipelineId::Lines { xray: options.xray }));
                pass.draw(0..self.line_on_top, 0..1);
            }
            if self.line_count > self.line_on_top {
                pass.set_pipeline(self.pipelines.get(PipelineId::Lines { xray: true }));
                pass.draw(self.line_on_top..self.line_count, 0..1);
            }
        }
    }

    /// Records the ground grid's draw, x-ray or depth-tested; leaves the grid's bind groups bound.
    fn draw_grid(&self, pass: &mut wgpu::RenderPass<'_>, gpu: &GpuModel, xray: bool) {
        let source = gpu.engine == crate::light::Engine::Source;
        pass.set_pipeline(self.pipelines.get(PipelineId::Grid { xray, slots: gpu.bone_slots, source }));
        pass.set_bind_group(0, &self.grid_bind_group, &[]);
        pass.set_bind_group(1, &gpu.grid.material.bind_group, &[]);
        pass.set_vertex_buffer(0, gpu.grid.vertices.slice(..));
        pass.draw(0..gpu.grid.count, 0..1);
    }
}
