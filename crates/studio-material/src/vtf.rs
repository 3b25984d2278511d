//! `.vtf` textures, versions 7.0 to 7.5: the header, the largest mip level of the first frame
//! (face and slice), decoded to RGBA8. The low-resolution thumbnail and the smaller mips are
//! skipped; the offsets of everything before the largest mip are computed and checked.
//!
//! Header (little-endian, packed; VTFLib's `SVTFHeader_7x`): 0 `"VTF\0"`, 4 version major and
//! minor (u32 each), 12 header size, 16 width and 18 height (u16), 20 flags, 24 frames and
//! 26 first frame (u16), 32 reflectivity (3 × f32), 48 bump scale, 52 image format (i32),
//! 56 mip count (u8), 57 thumbnail format (i32), 61 thumbnail width and 62 height (u8);
//! from 7.2, 63 depth (u16); from 7.3, 68 resource count (u32) and from 80 the resource
//! entries (3-byte tag, flags byte, u32 offset). The image data holds every mip from the
//! smallest to the largest; each mip, every frame; each frame, every face; each face, every
//! depth slice.

use crate::error::{Error, Result, slice, u16_at, u32_at};
use crate::image::{Format, decode};

/// Widest or tallest texture accepted (the engine's limit is 4096; some tools write 8192).
pub const MAX_SIZE: u32 = 8192;
/// Most frames accepted.
const MAX_FRAMES: u32 = 4096;

/// `TEXTUREFLAGS_ENVMAP`: six cube faces per frame.
const TEXTUREFLAGS_ENVMAP: u32 = 0x4000;
/// Resource tag of the image data (7.3 and later).
const RESOURCE_IMAGE: [u8; 3] = [0x30, 0, 0];
/// Resource flag: the entry holds its data in place of an offset.
const RESOURCE_NO_DATA_CHUNK: u8 = 0x02;

/// A decoded texture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vtf {
    /// Version minor (major is 7).
    pub minor: u32,
    /// Width of the largest mip.
    pub width: u32,
    /// Height of the largest mip.
    pub height: u32,
    /// `TEXTUREFLAGS_*`.
    pub flags: u32,
    /// Frames.
    pub frames: u32,
    /// Mip levels.
    pub mips: u32,
    /// The stored format.
    pub format: Format,
    /// The largest mip of frame 0 as RGBA8, rows top to bottom.
    pub rgba: Vec<u8>,
}

fn header_error(offset: u64, problem: impl Into<String>) -> Error {
    Error::new("VTF header", offset, problem)
}

/// Reads a `.vtf` and decodes its largest image.
pub fn parse_vtf(bytes: &[u8]) -> Result<Vtf> {
    if slice(bytes, "VTF header", 0, 4)? != b"VTF\0" {
        return Err(header_error(0, "the signature is not VTF\\0"));
    }
    let major = u32_at(bytes, "VTF header", 4)?;
    let minor = u32_at(bytes, "VTF header", 8)?;
    if major != 7 || minor > 5 {
        return Err(header_error(4, format!("version {major}.{minor} is not 7.0 to 7.5")));
    }
    let header_size = u64::from(u32_at(bytes, "VTF header", 12)?);
    let width = u32::from(u16_at(bytes, "VTF header", 16)?);
    let height = u32::from(u16_at(bytes, "VTF header", 18)?);
    let flags = u32_at(bytes, "VTF header", 20)?;
    let frames = u32::from(u16_at(bytes, "VTF header", 24)?).max(1);
    let first_frame = u16_at(bytes, "VTF header", 26)?;
    let format_id = u32_at(bytes, "VTF header", 52)? as i32;
    let mips = u32::from(slice(bytes, "VTF header", 56, 1)?[0]);
    let thumb_format_id = u32_at(bytes, "VTF header", 57)? as i32;
    let thumb = slice(bytes, "VTF header", 61, 2)?;
    let (thumb_width, thumb_height) = (u32::from(thumb[0]), u32::from(thumb[1]));
    let depth = if minor >= 2 { u32::from(u16_at(bytes, "VTF header", 63)?).max(1) } else { 1 };
    if width == 0 || height == 0 || width > MAX_SIZE || height > MAX_SIZE {
        return Err(header_error(16, format!("size {width}×{height} is not 1 to {MAX_SIZE}")));
    }
    if frames > MAX_FRAMES {
        return Err(header_error(24, format!("{frames} frames is more than {MAX_FRAMES}")));
    }
    let largest = 32 - width.max(height).leading_zeros();
    if mips == 0 || mips > largest {
        return Err(header_error(56, format!("{mips} mip levels for {width}×{height} (1 to {largest})")));
    }
    if depth > MAX_SIZE {
        return Err(header_error(63, format!("depth {depth} is more than {MAX_SIZE}")));
    }
    let format = Format::from_id(format_id)
        .ok_or_else(|| header_error(52, format!("image format {format_id} is not one this viewer reads")))?;
    // Cube maps store 6 faces; before 7.5, those with a first frame other than 0xFFFF also a
    // seventh (the sphere map).
    let faces: u64 = if flags & TEXTUREFLAGS_ENVMAP == 0 {
        1
    } else if minor < 5 && first_frame != 0xFFFF {
        7
    } else {
        6
    };
    let image_start = if minor >= 3 {
        image_resource(bytes, header_size)?
    } else {
        // The thumbnail follows the header; the image follows the thumbnail.
        let thumb_bytes = if thumb_width == 0 || thumb_height == 0 || thumb_format_id == -1 {
            0
        } else {
            let thumb_format = Format::from_id(thumb_format_id)
                .ok_or_else(|| header_error(57, format!("thumbnail format {thumb_format_id} is unknown")))?;
            thumb_format.size(thumb_width, thumb_height)
        };
        header_size.checked_add(thumb_bytes).ok_or_else(|| header_error(12, "the header size overflows"))?
    };
    // Everything before the largest mip: the smaller mips, each with its frames, faces, slices.
    let overflow = || header_error(52, "the image data's size overflows");
    let per_image = |mip: u32| -> Option<u64> {
        let (w, h, d) = ((width >> mip).max(1), (height >> mip).max(1), (depth >> mip).max(1));
        format.size(w, h).checked_mul(u64::from(frames))?.checked_mul(faces)?.checked_mul(u64::from(d))
    };
    let mut offset = image_start;
    for mip in (1..mips).rev() {
        offset = offset.checked_add(per_image(mip).ok_or_else(overflow)?).ok_or_else(overflow)?;
    }
    let size = format.size(width, height);
    let data = slice(bytes, "VTF image", offset, size)?;
    let rgba = decode(format, width, height, data).ok_or_else(|| {
        Error::new("VTF image", offset, format!("{format:?} data of {size} bytes is short"))
    })?;
    Ok(Vtf { minor, width, height, flags, frames, mips, format, rgba })
}

/// The offset of the image data from the resource entries of a 7.3+ header.
fn image_resource(bytes: &[u8], header_size: u64) -> Result<u64> {
    let count = u32_at(bytes, "VTF header", 68)?;
    // Each entry is 8 bytes and lies inside the header.
    let room = header_size.saturating_sub(80) / 8;
    if u64::from(count) > room {
        return Err(header_error(68, format!("{count} resources do not fit in a {header_size}-byte header")));
    }
    for i in 0..u64::from(count) {
        let at = 80 + i * 8;
        let entry = slice(bytes, "VTF resource", at, 8)?;
        if entry[..3] == RESOURCE_IMAGE {
            if entry[3] & RESOURCE_NO_DATA_CHUNK != 0 {
                return Err(Error::new("VTF resource", at, "the image resource has no data"));
            }
            return Ok(u64::from(u32::from_le_bytes([entry[4], entry[5], entry[6], entry[7]])));
        }
    }
    Err(header_error(68, "no image resource (tag 0x30)"))
}
