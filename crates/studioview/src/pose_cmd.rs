//! `studioview pose` and `studioview bench`: one pose as JSON in the reference's format, and the
//! fixed pose-evaluation workload.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;
use studio_document::sequences::find_sequence;
use studio_model::Model;
use studio_pose::{ControllerBytes, Pose, PoseEvaluator, PoseRequest, workload};

fn load(path: &Path) -> Result<Arc<Model>, ExitCode> {
    studio_document::model_files::goldsrc_load(path).map(|l| Arc::new(l.model)).map_err(|error| {
        eprintln!("error {error}");
        ExitCode::FAILURE
    })
}

/// A pose as the reference files write one.
pub fn pose_json(pose: &Pose) -> serde_json::Value {
    let bones: Vec<[f32; 12]> = pose
        .bones
        .iter()
        .map(|m| {
            let (c, t) = (m.matrix3, m.translation);
            [
                c.x_axis.x, c.y_axis.x, c.z_axis.x, t.x, c.x_axis.y, c.y_axis.y, c.z_axis.y, t.y, c.x_axis.z,
                c.y_axis.z, c.z_axis.z, t.z,
            ]
        })
        .collect();
    let hitboxes: Vec<Vec<[f32; 3]>> =
        pose.hitboxes.iter().map(|h| h.iter().map(|c| c.to_array()).collect()).collect();
    let attachments: Vec<[f32; 3]> = pose.attachments.iter().map(|a| a.to_array()).collect();
    json!({"bones": bones, "hitboxes": hitboxes, "attachments": attachments})
}

/// The entity state a pose is evaluated for, as `pose` and `render` take it.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct PoseArgs {
    /// Frame in frame units, used as given (Half-Life models; 0 when left out).
    #[arg(long)]
    pub frame: Option<f32>,
    /// Cycle from 0 to 1 (Source models; 0 when left out).
    #[arg(long)]
    pub cycle: Option<f32>,
    /// The real-time clock in seconds (Source models; 0 when left out): a `STUDIO_REALTIME`
    /// sequence, shown or layered, plays at the fraction of time × its cycles per second.
    #[arg(long)]
    pub time: Option<f32>,
    /// A Source model's pose parameter in its own units, NAME=VALUE (repeatable; others are at
    /// their defaults).
    #[arg(long = "param")]
    pub params: Vec<String>,
    /// The hit box set whose corners a Source pose lists, by number or name (set 0 when left out).
    #[arg(long)]
    pub hitbox_set: Option<String>,
    /// The two blending bytes, 0-255.
    #[arg(long, value_delimiter = ',', num_args = 1..=2, default_value = "0,0")]
    pub blend: Vec<u8>,
    /// The four controller bytes, 0-255 (by default each controller's neutral setting, the
    /// one nearest 0 degrees or units).
    #[arg(long, value_delimiter = ',', num_args = 1..=4)]
    pub controller: Option<Vec<u8>>,
    /// The mouth byte, 0-64 (by default the mouth's neutral setting).
    #[arg(long)]
    pub mouth: Option<u8>,
    /// A sequence layered over the pose, SEQ:WEIGHT[:CYCLE] (number or name, weight 0-1, cycle
    /// 0-1; without a cycle it follows the pose's); repeatable, mixed in order.
    #[arg(long = "layer", value_name = "SEQ:WEIGHT[:CYCLE]")]
    pub layers: Vec<String>,
}

/// One `--layer`: the sequence as given, its weight and its cycle (`None`: the pose's).
#[derive(Clone, Debug, PartialEq)]
pub struct LayerArg {
    /// Sequence number or name.
    pub sequence: String,
    /// 0 to 1.
    pub weight: f32,
    /// 0 to 1, or `None`.
    pub cycle: Option<f32>,
}

/// Parses `SEQ:WEIGHT[:CYCLE]`.
pub fn parse_layer(text: &str) -> Result<LayerArg, String> {
    let parts: Vec<&str> = text.rsplitn(3, ':').collect();
    let unit = |v: &str, what: &str| {
        v.trim()
            .parse::<f32>()
            .ok()
            .filter(|x| (0.0..=1.0).contains(x))
            .ok_or_else(|| format!("--layer {text:?}: the {what} {v:?} is not a number from 0 to 1"))
    };
    // The name may hold colons: the weight and cycle are read from the end.
    match parts.as_slice() {
        [last, weight, sequence] if unit(last, "cycle").is_ok() && unit(weight, "weight").is_ok() => {
            Ok(LayerArg {
                sequence: (*sequence).to_owned(),
                weight: unit(weight, "weight")?,
                cycle: Some(unit(last, "cycle")?),
            })
        }
        [weight, rest @ ..] if !rest.is_empty() => {
            let sequence = rest.iter().rev().copied().collect::<Vec<_>>().join(":");
            Ok(LayerArg { sequence, weight: unit(weight, "weight")?, cycle: None })
        }
        _ => Err(format!("--layer {text:?} is not SEQ:WEIGHT[:CYCLE]")),
    }
}

/// The overlays of `--layer` for a Half-Life model's pose `request`.
pub fn overlays(
    model: &Model,
    request: &PoseRequest,
    layers: &[String],
) -> Result<Vec<studio_pose::Overlay>, String> {
    let main_frames = model.sequences.get(request.sequence).map_or(1, |s| s.frames());
    let cycle =
        if main_frames > 1 { (request.frame / (main_frames - 1) as f32).clamp(0.0, 1.0) } else { 0.0 };
    layers
        .iter()
        .map(|text| {
            let layer = parse_layer(text)?;
            let sequence = find_sequence(model, &layer.sequence)
                .ok_or_else(|| format!("--layer {text:?}: the model has no sequence {:?}", layer.sequence))?;
            let frames = model.sequences[sequence].frames().saturating_sub(1) as f32;
            let frame = layer.cycle.unwrap_or(cycle) * frames;
            Ok(studio_pose::Overlay {
                request: PoseRequest { sequence, frame, ..*request },
                weight: layer.weight,
            })
        })
        .collect()
}

impl PoseArgs {
    /// The request for `sequence` of `model`: missing blend bytes are 0, controllers and the
    /// mouth not given take their neutral settings.
    pub fn request(&self, model: &Model, sequence: usize) -> PoseRequest {
        let byte = |values: &[u8], i: usize| values.get(i).copied().unwrap_or(0);
        let neutral = studio_pose::neutral_bytes(&model.bone_controllers);
        PoseRequest {
            sequence,
            frame: self.frame.unwrap_or(0.0),
            blend: [byte(&self.blend, 0), byte(&self.blend, 1)],
            controllers: ControllerBytes {
                user: match &self.controller {
                    Some(given) => std::array::from_fn(|i| byte(given, i)),
                    None => neutral.user,
                },
                mouth: self.mouth.unwrap_or(neutral.mouth),
            },
        }
    }
}

impl PoseArgs {
    /// The options only Source models take, if any was given: a Half-Life model refuses them.
    fn source_only(&self) -> Option<&'static str> {
        if self.cycle.is_some() {
            Some("--cycle")
        } else if self.time.is_some() {
            Some("--time")
        } else if !self.params.is_empty() {
            Some("--param")
        } else if self.hitbox_set.is_some() {
            Some("--hitbox-set")
        } else {
            None
        }
    }
}

/// `studioview pose`.
pub fn run_pose(path: &Path, sequence: &str, args: &PoseArgs) -> ExitCode {
    if let Some(result) = studio_document::model_files::source_load(path) {
        return crate::source_pose_cmd::run_pose(path, result, sequence, args);
    }
    if let Some(option) = args.source_only() {
        eprintln!(
            "error: {} is a Half-Life model: {option} is for Source models (a Half-Life pose is at a --frame)",
            path.display()
        );
        return ExitCode::FAILURE;
    }
    let model = match load(path) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let Some(sequence) = find_sequence(&model, sequence) else {
        eprintln!("error: {} has no sequence {sequence:?}", path.display());
        return ExitCode::FAILURE;
    };
    let mut evaluator = PoseEvaluator::new(model.clone());
    let mut pose = Pose::new(&model);
    let request = args.request(&model, sequence);
    let overlays = match overlays(&model, &request, &args.layers) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    match evaluator.evaluate_overlaid(&request, &overlays, &mut pose) {
        Ok(()) => {
            crate::stdout::outln!("{}", pose_json(&pose));
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// How the benchmark evaluates each pose.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Bone matrices from the keyframe tables.
    Bones,
    /// Bone matrices, hit box corners and attachments, from the tables.
    WithPoints,
    /// Bone matrices, hit box corners and attachments straight from the runs: Valve's algorithm.
    FromRuns,
}

/// Runs `poses` poses of the workload, returning the checksum.
fn run_workload(
    evaluator: &mut PoseEvaluator,
    evaluable: &[usize],
    poses: usize,
    mode: Mode,
    pose: &mut Pose,
) -> f64 {
    let model = evaluator.model().clone();
    let mut checksum = 0.0f64;
    for i in 0..poses {
        let request = workload::request(&model, evaluable, i);
        let result = match mode {
            Mode::Bones => evaluator.evaluate_bones(&request, pose),
            Mode::WithPoints => evaluator.evaluate(&request, pose),
            Mode::FromRuns => evaluator.evaluate_from_runs(&request, pose),
        };
        if result.is_ok() {
            checksum += workload::checksum(pose);
        }
    }
    checksum
}

/// `studioview bench`.
pub fn run_bench(path: &Path, poses: usize, from_runs: bool, sequence: Option<&str>) -> ExitCode {
    if let Some(result) = studio_document::model_files::source_load(path) {
        return crate::source_pose_cmd::run_bench(path, result, poses, sequence);
    }
    if sequence.is_some() {
        eprintln!(
            "error: {}: --seq is for Source models; a Half-Life bench runs every sequence",
            path.display()
        );
        return ExitCode::FAILURE;
    }
    let model = match load(path) {
        Ok(m) => m,
        Err(code) => return code,
    };
    let evaluable: Vec<usize> =
        (0..model.sequences.len()).filter(|&s| model.sequences[s].animation.is_some()).collect();
    if evaluable.is_empty() || model.bones.is_empty() || poses == 0 {
        eprintln!("error: {} has no sequence to evaluate", path.display());
        return ExitCode::FAILURE;
    }
    let mut evaluator = PoseEvaluator::new(model.clone());
    let mut pose = Pose::new(&model);
    // Warm-up: builds the tables the workload touches, and the caches.
    run_workload(&mut evaluator, &evaluable, 2000, Mode::WithPoints, &mut pose);
    let mut timed = |mode: Mode| {
        let mut best = f64::INFINITY;
        let mut checksum = 0.0;
        for _ in 0..3 {
            let started = Instant::now();
            checksum = run_workload(&mut evaluator, &evaluable, poses, mode, &mut pose);
            best = best.min(started.elapsed().as_secs_f64());
        }
        (best * 1e9 / poses as f64, checksum)
    };
    let (ns_per_pose, checksum) = timed(Mode::Bones);
    let (ns_with_points, _) = timed(Mode::WithPoints);
    let from_runs = from_runs.then(|| timed(Mode::FromRuns).0);
    crate::stdout::outln!("model {}", path.display());
    crate::stdout::outln!(
        "bones {}  hitboxes {}  attachments {}",
        model.bones.len(),
        model.hitboxes.len(),
        model.attachments.len()
    );
    crate::stdout::outln!("poses {poses}");
    crate::stdout::outln!("ns_per_pose {ns_per_pose:.1}");
    crate::stdout::outln!("ns_per_bone {:.2}", ns_per_pose / model.bones.len() as f64);
    crate::stdout::outln!("ns_per_pose_with_points {ns_with_points:.1}");
    if let Some(ns) = from_runs {
        crate::stdout::outln!("ns_per_pose_from_runs {ns:.1}");
        crate::stdout::outln!("ns_per_bone_from_runs {:.2}", ns / model.bones.len() as f64);
    }
    crate::stdout::outln!("checksum {checksum:.6}");
    crate::stdout::outln!("cache_bytes {}", evaluator.cache_bytes());
    ExitCode::SUCCESS
}
