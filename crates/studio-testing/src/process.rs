//! Starting processes from tests (`studioview` itself, validators), robust to a system that now
//! and then fails to start one.
//!
//! Under Wine, with many tests starting processes at once, `CreateProcess` now and then answers
//! "Internal error" (1359) without starting anything. A test would then fail for the harness,
//! not for what it checks. These helpers try the start again, a moment apart; a process that
//! started and failed is never started again: its exit is what the test checks.

use std::io;
use std::process::{Child, Command, ExitStatus, Output};
use std::time::Duration;

/// How often a start is tried before the test fails.
const TRIES: u32 = 5;

/// Calls `start` until it succeeds, [`TRIES`] times at most; the last error otherwise.
fn retried<T>(start: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    let mut start = start;
    let mut tries = 1;
    loop {
        match start() {
            Ok(value) => return Ok(value),
            // A program that is not there will not be there a moment later.
            Err(error) if error.kind() == io::ErrorKind::NotFound || tries == TRIES => return Err(error),
            Err(_) => {
                std::thread::sleep(Duration::from_millis(100 * u64::from(tries)));
                tries += 1;
            }
        }
    }
}

/// [`Command::output`]: the process run to its end, its output read. Panics, naming the
/// program, when it cannot be started.
pub fn output(command: &mut Command) -> Output {
    retried(|| command.output()).unwrap_or_else(|e| panic!("run {:?}: {e}", command.get_program()))
}

/// [`Command::status`]: the process run to its end. Panics, naming the program, when it cannot
/// be started.
pub fn status(command: &mut Command) -> ExitStatus {
    retried(|| command.status()).unwrap_or_else(|e| panic!("run {:?}: {e}", command.get_program()))
}

/// [`Command::spawn`]: the process started. Panics, naming the program, when it cannot be
/// started.
pub fn spawn(command: &mut Command) -> Child {
    retried(|| command.spawn()).unwrap_or_else(|e| panic!("start {:?}: {e}", command.get_program()))
}

/// [`Command::spawn`] as a result: for a test that passes over a program it may not have (an
/// X server), a missing program is an error rather than a panic.
pub fn try_spawn(command: &mut Command) -> io::Result<Child> {
    retried(|| command.spawn())
}
