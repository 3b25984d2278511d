//! The window's picture kept between frames (`vendor/egui-wgpu/src/retained.rs`): egui redraws
//! only the rectangles whose primitives changed. Every frame of the real viewer — playing,
//! changing sequence, opening a panel, pausing — is drawn both ways on the software renderer and
//! must be the same, byte for byte; while the model plays, far less than the window is drawn.
//! The viewport's picture is copied into the kept picture (`CallbackTrait::picture`) in both
//! channel orders a window has (RGBA, and BGRA as on X11 and Windows). A third picture is kept
//! as the shared-memory present keeps it (`vendor/egui-wgpu/src/mirror.rs`): in a buffer, with
//! the viewport's picture copied straight into it rather than through the kept picture; it too
//! must be the window drawn whole, byte for byte, every frame.

use eframe::egui_wgpu::mirror::Mirror;
use eframe::egui_wgpu::retained::{Damage, RetainedTarget};
use eframe::egui_wgpu::{RenderState, ScreenDescriptor, wgpu};
use egui_kittest::kittest::Queryable;
use egui_kittest::wgpu::{WgpuTestRenderer, create_render_state, default_wgpu_setup};
use egui_kittest::{Harness, TestRenderer};
use std::cell::RefCell;
use std::rc::Rc;
use studio_viewer::app::StudioApp;
use studio_viewer::app::settings::Settings;

/// Draws each frame whole (kittest's renderer) and into a [`RetainedTarget`], and checks that
/// the two pictures are the same.
struct Both {
    whole: WgpuTestRenderer,
    state: RenderState,
    retained: RetainedTarget,
    /// A second kept picture, leaving its pictures to `mirror`.
    mirrored: RetainedTarget,
    mirror: Mirror,
    textures_changed: bool,
    /// Per frame: the share of the window the retained picture drew again (1 for whole), how
    /// many pictures it copied into place, and how many the mirrored one left to the mirror.
    drawn: Rc<RefCell<Vec<(f64, usize, usize)>>>,
}

impl Both {
    fn new(state: RenderState, drawn: Rc<RefCell<Vec<(f64, usize, usize)>>>) -> Self {
        let retained = RetainedTarget::new(&state.device, state.target_format);
        let mut mirrored = RetainedTarget::new(&state.device, state.target_format);
        mirrored.defer_pictures(true);
        Self {
            whole: WgpuTestRenderer::from_render_state(state.clone()),
            state,
            retained,
            mirrored,
            mirror: Mirror::default(),
            textures_changed: true,
            drawn,
        }
    }

    /// The retained picture of `output` and the mirror's, as rows of the target's pixels.
    fn retained_picture(&mut self, ctx: &egui::Context, output: &egui::FullOutput) -> (Vec<u8>, Vec<u8>) {
        let state = &self.state;
        let size = ctx.content_rect().size() * ctx.pixels_per_point();
        let screen = ScreenDescriptor {
            pixels_per_point: ctx.pixels_per_point(),
            size_in_pixels: [size.x.round() as u32, size.y.round() as u32],
        };
        let primitives = ctx.tessellate(output.shapes.clone(), ctx.pixels_per_point());
        let mut encoder = state.device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let user = state.renderer.write().update_buffers(
            &state.device,
            &state.queue,
            &mut encoder,
            &primitives,
            &screen,
        );
        let textures_changed = std::mem::take(&mut self.textures_changed);
        for retained in [&mut self.retained, &mut self.mirrored] {
            retained.paint(
                &state.device,
                &mut encoder,
                &state.renderer.read(),
                &primitives,
                &screen,
                [0.0; 4],
                textures_changed,
            );
        }
        self.mirror.record(&state.device, &mut encoder, &self.mirrored);
        let area = f64::from(screen.size_in_pixels[0]) * f64::from(screen.size_in_pixels[1]);
        let share = match self.retained.damage() {
            Damage::Full => 1.0,
            Damage::Rects(rects) => rects.iter().map(|r| r.area() as f64).sum::<f64>() / area,
        };
        self.drawn.borrow_mut().push((
            share,
            self.retained.copied(),
            self.mirrored.deferred_pictures().count(),
        ));
        let texture = self.retained.texture().expect("a painted picture");
        let (width, height) = (texture.width(), texture.height());
        let row = (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let buffer = state.device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: u64::from(row * height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: None,
                },
            },
            texture.size(),
        );
        state.queue.submit(user.into_iter().chain([encoder.finish()]));
        let mirror = self.mirror.buffer().expect("a mirrored picture");
        assert_eq!(self.mirror.size(), [width, height]);
        for buffer in [&buffer, mirror] {
            buffer.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("the picture maps"));
        }
        state
            .device
            .poll(wgpu::PollType::Wait { submission_index: None, timeout: None })
            .expect("the GPU finishes");
        let rows = |buffer: &wgpu::Buffer, row: u32| -> Vec<u8> {
            let mapped = buffer.slice(..).get_mapped_range().expect("the picture is mapped");
            let rows =
                mapped.chunks(row as usize).flat_map(|r| &r[..(width * 4) as usize]).copied().collect();
            drop(mapped);
            buffer.unmap();
            rows
        };
        (rows(&buffer, row), rows(mirror, self.mirror.bytes_per_row()))
    }
}

impl TestRenderer for Both {
    fn setup_eframe(&self, cc: &mut eframe::CreationContext<'_>, frame: &mut eframe::Frame) {
        self.whole.setup_eframe(cc, frame);
    }

    fn handle_delta(&mut self, delta: &mut egui::TexturesDelta) {
        self.textures_changed |= !delta.set.is_empty() || !delta.free.is_empty();
        self.whole.handle_delta(delta);
    }

    fn render(&mut self, ctx: &egui::Context, output: &egui::FullOutput) -> Result<image::RgbaImage, String> {
        let whole = self.whole.render(ctx, output)?;
        let (retained, mirrored) = self.retained_picture(ctx, output);
        // All are the target's bytes as they are (kittest reads a BGRA target back unswizzled).
        let frame = self.drawn.borrow().len();
        for (name, picture) in [("retained", &retained), ("mirrored", &mirrored)] {
            for (i, (w, r)) in whole.as_raw().chunks(4).zip(picture.chunks(4)).enumerate() {
                if w != r {
                    let x = i as u32 % whole.width();
                    return Err(format!(
                        "frame {frame}: pixel ({x}, {}) is {r:?} {name}, {w:?} whole",
                        i as u32 / whole.width()
                    ));
                }
            }
        }
        Ok(whole)
    }
}

/// The render state kittest makes, with egui drawing into `format` instead.
fn render_state_for(format: Option<wgpu::TextureFormat>) -> RenderState {
    let mut state = create_render_state(default_wgpu_setup(), eframe::egui_wgpu::RendererOptions::default());
    if let Some(format) = format {
        state.target_format = format;
        state.renderer = std::sync::Arc::new(egui::mutex::RwLock::new(eframe::egui_wgpu::Renderer::new(
            &state.device,
            format,
            eframe::egui_wgpu::RendererOptions::default(),
        )));
    }
    state
}

#[test]
fn a_window_redrawn_where_it_changed_is_the_window_drawn_whole() {
    // kittest's own format: RGBA.
    window_drawn_both_ways(None);
}

#[test]
fn a_bgra_window_takes_the_viewport_by_a_copy_and_is_the_window_drawn_whole() {
    window_drawn_both_ways(Some(wgpu::TextureFormat::Bgra8Unorm));
}

/// Plays, changes the sequence, opens a panel and pauses, checking each frame drawn both ways;
/// the viewport's picture is copied into place while the model plays.
fn window_drawn_both_ways(format: Option<wgpu::TextureFormat>) {
    // CI installs Mesa, so there the lack of an adapter fails below.
    if studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none() {
        eprintln!("note: no graphics adapter; skipping");
        return;
    }
    let render_state = render_state_for(format);
    let model = studio_testing::shared().map(|s| s.join("models/ns/soldier.mdl"));
    if model.is_none() {
        eprintln!("note: ../shared not found; the window is checked without a model");
    }
    let has_model = model.is_some();
    let app = StudioApp::new(Settings::default(), model);
    let state = render_state.clone();
    let drawn = Rc::new(RefCell::new(Vec::new()));
    let mut h = Harness::builder()
        .with_size(egui::vec2(1024.0, 700.0))
        .renderer(Both::new(render_state, Rc::clone(&drawn)))
        .build_ui_state(move |ui, app: &mut StudioApp| app.show(ui, Some(&state)), app);
    let frame = |h: &mut Harness<'_, StudioApp>| {
        h.step();
        if let Err(e) = h.render() {
            panic!("{e}");
        }
    };
    for _ in 0..10 {
        frame(&mut h);
    }
    // Playing: the viewport and the timeline change, the panels do not.
    let playing_from = 10;
    for _ in 0..20 {
        std::thread::sleep(std::time::Duration::from_millis(15));
        frame(&mut h);
    }
    if has_model {
        assert!(h.state().state.playing, "the model plays when opened");
        // Another sequence, then a panel opened (the panel below moves down), then paused.
        h.get_by_label("walk").click();
        for _ in 0..3 {
            frame(&mut h);
        }
        h.get_by_label("Camera").click();
        for _ in 0..3 {
            frame(&mut h);
        }
        h.key_press(egui::Key::Space);
        for _ in 0..3 {
            frame(&mut h);
        }
        // The model browser's window opened over the viewport and closed again: the picture is
        // copied into the kept picture while the window covers part of it, then straight to
        // the mirror again.
        let before = drawn.borrow().len();
        h.get_by_label("Browse").click();
        for _ in 0..5 {
            frame(&mut h);
        }
        let opened = drawn.borrow().len();
        h.state_mut().state.browser.open = false;
        for _ in 0..5 {
            frame(&mut h);
        }
        let drawn = drawn.borrow();
        eprintln!("{:?}", &drawn[before..]);
        assert!(
            drawn[before..opened].iter().any(|(_, c, d)| *c == 1 && *d == 0),
            "under the browser, the picture goes through the kept picture: {drawn:?}"
        );
        assert!(
            drawn[drawn.len() - 2..].iter().all(|(_, c, d)| *c == 1 && *d == 1),
            "then straight to the mirror again: {drawn:?}"
        );
    }
    let drawn = drawn.borrow();
    assert_eq!(drawn[0].0, 1.0, "the first frame is drawn whole");
    let copied = drawn[playing_from..playing_from + 20].iter().filter(|(_, c, _)| *c > 0).count();
    assert!(copied > 0, "the viewport's picture is copied into place while playing: {drawn:?}");
    assert!(
        drawn[playing_from..playing_from + 20].iter().all(|(_, c, d)| c == d),
        "while playing, the picture goes straight to the mirror: {drawn:?}"
    );
    let playing: Vec<f64> = drawn[playing_from..playing_from + 20].iter().map(|(d, _, _)| *d).collect();
    let most = playing.iter().copied().fold(0.0, f64::max);
    if has_model {
        assert!(most < 0.6, "while playing, at most {most:.2} of the window is drawn again: {playing:?}");
    }
    assert!(playing.iter().any(|&d| d < 1.0), "the retained picture is used: {playing:?}");
}
