//! `studioview`: a viewer and command line for Half-Life studio models.

#![forbid(unsafe_code)]

mod check;
mod info;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Info { model, json } => info::run(&model, json),
        Command::Check { paths } => check::run(&paths),
    }
}
