//! Reading a `.spr` file: every count and size checked against the bytes left before use.

use crate::{Frame, IDENT, Orientation, Picture, RenderFormat, Sprite, VERSION};

/// The widest or tallest picture read (the engine's sprites are far smaller).
const MAX_SIDE: u32 = 8192;

/// What is wrong at a place in the file.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Problem {
    /// The file ends inside a record.
    #[error("the file ends inside it ({needed} bytes needed, {left} left)")]
    Truncated {
        /// Bytes the record needs.
        needed: u64,
        /// Bytes left.
        left: u64,
    },
    /// Not a sprite.
    #[error("not a sprite: it starts with {0:?}, not IDSP")]
    Ident([u8; 4]),
    /// Another version.
    #[error("version {0}: only version 2 (Half-Life) is read")]
    Version(i32),
    /// A field holds a value it cannot.
    #[error("{field} is {value}")]
    Value {
        /// The field.
        field: &'static str,
        /// Its value.
        value: i64,
    },
    /// A group's interval is not a positive number rising over the last.
    #[error("interval {index} is {value}: intervals must be positive and rising")]
    Interval {
        /// Which.
        index: usize,
        /// Its value.
        value: f32,
    },
}

/// Why a sprite could not be read: the record, its byte offset, and what is wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{record} at byte {offset}: {problem}")]
pub struct SpriteError {
    /// The record: `header`, `palette`, `frame 3`, `frame 3 picture 1`…
    pub record: String,
    /// Its byte offset.
    pub offset: u64,
    /// What is wrong.
    pub problem: Problem,
}

/// A cursor over the file that never reads past its end.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: u64, record: &dyn Fn() -> String) -> Result<&'a [u8], SpriteError> {
        let left = (self.bytes.len() - self.at) as u64;
        if n > left {
            return Err(SpriteError {
                record: record(),
                offset: self.at as u64,
                problem: Problem::Truncated { needed: n, left },
            });
        }
        let n = n as usize;
        let out = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(out)
    }

    fn i32(&mut self, record: &dyn Fn() -> String) -> Result<i32, SpriteError> {
        let b = self.take(4, record)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f32(&mut self, record: &dyn Fn() -> String) -> Result<f32, SpriteError> {
        let b = self.take(4, record)?;
        Ok(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn left(&self) -> u64 {
        (self.bytes.len() - self.at) as u64
    }
}

fn bad(record: impl Into<String>, offset: usize, problem: Problem) -> SpriteError {
    SpriteError { record: record.into(), offset: offset as u64, problem }
}

/// Parses a sprite file.
pub fn parse(bytes: &[u8]) -> Result<Sprite, SpriteError> {
    let mut c = Cursor { bytes, at: 0 };
    let header = || "header".to_owned();
    let ident = c.take(4, &header)?;
    if ident != IDENT {
        return Err(bad("header", 0, Problem::Ident([ident[0], ident[1], ident[2], ident[3]])));
    }
    let version = c.i32(&header)?;
    if version != VERSION {
        return Err(bad("header", 4, Problem::Version(version)));
    }
    let kind = c.i32(&header)?;
    let orientation = match kind {
        0 => Orientation::ParallelUpright,
        1 => Orientation::FacingUpright,
        2 => Orientation::Parallel,
        3 => Orientation::Oriented,
        4 => Orientation::ParallelOriented,
        v => return Err(bad("header", 8, Problem::Value { field: "type", value: i64::from(v) })),
    };
    let format = match c.i32(&header)? {
        0 => RenderFormat::Normal,
        1 => RenderFormat::Additive,
        2 => RenderFormat::IndexAlpha,
        3 => RenderFormat::AlphaTest,
        v => return Err(bad("header", 12, Problem::Value { field: "texFormat", value: i64::from(v) })),
    };
    let bounding_radius = c.f32(&header)?;
    let side = |value: i32, field: &'static str, at: usize, record: &str| {
        u32::try_from(value)
            .ok()
            .filter(|&v| v <= MAX_SIDE)
            .ok_or_else(|| bad(record, at, Problem::Value { field, value: i64::from(value) }))
    };
    let width = side(c.i32(&header)?, "width", 20, "header")?;
    let height = side(c.i32(&header)?, "height", 24, "header")?;
    let count = c.i32(&header)?;
    // Each frame takes at least its type and a picture's 16-byte header.
    let frames_count = u64::try_from(count)
        .ok()
        .filter(|&n| n >= 1 && n <= c.left() / 20)
        .ok_or_else(|| bad("header", 28, Problem::Value { field: "numframes", value: i64::from(count) }))?;
    let beam_length = c.f32(&header)?;
    let sync = c.i32(&header)?;
    let palette_record = || "palette".to_owned();
    let palette_at = c.at;
    let colours = c.take(2, &palette_record)?;
    let colours = i16::from_le_bytes([colours[0], colours[1]]);
    let colours = usize::try_from(colours).ok().filter(|&n| (1..=256).contains(&n)).ok_or_else(|| {
        bad("palette", palette_at, Problem::Value { field: "colour count", value: i64::from(colours) })
    })?;
    let palette =
        c.take(colours as u64 * 3, &palette_record)?.chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect();
    let mut frames = Vec::with_capacity(frames_count as usize);
    for f in 0..frames_count as usize {
        let record = || format!("frame {f}");
        let at = c.at;
        match c.i32(&record)? {
            0 => frames.push(Frame::Single(picture(&mut c, &format!("frame {f}"))?)),
            1 => {
                let group_at = c.at;
                let n = c.i32(&record)?;
                // Each picture: a 4-byte interval and at least a 16-byte header.
                let n = usize::try_from(n).ok().filter(|&n| n >= 1 && n as u64 <= c.left() / 20).ok_or_else(
                    || bad(record(), group_at, Problem::Value { field: "group frames", value: i64::from(n) }),
                )?;
                let mut intervals = Vec::with_capacity(n);
                for index in 0..n {
                    let interval_at = c.at;
                    let value = c.f32(&record)?;
                    let rising = intervals.last().is_none_or(|&last: &f32| value > last);
                    if !(value.is_finite() && value > 0.0 && rising) {
                        return Err(bad(record(), interval_at, Problem::Interval { index, value }));
                    }
                    intervals.push(value);
                }
                let mut pictures = Vec::with_capacity(n);
                for p in 0..n {
                    pictures.push(picture(&mut c, &format!("frame {f} picture {p}"))?);
                }
                frames.push(Frame::Group { intervals, pictures });
            }
            v => return Err(bad(record(), at, Problem::Value { field: "frame type", value: i64::from(v) })),
        }
    }
    Ok(Sprite { orientation, format, bounding_radius, width, height, beam_length, sync, palette, frames })
}

/// A `dspriteframe_t` and its pixels.
fn picture(c: &mut Cursor<'_>, record: &str) -> Result<Picture, SpriteError> {
    let name = || record.to_owned();
    let at = c.at;
    let origin = [c.i32(&name)?, c.i32(&name)?];
    let size = |value: i32, field: &'static str, offset: usize| {
        u32::try_from(value)
            .ok()
            .filter(|&v| (1..=MAX_SIDE).contains(&v))
            .ok_or_else(|| bad(record, offset, Problem::Value { field, value: i64::from(value) }))
    };
    let width = size(c.i32(&name)?, "width", at + 8)?;
    let height = size(c.i32(&name)?, "height", at + 12)?;
    let pixels = c.take(u64::from(width) * u64::from(height), &name)?.to_vec();
    Ok(Picture { origin, width, height, pixels })
}
