//! The eframe app: the viewer window. State lives in [`state::AppState`]; panels in [`ui`];
//! every action is a [`command::Command`].

pub mod browser;
pub mod capture_job;
pub mod command;
pub mod decompile_job;
pub mod editing;
pub mod reload;
pub mod settings;
pub mod state;
pub mod ui;
pub mod view;
pub mod warmup;
pub mod watch;
mod window;

pub use window::{APP_ID, run, wgpu_options, window_adapter, window_icon, window_title, window_wgpu_options};

use std::path::PathBuf;
use std::time::{Duration, Instant};

use command::Command;
use settings::Settings;
use state::AppState;
use ui::model_panel::Tab;
use ui::textures::TextureCache;
use ui::viewport::Viewport;

/// Key the settings are stored under.
const SETTINGS_KEY: &str = "studioview settings";

/// Time between the frames drawn while a sequence plays on a GPU: 60 per second.
const PLAYBACK_FRAME_INTERVAL: Duration = Duration::from_micros(16_667);

/// Time between the frames drawn while a sequence plays on a software renderer whose window is
/// presented through the swapchain: 32 per second, at least 30 whatever the wake-up latency.
/// There every frame costs the processor about 7 ms (measure.py, the NS soldier at 1280×800:
/// 21% of a core at 32 fps): the model's rasterization, the window's copies and its present
/// (sent to X whole, through the socket, by Mesa 22.3's software Vulkan), and egui's work. On
/// X11 the window is shown through shared memory instead (egui-wgpu's `shm_present`,
/// vendor/README.md): a frame then costs about 6 ms and plays at 60 a second.
const SOFTWARE_PLAYBACK_FRAME_INTERVAL: Duration = Duration::from_micros(31_250);

/// The longest step of the playback clock, in seconds: playback follows the wall clock however
/// slowly frames come, except across a stall this long (a modal dialog, a suspended process).
const MAX_CLOCK_STEP: f64 = 1.0;

/// The viewer.
pub struct StudioApp {
    /// The state the panels show.
    pub state: AppState,
    viewport: Viewport,
    search: String,
    tab: Tab,
    source_tab: ui::source_panels::SourceTab,
    previews: ui::source_panels::Previews,
    game_folder: String,
    /// The Flex tab's search.
    flex_search: String,
    texture: usize,
    /// The Textures tab's state (an import waiting for approval, the UV map's options).
    pub textures: TextureCache,
    title: String,
    /// When the last frame that advanced the clock ran (egui's input time), while playing.
    clock: Option<f64>,
    /// When the next frame is due while playing: frames keep to a beat, so the time a frame
    /// takes to start after its wake-up does not add up into a lower rate.
    next_frame: Option<Instant>,
    /// Where the last frame put each panel.
    pub layout: Layout,
    /// The model browser's thumbnails.
    pub thumbnails: ui::browser::ThumbnailCache,
    /// Whether the file watch wakes this window yet.
    waker_set: bool,
}

impl StudioApp {
    /// The window's title as last set: the file, with ` •` while edits are unsaved.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Where the 3D view lay in the last frame (handles are placed in it).
    pub fn viewport_rect(&self) -> egui::Rect {
        self.viewport.rect.unwrap_or(egui::Rect::NOTHING)
    }

    /// Whether the viewport still holds the mesh back for the shader warm-up.
    pub fn viewport_holding(&self) -> bool {
        self.viewport.holding()
    }
}

/// When the frame after one that ends at `now` is due, given when this one was due: the beat
/// holds across frames that came early (input) or a little late, and restarts after a stall.
fn next_frame_time(due: Option<Instant>, now: Instant, interval: Duration) -> Instant {
    match due {
        Some(due) if now < due => due,
        Some(due) if now < due + interval => due + interval,
        _ => now + interval,
    }
}

/// The rectangles of the window's panels in the last frame, in points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The menu bar.
    pub menu: egui::Rect,
    /// Sequences, playback, blends and controllers.
    pub left: egui::Rect,
    /// Display options and the model's tabs.
    pub right: egui::Rect,
    /// Timeline, events and messages.
    pub bottom: egui::Rect,
    /// The 3D viewport.
    pub viewport: egui::Rect,
}

impl Default for Layout {
    fn default() -> Self {
        Self {
            menu: egui::Rect::NOTHING,
            left: egui::Rect::NOTHING,
            right: egui::Rect::NOTHING,
            bottom: egui::Rect::NOTHING,
            viewport: egui::Rect::NOTHING,
        }
    }
}

impl StudioApp {
    /// The viewer with `settings`, showing `model` or the demo model.
    pub fn new(settings: Settings, model: Option<PathBuf>) -> Self {
        let mut state = AppState::demo(settings);
        if let Some(path) = model {
            state.apply(Command::Open(path));
        }
        Self {
            state,
            viewport: Viewport::default(),
            search: String::new(),
            tab: Tab::default(),
            source_tab: Default::default(),
            previews: Default::default(),
            game_folder: String::new(),
            flex_search: String::new(),
            texture: 0,
            textures: TextureCache::default(),
            title: String::new(),
            clock: None,
            next_frame: None,
            layout: Layout::default(),
            thumbnails: Default::default(),
            waker_set: false,
        }
    }

    /// The viewer as eframe starts it, with the stored settings.
    pub fn from_creation_context(cc: &eframe::CreationContext<'_>, model: Option<PathBuf>) -> Self {
        let settings = cc.storage.and_then(|s| eframe::get_value(s, SETTINGS_KEY)).unwrap_or_default();
        let mut app = Self::new(settings, model);
        if let Some(render_state) = &cc.wgpu_render_state {
            let info = render_state.adapter.get_info();
            app.state.renderer = Some(studio_render::adapter_choice::describe(&info));
        }
        for line in window::WINDOW_ADAPTERS_TRIED.get().into_iter().flatten() {
            app.state.say(state::Level::Warning, format!("graphics adapter passed over: {line}"));
        }
        app
    }

    /// Tells `warmup` the stored settings, and holds the viewport's first draws for it.
    pub fn warm_up(&mut self, mut warmup: warmup::Warmup, ctx: &egui::Context) {
        warmup.tell(&self.state.settings, ctx);
        self.viewport.hold(warmup, ctx);
    }

    /// Runs commands from keys and dropped files.
    fn input(&mut self, ctx: &egui::Context, commands: &mut ui::Commands) {
        let typing = ctx.egui_wants_keyboard_input();
        let flying = self.state.camera.mode == studio_render::CameraMode::FreeLook;
        let mut fullscreen_to = None;
        let mut image_dropped = None;
        ctx.input(|i| {
            for file in &i.raw.dropped_files {
                let path = file.path();
                if ui::textures::is_image(path) {
                    image_dropped = Some(path.to_path_buf());
                } else if !path.as_os_str().is_empty() {
                    commands.push(Command::Open(path.to_path_buf()));
                }
            }
            if typing {
                return;
            }
            if i.key_pressed(egui::Key::Space) {
                commands.push(Command::TogglePlay);
            }
            // Free look flies with the arrows; otherwise they step frames.
            if !flying && i.key_pressed(egui::Key::ArrowLeft) {
                commands.push(Command::Step(-1));
            }
            if !flying && i.key_pressed(egui::Key::ArrowRight) {
                commands.push(Command::Step(1));
            }
            for (key, view) in view::AXIS_VIEW_KEYS.into_iter().zip(studio_render::AxisView::ALL) {
                if i.key_pressed(key) && i.modifiers.is_none() {
                    commands.push(Command::SetAxisView(view));
                }
            }
            if i.key_pressed(egui::Key::F11) {
                let fullscreen = i.viewport().fullscreen.unwrap_or(false);
                fullscreen_to = Some(!fullscreen);
            }
            if i.key_pressed(egui::Key::F) {
                commands.push(Command::FrameModel);
            }
            if i.key_pressed(egui::Key::F5) {
                commands.push(Command::Reload);
            }
            if i.key_pressed(egui::Key::PageDown) {
                commands.push(Command::NextModel(1));
            }
            if i.key_pressed(egui::Key::PageUp) {
                commands.push(Command::NextModel(-1));
            }
        });
        if let Some(on) = fullscreen_to {
            ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(on));
        }
        // An image dropped on the window is imported over the texture shown in the Textures
        // tab (a Half-Life model's; shown for approval first).
        if let Some(path) = image_dropped {
            if self.state.source.is_some() {
                self.state.say(
                    state::Level::Error,
                    format!(
                        "{}: textures are imported into Half-Life models; this is a Source model",
                        path.display()
                    ),
                );
            } else {
                self.textures.queue_import(path);
                self.tab = Tab::Textures;
            }
        }
        if flying && !typing {
            self.fly(ctx, commands);
        }
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::B)) {
            commands.push(Command::ToggleBrowser);
        }
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::H)) {
            commands.push(Command::TogglePanels);
        }
        if ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::O)) {
            ui::menu::ask(ctx, &mut self.state, ui::menu::FileDialog::Open);
        }
        let shift_command = egui::Modifiers::COMMAND | egui::Modifiers::SHIFT;
        if ctx.input_mut(|i| i.consume_key(shift_command, egui::Key::S)) {
            ui::menu::ask(ctx, &mut self.state, ui::menu::FileDialog::SaveAs);
        } else if ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::S)) {
            ui::menu::save(ctx, &mut self.state, commands);
        }
        // In a text field, Ctrl+Z undoes typing there.
        if !typing {
            if ctx.input_mut(|i| {
                i.consume_key(shift_command, egui::Key::Z)
                    || i.consume_key(egui::Modifiers::COMMAND, egui::Key::Y)
            }) {
                commands.push(Command::Redo);
            } else if ctx.input_mut(|i| i.consume_key(egui::Modifiers::COMMAND, egui::Key::Z)) {
                commands.push(Command::Undo);
            }
        }
    }

    /// Free look: W, A, S, D or the arrows move along the view and across it, E and Q up and
    /// down, Shift four times as fast; frames keep coming while a key is held.
    fn fly(&mut self, ctx: &egui::Context, commands: &mut ui::Commands) {
        use egui::Key;
        let (axes, fast, dt) = ctx.input(|i| {
            let held = |keys: &[Key]| keys.iter().any(|&k| i.key_down(k));
            let axis = |plus: &[Key], minus: &[Key]| {
                f32::from(u8::from(held(plus))) - f32::from(u8::from(held(minus)))
            };
            let axes = [
                axis(&[Key::W, Key::ArrowUp], &[Key::S, Key::ArrowDown]),
                axis(&[Key::D, Key::ArrowRight], &[Key::A, Key::ArrowLeft]),
                axis(&[Key::E], &[Key::Q]),
            ];
            (axes, i.modifiers.shift, i.stable_dt.clamp(0.0, 0.1))
        });
        if axes == [0.0; 3] {
            return;
        }
        let speed = self
            .state
            .settings
            .free_look_speed
            .clamp(*settings::FREE_LOOK_SPEEDS.start(), *settings::FREE_LOOK_SPEEDS.end());
        let step = speed * dt * if fast { 4.0 } else { 1.0 };
        commands.push(Command::Fly { forward: axes[0] * step, right: axes[1] * step, up: axes[2] * step });
        ctx.request_repaint();
    }

    /// The question asked before unsaved edits would be lost, and the QC lines offered when
    /// edits can only be saved by a QC rebuild.
    fn dialogs(&mut self, ctx: &egui::Context, commands: &mut ui::Commands) {
        if let Some(pending) = &self.state.pending {
            let what = match pending {
                Command::Quit => "closing",
                Command::Reload => "reloading",
                _ => "opening another model",
            };
            let name = self
                .state
                .path()
                .and_then(|p| p.file_name())
                .map_or("The demo model".into(), |n| n.to_string_lossy().into_owned());
            egui::Modal::new(egui::Id::unique("unsaved edits")).show(ctx, |ui| {
                ui.heading("Unsaved edits");
                ui.label(format!("{name} has edits that are not saved. Save them before {what}?"));
                ui.horizontal(|ui| {
                    if self.state.path().is_some() && ui.button("Save").clicked() {
                        commands.push(Command::SaveAndContinue);
                    }
                    if ui.button("Discard edits").clicked() {
                        commands.push(Command::DiscardAndContinue);
                    }
                    if ui.button("Cancel").clicked() {
                        commands.push(Command::CancelPending);
                    }
                });
            });
        }
        let mut open = self.state.qc_offer.is_some();
        if let Some(text) = &self.state.qc_offer {
            egui::Window::new("QC lines for a rebuild").open(&mut open).default_width(520.0).show(ctx, |ui| {
                ui.label("These edits change the file's layout: rebuild the model with studiomdl from a QC that has these lines.");
                if ui.button("Copy").clicked() {
                    ui.ctx().copy_text(text.clone());
                }
                egui::ScrollArea::vertical().max_height(360.0).show(ui, |ui| {
                    ui.add(egui::Label::new(egui::RichText::new(text.as_str()).monospace()).selectable(true));
                });
            });
        }
        if !open {
            self.state.qc_offer = None;
        }
    }

    /// The whole window's contents; `render_state` is `None` where there is no GPU (tests).
    pub fn show(&mut self, ui: &mut egui::Ui, render_state: Option<&eframe::egui_wgpu::RenderState>) {
        let ctx = ui.ctx().clone();
        if !self.waker_set {
            // A changed file wakes the window, which reloads it in the next frame.
            let waker = ctx.clone();
            self.state.watch.set_waker(std::sync::Arc::new(move || waker.request_repaint()));
            self.waker_set = true;
        }
        self.state.reload_if_changed();
        let mut commands = ui::Commands::new();
        ui::menu::show_due_dialog(&ctx, &mut self.state, &mut commands);
        self.input(&ctx, &mut commands);
        // Wall-clock time since the last frame: at 8 frames per second the animation still runs
        // at its own speed, not in slow motion.
        let now = ctx.input(|i| i.time);
        let dt = match self.clock {
            Some(then) if self.state.playing => (now - then).clamp(0.0, MAX_CLOCK_STEP),
            _ => 0.0,
        };
        self.clock = self.state.playing.then_some(now);
        self.state.advance(dt as f32);

        let style = ui.style().clone();
        self.layout.menu = egui::Panel::top("menu")
            .frame(ui::panel_frame(&style, false))
            .show(ui, |ui| {
                ui::menu::menu_ui(ui, &mut self.state, &mut commands, &mut self.viewport.screenshot);
            })
            .response
            .rect;
        self.layout.left = egui::Rect::NOTHING;
        self.layout.right = egui::Rect::NOTHING;
        self.layout.bottom = egui::Rect::NOTHING;
        if !self.state.panels_hidden {
            self.panels(ui, &style, &mut commands);
        }

        // Closing the window with unsaved edits asks first.
        if ctx.input(|i| i.viewport().close_requested()) && self.state.is_dirty() && !self.state.quit {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.state.pending = Some(Command::Quit);
        }
        self.dialogs(&ctx, &mut commands);
        ui::browser::browser_ui(&ctx, &mut self.state, &mut self.thumbnails, &mut commands);
        ui::capture::window(&ctx, &mut self.state, self.layout.viewport.size());
        ui::capture::progress(&ctx, &self.state, &mut commands);
        for command in commands {
            self.state.apply(command);
        }
        // A job that ends in this frame says so in panels already drawn: one more frame shows it.
        let running = (self.state.decompiling.is_some(), self.state.capturing.is_some());
        if self.state.poll_decompile() {
            ui::decompile::progress(&ctx, &self.state);
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        if self.state.poll_capture() {
            ctx.request_repaint_after(std::time::Duration::from_millis(100));
        }
        if (running.0 && self.state.decompiling.is_none()) || (running.1 && self.state.capturing.is_none()) {
            ctx.request_repaint();
        }
        if self.state.quit {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        self.state.evaluate();
        self.layout.viewport = egui::CentralPanel::default()
            .frame(ui::panel_frame(&style, true))
            .show(ui, |ui| self.viewport.ui(ui, &mut self.state, render_state))
            .response
            .rect;
        // The banner shows while the newest message is an error.
        if let Some((state::Level::Error, error)) = self.state.messages.last() {
            egui::Area::new(egui::Id::unique("error banner"))
                .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 40.0))
                .show(&ctx, |ui| {
                    egui::Frame::popup(ui.style()).show(ui, |ui| {
                        ui.colored_label(egui::Color32::from_rgb(255, 110, 110), error.as_str());
                    });
                });
        }
        let title = window_title(self.state.path(), self.state.is_dirty());
        // Only on change: a viewport command makes eframe paint another frame.
        if self.title != title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        // Only a playing sequence that moves needs more frames (a one-frame sequence plays
        // without changing); otherwise egui waits for input. A window without vertical sync (a
        // software renderer, a virtual display) would otherwise draw as fast as the processor
        // allows, for frames no screen shows.
        // Nor while the viewport holds the mesh back for the shader warm-up: a frame then
        // would show no motion and take the processor from the compiler.
        self.next_frame = (self.state.animating() && !self.viewport.holding()).then(|| {
            let interval = if self.viewport.is_software() && !window::shared_memory_present() {
                SOFTWARE_PLAYBACK_FRAME_INTERVAL
            } else {
                PLAYBACK_FRAME_INTERVAL
            };
            let now = Instant::now();
            let next = next_frame_time(self.next_frame, now, interval);
            ctx.request_repaint_after(next - now);
            next
        });
    }

    /// The side and bottom panels: sequences and controls, display and the model's tabs, the
    /// timeline and messages.
    fn panels(&mut self, ui: &mut egui::Ui, style: &egui::Style, commands: &mut ui::Commands) {
        // Side panels keep to their widths whatever their texts: long ones are elided.
        let left =
            egui::Panel::left("sequences").default_size(290.0).size_range(200.0..=480.0).resizable(true);
        let left = left.frame(ui::panel_frame(style, false));
        self.layout.left = left
            .show(ui, |ui| {
                egui::ScrollArea::vertical().id_salt("left panel").show(ui, |ui| {
                    if let Some(view) = self.state.source.as_deref() {
                        ui::source_panels::sequences_ui(ui, view, &mut self.search, commands);
                        ui.separator();
                        ui::sequences::playback_ui(ui, &mut self.state, commands);
                        ui.separator();
                        if let Some(view) = self.state.source.as_deref() {
                            ui::source_panels::controls_ui(ui, view, commands);
                        }
                        return;
                    }
                    ui::sequences::sequences_ui(ui, &mut self.state, &mut self.search, commands);
                    ui.separator();
                    ui::sequences::playback_ui(ui, &mut self.state, commands);
                    ui.separator();
                    ui::controls::blends_ui(ui, &mut self.state, commands);
                    ui::controls::controllers_ui(ui, &mut self.state, commands);
                });
            })
            .response
            .rect;
        let right = egui::Panel::right("model").default_size(280.0).size_range(220.0..=520.0).resizable(true);
        let right = right.frame(ui::panel_frame(style, false));
        self.layout.right = right
            .show(ui, |ui| {
                ui::display::display_ui(ui, &mut self.state);
                ui.separator();
                ui::camera::camera_ui(ui, &mut self.state, commands);
                ui::light::light_ui(ui, &mut self.state, self.viewport.is_software());
                ui.separator();
                if self.state.source.is_some() {
                    ui::source_panels::model_ui(
                        ui,
                        &mut self.state,
                        &mut self.source_tab,
                        &mut self.previews,
                        &mut self.game_folder,
                        &mut self.flex_search,
                        commands,
                    );
                    return;
                }
                ui::model_panel::model_ui(
                    ui,
                    &mut self.state,
                    &mut self.tab,
                    &mut self.texture,
                    &mut self.textures,
                    commands,
                );
            })
            .response
            .rect;
        let bottom = egui::Panel::bottom("timeline").default_size(150.0).resizable(true);
        let bottom = bottom.frame(ui::panel_frame(style, false));
        self.layout.bottom = bottom
            .show(ui, |ui| {
                match self.state.source.as_deref() {
                    Some(view) => ui::source_panels::timeline_ui(ui, view, commands),
                    None => ui::timeline::timeline_ui(ui, &mut self.state, commands),
                }
                ui.separator();
                ui::timeline::log_ui(ui, &self.state);
            })
            .response
            .rect;
    }
}

impl eframe::App for StudioApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let render_state = frame.wgpu_render_state().cloned();
        self.show(ui, render_state.as_ref());
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        ui::window_clear_color(visuals)
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, SETTINGS_KEY, &self.state.settings);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_and_caches_are_in_the_systems_folders_for_studioview() {
        let dirs = directories::ProjectDirs::from("", "", APP_ID).expect("a home folder");
        let settings = eframe::storage_dir(APP_ID).expect("a settings folder");
        assert_eq!(settings, dirs.data_dir(), "one crate's folders for both");
        let cache = crate::thumbnail::default_cache().expect("a cache folder");
        assert_eq!(cache, dirs.cache_dir().join("thumbnails"));
        if cfg!(windows) {
            // Roaming settings, local caches.
            let appdata = std::env::var_os("APPDATA").expect("APPDATA");
            let local = std::env::var_os("LOCALAPPDATA").expect("LOCALAPPDATA");
            assert!(settings.starts_with(appdata), "{}", settings.display());
            assert!(cache.starts_with(local), "{}", cache.display());
        }
    }

    #[test]
    fn the_window_icon_is_the_packaged_one() {
        let icon = window_icon();
        assert_eq!((icon.width, icon.height), (256, 256));
        assert_eq!(icon.rgba.len(), 256 * 256 * 4);
        // Transparent corners, an opaque middle.
        assert_eq!(icon.rgba[3], 0);
        assert_eq!(icon.rgba[(128 * 256 + 128) * 4 + 3], 255);
    }

    #[test]
    fn frames_keep_to_their_beat() {
        let start = Instant::now();
        let interval = Duration::from_millis(30);
        let ms = |n: u64| start + Duration::from_millis(n);
        // The first frame, and the first after a stall, count from now.
        assert_eq!(next_frame_time(None, ms(5), interval), ms(35));
        assert_eq!(next_frame_time(Some(ms(30)), ms(65), interval), ms(95));
        // A frame that woke a little late keeps the beat: no drift.
        assert_eq!(next_frame_time(Some(ms(30)), ms(34), interval), ms(60));
        // A frame input brought early leaves the next one where it was.
        assert_eq!(next_frame_time(Some(ms(30)), ms(12), interval), ms(30));
    }
}
