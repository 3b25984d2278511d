//! Feeds arbitrary bytes to the game install readers: as a `gameinfo.txt`, a `liblist.gam`, a
//! `libraryfolders.vdf` and an `appmanifest_*.acf`. Any panic, hang or runaway allocation is a
//! bug; an error must name its place.

#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use studio_games::{gameinfo, liblist, steam};

fuzz_target!(|data: &[u8]| {
    for result in [
        gameinfo::parse(data, Path::new("gameinfo.txt")).map(drop),
        liblist::parse(data, Path::new("liblist.gam")).map(drop),
        steam::parse_library_folders(data, Path::new("libraryfolders.vdf")).map(drop),
        steam::parse_manifest(data, Path::new("a.acf")).map(drop),
    ] {
        if let Err(message) = result {
            assert!(message.contains("at byte") || message.contains("more than"), "{message}");
        }
    }
});
