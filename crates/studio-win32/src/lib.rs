//! The Windows API calls that no safe crate offers, for the viewer's Windows build.
//!
//! The Windows `studioview.exe` is a GUI-subsystem program, so that a double-click opens no
//! console window beside the viewer. A GUI program is given no console, though: when it is
//! started from one to run a command (`studioview.exe info model.mdl`), it must join the console
//! of the program that started it to print there. [`connect_console`] does that.
//!
//! On other systems every program has its standard streams already, and the functions here do
//! nothing.

/// Where the process's standard output and error go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Console {
    /// Handles the starting program gave us: a terminal, a pipe or a file (every non-Windows
    /// program, and a Windows one started with its streams redirected or by a console program).
    Inherited,
    /// The console of the program that started us, joined by `AttachConsole`.
    Attached,
    /// Nowhere: started from Explorer (a double-click, "Open with") or a shortcut. Messages for
    /// the user must be shown in a window.
    Missing,
}

/// Makes sure standard output and error reach the user where they can: keeps handles that
/// were inherited, or joins the parent's console (`AttachConsole(ATTACH_PARENT_PROCESS)`).
///
/// Rust's standard streams ask for `GetStdHandle` at every write, and joining a console sets
/// the standard handles that were missing, so `println!` prints there afterwards. With inherited
/// handles (the `studioview.com` launcher passes its console's on) the parent's console is joined
/// too, where it has one, and the handles are put back as they were: a GUI program writing to
/// console handles of a console it has not joined is not something to count on, and joined, the
/// console's Ctrl+C reaches it.
pub fn connect_console() -> Console {
    imp::connect_console()
}

#[cfg(windows)]
mod imp {
    use super::Console;
    use windows_sys::Win32::Foundation::INVALID_HANDLE_VALUE;
    use windows_sys::Win32::System::Console::{
        ATTACH_PARENT_PROCESS, AttachConsole, GetStdHandle, STD_ERROR_HANDLE, STD_INPUT_HANDLE,
        STD_OUTPUT_HANDLE, SetStdHandle,
    };

    /// Whether the standard handle `which` is set.
    #[allow(unsafe_code)]
    fn has_handle(which: u32) -> bool {
        // SAFETY: GetStdHandle takes no pointers and only reads the process's handle table.
        let handle = unsafe { GetStdHandle(which) };
        !handle.is_null() && handle != INVALID_HANDLE_VALUE
    }

    /// Joins the parent's console; false where it has none (or we have one already).
    #[allow(unsafe_code)]
    fn attach_parent() -> bool {
        // SAFETY: AttachConsole takes a process id (here the "parent" constant) and no pointers;
        // it fails, returning 0, when the parent has no console.
        unsafe { AttachConsole(ATTACH_PARENT_PROCESS) != 0 }
    }

    pub fn connect_console() -> Console {
        let streams = [STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE];
        if has_handle(STD_OUTPUT_HANDLE) || has_handle(STD_ERROR_HANDLE) {
            // SAFETY: GetStdHandle and SetStdHandle take no pointers; the handles set back are
            // the ones this process held a moment before.
            #[allow(unsafe_code)]
            unsafe {
                let inherited = streams.map(|which| GetStdHandle(which));
                if attach_parent() {
                    for (which, handle) in streams.into_iter().zip(inherited) {
                        SetStdHandle(which, handle);
                    }
                }
            }
            return Console::Inherited;
        }
        if attach_parent() { Console::Attached } else { Console::Missing }
    }
}

#[cfg(not(windows))]
mod imp {
    use super::Console;

    pub fn connect_console() -> Console {
        Console::Inherited
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_run_keeps_the_streams_it_was_given() {
        // cargo test (under Wine too) runs tests with their output in pipes.
        assert_eq!(connect_console(), Console::Inherited);
        println!("still printing");
    }
}
