//! Regenerates `assets/demo.mdl`: `cargo run -p studio-demo --bin make-demo`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/demo.mdl");
    match studio_demo::demo_bytes() {
        Ok(bytes) => match std::fs::write(&path, &bytes) {
            Ok(()) => {
                println!("wrote {} ({} bytes)", path.display(), bytes.len());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
