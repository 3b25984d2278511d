//! What the command line prints as its result. `println!` panics when the reader has gone
//! (`studioview info --json model.mdl | head`); [`out!`] and [`outln!`] write instead, and a
//! closed pipe ends the command quietly: the reader had what it wanted.

use std::io::Write;

/// Writes `text` to standard output. When the reader has closed the pipe, the command ends
/// here with success; another failure to write is reported and ends it with failure.
pub fn write(text: std::fmt::Arguments<'_>) {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("error: could not write to standard output: {e}");
            std::process::exit(1);
        }
    }
}

/// `print!` through [`write`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::stdout::write(format_args!($($arg)*))
    };
}

/// `println!` through [`write`].
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::stdout::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};
