//! Textures, `mstudiotexture_t`, decoded to RGBA8 (goldsrc-geometry.md, "Textures").

use crate::error::{Problem, Record, Result, WarningKind};
use crate::raw::{RawHeader, RawTexture};
use crate::reader::{FileData, name, table};
use crate::warnings::Warnings;

/// Flat shading.
pub const STUDIO_NF_FLATSHADE: i32 = 0x0001;
/// Chrome: texture coordinates come from the normal as seen from the eye.
pub const STUDIO_NF_CHROME: i32 = 0x0002;
/// Not lit (later engines).
pub const STUDIO_NF_FULLBRIGHT: i32 = 0x0004;
/// No mipmaps (later engines).
pub const STUDIO_NF_NOMIPS: i32 = 0x0008;
/// Alpha (later engines).
pub const STUDIO_NF_ALPHA: i32 = 0x0010;
/// Drawn additively.
pub const STUDIO_NF_ADDITIVE: i32 = 0x0020;
/// Palette index 255 is transparent.
pub const STUDIO_NF_MASKED: i32 = 0x0040;

/// Names of the texture flags, for display.
pub const TEXTURE_FLAG_NAMES: [(i32, &str); 7] = [
    (STUDIO_NF_FLATSHADE, "FLATSHADE"),
    (STUDIO_NF_CHROME, "CHROME"),
    (STUDIO_NF_FULLBRIGHT, "FULLBRIGHT"),
    (STUDIO_NF_NOMIPS, "NOMIPS"),
    (STUDIO_NF_ALPHA, "ALPHA"),
    (STUDIO_NF_ADDITIVE, "ADDITIVE"),
    (STUDIO_NF_MASKED, "MASKED"),
];

const KNOWN_FLAGS: i32 = 0x7F;
const PALETTE_BYTES: u64 = 256 * 3;

/// A texture: 8-bit pixels and their palette, as stored ([`Texture::rgba`] decodes them).
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    /// The file it was made from, such as `body.bmp`.
    pub name: String,
    /// `STUDIO_NF_*` flags.
    pub flags: i32,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Byte offset of the pixel data in its file (the `index` field).
    pub index: u32,
    /// Palette indices, row by row from the top, as stored.
    pub pixels: Vec<u8>,
    /// The palette: 256 RGB entries.
    pub palette: Vec<[u8; 3]>,
}

impl Texture {
    /// A texture from palette indices (`width × height`) and a palette (missing entries are
    /// black); `index` is left 0 until a writer places it.
    pub fn from_indexed(
        name: &str,
        flags: i32,
        width: u32,
        height: u32,
        pixels: Vec<u8>,
        palette: &[[u8; 3]],
    ) -> Self {
        let mut full = vec![[0u8; 3]; 256];
        for (slot, entry) in full.iter_mut().zip(palette) {
            *slot = *entry;
        }
        Self { name: name.to_owned(), flags, width, height, index: 0, pixels, palette: full }
    }

    /// The pixels, row by row from the top, 4 bytes each (RGBA8): opaque, except palette index
    /// 255 of a `STUDIO_NF_MASKED` texture, whose alpha is 0. Decoded on each call, for the
    /// one-time uses that need it (upload, a preview): a model does not keep a second copy of
    /// every texture four times the size of the first.
    pub fn rgba(&self) -> Vec<u8> {
        let mut lut = [[0u8; 4]; 256];
        for (entry, rgb) in lut.iter_mut().zip(&self.palette) {
            *entry = [rgb[0], rgb[1], rgb[2], 255];
        }
        if self.is_masked() {
            lut[255][3] = 0;
        }
        let mut rgba = Vec::with_capacity(self.pixels.len() * 4);
        rgba.extend(self.pixels.iter().flat_map(|&p| lut[usize::from(p)]));
        rgba
    }

    /// Whether palette index 255 is transparent.
    pub fn is_masked(&self) -> bool {
        self.flags & STUDIO_NF_MASKED != 0
    }

    /// Whether it is a chrome texture.
    pub fn is_chrome(&self) -> bool {
        self.flags & STUDIO_NF_CHROME != 0
    }

    /// Whether it is drawn additively.
    pub fn is_additive(&self) -> bool {
        self.flags & STUDIO_NF_ADDITIVE != 0
    }
}

pub(crate) fn read_textures(
    file: &FileData<'_>,
    header: &RawHeader,
    warnings: &mut Warnings,
) -> Result<Vec<Texture>> {
    let table = file.table::<RawTexture>(Record::Texture, table!(header, numtextures, textureindex))?;
    table
        .iter()
        .map(|(index, offset, raw)| {
            let at = |problem| file.error(Record::Texture, Some(index), offset, problem);
            let width = u32::try_from(raw.width)
                .map_err(|_| at(Problem::Negative { field: "width", value: i64::from(raw.width) }))?;
            let height = u32::try_from(raw.height)
                .map_err(|_| at(Problem::Negative { field: "height", value: i64::from(raw.height) }))?;
            let place = file.place(Record::Texture, Some(index), offset);
            if raw.flags & !KNOWN_FLAGS != 0 {
                warnings
                    .push(place, WarningKind::UnknownValue { field: "flags", value: i64::from(raw.flags) });
            }
            let pixels_at = file.offset(Record::TexturePixels, Some(index), "index", raw.index)?;
            let count = u64::from(width) * u64::from(height);
            let bytes = file.slice(Record::TexturePixels, Some(index), pixels_at, count + PALETTE_BYTES)?;
            let (pixels, palette) = bytes.split_at(bytes.len() - PALETTE_BYTES as usize);
            Ok(Texture {
                name: name(&raw.name),
                flags: raw.flags,
                width,
                height,
                index: raw.index.unsigned_abs(),
                pixels: pixels.to_vec(),
                palette: palette.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect(),
            })
        })
        .collect()
}
