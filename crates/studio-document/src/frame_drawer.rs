//! Frames of a model drawn offscreen with what the viewer draws beside it: the second models
//! (attached by bone merge, or compared beside) in their poses and Half-Life's muzzle flashes
//! (studio-render's sprites). `render` draws its pictures and animations through it, and the
//! viewer's capture its frames.

use studio_render::{
    Camera, GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, RenderModel, RenderOptions, Renderer, RgbaImage,
    Scene,
};

use crate::muzzle_flash::{FlashSprites, MuzzleFlash, PlacedFlash, place_flashes, placed_model};
use crate::second_model::SecondModel;

/// Draws frames of a model offscreen, with the models attached to it or beside it and the
/// muzzle flashes fired.
pub struct FrameDrawer {
    context: GpuContext,
    renderer: Renderer,
    gpu: studio_render::GpuModel,
    target: OffscreenTarget,
    options: RenderOptions,
    transparent: bool,
    /// Each attached model's renderer and upload.
    extras: Vec<(Renderer, studio_render::GpuModel)>,
    /// How attached models are drawn: as the model, without overlays.
    extra_options: RenderOptions,
    /// The muzzle flash sprites, when flashes are drawn, and the renderers drawing them.
    flashes: Option<(FlashSprites, studio_render::sprite::SpriteRenderers)>,
    /// Flash sprites already said to be missing.
    flash_notes: [bool; 3],
    /// What could not be drawn (a flash sprite not found), each said once; the caller takes
    /// them.
    pub notes: Vec<String>,
}

impl FrameDrawer {
    /// A drawer of `model` with `options` into pictures of `size`, over transparency when
    /// `transparent`; `attached` are the second models' render models (drawn without overlays,
    /// each with its own renderer), and `flashes` the sprites of muzzle flashes to draw.
    pub fn new(
        model: &RenderModel,
        options: RenderOptions,
        size: (u32, u32),
        transparent: bool,
        attached: &[&RenderModel],
        flashes: Option<FlashSprites>,
    ) -> Result<Self, String> {
        let context = GpuContext::headless().map_err(|e| e.to_string())?;
        let samples = context.sample_count(OFFSCREEN_FORMAT);
        let mut renderer = Renderer::new(&context, OFFSCREEN_FORMAT, samples);
        let gpu = renderer.upload(model);
        let target = OffscreenTarget::new(&context, size.0, size.1, samples);
        let extras = attached
            .iter()
            .map(|a| {
                let mut renderer = Renderer::new(&context, OFFSCREEN_FORMAT, samples);
                let gpu = renderer.upload(a);
                (renderer, gpu)
            })
            .collect();
        let extra_options =
            RenderOptions { overlay: Default::default(), body: 0, skin: 0, lod: 0, ..options };
        Ok(Self {
            context,
            renderer,
            gpu,
            target,
            options,
            transparent,
            extras,
            extra_options,
            flashes: flashes.map(|sprites| (sprites, Default::default())),
            flash_notes: [false; 3],
            notes: Vec::new(),
        })
    }

    /// `pose` seen by `camera`, with the second models in their poses and the muzzle `flashes`
    /// fired on this frame (drawn when the drawer was given their sprites).
    pub fn image(
        &mut self,
        pose: studio_render::FramePose<'_>,
        camera: &Camera,
        attached: &[SecondModel],
        flashes: &[MuzzleFlash],
    ) -> Result<RgbaImage, String> {
        let scene = Scene { pose, camera, options: &self.options };
        let mut extras: Vec<studio_render::ExtraModel<'_>> = self
            .extras
            .iter_mut()
            .zip(attached)
            .map(|((renderer, gpu), a)| studio_render::ExtraModel {
                renderer,
                gpu,
                pose: a.frame_pose(),
                options: &self.extra_options,
            })
            .collect();
        // Each flash's sprite (a missing one said once), then its bone and options.
        let mut shown = Vec::new();
        if let Some((sprites, _)) = self.flashes.as_mut() {
            for flash in flashes {
                match sprites.sprite(flash.sprite) {
                    Ok(sprite) => shown.push((*flash, sprite)),
                    Err(e) => {
                        if !std::mem::replace(&mut self.flash_notes[flash.sprite.min(2)], true) {
                            self.notes.push(format!("muzzle flash not drawn: {e}"));
                        }
                    }
                }
            }
        }
        let placed = place_flashes(&shown, pose.attachments, camera.view_from_model(), &self.options);
        let draws: Vec<_> = placed.iter().map(PlacedFlash::draw).collect();
        if let Some((_, renderers)) = self.flashes.as_mut() {
            let format = (self.renderer.format, self.renderer.sample_count);
            let model = |key: usize| placed_model(&placed, key);
            extras.extend(renderers.extras(&self.context, format, &draws, model));
        }
        let (context, renderer, gpu, target) = (&self.context, &mut self.renderer, &self.gpu, &self.target);
        let image = if self.transparent {
            studio_render::render_image_transparent_with(context, renderer, gpu, target, &scene, &mut extras)
        } else {
            studio_render::render_image_with(context, renderer, gpu, target, &scene, &mut extras)
        };
        image.map_err(|e| e.to_string())
    }
}
