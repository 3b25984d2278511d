//! Writing a rendered image as a PNG file.

use std::path::Path;

use studio_render::RgbaImage;

/// Writes an image as PNG.
pub fn write_png(path: &Path, image: &RgbaImage) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), image.width, image.height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(&image.pixels).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())
}
