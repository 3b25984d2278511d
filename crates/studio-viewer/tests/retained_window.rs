//! The window's picture kept between frames (`vendor/egui-wgpu/src/retained.rs`): egui redraws
//! only the rectangles whose primitives changed. Every frame of the real viewer — playing,
//! changing sequence, opening a panel, pausing — is drawn both ways on the software renderer and
//! must be the same, byte for byte; while the model plays, far less than the window is drawn.

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
    textures_changed: bool,
    /// Per frame: the share of the window the retained picture drew again (1 for whole).
    drawn: Rc<RefCell<Vec<f64>>>,
}

impl Both {
    fn new(state: RenderState, drawn: Rc<RefCell<Vec<f64>>>) -> Self {
        let retained = RetainedTarget::new(&state.device, state.target_format);
        Self {
            whole: WgpuTestRenderer::from_render_state(state.clone()),
            state,
            retained,
            textures_changed: true,
            drawn,
        }
    }

    /// The retained picture of `output`, as RGBA rows.
    fn retained_picture(&mut self, ctx: &egui::Context, output: &egui::FullOutput) -> Vec<u8> {
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
        self.retained.paint(
            &state.device,
            &mut encoder,
            &state.renderer.read(),
            &primitives,
            &screen,
            [0.0; 4],
            std::mem::take(&mut self.textures_changed),
        );
        let area = f64::from(screen.size_in_pixels[0]) * f64::from(screen.size_in_pixels[1]);
        self.drawn.borrow_mut().push(match self.retained.damage() {
            Damage::Full => 1.0,
            Damage::Rects(rects) => rects.iter().map(|r| r.area() as f64).sum::<f64>() / area,
        });
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
        buffer.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("the picture maps"));
        state
            .device
            .poll(wgpu::PollType::Wait { submission_index: None, timeout: None })
            .expect("the GPU finishes");
        let mapped = buffer.slice(..).get_mapped_range().expect("the picture is mapped");
        mapped.chunks(row as usize).flat_map(|r| &r[..(width * 4) as usize]).copied().collect()
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
        let retained = self.retained_picture(ctx, output);
        // kittest's picture is RGBA whatever the target's order; ours is the target's bytes.
        let bgra = matches!(
            self.state.target_format,
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
        );
        let frame = self.drawn.borrow().len();
        for (i, (w, r)) in whole.as_raw().chunks(4).zip(retained.chunks(4)).enumerate() {
            let r = if bgra { [r[2], r[1], r[0], r[3]] } else { [r[0], r[1], r[2], r[3]] };
            if w != r {
                let x = i as u32 % whole.width();
                return Err(format!(
                    "frame {frame}: pixel ({x}, {}) is {r:?} retained, {w:?} whole",
                    i as u32 / whole.width()
                ));
            }
        }
        Ok(whole)
    }
}

#[test]
fn a_window_redrawn_where_it_changed_is_the_window_drawn_whole() {
    // CI installs Mesa, so there the lack of an adapter fails below.
    if studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none() {
        eprintln!("note: no graphics adapter; skipping");
        return;
    }
    let render_state =
        create_render_state(default_wgpu_setup(), eframe::egui_wgpu::RendererOptions::default());
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
    }
    let drawn = drawn.borrow();
    assert_eq!(drawn[0], 1.0, "the first frame is drawn whole");
    let playing = &drawn[playing_from..playing_from + 20];
    let most = playing.iter().copied().fold(0.0, f64::max);
    if has_model {
        assert!(most < 0.6, "while playing, at most {most:.2} of the window is drawn again: {playing:?}");
    }
    assert!(playing.iter().any(|&d| d < 1.0), "the retained picture is used: {playing:?}");
}
