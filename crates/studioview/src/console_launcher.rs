//! `studioview-console`, shipped in the Windows package as `studioview.com`: the viewer's
//! command line as a console program.
//!
//! `studioview.exe` is a GUI-subsystem program, so that a double-click opens no console window.
//! A console does not wait for such a program, though: the prompt comes back at once, the
//! output lands after it, and a script never sees the exit status. A console finds
//! `studioview.com` before `studioview.exe` (`.COM` comes first in `PATHEXT`), so typing
//! `studioview info model.mdl` runs this launcher instead. It starts the `studioview` executable
//! beside it with the same arguments and the same standard streams, waits for it and exits with
//! its status. Visual Studio's `devenv.com` works the same way.
//!
//! It does the same on any system, where it has no reason to be used.

#![forbid(unsafe_code)]

use std::path::PathBuf;
use std::process::{Command, ExitCode};

/// The program this one stands in for, beside it.
fn viewer() -> Result<PathBuf, String> {
    let me = std::env::current_exe().map_err(|e| format!("cannot find this program's own path: {e}"))?;
    let name = format!("studioview{}", std::env::consts::EXE_SUFFIX);
    Ok(me.with_file_name(name))
}

fn main() -> ExitCode {
    let viewer = match viewer() {
        Ok(viewer) => viewer,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    match Command::new(&viewer).args(std::env::args_os().skip(1)).status() {
        // The whole status: on Windows it can be wider than a byte (a crash's NTSTATUS).
        Ok(status) => std::process::exit(status.code().unwrap_or(1)),
        Err(error) => {
            eprintln!("error: cannot start {}: {error}", viewer.display());
            ExitCode::FAILURE
        }
    }
}
