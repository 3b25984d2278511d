//! The Windows package's zip: each file under one top folder
//! (`studioview-VERSION-windows-x86_64/studioview.exe`), deflated, so that "Extract all" gives
//! one folder.

use std::io::Write;
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;

/// Writes `out`: each `(source, name)` of `files` as `folder/name`.
pub fn write_zip(out: &Path, folder: &str, files: &[(PathBuf, String)]) -> Result<(), String> {
    let fail = |e: &dyn std::fmt::Display| format!("{}: {e}", out.display());
    let file = std::fs::File::create(out).map_err(|e| fail(&e))?;
    let mut zip = zip::ZipWriter::new(std::io::BufWriter::new(file));
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(9))
        .large_file(false);
    for (source, name) in files {
        let bytes = std::fs::read(source).map_err(|e| format!("{}: {e}", source.display()))?;
        zip.start_file(format!("{folder}/{name}"), options).map_err(|e| fail(&e))?;
        zip.write_all(&bytes).map_err(|e| fail(&e))?;
    }
    let mut writer = zip.finish().map_err(|e| fail(&e))?;
    writer.flush().map_err(|e| fail(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_come_back_under_the_folder() {
        let dir = std::env::temp_dir().join(format!("studio-package-zip-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.bin"), dir.join("b.txt"));
        let big: Vec<u8> = (0..100_000u32).map(|i| (i % 7) as u8).collect();
        std::fs::write(&a, &big).unwrap();
        std::fs::write(&b, "text").unwrap();
        let out = dir.join("out.zip");
        let files = [(a, "studioview.exe".to_owned()), (b, "README.md".to_owned())];
        write_zip(&out, "pkg-1", &files).unwrap();

        let mut archive = zip::ZipArchive::new(std::fs::File::open(&out).unwrap()).unwrap();
        let names: Vec<String> = archive.file_names().map(str::to_owned).collect();
        assert_eq!(names, ["pkg-1/studioview.exe", "pkg-1/README.md"]);
        let mut exe = archive.by_name("pkg-1/studioview.exe").unwrap();
        assert_eq!(exe.compression(), zip::CompressionMethod::Deflated);
        let mut read = Vec::new();
        std::io::Read::read_to_end(&mut exe, &mut read).unwrap();
        assert_eq!(read, big);
        drop(exe);
        assert!(std::fs::metadata(&out).unwrap().len() < 10_000, "deflated");
        // Closed first: Windows deletes no open file.
        drop(archive);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
