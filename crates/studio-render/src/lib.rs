//! The wgpu renderer of studioview: a model's skinned, textured mesh and its overlays —
//! skeleton, hit boxes coloured by hit group, attachments, bounding boxes, ground grid.
//!
//! The renderer sees no file format: [`goldsrc`] and [`source`] turn each format's model and
//! pose into a [`RenderModel`] and a [`FramePose`]. A [`GpuModel`] is uploaded once per model; each frame [`Renderer::prepare`] records the
//! writes of the bone matrices, camera and overlays (through a staging belt: no buffer is
//! created once it is warm), [`Renderer::draw`] records the draws into any render pass of the
//! renderer's format, and [`Renderer::finish`] hands the staging buffers back with the
//! submission. [`render_image`] does all
//! of it offscreen and reads the image back, for the command line and the tests; no window or
//! UI toolkit is involved. Shaders live in the top-level `shaders/` folder.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod adapter_choice;
pub mod bones_binding;
mod camera;
mod context;
pub mod goldsrc;
mod gpu_model;
pub mod gpu_types;
mod grid;
mod ground;
pub mod light;
pub mod matte;
mod offscreen;
pub mod overlay;
mod picture;
mod pipelines;
mod renderer;
pub mod scene;
pub mod shaders;
pub mod source;
pub mod source_face;
pub mod sprite;
mod texture;

pub use camera::{
    AxisView, Camera, CameraMode, GOLDSRC_VIEW_MODEL_FOV, SOURCE_VIEW_MODEL_FOV, game_fov_to_vertical,
    vertical_fov_to_game,
};
pub use context::{GpuContext, RenderError, device_descriptor, is_software, request_adapter};
pub use gpu_model::{GpuMesh, GpuModel, GpuSubmodel, mesh_edges};
pub use grid::{GRID_COLOR, GpuGrid, grid_shift, grid_step};
pub use light::{Engine, Light};
pub use offscreen::{OFFSCREEN_FORMAT, OffscreenTarget, RgbaImage};
pub use overlay::{HIT_GROUP_COLORS, OverlayOptions, WeightView, hit_group_color, player_hulls};
pub use picture::{Picture, PictureDrawer};
pub use renderer::{DEPTH_FORMAT, PreparedModel, RenderOptions, Renderer};
pub use scene::{
    Blend, FramePose, Image, RenderBodyPart, RenderMaterial, RenderMesh, RenderModel, RenderSubmodel,
};
pub use texture::{GpuTexture, downsample};

/// A scene to draw: the uploaded model, its pose, camera and options.
#[derive(Clone, Copy, Debug)]
pub struct Scene<'a> {
    /// The pose.
    pub pose: FramePose<'a>,
    /// The camera.
    pub camera: &'a Camera,
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
    render_image_with(context, renderer, gpu, target, scene, &mut [])
}

/// [`render_image`] over transparency: the scene drawn over black and over white, its alpha
/// recovered from the two ([`matte`]); the options' background and ground grid are not drawn.
pub fn render_image_transparent(
    context: &GpuContext,
    renderer: &mut Renderer,
    gpu: &GpuModel,
    target: &OffscreenTarget,
    scene: &Scene<'_>,
) -> Result<RgbaImage, RenderError> {
    render_image_transparent_with(context, renderer, gpu, target, scene, &mut [])
}

/// [`render_image_transparent`] with `extras` drawn into the same picture.
pub fn render_image_transparent_with(
    context: &GpuContext,
    renderer: &mut Renderer,
    gpu: &GpuModel,
    target: &OffscreenTarget,
    scene: &Scene<'_>,
    extras: &mut [ExtraModel<'_>],
) -> Result<RgbaImage, RenderError> {
    let mut options = *scene.options;
    options.overlay.grid = false;
    options.background = [0, 0, 0];
    let black =
        render_image_with(context, renderer, gpu, target, &Scene { options: &options, ..*scene }, extras)?;
    options.background = [255, 255, 255];
    let white =
        render_image_with(context, renderer, gpu, target, &Scene { options: &options, ..*scene }, extras)?;
    Ok(matte::matte(&black, &white))
}

/// One more model drawn into a scene: its renderer, uploaded model, pose and options (the
/// scene's camera and target).
pub struct ExtraModel<'a> {
    /// Its renderer (each model needs its own: the frame's bone matrices live there).
    pub renderer: &'a mut Renderer,
    /// The model uploaded by that renderer.
    pub gpu: &'a GpuModel,
    /// Its pose.
    pub pose: FramePose<'a>,
    /// What of it is drawn (its ground grid is not).
    pub options: &'a RenderOptions,
}

/// [`render_image`] with `extras` drawn into the same picture, after the scene's model.
pub fn render_image_with(
    context: &GpuContext,
    renderer: &mut Renderer,
    gpu: &GpuModel,
    target: &OffscreenTarget,
    scene: &Scene<'_>,
    extras: &mut [ExtraModel<'_>],
) -> Result<RgbaImage, RenderError> {
    let aspect = target.width as f32 / target.height as f32;
    let (clip, view) = (scene.camera.clip_from_model(aspect), scene.camera.view_from_model());
    let mut encoder = context.device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("offscreen frame, several models"),
    });
    renderer.prepare(&mut encoder, gpu, &scene.pose, clip, view, scene.options);
    for extra in extras.iter_mut() {
        extra.renderer.prepare(&mut encoder, extra.gpu, &extra.pose, clip, view, extra.options);
    }
    target.pass(&mut encoder, scene.options.background, |pass| {
        renderer.draw(pass, gpu, scene.options);
        for extra in extras.iter() {
            extra.renderer.draw_model(pass, extra.gpu, extra.options);
        }
    });
    target.copy_out(&mut encoder);
    renderer.finish(&encoder);
    for extra in extras.iter_mut() {
        extra.renderer.finish(&encoder);
    }
    context.queue.submit([encoder.finish()]);
    target.read(context)
}
