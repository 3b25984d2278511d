//! The `.spr` reader on arbitrary bytes: no panic, hang or runaway allocation, and every
//! picture it reads holds width × height pixels.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(sprite) = studio_sprite::parse(data) {
        for frame in &sprite.frames {
            let pictures = match frame {
                studio_sprite::Frame::Single(p) => std::slice::from_ref(p),
                studio_sprite::Frame::Group { pictures, .. } => pictures.as_slice(),
            };
            for p in pictures {
                assert_eq!(p.pixels.len() as u64, u64::from(p.width) * u64::from(p.height));
                assert_eq!(sprite.rgba(p).len(), p.pixels.len() * 4);
            }
        }
    }
});
