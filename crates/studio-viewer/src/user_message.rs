//! Messages for a user who may have no console to read them in.
//!
//! On Windows the viewer is a GUI-subsystem program (no console window opens beside it), and
//! one started from Explorer, by a double-click or "Open with", has nowhere to print. What it
//! would print as a fatal error, or a refused command line, is then shown in a message box
//! instead. Everywhere else, and on Windows when started from a console, it goes to stderr (or
//! stdout for `--help`) as before.

use std::sync::OnceLock;

pub use studio_win32::Console;

static CONSOLE: OnceLock<Console> = OnceLock::new();

/// Joins the console of the program that started us where there is one (see
/// [`studio_win32::connect_console`]), and remembers where messages go. Call it first in `main`.
pub fn connect() -> Console {
    let console = studio_win32::connect_console();
    let _ = CONSOLE.set(console);
    console
}

/// Whether messages must be shown in a window: no stream reaches the user.
pub fn needs_window() -> bool {
    CONSOLE.get() == Some(&Console::Missing)
}

/// How serious a message is: its icon in the message box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// Asked-for text, such as `--help` or `--version`: stdout.
    Info,
    /// A failure that ends the program: stderr.
    Error,
}

/// Tells the user `text`: on stdout or stderr, and in a message box when [`needs_window`].
pub fn tell(severity: Severity, text: &str) {
    let text = text.trim_end();
    match severity {
        Severity::Info => println!("{text}"),
        Severity::Error => eprintln!("{text}"),
    }
    if needs_window() {
        let level = match severity {
            Severity::Info => rfd::MessageLevel::Info,
            Severity::Error => rfd::MessageLevel::Error,
        };
        rfd::MessageDialog::new()
            .set_level(level)
            .set_title("studioview")
            .set_description(text)
            .set_buttons(rfd::MessageButtons::Ok)
            .show();
    }
}
