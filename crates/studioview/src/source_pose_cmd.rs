//! `studioview pose` and `studioview bench` for Source models: one pose as JSON in the format of
//! the version 10 command (and of the references), and the Source workload (issue 11).

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use studio_document::sequences::find_rig_sequence;

use glam::Affine3A;
use serde_json::json;
use studio_source::{LoadedSource, SourceLoadError};
use studio_source_pose::{
    Rig, SourceEvaluator, SourceRequest, attachment_points, evaluate, hitbox_corners, params,
};

use crate::pose_cmd::PoseArgs;

fn loaded(result: Result<LoadedSource, SourceLoadError>) -> Result<LoadedSource, ExitCode> {
    result.map_err(|error| {
        eprintln!("error {error}");
        ExitCode::FAILURE
    })
}

/// One `--param NAME=VALUE`: the combined pose parameter's index and the value in its units.
pub fn parse_param(rig: &Rig<'_>, item: &str) -> Result<(usize, f32), String> {
    let (name, value) = item.split_once('=').ok_or_else(|| format!("--param {item:?} is not NAME=VALUE"))?;
    let value: f32 =
        value.trim().parse().map_err(|_| format!("--param {item:?}: {value:?} is not a number"))?;
    let index =
        rig.pose_parameters.iter().position(|p| p.name.eq_ignore_ascii_case(name.trim())).ok_or_else(
            || {
                let names: Vec<&str> = rig.pose_parameters.iter().map(|p| p.name.as_str()).collect();
                format!("no pose parameter {name:?} (the model has {})", names.join(", "))
            },
        )?;
    Ok((index, value))
}

/// The normalised pose parameters: defaults, then each `NAME=VALUE` given.
fn pose_parameters(rig: &Rig<'_>, given: &[String]) -> Result<Vec<f32>, String> {
    let mut values: Vec<f32> = rig.pose_parameters.iter().map(params::default_value).collect();
    for item in given {
        let (index, value) = parse_param(rig, item)?;
        values[index] = params::normalise(&rig.pose_parameters[index], value);
    }
    Ok(values)
}

/// A hit box set by number or name (case-insensitively).
pub fn find_hitbox_set(model: &studio_source::SourceModel, wanted: &str) -> Option<usize> {
    wanted
        .parse::<usize>()
        .ok()
        .filter(|&i| i < model.hitbox_sets.len())
        .or_else(|| model.hitbox_sets.iter().position(|s| s.name.eq_ignore_ascii_case(wanted)))
}

/// The controller inputs given (bytes 0–255, the mouth 0–64), normalised; `None` when none was.
fn controllers(args: &PoseArgs) -> Option<[f32; 5]> {
    if args.controller.is_none() && args.mouth.is_none() {
        return None;
    }
    let given = args.controller.clone().unwrap_or_default();
    let mut inputs = [0.0; 5];
    for (slot, byte) in inputs.iter_mut().zip(&given) {
        *slot = f32::from(*byte) / 255.0;
    }
    inputs[4] = (f32::from(args.mouth.unwrap_or(0)) / 64.0).min(1.0);
    Some(inputs)
}

/// Bone matrices as the reference files write them: 3×4, row-major.
fn rows(m: &Affine3A) -> [f32; 12] {
    let (c, t) = (m.matrix3, m.translation);
    [
        c.x_axis.x, c.y_axis.x, c.z_axis.x, t.x, c.x_axis.y, c.y_axis.y, c.z_axis.y, t.y, c.x_axis.z,
        c.y_axis.z, c.z_axis.z, t.z,
    ]
}

/// `studioview pose` for a Source model.
pub fn run_pose(
    path: &Path,
    result: Result<LoadedSource, SourceLoadError>,
    sequence: &str,
    args: &PoseArgs,
) -> ExitCode {
    let fail = |message: String| {
        eprintln!("error: {message}");
        ExitCode::FAILURE
    };
    if args.frame.is_some() {
        return fail(format!(
            "{} is a Source model: its poses are at a --cycle from 0 to 1, not a --frame",
            path.display()
        ));
    }
    if args.blend != [0, 0] {
        return fail(format!(
            "{} is a Source model: its blends follow --param NAME=VALUE, not --blend",
            path.display()
        ));
    }
    let loaded = match loaded(result) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let model = &loaded.model;
    let rig = Rig::new(model);
    let Some(sequence) = find_rig_sequence(&rig, sequence) else {
        return fail(format!("{} has no sequence {sequence:?}", path.display()));
    };
    let params = match pose_parameters(&rig, &args.params) {
        Ok(p) => p,
        Err(message) => return fail(message),
    };
    let set = match &args.hitbox_set {
        None => 0,
        Some(wanted) => match find_hitbox_set(model, wanted) {
            Some(set) => set,
            None => return fail(format!("{} has no hit box set {wanted:?}", path.display())),
        },
    };
    let layers = match source_layers(&rig, &args.layers, args.cycle.unwrap_or(0.0)) {
        Ok(l) => l,
        Err(message) => return fail(message),
    };
    let request = SourceRequest {
        sequence,
        cycle: args.cycle.unwrap_or(0.0),
        params: &params,
        controllers: controllers(args),
        time: args.time.unwrap_or(0.0),
        autoplay: false,
        layers: &layers,
    };
    let bones = evaluate(&rig, &request);
    let hitboxes: Vec<Vec<[f32; 3]>> =
        hitbox_corners(model, set, &bones).iter().map(|c| c.iter().map(|p| p.to_array()).collect()).collect();
    let attachments: Vec<[f32; 3]> = attachment_points(model, &bones).iter().map(|p| p.to_array()).collect();
    let bones: Vec<[f32; 12]> = bones.iter().map(rows).collect();
    crate::stdout::outln!("{}", json!({"bones": bones, "hitboxes": hitboxes, "attachments": attachments}));
    ExitCode::SUCCESS
}

/// `studioview bench` for a Source model: pose i uses the (i mod n)th of the n sequences with
/// animation, k = i div n, cycle frac(0.37 k), pose parameter j at
/// start + frac(0.29 k + 0.13 j) × (end − start); the checksum sums the last bone's x translation
/// and the first bone's z translation.
pub fn run_bench(
    path: &Path,
    result: Result<LoadedSource, SourceLoadError>,
    poses: usize,
    sequence: Option<&str>,
) -> ExitCode {
    let loaded = match loaded(result) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let model = &loaded.model;
    let mut evaluator = SourceEvaluator::new(model);
    let table_bytes = evaluator.table_bytes();
    let rig = evaluator.rig();
    let evaluable: Vec<usize> = (0..rig.num_sequences())
        .filter(|&i| rig.sequence(i).is_some_and(|s| s.seq.grid[0] * s.seq.grid[1] > 0))
        .collect();
    let evaluable = match sequence {
        None => evaluable,
        Some(wanted) => match find_rig_sequence(rig, wanted).filter(|s| evaluable.contains(s)) {
            Some(s) => vec![s],
            None => {
                eprintln!("error: {} has no sequence {wanted:?} with animation", path.display());
                return ExitCode::FAILURE;
            }
        },
    };
    if evaluable.is_empty() || model.bones.is_empty() || poses == 0 {
        eprintln!("error: {} has no sequence to evaluate", path.display());
        return ExitCode::FAILURE;
    }
    let n = evaluable.len();
    // The ranges, apart from the evaluator, which the timed loop borrows.
    let ranges = rig.pose_parameters.clone();
    let mut params = vec![0.0f32; ranges.len()];
    let mut bones = Vec::with_capacity(model.bones.len());
    let mut run = |count: usize| {
        let mut checksum = 0.0f64;
        for i in 0..count {
            let k = (i / n) as f64;
            for (j, (value, p)) in params.iter_mut().zip(&ranges).enumerate() {
                let f = (k * 0.29 + j as f64 * 0.13).fract() as f32;
                *value = params::normalise(p, p.start + f * (p.end - p.start));
            }
            let request = SourceRequest {
                sequence: evaluable[i % n],
                cycle: (k * 0.37).fract() as f32,
                params: &params,
                controllers: None,
                time: 0.0,
                autoplay: false,
                layers: &[],
            };
            evaluator.evaluate(&request, &mut bones);
            let last = bones.last().map_or(0.0, |m| m.translation.x);
            let first = bones.first().map_or(0.0, |m| m.translation.z);
            checksum += f64::from(last) + f64::from(first);
        }
        checksum
    };
    run(poses.min(2000));
    let mut best = f64::INFINITY;
    let mut checksum = 0.0;
    for _ in 0..3 {
        let started = Instant::now();
        checksum = run(poses);
        best = best.min(started.elapsed().as_secs_f64());
    }
    let ns = best * 1e9 / poses as f64;
    crate::stdout::outln!("model {}", path.display());
    crate::stdout::outln!("bones {}  sequences {n}  pose_parameters {}", model.bones.len(), ranges.len());
    crate::stdout::outln!("poses {poses}");
    crate::stdout::outln!("ns_per_pose {ns:.1}");
    crate::stdout::outln!("ns_per_bone {:.2}", ns / model.bones.len() as f64);
    crate::stdout::outln!("checksum {checksum:.6}");
    crate::stdout::outln!("table_bytes {table_bytes}");
    ExitCode::SUCCESS
}

/// The layers of `--layer` for a Source pose at `cycle`.
pub fn source_layers(
    rig: &Rig<'_>,
    layers: &[String],
    cycle: f32,
) -> Result<Vec<studio_source_pose::SourceLayer>, String> {
    layers
        .iter()
        .map(|text| {
            let layer = crate::pose_cmd::parse_layer(text)?;
            let sequence = find_rig_sequence(rig, &layer.sequence)
                .ok_or_else(|| format!("--layer {text:?}: the model has no sequence {:?}", layer.sequence))?;
            Ok(studio_source_pose::SourceLayer {
                sequence,
                cycle: layer.cycle.unwrap_or(cycle),
                weight: layer.weight,
            })
        })
        .collect()
}
