//! `studioview render`: a pose of a model drawn offscreen to a PNG file.

use std::path::{Path, PathBuf};

use std::process::ExitCode;
use std::sync::Arc;

use studio_document::frame_drawer::FrameDrawer;
use studio_document::muzzle_flash::{self, FlashSprites, MuzzleFlash};
use studio_document::second_model::SecondModel;
use studio_pose::{Pose, PoseEvaluator};
use studio_render::{Camera, RenderOptions};

/// What `render` was asked for.
pub struct RenderArgs {
    /// The model; the bundled demo model when `None`.
    pub model: Option<PathBuf>,
    /// The PNG to write.
    pub out: PathBuf,
    /// Sequence number or name.
    pub sequence: String,
    /// Frame, blend, controllers, mouth.
    pub pose: crate::pose_cmd::PoseArgs,
    /// Body, skin, level of detail and game folders.
    pub shown: studio_document::shown::Shown,
    /// Image size.
    pub size: (u32, u32),
    /// What to show: mesh, skeleton, hitboxes, attachments, wireframe, bbox, seqbox, grid.
    pub show: Vec<String>,
    /// Where the camera is and how it projects.
    pub camera: CameraArgs,
    /// The light.
    pub light: LightArgs,
    /// Source flex controllers, `NAME=VALUE`.
    pub flex: Vec<String>,
    /// An animation of this many frames instead of one picture (`--frames`).
    pub frames: Option<u32>,
    /// The animation's frames a second (`--fps`; the sequence's own rate for Half-Life, 30 for
    /// Source, when left out).
    pub fps: Option<f32>,
    /// A transparent background, and no ground grid.
    pub transparent: bool,
    /// Models drawn on this one by bone merge (`--attach`).
    pub attach: Vec<PathBuf>,
    /// Half-Life muzzle flashes drawn on the frames that fire them (`--muzzle-flashes`).
    pub muzzle_flashes: bool,
}

/// The most frames an animation may have.
pub const MAX_FRAMES: u32 = 10_000;

/// Parses `NAME=VALUE` for a flex controller of `flexes`: its index and the value, which must lie
/// in the controller's range.
pub fn parse_flex(flexes: &studio_source::Flexes, item: &str) -> Result<(usize, f32), String> {
    let (name, value) = item.split_once('=').ok_or_else(|| format!("--flex {item:?} is not NAME=VALUE"))?;
    let name = name.trim();
    let index =
        flexes.controllers.iter().position(|c| c.name.eq_ignore_ascii_case(name)).ok_or_else(|| {
            let names: Vec<&str> = flexes.controllers.iter().map(|c| c.name.as_str()).collect();
            if names.is_empty() {
                "the model has no flex controllers".to_owned()
            } else {
                format!("no flex controller {name:?} (the model has {})", names.join(", "))
            }
        })?;
    let c = &flexes.controllers[index];
    let value: f32 = value
        .trim()
        .parse()
        .ok()
        .filter(|v: &f32| v.is_finite())
        .ok_or_else(|| format!("--flex {item:?}: {value:?} is not a number"))?;
    let (lo, hi) = c.range();
    if !(lo..=hi).contains(&value) {
        return Err(format!("--flex {item:?}: {} runs from {} to {}", c.name, c.min, c.max));
    }
    Ok((index, value))
}

/// Which camera `render` draws from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum CameraChoice {
    /// First person for a view model (`v_…`), otherwise orbit: as the viewer opens it.
    #[default]
    Auto,
    /// Round the model, framing it.
    Orbit,
    /// At the view model's eye (the origin), looking down +X.
    FirstPerson,
}

/// The camera options of `render`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct CameraArgs {
    /// The camera: orbit round the model, or first-person at a view model's eye; auto picks
    /// first person for `v_` models.
    #[arg(long = "camera", value_enum, default_value = "auto")]
    pub mode: CameraChoice,
    /// Field of view in degrees, as the games count it (across a 4:3 picture). First person
    /// defaults to the game's: 90 for Half-Life, viewmodel_fov 54 for Source.
    #[arg(long, value_parser = parse_fov)]
    pub fov: Option<f32>,
    /// Orthographic projection.
    #[arg(long)]
    pub ortho: bool,
    /// Look along an axis: front, back, left, right, top or bottom (orbit).
    #[arg(long, value_parser = parse_view, conflicts_with_all = ["yaw", "pitch"])]
    pub view: Option<studio_render::AxisView>,
    /// Camera angle round the model, degrees (0 looks at its front); in first person, the
    /// direction looked in (0 along +X). Orbit's default is 30.
    #[arg(long, allow_hyphen_values = true)]
    pub yaw: Option<f32>,
    /// Camera angle above the ground, degrees; in first person, the angle looked above the
    /// horizon. Orbit's default is 15.
    #[arg(long, allow_hyphen_values = true)]
    pub pitch: Option<f32>,
}

/// The light options of `render`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct LightArgs {
    /// Where the light comes from, PITCH,YAW degrees above and right of the view (it turns
    /// with the camera); by default a little above and right of the eye.
    #[arg(long, value_parser = parse_light, allow_hyphen_values = true)]
    pub light: Option<(f32, f32)>,
    /// The light's colour, R,G,B from 0 to 255 (white by default).
    #[arg(long = "light-color", value_parser = parse_rgb)]
    pub color: Option<[u8; 3]>,
    /// The ambient level, 0 to 1; by default the engine's: 32 of 255 (0.125) for Half-Life,
    /// 0.3 for Source.
    #[arg(long, value_parser = parse_ambient)]
    pub ambient: Option<f32>,
}

impl LightArgs {
    /// The light asked for.
    pub fn light(&self) -> studio_render::Light {
        let mut light = studio_render::Light::default();
        if let Some((pitch, yaw)) = self.light {
            (light.pitch_deg, light.yaw_deg) = (pitch, yaw);
        }
        if let Some(rgb) = self.color {
            light.color = rgb.map(|c| f32::from(c) / 255.0);
        }
        light.ambient = self.ambient;
        light
    }
}

/// Parses `PITCH,YAW` in degrees, pitch within ±90.
pub fn parse_light(text: &str) -> Result<(f32, f32), String> {
    let parsed = text
        .split_once(',')
        .and_then(|(p, y)| Some((p.trim().parse::<f32>().ok()?, y.trim().parse::<f32>().ok()?)));
    match parsed {
        Some((pitch, yaw)) if (-90.0..=90.0).contains(&pitch) && yaw.is_finite() => Ok((pitch, yaw)),
        _ => Err(format!("{text:?} is not PITCH,YAW in degrees (pitch from -90 to 90)")),
    }
}

/// Parses `R,G,B`, each 0 to 255.
pub fn parse_rgb(text: &str) -> Result<[u8; 3], String> {
    let parts: Vec<Option<u8>> = text.split(',').map(|p| p.trim().parse::<u8>().ok()).collect();
    match parts.as_slice() {
        [Some(r), Some(g), Some(b)] => Ok([*r, *g, *b]),
        _ => Err(format!("{text:?} is not R,G,B with each from 0 to 255")),
    }
}

/// Parses an ambient level, 0 to 1.
pub fn parse_ambient(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(level) if (0.0..=1.0).contains(&level) => Ok(level),
        _ => Err(format!("{text:?}: the ambient level is 0 to 1")),
    }
}

/// Parses a field of view, 1 to 170 degrees.
pub fn parse_fov(text: &str) -> Result<f32, String> {
    match text.trim().parse::<f32>() {
        Ok(fov) if (1.0..=170.0).contains(&fov) => Ok(fov),
        _ => Err(format!("{text:?}: a field of view is 1 to 170 degrees")),
    }
}

/// Parses an axis view's name.
pub fn parse_view(text: &str) -> Result<studio_render::AxisView, String> {
    studio_render::AxisView::from_name(text)
        .ok_or_else(|| format!("{text:?} is not a view (front, back, left, right, top, bottom)"))
}

/// The camera `args` ask for, framing `bounds` (orbit); `source` for a Source model.
fn camera_for(args: &RenderArgs, bounds: (glam::Vec3, glam::Vec3), source: bool) -> Camera {
    let choice = &args.camera;
    let first_person = match choice.mode {
        CameraChoice::Auto => studio_document::view_model::is_view_model(args.model.as_deref()),
        CameraChoice::Orbit => false,
        CameraChoice::FirstPerson => true,
    };
    let mut camera = if first_person {
        let mut camera = Camera::first_person(studio_document::view_model::view_model_fov(source));
        camera.yaw_deg = choice.yaw.unwrap_or(0.0);
        camera.pitch_deg = choice.pitch.unwrap_or(0.0).clamp(-89.0, 89.0);
        camera
    } else {
        let defaults = Camera::default();
        let (yaw, pitch) = match choice.view {
            Some(view) => view.angles(),
            None => (choice.yaw.unwrap_or(defaults.yaw_deg), choice.pitch.unwrap_or(defaults.pitch_deg)),
        };
        Camera { yaw_deg: yaw, pitch_deg: pitch.clamp(-90.0, 90.0), ..defaults }
    };
    if let Some(fov) = choice.fov {
        camera.set_game_fov(fov);
    }
    camera.orthographic = choice.ortho;
    camera.frame(bounds.0, bounds.1, args.size.0 as f32 / args.size.1 as f32);
    camera
}

/// Parses `WxH`.
/// Frames a second: a positive number up to 1000.
pub fn parse_fps(text: &str) -> Result<f32, String> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|f| f.is_finite() && *f > 0.0 && *f <= 1000.0)
        .ok_or_else(|| format!("{text:?} is not a rate from 0 to 1000 frames a second"))
}

pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(|| format!("{text:?} is not WIDTHxHEIGHT"))?;
    let parse = |v: &str| v.trim().parse::<u32>().ok().filter(|&v| (1..=8192).contains(&v));
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!("{text:?}: sizes are 1 to 8192 pixels")),
    }
}

/// Display options from the `--show` list.
pub fn options_from_show(show: &[String]) -> Result<RenderOptions, String> {
    let mut options = RenderOptions { mesh: false, ..RenderOptions::default() };
    options.overlay.grid = false;
    for item in show {
        match item.trim() {
            "mesh" => options.mesh = true,
            "skeleton" => options.overlay.skeleton = true,
            "hitboxes" => options.overlay.hitboxes = true,
            "attachments" => options.overlay.attachments = true,
            "wireframe" => options.wireframe = true,
            "bbox" => options.overlay.bounding_box = true,
            "seqbox" => options.overlay.sequence_box = true,
            "grid" => options.overlay.grid = true,
            "xray" => options.xray = true,
            "plain" => options.game_shading = false,
            "normals" => options.overlay.normals = true,
            "hull" => options.overlay.player_hull = true,
            "weights" => options.overlay.weights = studio_render::WeightView::PerBone,
            other => match other.strip_prefix("weights:").map(|b| b.trim().parse::<usize>()) {
                Some(Ok(bone)) => options.overlay.weights = studio_render::WeightView::Bone(bone),
                _ => {
                    return Err(format!(
                        "unknown --show item {other:?} (mesh, skeleton, hitboxes, attachments, wireframe, bbox, seqbox, grid, xray, plain, normals, hull, weights, weights:BONE)"
                    ));
                }
            },
        }
    }
    Ok(options)
}

/// Runs the command.
pub fn run(args: &RenderArgs) -> ExitCode {
    studio_document::installs::shared(|| run_now(args))
}

/// [`run`], inside [`studio_document::installs::shared`]: the model's game opened once.
fn run_now(args: &RenderArgs) -> ExitCode {
    match render(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// On a machine without a desktop session (no usable `XDG_RUNTIME_DIR`), Mesa's Vulkan
/// device-selection layer asks libwayland for a display, which prints
/// `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` although nothing failed.
/// The layer only chooses between several GPUs; this runs the same command again with it
/// switched off (`NODEVICE_SELECT=1`, its documented switch; the variable cannot be set safely
/// in this process) and returns that run's exit code, or `None` when this run can go ahead.
pub fn rerun_quietly() -> Option<ExitCode> {
    // Mesa's layer and the variable are Linux's.
    if !cfg!(target_os = "linux") {
        return None;
    }
    let runtime_dir_usable = std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| Path::new(&d).is_dir());
    if runtime_dir_usable || std::env::var_os("NODEVICE_SELECT").is_some() {
        return None;
    }
    let exe = std::env::current_exe().ok()?;
    let status = std::process::Command::new(exe)
        .args(std::env::args_os().skip(1))
        .env("NODEVICE_SELECT", "1")
        .status()
        .ok()?;
    Some(match status.code() {
        Some(0) => ExitCode::SUCCESS,
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        None => ExitCode::FAILURE,
    })
}

fn render(args: &RenderArgs) -> Result<(), String> {
    if let Some(frames) = args.frames {
        studio_document::animation_file::check_frame_budget(frames, args.size.0, args.size.1)?;
        if studio_document::animation_file::AnimationFormat::of_path(&args.out).is_none() {
            return Err(format!(
                "{}: an animation is written as .gif, .png (APNG), .webp, or a folder ending in /",
                args.out.display()
            ));
        }
    }
    if let Some(path) = &args.model
        && let Some(loaded) = studio_document::model_files::source_load(path)
    {
        let loaded = loaded.map_err(|e| e.to_string())?;
        return render_source(
            args,
            studio_document::source_doc::SourceDoc::new(loaded.model, path.clone(), loaded.companions),
        );
    }
    let model = Arc::new(studio_document::demo::load_or_demo(args.model.as_deref())?);
    let sequence = studio_document::sequences::find_sequence(&model, &args.sequence).ok_or_else(|| {
        let name = args.model.as_ref().map_or("the demo model".to_owned(), |p| p.display().to_string());
        format!("{name} has no sequence {:?}", args.sequence)
    })?;
    let mut pose = Pose::new(&model);
    let mut evaluator = PoseEvaluator::new(model.clone());
    let pose_at = |evaluator: &mut PoseEvaluator, request: &studio_pose::PoseRequest, pose: &mut Pose| {
        let overlays = crate::pose_cmd::overlays(&model, request, &args.pose.layers)?;
        evaluator.evaluate_overlaid(request, &overlays, pose).map_err(|e| e.to_string())
    };
    if !model.sequences.is_empty() {
        pose_at(&mut evaluator, &args.pose.request(&model, sequence), &mut pose)?;
    }
    if !args.flex.is_empty() {
        return Err("--flex is for Source models: Half-Life models have no flex controllers".to_owned());
    }
    let camera =
        camera_for(args, studio_document::bounds::pose_bounds(&model, &pose, args.shown.body), false);
    let render = studio_render::goldsrc::coloured_render_model(&model, args.shown.colours());
    let names: Vec<&str> = model.bones.iter().map(|b| b.name.as_str()).collect();
    let mut attached = load_attached(args, &names)?;
    let mut drawer = drawer(args, &render, &camera, &attached)?;
    let Some(count) = args.frames else {
        pose_attached(&mut attached, 0.0, &pose.bones)?;
        let main = studio_render::goldsrc::frame_pose(&model, &pose, Some(sequence));
        let frame = args.pose.request(&model, sequence).frame;
        let flashes = match model.sequences.get(sequence).filter(|_| args.muzzle_flashes) {
            Some(seq) => muzzle_flash::flashes_fired(seq, sequence, None, frame, 0),
            None => Vec::new(),
        };
        let image = draw(&mut drawer, main, &camera, &attached, &flashes)?;
        return studio_document::png_file::write_png(&args.out, &image);
    };
    // An animation: the sequence played from the frame asked for, at its own rate.
    let seq = model.sequences.get(sequence);
    let fps = args.fps.unwrap_or_else(|| seq.map_or(30.0, |s| s.fps)).max(0.0);
    let fps = if fps > 0.0 { fps } else { 30.0 };
    let start = args.pose.frame.unwrap_or(0.0);
    let mut request = args.pose.request(&model, sequence);
    let mut images = Vec::with_capacity(count as usize);
    let mut playback = muzzle_flash::FlashPlayback::default();
    let mut flashes = Vec::new();
    for i in 0..count {
        if let Some(seq) = seq {
            let played = f64::from(start) + f64::from(i) / f64::from(fps) * f64::from(seq.fps);
            request.frame = studio_pose::playback::normalize_frame(seq, played);
            pose_at(&mut evaluator, &request, &mut pose)?;
            if args.muzzle_flashes {
                flashes = playback.next(seq, sequence, request.frame);
            }
        }
        pose_attached(&mut attached, i as f32 / fps, &pose.bones)?;
        let main = studio_render::goldsrc::frame_pose(&model, &pose, Some(sequence));
        images.push(draw(&mut drawer, main, &camera, &attached, &flashes)?);
    }
    write_animation(args, &images, fps)
}

/// Writes an animation's frames where `--out` says, and says what was written.
fn write_animation(args: &RenderArgs, images: &[studio_render::RgbaImage], fps: f32) -> Result<(), String> {
    let written = studio_document::animation_file::write_animation(&args.out, images, fps)
        .map_err(|e| e.to_string())?;
    if written.len() > 1 {
        eprintln!("wrote {} frames into {}", written.len(), args.out.display());
    }
    Ok(())
}

/// `render` for a Source model: `--cycle`, `--time`, `--param`, `--hitbox-set`, `--lod`.
fn render_source(args: &RenderArgs, mut doc: studio_document::source_doc::SourceDoc) -> Result<(), String> {
    use crate::source_pose_cmd::{find_hitbox_set, parse_param};
    let path = doc.path.display().to_string();
    if args.muzzle_flashes {
        return Err(format!(
            "{path} is a Source model: --muzzle-flashes draws Half-Life's flash events (Source games draw theirs from particle systems)"
        ));
    }
    if args.pose.frame.is_some() {
        return Err(format!(
            "{path} is a Source model: its poses are at a --cycle from 0 to 1, not a --frame"
        ));
    }
    let rig = doc.evaluator.rig();
    doc.sequence = studio_document::sequences::find_rig_sequence(rig, &args.sequence)
        .ok_or_else(|| format!("{path} has no sequence {:?}", args.sequence))?;
    for item in &args.pose.params {
        let (index, value) = parse_param(doc.evaluator.rig(), item)?;
        doc.params[index] = value;
    }
    if let Some(wanted) = &args.pose.hitbox_set {
        doc.hitbox_set = find_hitbox_set(&doc.model, wanted)
            .ok_or_else(|| format!("{path} has no hit box set {wanted:?}"))?;
    }
    if let Some(bytes) = &args.pose.controller {
        let model = doc.model.clone();
        for (value, controller) in doc.controllers.iter_mut().zip(&model.bone_controllers) {
            if let Some(&byte) = usize::try_from(controller.input).ok().and_then(|i| bytes.get(i)) {
                *value = controller.start + f32::from(byte) / 255.0 * (controller.end - controller.start);
            }
        }
    }
    let lods = studio_render::source::lod_count(&doc.model);
    if args.shown.lod >= lods {
        return Err(format!("{path} has {lods} LOD{} (0 to {})", if lods == 1 { "" } else { "s" }, lods - 1));
    }
    for item in &args.flex {
        let (index, value) = parse_flex(&doc.model.flexes, item)?;
        doc.flex[index] = value;
    }
    doc.cycle = args.pose.cycle.unwrap_or(0.0);
    doc.clock = args.pose.time.unwrap_or(0.0);
    for text in &args.pose.layers {
        let layer = crate::pose_cmd::parse_layer(text)?;
        let sequence = studio_document::sequences::find_rig_sequence(doc.evaluator.rig(), &layer.sequence)
            .ok_or_else(|| format!("--layer {text:?}: {path} has no sequence {:?}", layer.sequence))?;
        doc.layers.push(studio_document::source_doc::DocLayer {
            sequence,
            weight: layer.weight,
            cycle: layer.cycle,
        });
    }
    doc.evaluate();
    let camera = camera_for(args, doc.bounds(args.shown.body), true);
    doc.update_face(args.shown.body, camera.eye());
    let materials = studio_document::materials::resolve(&doc.model, &doc.path, &args.shown.game);
    for line in &materials.messages {
        eprintln!("note: {line}");
    }
    let render = studio_render::source::render_model(&doc.model, materials.materials);
    let model = doc.model.clone();
    let names: Vec<&str> = model.bones.iter().map(|b| b.name.as_str()).collect();
    let mut attached = load_attached(args, &names)?;
    let mut drawer = drawer(args, &render, &camera, &attached)?;
    let Some(count) = args.frames else {
        pose_attached(&mut attached, 0.0, &doc.frame.bones)?;
        let image = draw(&mut drawer, doc.frame.frame_pose(), &camera, &attached, &[])?;
        return studio_document::png_file::write_png(&args.out, &image);
    };
    // An animation: the sequence played on from the cycle asked for, looping as it loops.
    let fps = args.fps.filter(|f| *f > 0.0).unwrap_or(30.0);
    let looping = doc.looping();
    let mut images = Vec::with_capacity(count as usize);
    let mut events = Vec::new();
    for i in 0..count {
        if i > 0 {
            doc.advance(1.0 / fps, 1.0, &mut events, looping);
            doc.update_face(args.shown.body, camera.eye());
        }
        pose_attached(&mut attached, i as f32 / fps, &doc.frame.bones)?;
        images.push(draw(&mut drawer, doc.frame.frame_pose(), &camera, &attached, &[])?);
    }
    write_animation(args, &images, fps)
}

/// The models of `--attach`, each told how many of its bones follow the model's.
fn load_attached(args: &RenderArgs, parent: &[&str]) -> Result<Vec<SecondModel>, String> {
    let mut attached = Vec::with_capacity(args.attach.len());
    for path in &args.attach {
        let model =
            SecondModel::attach(path, parent, &args.shown.game).map_err(|e| format!("--attach {e}"))?;
        for line in &model.notes {
            eprintln!("note: --attach {}: {line}", path.display());
        }
        if model.matched() == 0 {
            eprintln!(
                "note: --attach {}: none of its bones is named as one of the model's; drawn where it is",
                path.display()
            );
        }
        attached.push(model);
    }
    Ok(attached)
}

/// Poses the attached models `seconds` in, on the model's bones `parent`.
fn pose_attached(
    attached: &mut [SecondModel],
    seconds: f32,
    parent: &[glam::Affine3A],
) -> Result<(), String> {
    attached.iter_mut().try_for_each(|a| a.pose(seconds, parent))
}

/// The drawer of `render`'s pictures: the options `render` was given, the attached models, and
/// the flash sprites when `--muzzle-flashes` asked for them.
fn drawer(
    args: &RenderArgs,
    model: &studio_render::RenderModel,
    camera: &Camera,
    attached: &[SecondModel],
) -> Result<FrameDrawer, String> {
    let mut options = options_from_show(&args.show)?;
    options.overlay.grid &= camera.shows_ground() && !args.transparent;
    options.light = args.light.light();
    options.body = args.shown.body;
    options.skin = args.shown.skin;
    options.lod = args.shown.lod;
    let attached: Vec<&studio_render::RenderModel> = attached.iter().map(|a| &a.render).collect();
    let flashes = args.muzzle_flashes.then(|| FlashSprites::new(args.model.as_deref(), &args.shown.game));
    FrameDrawer::new(model, options, args.size, args.transparent, &attached, flashes)
}

/// Draws a frame, saying on stderr what could not be drawn.
fn draw(
    drawer: &mut FrameDrawer,
    pose: studio_render::FramePose<'_>,
    camera: &Camera,
    attached: &[SecondModel],
    flashes: &[MuzzleFlash],
) -> Result<studio_render::RgbaImage, String> {
    let image = drawer.image(pose, camera, attached, flashes);
    for note in drawer.notes.drain(..) {
        eprintln!("note: {note}");
    }
    image
}
