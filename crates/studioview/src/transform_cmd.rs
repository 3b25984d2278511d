//! `studioview transform`: a whole Half-Life model scaled, turned and moved, or its normals
//! flipped, without the window (studio-edit's `transform`).

use std::path::Path;
use std::process::ExitCode;

use crate::texture_cmd::{fail, load};

/// `studioview transform MODEL [--scale S] [--rotate DEGREES] [--move X,Y,Z] [--flip-normals]
/// --out NEW.mdl`: the whole model scaled, turned about z and moved (in that order), its normals
/// flipped, saved with its companions beside the new file.
pub fn run(
    path: &Path,
    t: &studio_edit::transform::ModelTransform,
    flip_normals: bool,
    out: &Path,
) -> ExitCode {
    let loaded = match load(path) {
        Ok(loaded) => loaded,
        Err(error) => return fail(path, error),
    };
    let (mut model, notes) = match studio_edit::transform::transform(&loaded.model, t) {
        Ok(done) => done,
        Err(error) => return fail(path, error),
    };
    if flip_normals {
        model = studio_edit::transform::flip_normals(&model);
    }
    for note in notes {
        eprintln!("warning {}: {note}", path.display());
    }
    match studio_edit::save::save_goldsrc(&model, out, &loaded.companions, Some(path), out.exists()) {
        Ok((written, _)) => {
            for file in written {
                crate::stdout::outln!("wrote {}", file.display());
            }
            ExitCode::SUCCESS
        }
        Err(error) => fail(out, error),
    }
}
