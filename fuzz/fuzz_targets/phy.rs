//! The `.phy` collision model reader on arbitrary bytes: no panic, hang or runaway
//! allocation, and every triangle of what it reads names one of its piece's points.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(phy) = studio_source::parse_phy(data) {
        for piece in phy.solids.iter().flat_map(|s| &s.pieces) {
            assert!(piece.triangles.iter().flatten().all(|&i| (i as usize) < piece.points.len()));
        }
    }
});
