//! File ▸ Capture animation… : the viewport recorded to an animated GIF, APNG or WebP, or PNG
//! frames, on a thread of its own with a headless GPU context (as the thumbnails are drawn), so
//! the window keeps drawing; a progress bar, and Cancel.
//!
//! What is recorded is what the viewport shows when the capture starts: the model (edits
//! included), its sequence played on from the current frame or cycle with its layers, the
//! second model attached or beside it (read again on the thread) playing with it, Half-Life's
//! muzzle flashes on the frames that fire them, the camera, the display choices and overlays,
//! at the size and rate asked for (studio-document's `FrameDrawer`, as `render` draws).

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use studio_document::frame_drawer::FrameDrawer;
use studio_document::muzzle_flash::{self, FlashSprites};
use studio_document::second_model::{Placement, SecondModel};
use studio_pose::{Pose, PoseEvaluator, PoseRequest};

use crate::app::state::layers::{Layer, MAX_LAYERS, layer_overlay};
use studio_render::{Camera, RenderModel, RenderOptions, RgbaImage};

/// How long a capture runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CaptureLength {
    /// One loop of the sequence (one play of a sequence that does not loop).
    OneLoop,
    /// This many seconds.
    Seconds(f32),
}

/// What a capture records, as the capture window sets it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CaptureSettings {
    /// Picture size in pixels.
    pub size: (u32, u32),
    /// Frames a second.
    pub fps: f32,
    /// How long.
    pub length: CaptureLength,
    /// A transparent background, and no ground grid.
    pub transparent: bool,
}

impl Default for CaptureSettings {
    fn default() -> Self {
        Self { size: (640, 480), fps: 30.0, length: CaptureLength::OneLoop, transparent: false }
    }
}

/// The most frames a capture takes.
pub const MAX_FRAMES: u32 = 3000;

/// The pose each frame of a capture shows.
pub enum Poser {
    /// A version 10 model playing `request.sequence` on from `request.frame`.
    Gold {
        /// The model.
        model: Arc<studio_model::Model>,
        /// The pose at the start (its frame moves on).
        request: PoseRequest,
        /// The layers mixed over it.
        layers: [Layer; MAX_LAYERS],
    },
    /// A Source model, as its document shows it at the start.
    Source(Box<studio_document::source_doc::SourceDoc>),
}

impl Poser {
    /// Seconds in one loop of the shown sequence (at least a frame).
    pub fn loop_seconds(&mut self) -> f32 {
        let seconds = match self {
            Poser::Gold { model, request, .. } => model
                .sequences
                .get(request.sequence)
                .map_or(0.0, |s| (s.num_frames.saturating_sub(1)) as f32 / s.fps.max(f32::MIN_POSITIVE)),
            Poser::Source(doc) => 1.0 / doc.cycle_rate(),
        };
        if seconds.is_finite() && seconds > 0.0 { seconds.min(600.0) } else { 1.0 }
    }
}

/// A capture running on its own thread.
pub struct CaptureJob {
    /// The file (or folder) written.
    pub path: PathBuf,
    /// Frames it takes.
    pub frames: u32,
    done: Arc<AtomicU32>,
    cancel: Arc<AtomicBool>,
    result: Receiver<Result<CaptureDone, String>>,
}

/// What a finished capture did.
#[derive(Clone, Debug, PartialEq)]
pub struct CaptureDone {
    /// Frames written.
    pub frames: u32,
    /// Files written (one, or a PNG a frame).
    pub files: Vec<PathBuf>,
    /// Seconds it took, writing included.
    pub seconds: f64,
}

/// What the thread needs to draw.
pub struct CaptureScene {
    /// The model as the renderer takes it.
    pub model: RenderModel,
    /// Where it is seen from.
    pub camera: Camera,
    /// What is drawn.
    pub options: RenderOptions,
    /// The second model shown with it, read again on the thread.
    pub second: Option<SecondRecipe>,
    /// The flash sprites, when muzzle flashes are drawn (Half-Life models).
    pub flashes: Option<FlashSprites>,
}

/// How to read the second model again as the viewer shows it.
pub struct SecondRecipe {
    /// Its file.
    pub path: PathBuf,
    /// The open model's bone names it is merged onto (attached).
    pub parent: Vec<String>,
    /// The game folders it was read with.
    pub games: Vec<PathBuf>,
    /// Where it is.
    pub placement: Placement,
    /// The open model's sequence, whose namesake it plays beside it.
    pub sequence: String,
}

impl SecondRecipe {
    /// The second model, read again.
    fn load(&self) -> Result<SecondModel, String> {
        let names: Vec<&str> = match self.placement {
            Placement::Attached => self.parent.iter().map(String::as_str).collect(),
            Placement::Beside(_) => Vec::new(),
        };
        let mut second = SecondModel::attach(&self.path, &names, &self.games)?;
        second.placement = self.placement;
        if matches!(self.placement, Placement::Beside(_)) {
            second.select_sequence(&self.sequence);
        }
        Ok(second)
    }
}

impl CaptureJob {
    /// Starts recording `frames` frames of `poser` into `path`.
    pub fn start(path: PathBuf, settings: CaptureSettings, scene: CaptureScene, mut poser: Poser) -> Self {
        let seconds = match settings.length {
            CaptureLength::OneLoop => poser.loop_seconds(),
            CaptureLength::Seconds(s) => s,
        };
        let frames = ((seconds * settings.fps).round() as u32).clamp(1, MAX_FRAMES);
        let done = Arc::new(AtomicU32::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        let (send, result) = channel();
        let (counter, stop, out) = (Arc::clone(&done), Arc::clone(&cancel), path.clone());
        std::thread::spawn(move || {
            let outcome = record(&out, settings, frames, scene, &mut poser, &counter, &stop);
            // The window may be gone; nobody is left to tell then.
            let _ = send.send(outcome);
        });
        Self { path, frames, done, cancel, result }
    }

    /// Frames drawn so far.
    pub fn done(&self) -> u32 {
        self.done.load(Ordering::Relaxed)
    }

    /// Asks the capture to stop; it writes nothing.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// The result, once the capture has finished.
    pub fn poll(&self) -> Option<Result<CaptureDone, String>> {
        match self.result.try_recv() {
            Ok(result) => Some(result),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the capture stopped before it finished".to_owned())),
        }
    }
}

/// The thread's work: every frame drawn, then the file written.
fn record(
    path: &std::path::Path,
    settings: CaptureSettings,
    frames: u32,
    scene: CaptureScene,
    poser: &mut Poser,
    done: &AtomicU32,
    cancel: &AtomicBool,
) -> Result<CaptureDone, String> {
    let started = std::time::Instant::now();
    studio_document::animation_file::check_frame_budget(frames, settings.size.0, settings.size.1)?;
    let mut options = scene.options;
    options.overlay.grid &= !settings.transparent;
    let mut second = scene.second.as_ref().map(SecondRecipe::load).transpose()?;
    let renders: Vec<&RenderModel> = second.iter().map(|s| &s.render).collect();
    let mut drawer = FrameDrawer::new(
        &scene.model,
        options,
        settings.size,
        settings.transparent,
        &renders,
        scene.flashes,
    )?;
    let mut images: Vec<RgbaImage> = Vec::with_capacity(frames as usize);
    let dt = 1.0 / settings.fps;
    let camera = scene.camera;
    match poser {
        Poser::Gold { model, request, layers } => {
            let mut evaluator = PoseEvaluator::new(model.clone());
            let mut overlays = Vec::with_capacity(MAX_LAYERS);
            let mut pose = Pose::new(model);
            let sequence = model.sequences.get(request.sequence);
            let start = f64::from(request.frame);
            let (mut playback, mut flashes) = (muzzle_flash::FlashPlayback::default(), Vec::new());
            for i in 0..frames {
                if cancel.load(Ordering::Relaxed) {
                    return Err("cancelled".to_owned());
                }
                let mut seconds = 0.0;
                if let Some(seq) = sequence {
                    let played = start + f64::from(i) * f64::from(dt) * f64::from(seq.fps);
                    request.frame = studio_pose::playback::normalize_frame(seq, played);
                    overlays.clear();
                    overlays.extend(layers.iter().filter_map(|l| layer_overlay(model, request, l)));
                    evaluator.evaluate_overlaid(request, &overlays, &mut pose).map_err(|e| e.to_string())?;
                    flashes = playback.next(seq, request.sequence, request.frame);
                    if seq.fps.is_finite() && seq.fps > 0.0 {
                        seconds = request.frame / seq.fps;
                    }
                }
                if let Some(second) = second.as_mut() {
                    second.pose(seconds, &pose.bones)?;
                }
                let frame = studio_render::goldsrc::frame_pose(model, &pose, Some(request.sequence));
                images.push(drawer.image(frame, &camera, second.as_slice(), &flashes)?);
                done.store(i + 1, Ordering::Relaxed);
            }
        }
        Poser::Source(doc) => {
            let looping = doc.looping();
            let mut events = Vec::new();
            for i in 0..frames {
                if cancel.load(Ordering::Relaxed) {
                    return Err("cancelled".to_owned());
                }
                if i > 0 {
                    doc.advance(dt, 1.0, &mut events, looping);
                    doc.update_face(options.body, camera.eye());
                }
                if let Some(second) = second.as_mut() {
                    second.pose(doc.clock, &doc.frame.bones)?;
                }
                images.push(drawer.image(doc.frame.frame_pose(), &camera, second.as_slice(), &[])?);
                done.store(i + 1, Ordering::Relaxed);
            }
        }
    }
    if cancel.load(Ordering::Relaxed) {
        return Err("cancelled".to_owned());
    }
    let files = studio_document::animation_file::write_animation(path, &images, settings.fps)
        .map_err(|e| e.to_string())?;
    Ok(CaptureDone { frames, files, seconds: started.elapsed().as_secs_f64() })
}
