//! An image file read for import over a texture: an indexed picture (a PNG with a palette, an
//! 8-bit BMP) keeps its palette and indices, anything else (PNG, BMP, TGA, JPEG, through the
//! `image` crate) becomes RGBA.
//!
//! The readers are wrapped: the size is checked from the header before any pixel is decoded,
//! every decoder runs under an allocation limit, and a panic inside a decoder becomes an error.

use std::io::Cursor;
use std::path::Path;

/// The widest or tallest image read (a texture is at most 640 × 480 pixels' worth; a painter's
/// image may be larger and is resized).
pub const MAX_SIDE: u32 = 8192;
/// The most pixels an image read may have (64 Mi pixels: 256 MiB as RGBA).
pub const MAX_PIXELS: u64 = 1 << 26;

/// An image read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picture {
    /// Palette indices as stored, rows top-down, with up to 256 colours.
    Indexed {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// One index a pixel.
        pixels: Vec<u8>,
        /// The palette (red, green, blue).
        palette: Vec<[u8; 3]>,
    },
    /// Four bytes a pixel (red, green, blue, alpha), rows top-down.
    Rgba {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// `width × height × 4` bytes.
        pixels: Vec<u8>,
    },
}

impl Picture {
    /// Width and height in pixels.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Picture::Indexed { width, height, .. } | Picture::Rgba { width, height, .. } => (*width, *height),
        }
    }

    /// The pixels as RGBA (an indexed picture's colours, opaque).
    pub fn to_rgba(&self) -> Vec<u8> {
        match self {
            Picture::Rgba { pixels, .. } => pixels.clone(),
            Picture::Indexed { pixels, palette, .. } => pixels
                .iter()
                .flat_map(|&i| {
                    let [r, g, b] = palette.get(usize::from(i)).copied().unwrap_or_default();
                    [r, g, b, 255]
                })
                .collect(),
        }
    }
}

/// Why an image could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// The file could not be read.
    #[error("{file}: {message}")]
    Io {
        /// The file.
        file: String,
        /// What the system said.
        message: String,
    },
    /// Not an image in a format read here.
    #[error("{file}: not a PNG, BMP, TGA or JPEG image the importer can read ({message})")]
    Format {
        /// The file.
        file: String,
        /// What the decoder said.
        message: String,
    },
    /// The image has no pixels.
    #[error("{file}: the image has no pixels ({width} × {height})")]
    Empty {
        /// The file.
        file: String,
        /// Width from its header.
        width: u32,
        /// Height from its header.
        height: u32,
    },
    /// The image is larger than anything imported.
    #[error(
        "{file}: the image is {width} × {height} pixels; the importer reads at most {MAX_SIDE} pixels a side and {MAX_PIXELS} in all"
    )]
    TooLarge {
        /// The file.
        file: String,
        /// Width from its header.
        width: u32,
        /// Height from its header.
        height: u32,
    },
}

/// Reads the image file at `path`.
pub fn read_picture(path: &Path) -> Result<Picture, PictureError> {
    let file = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| PictureError::Io { file: file.clone(), message: e.to_string() })?;
    decode_picture(&bytes, &file)
}

/// Decodes an image from `bytes`; `file` names it in errors.
pub fn decode_picture(bytes: &[u8], file: &str) -> Result<Picture, PictureError> {
    let format = |message: String| PictureError::Format { file: file.to_owned(), message };
    // A decoder that panics on a bad file gives an error, not a crash.
    let decoded = std::panic::catch_unwind(|| decode(bytes, file))
        .map_err(|_| format("the decoder failed on this file".to_owned()))??;
    let (width, height) = decoded.size();
    if width == 0 || height == 0 {
        return Err(PictureError::Empty { file: file.to_owned(), width, height });
    }
    Ok(decoded)
}

fn check_size(file: &str, width: u32, height: u32) -> Result<(), PictureError> {
    if width == 0 || height == 0 {
        return Err(PictureError::Empty { file: file.to_owned(), width, height });
    }
    if width > MAX_SIDE || height > MAX_SIDE || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(PictureError::TooLarge { file: file.to_owned(), width, height });
    }
    Ok(())
}

fn decode(bytes: &[u8], file: &str) -> Result<Picture, PictureError> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n")
        && let Some(indexed) = indexed_png(bytes, file)?
    {
        return Ok(indexed);
    }
    if bytes.starts_with(b"BM")
        && let Some(bmp) = studio_smd::bmp::read(bytes)
    {
        check_size(file, bmp.width, bmp.height)?;
        return Ok(Picture::Indexed {
            width: bmp.width,
            height: bmp.height,
            pixels: bmp.pixels,
            palette: bmp.palette,
        });
    }
    any_image(bytes, file)
}

/// A PNG with a palette, its indices as stored (`None` for a PNG of another colour type).
fn indexed_png(bytes: &[u8], file: &str) -> Result<Option<Picture>, PictureError> {
    let format =
        |e: png::DecodingError| PictureError::Format { file: file.to_owned(), message: e.to_string() };
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::IDENTITY);
    decoder.set_limits(png::Limits { bytes: MAX_PIXELS as usize });
    let header = decoder.read_header_info().map_err(format)?;
    if header.color_type != png::ColorType::Indexed {
        return Ok(None);
    }
    let (width, height, depth) = (header.width, header.height, header.bit_depth as u8);
    check_size(file, width, height)?;
    let mut reader = decoder.read_info().map_err(format)?;
    let palette: Vec<[u8; 3]> = reader
        .info()
        .palette
        .as_deref()
        .unwrap_or_default()
        .chunks_exact(3)
        .take(256)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    let size = reader.output_buffer_size().ok_or_else(|| PictureError::TooLarge {
        file: file.to_owned(),
        width,
        height,
    })?;
    let mut packed = vec![0; size];
    let frame = reader.next_frame(&mut packed).map_err(format)?;
    // Rows of 1, 2, 4 or 8 bits a pixel, each starting on a byte.
    let per_byte = 8 / usize::from(depth.clamp(1, 8));
    let mask = ((1u16 << depth.clamp(1, 8)) - 1) as u8;
    let mut pixels = Vec::with_capacity(width as usize * height as usize);
    for row in packed.chunks(frame.line_size).take(height as usize) {
        for x in 0..width as usize {
            let byte = row.get(x / per_byte).copied().unwrap_or_default();
            let shift = 8 - usize::from(depth) * (x % per_byte + 1);
            pixels.push((byte >> shift) & mask);
        }
    }
    Ok(Some(Picture::Indexed { width, height, pixels, palette }))
}

/// Any image the `image` crate reads, as RGBA. The format is guessed from the bytes, or (for
/// TGA, which has no signature) from the file's extension.
fn any_image(bytes: &[u8], file: &str) -> Result<Picture, PictureError> {
    let format_error = |message: String| PictureError::Format { file: file.to_owned(), message };
    let guessed = image::guess_format(bytes).ok().or_else(|| image::ImageFormat::from_path(file).ok());
    let Some(format) = guessed else {
        return Err(format_error("unknown format".to_owned()));
    };
    let reader = || image::ImageReader::with_format(Cursor::new(bytes), format);
    let (width, height) = reader().into_dimensions().map_err(|e| format_error(e.to_string()))?;
    check_size(file, width, height)?;
    let mut reader = reader();
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_PIXELS * 8);
    reader.limits(limits);
    let image = reader.decode().map_err(|e| format_error(e.to_string()))?.into_rgba8();
    let (width, height) = image.dimensions();
    Ok(Picture::Rgba { width, height, pixels: image.into_raw() })
}
