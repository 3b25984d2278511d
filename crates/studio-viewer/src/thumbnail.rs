//! Small renders of models for the model browser, made on a thread of their own with a headless
//! GPU context of their own, so that no frame of the viewer waits for one; each is cached on
//! disk as a PNG keyed by the file's identity (its path, size and modification time, or its
//! archive's and its path inside), so that a second visit reads it back instead of drawing it.
//!
//! A model is drawn as `render` draws it by default: its first sequence at its start (Half-Life:
//! frame 0 with the controllers at their neutral settings; Source: cycle 0 with the pose
//! parameters at their defaults), body 0, skin 0, LOD 0, framed on its pose; one without a mesh
//! as its skeleton.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

use studio_pose::{Pose, PoseEvaluator, PoseRequest};
use studio_render::{
    Camera, GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, RenderOptions, Renderer, RgbaImage, Scene,
};

use studio_document::model_files::{goldsrc_load_in, source_load_in};

/// A thumbnail's size in pixels.
pub const SIZE: (u32, u32) = (128, 96);

/// The identity of a model's file, as the cache keys it: a loose file's path, size and
/// modification time; an archived one's archive's, and its path inside.
pub fn identity(path: &Path) -> Option<String> {
    let (file, inner) = match studio_archive::ArchivePath::parse(path) {
        Some(archived) => (archived.archive.clone(), archived.inner),
        None => (path.to_path_buf(), String::new()),
    };
    let meta = std::fs::metadata(&file).ok()?;
    let modified = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
    let file = std::fs::canonicalize(&file).unwrap_or(file);
    Some(format!(
        "{}|{inner}|{}|{}.{:09}|{}x{}",
        file.display(),
        meta.len(),
        modified.as_secs(),
        modified.subsec_nanos(),
        SIZE.0,
        SIZE.1
    ))
}

/// 64-bit FNV-1a: a stable name for a cache file.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// The folder thumbnails are cached in: the system's cache folder for studioview (the
/// `directories` crate's), then `thumbnails` — on Linux `$XDG_CACHE_HOME/studioview/thumbnails`
/// or `~/.cache/studioview/thumbnails`, on Windows `%LOCALAPPDATA%\studioview\cache\thumbnails`,
/// on macOS `~/Library/Caches/studioview/thumbnails`.
pub fn default_cache() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "studioview")?;
    Some(dirs.cache_dir().join("thumbnails"))
}

/// The cache file of a model, if its identity can be had.
fn cache_file(cache: &Path, path: &Path) -> Option<PathBuf> {
    Some(cache.join(format!("{:016x}.png", fnv1a(&identity(path)?))))
}

/// Reads a cached thumbnail.
fn read_png(path: &Path) -> Option<RgbaImage> {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).ok()?));
    let mut reader = decoder.read_info().ok()?;
    let mut pixels = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut pixels).ok()?;
    if info.color_type != png::ColorType::Rgba || info.bit_depth != png::BitDepth::Eight {
        return None;
    }
    pixels.truncate(info.buffer_size());
    Some(RgbaImage { width: info.width, height: info.height, pixels })
}

/// Draws models to thumbnails.
pub struct Drawer {
    context: GpuContext,
    renderer: Renderer,
    target: OffscreenTarget,
}

impl Drawer {
    /// A drawer on a headless GPU context of its own.
    pub fn new() -> Result<Self, String> {
        let context = GpuContext::headless().map_err(|e| e.to_string())?;
        let samples = context.sample_count(OFFSCREEN_FORMAT);
        let renderer = Renderer::new(&context, OFFSCREEN_FORMAT, samples);
        let target = OffscreenTarget::new(&context, SIZE.0, SIZE.1, samples);
        Ok(Self { context, renderer, target })
    }

    /// The thumbnail of the model at `path`, its materials looked for in its game and `extra`.
    pub fn draw(&mut self, path: &Path, extra: &[PathBuf]) -> Result<RgbaImage, String> {
        studio_document::installs::shared(|| self.draw_now(path, extra))
    }

    /// [`Self::draw`], inside [`studio_document::installs::shared`]: the model's game opened once.
    fn draw_now(&mut self, path: &Path, extra: &[PathBuf]) -> Result<RgbaImage, String> {
        let mut options = RenderOptions::default();
        options.overlay.grid = false;
        let aspect = SIZE.0 as f32 / SIZE.1 as f32;
        let mut camera = Camera::default();
        if let Some(loaded) = source_load_in(path, extra) {
            let loaded = loaded.map_err(|e| e.to_string())?;
            let mut doc = studio_document::source_doc::SourceDoc::new(
                loaded.model,
                path.to_path_buf(),
                loaded.companions,
            );
            doc.evaluate();
            let materials = studio_document::materials::resolve(&doc.model, path, extra);
            let render = studio_render::source::render_model(&doc.model, materials.materials);
            options.overlay.skeleton = !has_mesh(&render);
            let gpu = self.renderer.upload(&render);
            let (min, max) = doc.bounds(0);
            camera.frame(min, max, aspect);
            let scene = Scene { pose: doc.frame.frame_pose(), camera: &camera, options: &options };
            return studio_render::render_image(
                &self.context,
                &mut self.renderer,
                &gpu,
                &self.target,
                &scene,
            )
            .map_err(|e| e.to_string());
        }
        let model = Arc::new(goldsrc_load_in(path, extra).map_err(|e| e.to_string())?.model);
        let mut pose = Pose::new(&model);
        let sequence = (!model.sequences.is_empty()).then_some(0);
        if let Some(sequence) = sequence {
            let controllers = studio_pose::neutral_bytes(&model.bone_controllers);
            let request = PoseRequest { sequence, frame: 0.0, blend: [0, 0], controllers };
            PoseEvaluator::new(model.clone()).evaluate(&request, &mut pose).map_err(|e| e.to_string())?;
        }
        let (min, max) = studio_document::bounds::pose_bounds(&model, &pose, 0);
        camera.frame(min, max, aspect);
        let render = studio_render::goldsrc::render_model(&model);
        options.overlay.skeleton = !has_mesh(&render);
        let gpu = self.renderer.upload(&render);
        let frame = studio_render::goldsrc::frame_pose(&model, &pose, sequence);
        let scene = Scene { pose: frame, camera: &camera, options: &options };
        studio_render::render_image(&self.context, &mut self.renderer, &gpu, &self.target, &scene)
            .map_err(|e| e.to_string())
    }
}

/// Whether a model has a triangle to draw; one without (an animation-only include) is drawn as
/// its skeleton.
fn has_mesh(model: &studio_render::RenderModel) -> bool {
    let meshes = model.body_parts.iter().flat_map(|p| &p.submodels).flat_map(|s| s.lods.first());
    meshes.flatten().any(|mesh| !mesh.triangles.is_empty())
}

/// A thumbnail made (or found in the cache), or why not.
pub struct Made {
    /// The model.
    pub path: PathBuf,
    /// Its thumbnail.
    pub image: Result<RgbaImage, String>,
    /// Whether it came from the cache.
    pub cached: bool,
}

/// What the worker is asked for, newest first.
#[derive(Default)]
struct Wanted {
    stack: Vec<PathBuf>,
    queued: HashSet<PathBuf>,
    /// The owner is gone: the worker ends.
    closed: bool,
}

/// Thumbnails made in the background, newest request first (the rows in view are asked for last
/// and drawn first); results are collected with [`Thumbnails::poll`] each frame.
pub struct Thumbnails {
    wanted: Arc<(Mutex<Wanted>, std::sync::Condvar)>,
    results: Receiver<Made>,
    /// Asked for and not yet made.
    pending: HashSet<PathBuf>,
    /// Made since the queue was created: drawn and read from the cache.
    pub drawn: usize,
    /// Read back from the cache.
    pub from_cache: usize,
    /// The worker, joined on drop: its GPU context is destroyed before the owner goes on. A
    /// context still being torn down on its thread while the process exits corrupted the
    /// software Vulkan driver's heap (the browser test crashed after its tests had passed).
    worker: Option<std::thread::JoinHandle<()>>,
}

impl Thumbnails {
    /// A worker drawing with the materials of the models' games and `extra`, caching in `cache`
    /// (none: not cached). It starts its GPU context when first asked for a thumbnail that is not
    /// in the cache, and ends when this is dropped.
    /// `wake` is called after each thumbnail is made (the viewer asks for a frame, to show it).
    pub fn start(cache: Option<PathBuf>, extra: Vec<PathBuf>, wake: Box<dyn Fn() + Send>) -> Self {
        let wanted: Arc<(Mutex<Wanted>, std::sync::Condvar)> = Arc::default();
        let (send, results) = channel();
        let queue = Arc::clone(&wanted);
        let worker = std::thread::Builder::new()
            .name("thumbnails".into())
            .spawn(move || work(&queue, &send, cache.as_deref(), &extra, &*wake))
            .ok();
        Self { wanted, results, pending: HashSet::new(), drawn: 0, from_cache: 0, worker }
    }

    /// Asks for the thumbnail of `path` (again, first, if it was asked for and is not made).
    pub fn want(&mut self, path: &Path) {
        self.pending.insert(path.to_path_buf());
        let (lock, ready) = &*self.wanted;
        let mut wanted = lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if !wanted.queued.insert(path.to_path_buf()) {
            wanted.stack.retain(|p| p != path);
        }
        wanted.stack.push(path.to_path_buf());
        ready.notify_one();
    }

    /// Whether `path` was asked for and is not made yet.
    pub fn is_pending(&self, path: &Path) -> bool {
        self.pending.contains(path)
    }

    /// Thumbnails asked for and not made yet.
    pub fn in_progress(&self) -> usize {
        self.pending.len()
    }

    /// The thumbnails made since the last call.
    pub fn poll(&mut self) -> Vec<Made> {
        let made: Vec<Made> = self.results.try_iter().collect();
        for m in &made {
            self.pending.remove(&m.path);
            if m.cached {
                self.from_cache += 1;
            } else {
                self.drawn += 1;
            }
        }
        made
    }

    /// Waits up to `timeout` for the next thumbnail (tests and the command line).
    pub fn wait(&mut self, timeout: std::time::Duration) -> Option<Made> {
        let made = self.results.recv_timeout(timeout).ok()?;
        self.pending.remove(&made.path);
        if made.cached {
            self.from_cache += 1;
        } else {
            self.drawn += 1;
        }
        Some(made)
    }
}

impl Drop for Thumbnails {
    fn drop(&mut self) {
        let (lock, ready) = &*self.wanted;
        let mut wanted = lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        wanted.stack.clear();
        wanted.closed = true;
        ready.notify_all();
        drop(wanted);
        // The worker ends after the thumbnail it is drawing, if any (a fraction of a second).
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

/// The worker: takes the newest request, reads it from the cache or draws and caches it.
fn work(
    wanted: &(Mutex<Wanted>, std::sync::Condvar),
    send: &Sender<Made>,
    cache: Option<&Path>,
    extra: &[PathBuf],
    wake: &dyn Fn(),
) {
    let mut drawer: Option<Result<Drawer, String>> = None;
    loop {
        let path = {
            let (lock, ready) = wanted;
            let mut w = lock.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            loop {
                if w.closed {
                    return;
                }
                if let Some(path) = w.stack.pop() {
                    w.queued.remove(&path);
                    break path;
                }
                w = ready.wait(w).unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        };
        let file = cache.and_then(|c| cache_file(c, &path));
        if let Some(image) = file.as_deref().and_then(read_png) {
            if send.send(Made { path, image: Ok(image), cached: true }).is_err() {
                return;
            }
            wake();
            continue;
        }
        let drawer = drawer.get_or_insert_with(Drawer::new);
        let image = match drawer {
            Ok(d) => d.draw(&path, extra),
            Err(e) => Err(e.clone()),
        };
        if let (Ok(image), Some(file)) = (&image, &file) {
            if let Some(dir) = file.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let _ = studio_document::png_file::write_png(file, image);
        }
        if send.send(Made { path, image, cached: false }).is_err() {
            return;
        }
        wake();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn thumbnails_are_cached_in_the_systems_cache_folder() {
        let Some(cache) = super::default_cache() else { return };
        assert!(cache.ends_with("studioview/thumbnails") || cache.ends_with("studioview\\cache\\thumbnails"));
        #[cfg(target_os = "linux")]
        {
            // `$XDG_CACHE_HOME` where it is absolute, else `~/.cache`.
            let base = std::env::var_os("XDG_CACHE_HOME")
                .map(std::path::PathBuf::from)
                .filter(|p| p.is_absolute())
                .or_else(|| std::env::home_dir().map(|h| h.join(".cache")));
            assert_eq!(Some(cache), base.map(|b| b.join("studioview/thumbnails")));
        }
    }
}
