//! Feeds arbitrary bytes to the archive readers: as a `.vpk` directory and as a `.pak`, every
//! entry read back whole and in part. Any panic, hang or runaway allocation is a bug.

#![no_main]

use libfuzzer_sys::fuzz_target;
use studio_archive::{Archive, Pak, Vpk};

fuzz_target!(|data: &[u8]| {
    let archives = [
        Vpk::parse("fuzz_dir.vpk".into(), data.to_vec()).ok().map(Archive::Vpk),
        Pak::parse("pak0.pak".into(), data.to_vec()).ok().map(Archive::Pak),
    ];
    for archive in archives.iter().flatten() {
        let names: Vec<String> = archive.files().map(|(name, _)| name.to_owned()).collect();
        for name in names.iter().map(String::as_str).chain(["materials/a.vmt", "a", "readme.txt"]) {
            let _ = archive.read(name);
            let _ = archive.read_part(name, 3, 17);
        }
    }
});
