//! What importing a 512 × 512 image over a texture costs, reading the file included:
//! `cargo bench -p studio-edit --bench import`.
//!
//! - `import/rgb_png_512`: a true-colour PNG of a painted texture (a smooth picture of many
//!   thousand colours, as a paint program saves it) quantized to 256 colours, over the demo
//!   model's chrome texture (32 × 32, so its meshes' texture coordinates are rescaled).
//! - `import/indexed_png_512`: the same picture already indexed: palette and indices kept.

#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use studio_edit::texture::{ImageFormat, decode_picture, image_bytes, import_picture};

/// A 512 × 512 picture of about 65,000 colours: gradients with a ripple.
fn painted() -> Vec<u8> {
    let mut pixels = Vec::with_capacity(512 * 512 * 4);
    for y in 0..512u32 {
        for x in 0..512u32 {
            let ripple = (((x as f32 / 23.0).sin() + (y as f32 / 17.0).cos()) * 40.0) as i32;
            let c = |v: i32| v.clamp(0, 255) as u8;
            pixels.extend_from_slice(&[
                c((x / 2) as i32 + ripple),
                c((y / 2) as i32 - ripple),
                c(((x + y) / 4) as i32),
                255,
            ]);
        }
    }
    pixels
}

fn png(pixels: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, 512, 512);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header().unwrap().write_image_data(pixels).unwrap();
    out
}

fn bench(c: &mut Criterion) {
    let model = studio_demo::demo_model();
    let index = model.textures.iter().position(|t| t.name == "chrome.bmp").unwrap();
    let rgb = png(&painted());
    let mut group = c.benchmark_group("import");
    group.sample_size(20);
    group.bench_function("rgb_png_512", |b| {
        b.iter(|| import_picture(&model, index, decode_picture(&rgb, "painted.png").unwrap()).unwrap())
    });
    // The quantized result, exported as an indexed PNG, imported again.
    let (_, after, _) = import_picture(&model, index, decode_picture(&rgb, "painted.png").unwrap()).unwrap();
    let indexed = image_bytes(&after.texture, ImageFormat::Png).unwrap();
    group.bench_function("indexed_png_512", |b| {
        b.iter(|| import_picture(&model, index, decode_picture(&indexed, "indexed.png").unwrap()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
