//! Feeds arbitrary bytes to the material readers: as a `.vtf` (decoded in full) and as a `.vmt`
//! (with what a viewer reads of it). Any panic, hang or runaway allocation is a bug. (Archives:
//! the `archive` target.)

#![no_main]

use libfuzzer_sys::fuzz_target;
use studio_material::{parse_vmt, parse_vtf};

fuzz_target!(|data: &[u8]| {
    if let Ok(texture) = parse_vtf(data) {
        assert_eq!(texture.rgba.len() as u64, u64::from(texture.width) * u64::from(texture.height) * 4);
    }
    if let Ok(vmt) = parse_vmt(data) {
        let _ = vmt.shading();
        let _ = vmt.patched(&vmt);
    }
});
