//! `studio-package`: what `scripts/package` needs beyond cargo and tar.
//!
//! - `studio-package licenses --target TRIPLE --package NAME --out FILE`: the licenses of every
//!   crate the package's binaries are built from for that target (`licenses.rs`).
//! - `studio-package zip --out FILE.zip --folder NAME SOURCE=NAME...`: a zip of the files under
//!   one top folder, as the Windows package is shipped (`archive.rs`).

mod archive;
mod licenses;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage:
  studio-package licenses --target TRIPLE --package NAME --out FILE
  studio-package zip --out FILE.zip --folder NAME SOURCE=NAME...";

/// Each `--name` with the value after it.
type Named = Vec<(String, String)>;

/// The value after each `--name` of `args`, and the arguments left.
fn options(args: &[String]) -> Result<(Named, Vec<String>), String> {
    let (mut named, mut rest) = (Vec::new(), Vec::new());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.strip_prefix("--") {
            Some(name) => {
                let value = args.next().ok_or_else(|| format!("--{name} needs a value"))?;
                named.push((name.to_owned(), value.clone()));
            }
            None => rest.push(arg.clone()),
        }
    }
    Ok((named, rest))
}

fn option(named: &[(String, String)], name: &str) -> Result<String, String> {
    named.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone()).ok_or_else(|| format!("--{name} is needed"))
}

fn run(args: &[String]) -> Result<(), String> {
    let (command, args) = args.split_first().ok_or("no command")?;
    let (named, rest) = options(args)?;
    match command.as_str() {
        "licenses" => {
            let target = option(&named, "target")?;
            let package = option(&named, "package")?;
            let out = PathBuf::from(option(&named, "out")?);
            let metadata = licenses::cargo_metadata(&target)?;
            let text = licenses::notice(&metadata, &package, &target)?;
            std::fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))
        }
        "zip" => {
            let out = PathBuf::from(option(&named, "out")?);
            let folder = option(&named, "folder")?;
            let files = rest
                .iter()
                .map(|spec| match spec.split_once('=') {
                    Some((source, name)) => Ok((PathBuf::from(source), name.to_owned())),
                    None => Err(format!("{spec}: give SOURCE=NAME")),
                })
                .collect::<Result<Vec<_>, _>>()?;
            archive::write_zip(&out, &folder, &files)
        }
        other => Err(format!("unknown command {other}")),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}\n{USAGE}");
            ExitCode::FAILURE
        }
    }
}
