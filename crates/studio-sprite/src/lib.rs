//! studio-sprite: Half-Life sprites (`.spr`, version 2), as the engine's `Mod_LoadSpriteModel`
//! reads them: a `dsprite_t` header, a palette of up to 256 colours, then each frame, single
//! (`dspriteframe_t` and its 8-bit pixels) or a group (its frame count, one interval per frame,
//! then the frames). Every count, size and offset is checked against the file before use; a bad
//! file is an error naming the record and its byte offset, never a panic.
//!
//! The render mode (`texFormat`) decides what a pixel shows ([`Sprite::rgba`]): normal and
//! additive sprites show their colours; index-alpha sprites the palette's last colour with the
//! index as alpha; alpha-test sprites are transparent at index 255.

#![forbid(unsafe_code)]

mod reader;

pub use reader::{Problem, SpriteError, parse};

/// `IDSP`, the file's first four bytes.
pub const IDENT: &[u8; 4] = b"IDSP";
/// The version Half-Life reads.
pub const VERSION: i32 = 2;

/// How a sprite faces the viewer (`type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// `SPR_VP_PARALLEL_UPRIGHT`: facing the view, kept upright.
    ParallelUpright,
    /// `SPR_FACING_UPRIGHT`: facing the viewer's position, upright.
    FacingUpright,
    /// `SPR_VP_PARALLEL`: parallel to the view plane (muzzle flashes).
    Parallel,
    /// `SPR_ORIENTED`: at the entity's angles.
    Oriented,
    /// `SPR_VP_PARALLEL_ORIENTED`: parallel to the view, turned by the entity's roll.
    ParallelOriented,
}

/// How its pixels are drawn (`texFormat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderFormat {
    /// `SPR_NORMAL`: opaque.
    Normal,
    /// `SPR_ADDITIVE`: added to what is behind.
    Additive,
    /// `SPR_INDEXALPHA`: the palette's last colour, the index as its alpha.
    IndexAlpha,
    /// `SPR_ALPHTEST`: index 255 transparent.
    AlphaTest,
}

/// One picture of a sprite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Where its top left lies from the sprite's origin (`origin`; y up).
    pub origin: [i32; 2],
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Palette indices, rows from the top.
    pub pixels: Vec<u8>,
}

/// A frame: one picture, or a group the engine cycles through by time.
#[derive(Clone, Debug, PartialEq)]
pub enum Frame {
    /// `SPR_SINGLE`.
    Single(Picture),
    /// `SPR_GROUP`: its pictures, each shown until the time its interval gives (cumulative
    /// seconds).
    Group {
        /// Each picture's end time in the group's loop, seconds, rising.
        intervals: Vec<f32>,
        /// The pictures.
        pictures: Vec<Picture>,
    },
}

impl Frame {
    /// The picture shown at `time` seconds (a single frame's only one; a group's by its
    /// intervals, looping, as `R_GetSpriteFrame` picks it).
    pub fn picture_at(&self, time: f32) -> Option<&Picture> {
        match self {
            Frame::Single(p) => Some(p),
            Frame::Group { intervals, pictures } => {
                let full = *intervals.last()?;
                let t = if full > 0.0 && time.is_finite() { time.rem_euclid(full) } else { 0.0 };
                // The first whose end is past the time; the last when none before it is.
                let last = pictures.len().checked_sub(1)?;
                let index = intervals.iter().take(last).position(|&end| end > t).unwrap_or(last);
                pictures.get(index)
            }
        }
    }
}

/// A sprite.
#[derive(Clone, Debug, PartialEq)]
pub struct Sprite {
    /// How it faces the viewer.
    pub orientation: Orientation,
    /// How its pixels are drawn.
    pub format: RenderFormat,
    /// Radius of a sphere holding it.
    pub bounding_radius: f32,
    /// The largest frame's width.
    pub width: u32,
    /// The largest frame's height.
    pub height: u32,
    /// Beam length (beam sprites).
    pub beam_length: f32,
    /// `synctype`: 0 synchronised, 1 random.
    pub sync: i32,
    /// The palette (red, green, blue), up to 256 colours.
    pub palette: Vec<[u8; 3]>,
    /// The frames.
    pub frames: Vec<Frame>,
}

impl Sprite {
    /// A picture's pixels as RGBA, by the sprite's render format.
    pub fn rgba(&self, picture: &Picture) -> Vec<u8> {
        let colour = |i: u8| self.palette.get(usize::from(i)).copied().unwrap_or_default();
        let last = self.palette.last().copied().unwrap_or_default();
        picture
            .pixels
            .iter()
            .flat_map(|&i| match self.format {
                RenderFormat::Normal | RenderFormat::Additive => {
                    let [r, g, b] = colour(i);
                    [r, g, b, 255]
                }
                RenderFormat::IndexAlpha => [last[0], last[1], last[2], i],
                RenderFormat::AlphaTest => {
                    let [r, g, b] = colour(i);
                    [r, g, b, if i == 255 { 0 } else { 255 }]
                }
            })
            .collect()
    }
}
