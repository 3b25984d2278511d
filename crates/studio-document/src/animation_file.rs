//! Writing captured frames as an animation, in the format the file's name asks for:
//!
//! - `.gif`: each frame with its own palette (Wu's quantizer, no dithering: dither patterns
//!   crawl in an animation); with transparency, pixels of alpha below half are transparent
//!   (palette index 255). Delays are whole hundredths of a second, as GIF counts them; the
//!   rounding is carried from frame to frame so the length stays right.
//! - `.png`: APNG (the png crate's animation chunks), true colour with alpha.
//! - `.webp`: animated WebP, each frame lossless (image-webp's VP8L encoder), in the extended
//!   container (`VP8X`, `ANIM`, one `ANMF` a frame).
//! - a folder (a name ending in `/`, or an existing folder): `frame_0001.png`, … one PNG a
//!   frame.
//!
//! Every format loops for ever.

use std::path::{Path, PathBuf};

use studio_render::RgbaImage;

use crate::quantize::{Method, quantize_with};

/// The most memory a capture's frames may take before they are written (2 GiB).
pub const MAX_FRAME_BYTES: u64 = 2 << 30;

/// Whether `frames` frames of `width × height` fit [`MAX_FRAME_BYTES`]; if not, what to do.
pub fn check_frame_budget(frames: u32, width: u32, height: u32) -> Result<(), String> {
    let bytes = u64::from(frames) * u64::from(width) * u64::from(height) * 4;
    if bytes > MAX_FRAME_BYTES {
        return Err(format!(
            "{frames} frames of {width} × {height} would take {} MiB before they are written (at most {} MiB): capture fewer frames or a smaller picture",
            bytes >> 20,
            MAX_FRAME_BYTES >> 20
        ));
    }
    Ok(())
}

/// The formats an animation is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnimationFormat {
    /// Animated GIF.
    Gif,
    /// Animated PNG.
    Apng,
    /// Animated WebP.
    Webp,
    /// Numbered PNG files in a folder.
    PngFrames,
}

impl AnimationFormat {
    /// The format `path` asks for: a folder (ending in a separator, or an existing folder), or
    /// the extension; `None` for another extension.
    pub fn of_path(path: &Path) -> Option<Self> {
        let text = path.as_os_str().to_string_lossy();
        if text.ends_with('/') || text.ends_with(std::path::MAIN_SEPARATOR) || path.is_dir() {
            return Some(AnimationFormat::PngFrames);
        }
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "gif" => Some(AnimationFormat::Gif),
            "png" | "apng" => Some(AnimationFormat::Apng),
            "webp" => Some(AnimationFormat::Webp),
            _ => None,
        }
    }
}

/// Why frames could not be written.
#[derive(Debug, thiserror::Error)]
pub enum AnimationError {
    /// No frames, frames of different sizes, or a size the format cannot hold.
    #[error("{0}")]
    Frames(String),
    /// The file's name asks for no format written here.
    #[error("{0}: write .gif, .png (APNG), .webp, or a folder (ending in /) of PNG frames")]
    Format(PathBuf),
    /// An encoder failed.
    #[error("{path}: {message}")]
    Encode {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// Writes `frames`, shown at `fps` frames a second, to `path` in the format it asks for;
/// returns the files written.
pub fn write_animation(path: &Path, frames: &[RgbaImage], fps: f32) -> Result<Vec<PathBuf>, AnimationError> {
    let format = AnimationFormat::of_path(path).ok_or_else(|| AnimationError::Format(path.to_path_buf()))?;
    let first = frames.first().ok_or_else(|| AnimationError::Frames("no frames to write".to_owned()))?;
    let (width, height) = (first.width, first.height);
    if frames.iter().any(|f| {
        (f.width, f.height) != (width, height) || f.pixels.len() != width as usize * height as usize * 4
    }) {
        return Err(AnimationError::Frames("the frames differ in size".to_owned()));
    }
    if !(fps.is_finite() && fps > 0.0) {
        return Err(AnimationError::Frames(format!("{fps} frames a second is no rate")));
    }
    let encode = |message: String| AnimationError::Encode { path: path.to_path_buf(), message };
    let bytes = match format {
        AnimationFormat::PngFrames => return write_frames(path, frames),
        AnimationFormat::Gif => gif_bytes(frames, fps).map_err(encode)?,
        AnimationFormat::Apng => apng_bytes(frames, fps).map_err(encode)?,
        AnimationFormat::Webp => webp_bytes(frames, fps).map_err(encode)?,
    };
    std::fs::write(path, bytes).map_err(|e| encode(e.to_string()))?;
    Ok(vec![path.to_path_buf()])
}

fn write_frames(dir: &Path, frames: &[RgbaImage]) -> Result<Vec<PathBuf>, AnimationError> {
    let io = |path: &Path, e: String| AnimationError::Encode { path: path.to_path_buf(), message: e };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e.to_string()))?;
    let mut written = Vec::with_capacity(frames.len());
    for (i, frame) in frames.iter().enumerate() {
        let path = dir.join(format!("frame_{:04}.png", i + 1));
        crate::png_file::write_png(&path, frame).map_err(|e| io(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

/// Each frame's delay in `1 / per_second` units (GIF: hundredths, WebP: milliseconds), the
/// rounding carried so the total stays right; at least 1, at most `max`.
fn delays(count: usize, fps: f32, per_second: f64, max: u32) -> Vec<u32> {
    let mut delays = Vec::with_capacity(count);
    let mut shown = 0u64;
    for i in 1..=count as u64 {
        let end = (i as f64 * per_second / f64::from(fps)).round() as u64;
        delays.push(end.saturating_sub(shown).clamp(1, u64::from(max)) as u32);
        shown = end;
    }
    delays
}

fn gif_bytes(frames: &[RgbaImage], fps: f32) -> Result<Vec<u8>, String> {
    let (width, height) = (frames[0].width, frames[0].height);
    let (w, h) = (
        u16::try_from(width).map_err(|_| "too wide for GIF")?,
        u16::try_from(height).map_err(|_| "too tall for GIF")?,
    );
    let transparent = frames.iter().any(|f| f.pixels.chunks_exact(4).any(|p| p[3] < 255));
    let mut out = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut out, w, h, &[]).map_err(|e| e.to_string())?;
        encoder.set_repeat(gif::Repeat::Infinite).map_err(|e| e.to_string())?;
        for (frame, delay) in frames.iter().zip(delays(frames.len(), fps, 100.0, u32::from(u16::MAX))) {
            let q = quantize_with(width, height, &frame.pixels, transparent, Method::Wu);
            let gif_frame = gif::Frame {
                width: w,
                height: h,
                delay: delay as u16,
                dispose: gif::DisposalMethod::Background,
                transparent: transparent.then_some(255),
                palette: Some(q.palette.concat()),
                buffer: std::borrow::Cow::Owned(q.pixels),
                ..gif::Frame::default()
            };
            encoder.write_frame(&gif_frame).map_err(|e| e.to_string())?;
        }
    }
    Ok(out)
}

/// The frame delay as a fraction for APNG (`1 / fps` as exactly as 16-bit parts allow).
fn apng_delay(fps: f32) -> (u16, u16) {
    if fps.fract() == 0.0 && fps <= f32::from(u16::MAX) {
        return (1, fps as u16);
    }
    let milliseconds = (1000.0 / f64::from(fps)).round().clamp(1.0, f64::from(u16::MAX)) as u16;
    (milliseconds, 1000)
}

fn apng_bytes(frames: &[RgbaImage], fps: f32) -> Result<Vec<u8>, String> {
    let (width, height) = (frames[0].width, frames[0].height);
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let count = u32::try_from(frames.len()).map_err(|_| "too many frames")?;
        encoder.set_animated(count, 0).map_err(|e| e.to_string())?;
        let (numerator, denominator) = apng_delay(fps);
        encoder.set_frame_delay(numerator, denominator).map_err(|e| e.to_string())?;
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        for frame in frames {
            writer.write_image_data(&frame.pixels).map_err(|e| e.to_string())?;
        }
        writer.finish().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// A RIFF chunk: its four-character name, size and data, padded to an even length.
fn chunk(out: &mut Vec<u8>, name: &[u8; 4], data: &[u8]) -> Result<(), String> {
    out.extend_from_slice(name);
    out.extend_from_slice(
        &u32::try_from(data.len()).map_err(|_| "a frame too large for WebP")?.to_le_bytes(),
    );
    out.extend_from_slice(data);
    if data.len() % 2 == 1 {
        out.push(0);
    }
    Ok(())
}

/// A value in 24 bits, little-endian.
fn u24(value: u32) -> [u8; 3] {
    let b = value.to_le_bytes();
    [b[0], b[1], b[2]]
}

/// One frame's lossless VP8L bitstream: image-webp writes a simple WebP file of one `VP8L`
/// chunk, whose data starts after the 12-byte RIFF header and the 8-byte chunk header.
fn vp8l(frame: &RgbaImage) -> Result<Vec<u8>, String> {
    let mut file = Vec::new();
    image_webp::WebPEncoder::new(&mut file)
        .encode(&frame.pixels, frame.width, frame.height, image_webp::ColorType::Rgba8)
        .map_err(|e| e.to_string())?;
    let size = file.get(16..20).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize);
    match (file.get(12..16), size) {
        (Some(b"VP8L"), Some(size)) => {
            file.get(20..20 + size).map(<[u8]>::to_vec).ok_or_else(|| "a short frame".to_owned())
        }
        _ => Err("the WebP encoder wrote no VP8L chunk".to_owned()),
    }
}

fn webp_bytes(frames: &[RgbaImage], fps: f32) -> Result<Vec<u8>, String> {
    let (width, height) = (frames[0].width, frames[0].height);
    if width == 0 || height == 0 || width > 1 << 14 || height > 1 << 14 {
        return Err(format!("{width} × {height} is not a WebP size (1 to 16384 a side)"));
    }
    let mut body = Vec::new();
    // VP8X: animation (bit 1) and alpha (bit 4); the canvas size less one.
    let mut vp8x = vec![0x02 | 0x10, 0, 0, 0];
    vp8x.extend_from_slice(&u24(width - 1));
    vp8x.extend_from_slice(&u24(height - 1));
    chunk(&mut body, b"VP8X", &vp8x)?;
    // ANIM: a transparent background, looping for ever.
    chunk(&mut body, b"ANIM", &[0, 0, 0, 0, 0, 0])?;
    for (frame, delay) in frames.iter().zip(delays(frames.len(), fps, 1000.0, (1 << 24) - 1)) {
        let mut anmf = Vec::new();
        anmf.extend_from_slice(&u24(0));
        anmf.extend_from_slice(&u24(0));
        anmf.extend_from_slice(&u24(width - 1));
        anmf.extend_from_slice(&u24(height - 1));
        anmf.extend_from_slice(&u24(delay));
        // Not blended over the last frame (bit 1); not disposed (each frame covers the canvas).
        anmf.push(0x02);
        chunk(&mut anmf, b"VP8L", &vp8l(frame)?)?;
        chunk(&mut body, b"ANMF", &anmf)?;
    }
    let mut out = Vec::with_capacity(body.len() + 12);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&u32::try_from(body.len() + 4).map_err(|_| "too large for WebP")?.to_le_bytes());
    out.extend_from_slice(b"WEBP");
    out.extend_from_slice(&body);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_add_up_to_the_length() {
        let d = delays(60, 30.0, 100.0, 65535);
        assert_eq!(d.iter().sum::<u32>(), 200);
        assert!(d.iter().all(|&x| x == 3 || x == 4));
        assert_eq!(delays(3, 100.0, 100.0, 65535), [1, 1, 1]);
        assert_eq!(delays(3, 30.0, 1000.0, 1 << 20).iter().sum::<u32>(), 100);
        assert_eq!(apng_delay(30.0), (1, 30));
        assert_eq!(apng_delay(12.5), (80, 1000));
    }
}
