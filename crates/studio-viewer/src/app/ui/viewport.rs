//! The central viewport: the renderer draws the pose into a texture of the viewport's size,
//! which egui's paint callback puts into the window: copied into egui-wgpu's retained window
//! picture where the window's format allows (a copy costs a software rasterizer a fraction of
//! a draw), otherwise drawn in the window's pass ([`studio_render::Picture`]). Drags orbit
//! (left) and pan (right or middle), the wheel zooms. It renders only when the scene changed,
//! so an idle viewer does no GPU work.

use studio_render::{
    GpuContext, GpuModel, OFFSCREEN_FORMAT, OffscreenTarget, Picture, PictureDrawer, PreparedModel,
    RenderOptions, Renderer,
};

use studio_document::muzzle_flash;

use crate::app::state::{AppState, Level};
use crate::app::warmup::{Stage, Warmup};

/// How egui samples the viewport's image while it shows it as an egui image (the first frames,
/// see [`Gpu::picture`]). The image has the viewport's size in pixels, so nearest would be
/// exact, but egui's other textures are linear, and a second sampler state makes lavapipe
/// compile egui's shader once more before the first frame: 80 ms later to a visible model.
const SAMPLE_FILTER: eframe::wgpu::FilterMode = eframe::wgpu::FilterMode::Linear;

/// What was last drawn, to tell whether the scene changed.
#[derive(Clone, PartialEq)]
struct Drawn {
    model: (usize, u64),
    revision: u64,
    face: u64,
    camera: studio_render::Camera,
    options: RenderOptions,
    size: (u32, u32),
}

/// The format the viewport renders in for a window of `window_format` on `backend`, when the
/// window's picture can take the viewport's by a copy: the window's own channel order, in sRGB
/// (a copy may drop sRGB, not reorder channels). `None` on OpenGL, which cannot view a texture
/// in another format, and for windows of other formats: the viewport then renders in
/// [`OFFSCREEN_FORMAT`] and its picture is drawn.
pub fn copied_format(
    backend: eframe::wgpu::Backend,
    window_format: eframe::wgpu::TextureFormat,
) -> Option<eframe::wgpu::TextureFormat> {
    use eframe::wgpu::TextureFormat;
    if backend == eframe::wgpu::Backend::Gl {
        return None;
    }
    match window_format.remove_srgb_suffix() {
        TextureFormat::Bgra8Unorm => Some(TextureFormat::Bgra8UnormSrgb),
        TextureFormat::Rgba8Unorm => Some(TextureFormat::Rgba8UnormSrgb),
        _ => None,
    }
}

/// The size in pixels of a paint callback at `rect`, as egui-wgpu sets its viewport (each edge
/// rounded), so that the picture fills it texel for pixel.
fn viewport_pixels(rect: egui::Rect, pixels_per_point: f32, most: u32) -> (u32, u32) {
    let side = |from: f32, to: f32| {
        let pixels = (to * pixels_per_point).round() - (from * pixels_per_point).round();
        (pixels.max(1.0) as u32).min(most)
    };
    (side(rect.min.x, rect.max.x), side(rect.min.y, rect.max.y))
}

/// GPU resources of the viewport.
struct Gpu {
    context: GpuContext,
    /// The format the renderer draws in: [`copied_format`]'s where the picture is copied,
    /// otherwise [`OFFSCREEN_FORMAT`].
    format: eframe::wgpu::TextureFormat,
    /// Whether the picture is copied into the window ([`copied_format`]): then it is never
    /// shown as an egui image, and the drawer is made at once, for a window that turns out not
    /// to copy it.
    copied: bool,
    renderer: Renderer,
    model: Option<((usize, u64), GpuModel)>,
    target: Option<OffscreenTarget>,
    texture: Option<egui::TextureId>,
    /// The pipeline copying the target's picture into the window's pass, made once a frame has
    /// shown the whole scene: lavapipe compiles it (60–80 ms) at its first draw, which must not
    /// hold back the first picture of the model. Until then egui shows the image itself.
    drawer: Option<PictureDrawer>,
    /// egui's paint callback drawing the target's picture with `drawer`, made with the target:
    /// each frame only shares it, at the viewport's rectangle.
    picture: Option<egui::PaintCallback>,
    /// Whether a frame has shown the whole scene (the shader warm-up over).
    shown_whole: bool,
    drawn: Option<Drawn>,
    screenshots: u32,
    /// Whether the adapter is a software renderer (asked once: the answer allocates).
    software: bool,
    /// The most samples per pixel the adapter offers for the viewport (asked once).
    most_samples: u32,
    /// The second model's renderer and upload, with the load it is of.
    second: Option<(u64, Renderer, GpuModel)>,
    /// The renderers of the muzzle flashes' sprites.
    sprites: studio_render::sprite::SpriteRenderers,
    /// The model the sprites' renderers were made for.
    sprites_for: u64,
}

impl Gpu {
    /// Samples per pixel for the MSAA setting ([`msaa_samples`]).
    fn samples(&self, msaa: Option<bool>) -> u32 {
        msaa_samples(msaa, self.software, self.most_samples)
    }
}

/// Samples per pixel for the MSAA setting `msaa` on an adapter offering at most `most`: by
/// default all of them on a GPU, one on a software renderer (`GpuContext::
/// interactive_sample_count`'s rule).
fn msaa_samples(msaa: Option<bool>, software: bool, most: u32) -> u32 {
    if msaa.unwrap_or(!software) { most } else { 1 }
}

/// The viewport.
#[derive(Default)]
pub struct Viewport {
    gpu: Option<Gpu>,
    /// Set to save the next frame as a PNG.
    pub screenshot: bool,
    /// A handle being dragged.
    drag: Option<super::handles::HandleDrag>,
    /// Where the viewport was last laid out (`None` before its first frame).
    pub rect: Option<egui::Rect>,
    /// The helper compiling the shaders of the first draws, until it is done, and egui's
    /// animation time to restore then.
    warmup: Option<(Warmup, f32)>,
}

impl Viewport {
    /// The viewport's GPU resources, made on its first frame with the samples `msaa` asks for.
    fn gpu(&mut self, render_state: &eframe::egui_wgpu::RenderState, msaa: Option<bool>) -> &mut Gpu {
        self.gpu.get_or_insert_with(|| {
            let context = GpuContext {
                instance: render_state.instance.clone(),
                adapter: render_state.adapter.clone(),
                device: render_state.device.clone(),
                queue: render_state.queue.clone(),
            };
            let software = context.is_software();
            let copied = copied_format(context.adapter.get_info().backend, render_state.target_format);
            let format = copied.unwrap_or(OFFSCREEN_FORMAT);
            let most_samples = context.sample_count(format);
            let renderer = Renderer::new(&context, format, msaa_samples(msaa, software, most_samples));
            let drawer = copied.map(|_| PictureDrawer::new(&context.device, render_state.target_format));
            Gpu {
                context,
                format,
                copied: copied.is_some(),
                renderer,
                model: None,
                target: None,
                texture: None,
                drawer,
                picture: None,
                shown_whole: false,
                drawn: None,
                screenshots: 0,
                software,
                most_samples,
                second: None,
                sprites: Default::default(),
                sprites_for: 0,
            }
        })
    }

    /// Holds the mesh back until `warmup` has its shaders ready (or has taken too long):
    /// the other overlays alone meanwhile. Nor does egui animate: the window's first frames fade
    /// scroll bars in, and each such frame redraws the whole window on a processor the helper
    /// needs.
    pub fn hold(&mut self, warmup: Warmup, ctx: &egui::Context) {
        let animation_time = ctx.global_style().animation_time;
        ctx.all_styles_mut(|style| style.animation_time = 0.0);
        self.warmup = Some((warmup, animation_time));
    }

    /// Whether the shader warm-up is still going: the viewport holds the mesh back.
    pub fn holding(&self) -> bool {
        self.warmup.is_some()
    }

    /// Samples per pixel the viewport draws with (0 before its first frame).
    pub fn sample_count(&self) -> u32 {
        self.gpu.as_ref().map_or(0, |gpu| gpu.renderer.sample_count)
    }

    /// Whether the viewport draws through a software renderer (false before its first frame).
    pub fn is_software(&self) -> bool {
        self.gpu.as_ref().is_some_and(|gpu| gpu.software)
    }

    /// Shows the viewport, handling camera input. Without a GPU (tests), a placeholder.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        state: &mut AppState,
        render_state: Option<&eframe::egui_wgpu::RenderState>,
    ) {
        let size = ui.available_size().max(egui::vec2(16.0, 16.0));
        let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click_and_drag());
        self.rect = Some(rect);
        camera_input(ui, &response, state);
        state.hovered_bone = match state.settings.weights {
            crate::app::settings::Weights::UnderCursor => bone_under_pointer(ui, rect, state),
            _ => None,
        };

        let Some(render_state) = render_state else {
            ui.painter().rect_filled(rect, 0.0, egui::Color32::from_rgb(48, 52, 60));
            ui.painter().text(
                rect.center(),
                egui::Align2::CENTER_CENTER,
                "no GPU: viewport not drawn",
                egui::FontId::default(),
                egui::Color32::GRAY,
            );
            super::camera::first_person_marks(ui, rect, state);
            super::handles::handles_ui(ui, rect, state, &mut self.drag);
            return;
        };
        let max = render_state.device.limits().max_texture_dimension_2d;
        let pixels = viewport_pixels(rect, ui.ctx().pixels_per_point(), max);
        let stage = self.warmup.as_ref().map_or(Stage::Done, |(w, _)| w.stage(ui.ctx()));
        // A screenshot asked for meanwhile waits for the whole picture.
        let screenshot = stage == Stage::Done && std::mem::take(&mut self.screenshot);
        if stage == Stage::Done
            && let Some((_, animation_time)) = self.warmup.take()
        {
            ui.ctx().all_styles_mut(|style| style.animation_time = animation_time);
        }
        let options = warm_up_options(stage, ui.ctx().cumulative_frame_nr(), state.render_options());
        let gpu = self.gpu(render_state, state.settings.msaa);
        let samples = gpu.samples(state.settings.msaa);
        if samples != gpu.renderer.sample_count {
            // MSAA turned on or off: pipelines and targets of the other sample count.
            gpu.renderer = Renderer::new(&gpu.context, gpu.format, samples);
            gpu.second = None;
            gpu.sprites.clear();
            gpu.model = None;
            gpu.target = None;
            gpu.drawn = None;
        }
        let identity = state.scene_identity();
        if gpu.model.as_ref().is_none_or(|(id, _)| *id != identity) {
            gpu.model = Some((identity, gpu.renderer.upload(&state.render_model())));
            gpu.drawn = None;
        }
        let second_id = state.extras.second_id;
        if gpu.second.as_ref().map(|(id, ..)| *id) != Some(second_id) {
            gpu.second = state.extras.second.as_ref().map(|second| {
                let mut renderer = Renderer::new(&gpu.context, gpu.format, gpu.renderer.sample_count);
                let upload = renderer.upload(&second.render);
                (second_id, renderer, upload)
            });
            gpu.drawn = None;
        }
        if gpu.sprites_for != state.load_id {
            // Another model: its game's sprites may differ.
            gpu.sprites.clear();
            gpu.sprites_for = state.load_id;
        }
        let resized = gpu.target.as_ref().is_none_or(|t| (t.width, t.height) != pixels);
        if resized {
            let (width, height, samples) = (pixels.0, pixels.1, gpu.renderer.sample_count);
            let target = if gpu.copied {
                OffscreenTarget::for_window(&gpu.context, width, height, samples, gpu.format)
            } else {
                OffscreenTarget::with_usage(
                    &gpu.context,
                    width,
                    height,
                    samples,
                    eframe::wgpu::TextureUsages::TEXTURE_BINDING,
                )
            };
            // egui composes in gamma space: it takes the image's sRGB bytes as they are.
            if let Some(view) = target.raw_view().filter(|_| !gpu.copied) {
                let mut egui_renderer = render_state.renderer.write();
                let device = &gpu.context.device;
                match gpu.texture {
                    Some(id) => {
                        egui_renderer.update_egui_texture_from_wgpu_texture(device, &view, SAMPLE_FILTER, id)
                    }
                    None => {
                        gpu.texture =
                            Some(egui_renderer.register_native_texture(device, &view, SAMPLE_FILTER))
                    }
                }
            }
            gpu.picture = gpu.drawer.as_ref().and_then(|d| paint_callback(d, &gpu.context.device, &target));
            gpu.target = Some(target);
            gpu.drawn = None;
        }
        if gpu.drawer.is_none() && gpu.shown_whole {
            let drawer = PictureDrawer::new(&gpu.context.device, render_state.target_format);
            gpu.picture = gpu.target.as_ref().and_then(|t| paint_callback(&drawer, &gpu.context.device, t));
            gpu.drawer = Some(drawer);
        }
        let drawn = Drawn {
            model: identity,
            revision: state.revision(),
            face: state.update_face(),
            camera: state.camera,
            options,
            size: pixels,
        };
        if gpu.drawn.as_ref() != Some(&drawn) || screenshot {
            draw(gpu, state, &options, screenshot);
            gpu.drawn = Some(drawn);
        }
        if let Some(picture) = &gpu.picture {
            ui.painter()
                .add(egui::PaintCallback { rect, callback: std::sync::Arc::clone(&picture.callback) });
        } else if let (Some(id), Some(target)) = (gpu.texture, &gpu.target) {
            let [u, v] = target.image_uv();
            let uv = egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(u, v));
            ui.painter().image(id, rect, uv, egui::Color32::WHITE);
            gpu.shown_whole |= stage == Stage::Done;
        }
        labels(ui, rect, state);
        super::camera::first_person_marks(ui, rect, state);
        super::handles::handles_ui(ui, rect, state, &mut self.drag);
    }
}

/// The viewport's picture, copied into egui's retained window picture or drawn in the window's
/// pass where egui calls back.
struct ShowPicture {
    /// The target's finished texture, for a window that can take it by a copy.
    texture: eframe::wgpu::Texture,
    picture: Picture,
}

/// The paint callback showing `target`'s picture (its rectangle is set where it is painted).
fn paint_callback(
    drawer: &PictureDrawer,
    device: &eframe::wgpu::Device,
    target: &OffscreenTarget,
) -> Option<egui::PaintCallback> {
    let picture = drawer.picture(device, target)?;
    let show = ShowPicture { texture: target.texture().clone(), picture };
    Some(eframe::egui_wgpu::Callback::new_paint_callback(egui::Rect::NOTHING, show))
}

impl eframe::egui_wgpu::CallbackTrait for ShowPicture {
    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut eframe::wgpu::RenderPass<'static>,
        _resources: &eframe::egui_wgpu::CallbackResources,
    ) {
        self.picture.draw(pass);
    }

    /// The picture covers its viewport without blending (`picture.wgsl`), so egui's retained
    /// window picture skips the panel drawn under it.
    fn opaque(&self) -> bool {
        true
    }

    /// The finished texture, for a window picture whose format it can be copied into (egui-wgpu
    /// checks the formats and the size again).
    fn picture(&self, format: eframe::wgpu::TextureFormat, size: [u32; 2]) -> Option<&eframe::wgpu::Texture> {
        let texture = &self.texture;
        (texture.format().remove_srgb_suffix() == format.remove_srgb_suffix()
            && [texture.width(), texture.height()] == size)
            .then_some(texture)
    }
}

/// What the viewport draws of `options` at `stage` of the shader warm-up, in frame `frame`
/// (0 the first). While the helper compiles the mesh's shaders, the overlays alone (not the
/// ground grid, drawn by the mesh's pipeline): this process compiles theirs meanwhile. But the
/// background alone in the first frame: eframe shows the window once that frame is painted,
/// and the overlays' shaders would keep it hidden while they compile (measure.py, 12
/// interleaved cold starts of the soldier: window median 0.28 → 0.24 s, model and grid visible
/// at the same time, mean 0.343 and 0.342 s).
fn warm_up_options(stage: Stage, frame: u64, options: RenderOptions) -> RenderOptions {
    match stage {
        Stage::Compiling if frame == 0 => options.only_overlays().only_mesh_pipelines(),
        Stage::Compiling => options.only_overlays(),
        Stage::Done => options,
    }
}

/// Renders the scene into the viewport's texture (and, when asked, saves it): the model, the
/// second model and the muzzle flashes of the frame.
fn draw(gpu: &mut Gpu, state: &mut AppState, options: &RenderOptions, screenshot: bool) {
    // The flashes' sprites first: reading one may say it is missing.
    let mut sprites = Vec::new();
    for flash in state.extras.flashes.clone() {
        if let Some(sprite) = state.flash_sprite(flash.sprite) {
            sprites.push((flash, sprite));
        }
    }
    let (Some(target), Some((_, gpu_model))) = (&mut gpu.target, &gpu.model) else { return };
    let aspect = target.width as f32 / target.height as f32;
    let (clip, view) = (state.camera.clip_from_model(aspect), state.camera.view_from_model());
    let mut encoder = gpu.context.device.create_command_encoder(&Default::default());
    let pose = state.frame_pose();
    gpu.renderer.prepare(&mut encoder, gpu_model, &pose, clip, view, options);
    // Each flash's bone and options; then every extra model prepared by its own renderer.
    let placed = muzzle_flash::place_flashes(&sprites, pose.attachments, view, options);
    let draws: Vec<_> = placed.iter().map(muzzle_flash::PlacedFlash::draw).collect();
    let second_options = RenderOptions { overlay: Default::default(), body: 0, skin: 0, lod: 0, ..*options };
    let mut extras = Vec::new();
    if let (Some((_, renderer, upload)), Some(second)) = (&mut gpu.second, &state.extras.second) {
        extras.push(studio_render::ExtraModel {
            renderer,
            gpu: upload,
            pose: second.frame_pose(),
            options: &second_options,
        });
    }
    let formats = (gpu.format, gpu.renderer.sample_count);
    let model = |key: usize| muzzle_flash::placed_model(&placed, key);
    extras.extend(gpu.sprites.extras(&gpu.context, formats, &draws, model));
    for extra in &mut extras {
        extra.renderer.prepare(&mut encoder, extra.gpu, &extra.pose, clip, view, extra.options);
    }
    let prepared: Vec<PreparedModel<'_>> = extras
        .iter()
        .map(|e| PreparedModel { renderer: &*e.renderer, gpu: e.gpu, options: e.options })
        .collect();
    // While the view stays still, the ground is drawn once and then copied (studio-render's
    // ground.rs): on a software renderer its lines cost more than the model.
    gpu.renderer.draw_over_kept_ground(
        &gpu.context.device,
        &mut encoder,
        target,
        gpu_model,
        options,
        &prepared,
    );
    drop(prepared);
    for extra in &mut extras {
        extra.renderer.finish(&encoder);
    }
    if screenshot {
        target.copy_out(&mut encoder);
    }
    drop(extras);
    gpu.renderer.finish(&encoder);
    gpu.context.queue.submit([encoder.finish()]);
    if screenshot {
        gpu.screenshots += 1;
        let path = std::path::PathBuf::from(format!("studioview-screenshot-{}.png", gpu.screenshots));
        let result = target
            .read(&gpu.context)
            .map_err(|e| e.to_string())
            .and_then(|image| studio_document::png_file::write_png(&path, &image));
        match result {
            Ok(()) => state.say(Level::Info, format!("screenshot saved to {}", path.display())),
            Err(e) => state.say(Level::Error, format!("screenshot failed: {e}")),
        }
    }
}

/// Orbit with the left button (Ctrl: turn the light), pan with the right or middle one, zoom
/// with the wheel.
fn camera_input(ui: &egui::Ui, response: &egui::Response, state: &mut AppState) {
    let delta = response.drag_delta();
    let ctrl = ui.input(|i| i.modifiers.command);
    if response.dragged_by(egui::PointerButton::Primary) && ctrl {
        // Ctrl+drag turns the light, as in both peers.
        let mut light = state.settings.light();
        light.turn(delta.x * 0.4, delta.y * 0.4);
        state.settings.set_light_direction(&light);
    } else if response.dragged_by(egui::PointerButton::Primary) {
        state.camera.orbit(-delta.x * 0.4, delta.y * 0.4);
    } else if response.dragged_by(egui::PointerButton::Secondary)
        || response.dragged_by(egui::PointerButton::Middle)
    {
        let scale = 1.0 / response.rect.height().max(1.0);
        state.camera.pan(-delta.x * scale, delta.y * scale);
    }
    if response.hovered() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            state.camera.zoom((-scroll * 0.002).exp());
        }
    }
}

/// The bone whose joint is nearest the pointer over the viewport, within 24 points: what the
/// bone weights view shows under the cursor.
fn bone_under_pointer(ui: &egui::Ui, rect: egui::Rect, state: &AppState) -> Option<usize> {
    let pointer = ui.input(|i| i.pointer.hover_pos()).filter(|p| rect.contains(*p))?;
    let size = (rect.width().max(1.0) as u32, rect.height().max(1.0) as u32);
    state
        .bone_names()
        .iter()
        .enumerate()
        .filter_map(|(i, (_, at))| {
            let p = state.camera.project(*at, size.0, size.1)?;
            Some((i, (rect.min + egui::vec2(p.x, p.y)).distance(pointer)))
        })
        .filter(|(_, distance)| *distance <= 24.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// Bone names and attachment numbers beside their points.
fn labels(ui: &egui::Ui, rect: egui::Rect, state: &AppState) {
    let size = (rect.width().max(1.0) as u32, rect.height().max(1.0) as u32);
    let painter = ui.painter_at(rect);
    let font = egui::FontId::proportional(11.0);
    let at = |p: glam::Vec3| state.camera.project(p, size.0, size.1).map(|v| rect.min + egui::vec2(v.x, v.y));
    if state.settings.skeleton && state.settings.bone_names {
        for (name, at_point) in state.bone_names() {
            if let Some(p) = at(at_point) {
                painter.text(
                    p + egui::vec2(4.0, -4.0),
                    egui::Align2::LEFT_BOTTOM,
                    name,
                    font.clone(),
                    egui::Color32::from_rgb(255, 255, 160),
                );
            }
        }
    }
    if state.settings.attachments {
        for (label, point) in state.attachment_labels() {
            if let Some(p) = at(point) {
                painter.text(
                    p + egui::vec2(5.0, 5.0),
                    egui::Align2::LEFT_TOP,
                    label,
                    font.clone(),
                    egui::Color32::from_rgb(160, 255, 160),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_warm_up_draws_the_background_then_the_overlays_then_everything() {
        let mut options = RenderOptions { wireframe: true, ..RenderOptions::default() };
        options.overlay.hitboxes = true;
        let nothing = |o: &RenderOptions| !o.mesh && !o.wireframe && *o == o.only_mesh_pipelines();

        let first = warm_up_options(Stage::Compiling, 0, options);
        assert!(nothing(&first), "the first frame draws the background alone: {first:?}");
        assert_eq!(first.background, options.background);

        let waiting = warm_up_options(Stage::Compiling, 1, options);
        assert!(!waiting.mesh && !waiting.wireframe, "the mesh waits for its shaders");
        assert!(options.overlay.grid && !waiting.overlay.grid, "the grid waits with the mesh");
        let others = studio_render::OverlayOptions { grid: false, ..options.overlay };
        assert_eq!(waiting.overlay, others, "the other overlays are drawn meanwhile");

        assert_eq!(warm_up_options(Stage::Done, 0, options), options);
        assert_eq!(warm_up_options(Stage::Done, 7, options), options);
    }

    #[test]
    fn the_viewport_renders_in_the_windows_channel_order_in_srgb_where_it_can_be_copied() {
        use eframe::wgpu::{Backend, TextureFormat};
        let copied = |backend, format| copied_format(backend, format);
        assert_eq!(copied(Backend::Vulkan, TextureFormat::Bgra8Unorm), Some(TextureFormat::Bgra8UnormSrgb));
        assert_eq!(copied(Backend::Dx12, TextureFormat::Rgba8Unorm), Some(TextureFormat::Rgba8UnormSrgb));
        assert_eq!(
            copied(Backend::Metal, TextureFormat::Bgra8UnormSrgb),
            Some(TextureFormat::Bgra8UnormSrgb)
        );
        // OpenGL cannot view the texture in another format; other windows draw the picture.
        assert_eq!(copied(Backend::Gl, TextureFormat::Bgra8Unorm), None);
        assert_eq!(copied(Backend::Vulkan, TextureFormat::Rgba16Float), None);
        assert_eq!(copied(Backend::Vulkan, TextureFormat::Rgb10a2Unorm), None);
    }

    #[test]
    fn the_viewports_pixels_are_its_rounded_edges_apart() {
        let rect = |x0, y0, x1, y1| egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1));
        assert_eq!(viewport_pixels(rect(0.0, 0.0, 100.0, 50.0), 1.0, 8192), (100, 50));
        // 10.2..110.6 at 1.5: pixels 15 (15.3) to 166 (165.9), 151 wide, as egui-wgpu sets the
        // viewport; the width alone (150.6) truncated would be 150. Likewise 0 to 50 high, not 49.
        assert_eq!(viewport_pixels(rect(10.2, 0.3, 110.6, 33.4), 1.5, 8192), (151, 50));
        assert_eq!(viewport_pixels(rect(0.3, 0.0, 1.3, 1.0), 1.0, 8192), (1, 1));
        // Never empty, never over the device's limit.
        assert_eq!(viewport_pixels(rect(5.0, 5.0, 5.0, 5.0), 2.0, 8192), (1, 1));
        assert_eq!(viewport_pixels(rect(0.0, 0.0, 9000.0, 10.0), 1.0, 8192), (8192, 10));
    }
}
