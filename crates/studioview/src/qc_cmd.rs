//! `studioview qc MODEL`: the model's QC lines (studio-decompile's `qc`) printed.

/// `studioview qc MODEL`: prints the model's QC lines.
pub fn run(path: &std::path::Path) -> std::process::ExitCode {
    use std::process::ExitCode;
    let text = match studio_document::model_files::source_load(path) {
        Some(Ok(loaded)) => studio_decompile::qc::source(&loaded.model),
        Some(Err(error)) => {
            eprintln!("error {error}");
            return ExitCode::FAILURE;
        }
        None => match studio_document::model_files::goldsrc_load(path) {
            Ok(loaded) => studio_decompile::qc::goldsrc(&loaded.model),
            Err(error) => {
                eprintln!("error {error}");
                return ExitCode::FAILURE;
            }
        },
    };
    crate::stdout::out!("{text}");
    ExitCode::SUCCESS
}
