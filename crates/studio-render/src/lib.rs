//! The wgpu renderer of studioview: a model's skinned, textured mesh and its overlays —
//! skeleton, hit boxes coloured by hit group, attachments, bounding boxes, ground grid.
//!
//! A [`GpuModel`] is uploaded once per model; each frame [`Renderer::prepare`] records the
//! writes of the bone matrices, camera and overlays (through a staging belt: no buffer is
//! created once it is warm), [`Renderer::draw`] records the draws into any render pass of the
//! renderer's format, and [`Renderer::finish`] hands the staging buffers back with the
//! submission. [`render_image`] does all
//! of it offscreen and reads the image back, for the command line and the tests; no window or
//! UI toolkit is involved. Shaders live in the top-level `shaders/` folder.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod camera;
mod context;
mod gpu_model;
pub mod gpu_types;
mod offscreen;
pub mod overlay;
mod renderer;
pub mod shaders;
mod texture;

pub use camera::OrbitCamera;
pub use context::{GpuContext, RenderError, request_adapter};
pub use gpu_model::{GpuMesh, GpuModel, GpuSubmodel, mesh_edges, mesh_vertices};
pub use offscreen::{OFFSCREEN_FORMAT, OffscreenTarget, RgbaImage};
pub use overlay::{HIT_GROUP_COLORS, OverlayOptions, hit_group_color};
pub use renderer::{DEPTH_FORMAT, RenderOptions, Renderer};
pub use texture::{GpuTexture, downsample};

use studio_model::Model;
use studio_pose::Pose;

/// A scene to draw: model, pose (with hit boxes and attachments placed), sequence (for its
/// box), camera and options.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    /// The model.
    pub model: &'a Model,
    /// Its pose.
    pub pose: &'a Pose,
    /// The sequence the pose is from, for the sequence box.
    pub sequence: Option<usize>,
    /// The camera.
    pub camera: &'a OrbitCamera,
    /// What to draw.
    pub options: &'a RenderOptions,
}

/// Renders a scene into `target` and reads it back.
pub fn render_image(
    context: &GpuContext,
    renderer: &mut Renderer,
    gpu: &GpuModel,
    target: &OffscreenTarget,
    scene: &Scene<'_>,
) -> Result<RgbaImage, RenderError> {
    let aspect = target.width as f32 / target.height as f32;
    let mut encoder = context
        .device
        .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("offscreen frame") });
    renderer.prepare(
        &mut encoder,
        scene.model,
        scene.pose,
        scene.sequence,
        scene.camera.clip_from_model(aspect),
        scene.camera.view_from_model(),
        scene.options,
    );
    target.pass(&mut encoder, scene.options.background, |pass| {
        renderer.draw(pass, scene.model, gpu, scene.options)
    });
    target.copy_out(&mut encoder);
    renderer.finish(&encoder);
    context.queue.submit([encoder.finish()]);
    target.read(context)
}
