//! `studioview`: a viewer and command line for Half-Life studio models.

#![forbid(unsafe_code)]

mod check;
mod info;
mod pose_cmd;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// A fast, robust viewer for Half-Life studio models (.mdl version 10).
#[derive(Parser)]
#[command(name = "studioview", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print what a modder wants to know about a model.
    Info {
        /// The model's main file.
        model: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Validate models: files, and folders searched recursively for *.mdl.
    Check {
        /// Files and folders.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
    /// Evaluate one pose and print it as JSON: bone matrices, hit box corners, attachments.
    Pose {
        /// The model's main file.
        model: PathBuf,
        /// Sequence number or name.
        #[arg(long)]
        seq: String,
        /// Frame in frame units, used as given.
        #[arg(long, default_value_t = 0.0)]
        frame: f32,
        /// The two blending bytes, 0-255.
        #[arg(long, value_delimiter = ',', num_args = 1..=2, default_value = "0,0")]
        blend: Vec<u8>,
        /// The four controller bytes, 0-255.
        #[arg(long, value_delimiter = ',', num_args = 1..=4, default_value = "0,0,0,0")]
        controller: Vec<u8>,
        /// The mouth byte, 0-64.
        #[arg(long, default_value_t = 0)]
        mouth: u8,
    },
    /// Time pose evaluation on a fixed workload over the model's sequences.
    Bench {
        /// The model's main file.
        model: PathBuf,
        /// Poses per timed repeat.
        #[arg(long, default_value_t = 200_000)]
        poses: usize,
        /// Also time evaluation straight from the run-length data, as Valve's code does it.
        #[arg(long)]
        from_runs: bool,
    },
}

/// The first `N` values, padded with zeros.
fn padded<const N: usize>(values: &[u8]) -> [u8; N] {
    std::array::from_fn(|i| values.get(i).copied().unwrap_or(0))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Info { model, json } => info::run(&model, json),
        Command::Check { paths } => check::run(&paths),
        Command::Pose { model, seq, frame, blend, controller, mouth } => {
            pose_cmd::run_pose(&model, &seq, frame, padded(&blend), padded(&controller), mouth)
        }
        Command::Bench { model, poses, from_runs } => pose_cmd::run_bench(&model, poses, from_runs),
    }
}
