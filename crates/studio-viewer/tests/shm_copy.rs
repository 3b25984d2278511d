//! The copy of a window picture's changed rectangles into softbuffer's shared image
//! (`vendor/egui-wgpu/src/shm_present.rs`): rows of `Bgra8Unorm` bytes, padded for a texture
//! copy, become softbuffer's 0RGB words, only inside the rectangles, and a rectangle past either
//! buffer stops the copy instead of panicking. The whole present is checked under Xvfb by
//! `crates/studioview/tests/x11_present.rs`.
#![cfg(all(unix, not(any(target_os = "macos", target_os = "ios", target_os = "android"))))]

use eframe::egui_wgpu::retained::PixelRect;
use eframe::egui_wgpu::shm_present::copy_rects;

#[test]
fn only_the_rectangles_are_copied_with_the_top_byte_cleared() {
    let (width, height, pitch) = (4usize, 3usize, 256usize);
    let mut src = vec![0u8; pitch * height];
    for y in 0..height {
        for x in 0..width {
            let at = y * pitch + x * 4;
            src[at..at + 4].copy_from_slice(&[x as u8, y as u8, 7, 255]);
        }
    }
    let mut dst = vec![0xDEAD_BEEF_u32; width * height];
    copy_rects(&src, pitch, &mut dst, width, &[PixelRect { min: [1, 1], max: [3, 3] }]);
    for y in 0..height {
        for x in 0..width {
            let inside = (1..3).contains(&x) && (1..3).contains(&y);
            // Blue in the low byte, then green, then red; the top byte zero.
            let want = if inside { 0x0007_0000 | (y as u32) << 8 | x as u32 } else { 0xDEAD_BEEF };
            assert_eq!(dst[y * width + x], want, "pixel {x},{y}");
        }
    }
}

#[test]
fn a_rectangle_past_the_buffers_stops_the_copy() {
    let (width, height, pitch) = (4usize, 3usize, 256usize);
    let src = vec![9u8; pitch * height];
    let mut dst = vec![0u32; width * height];
    copy_rects(&src, pitch, &mut dst, width, &[PixelRect { min: [0, 2], max: [4, 9] }]);
    assert!(dst[2 * width..].iter().all(|&p| p == 0x0009_0909), "the last row, which fits, is copied");
    assert!(dst[..2 * width].iter().all(|&p| p == 0), "nothing else is touched");
    // Wider than the source's rows: the first row that does not fit ends it.
    let mut dst = vec![0u32; 100 * 2];
    copy_rects(&src[..pitch], pitch, &mut dst, 100, &[PixelRect { min: [0, 0], max: [100, 2] }]);
    assert!(dst.iter().all(|&p| p == 0));
}
