//! studioview patch: a window's retained picture kept in a buffer the processor reads.
//!
//! [`crate::shm_present`] shows a window through a shared image that the processor fills, so
//! the picture must reach memory the processor can read. [`Mirror`] holds the whole picture in
//! such a buffer from frame to frame and each frame copies into it only what
//! [`RetainedTarget::paint`] drew: its damaged rectangles, taken from the retained picture,
//! except where a paint callback's picture was left for the mirror
//! ([`RetainedTarget::defer_pictures`]). There the callback's own texture is copied straight
//! into the mirror, once, instead of into the retained picture and from there into the mirror.

use crate::retained::{Damage, PixelRect, RetainedTarget};

/// Row pitch of the mirror, in bytes: a copy from a texture needs a multiple of 256.
fn padded_row(width: u32) -> Option<u32> {
    width
        .checked_mul(4)?
        .checked_next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
}

/// The buffer and the picture size it was made for.
struct Buffer {
    buffer: wgpu::Buffer,
    size: [u32; 2],
    bytes_per_row: u32,
}

/// A retained picture's copy in a buffer the processor maps (see the module's documentation).
/// Its lists are kept and refilled, so that a frame allocates none of its own.
#[derive(Default)]
pub struct Mirror {
    buffer: Option<Buffer>,
    /// The rectangles the last [`Self::record`] brought up to date, within the picture, none
    /// empty and none overlapping another.
    changed: Vec<PixelRect>,
    /// Work list: a changed rectangle cut around the pictures copied straight in.
    pieces: Vec<PixelRect>,
}

impl Mirror {
    /// Records the copies that bring the mirror up to `retained`'s last paint: all of it when
    /// the mirror is new (the first picture, a new size), else its damage. Whether the mirror
    /// is new, and so holds only this picture's copies.
    pub fn record(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        retained: &RetainedTarget,
    ) -> bool {
        self.changed.clear();
        let Some(texture) = retained.texture() else {
            return false;
        };
        let size = [texture.width(), texture.height()];
        let Some(bytes_per_row) = padded_row(size[0]) else {
            return false;
        };
        let whole = PixelRect {
            min: [0, 0],
            max: size,
        };
        let new = self.buffer.as_ref().is_none_or(|buffer| buffer.size != size);
        if new {
            self.buffer = Some(Buffer {
                buffer: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("egui_mirror"),
                    size: u64::from(bytes_per_row) * u64::from(size[1]),
                    usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
                    mapped_at_creation: false,
                }),
                size,
                bytes_per_row,
            });
        }
        match retained.damage() {
            Damage::Rects(rects) if !new => self.changed.extend(
                rects
                    .iter()
                    .map(|rect| rect.intersect(&whole))
                    .filter(|rect| rect.area() > 0),
            ),
            _ => self.changed.push(whole),
        }
        let Some(buffer) = &self.buffer else {
            return new;
        };
        // The changed rectangles from the retained picture, cut around the pictures left for
        // the mirror (which lie within them: a callback's viewport is always damaged).
        self.pieces.clear();
        self.pieces.extend_from_slice(&self.changed);
        for (picture_rect, _) in retained.deferred_pictures() {
            let mut i = 0;
            while i < self.pieces.len() {
                let piece = self.pieces[i];
                if piece.overlaps(&picture_rect) {
                    self.pieces.swap_remove(i);
                    self.pieces.extend(piece.minus(&picture_rect));
                } else {
                    i += 1;
                }
            }
        }
        for piece in &self.pieces {
            copy_into(encoder, texture, *piece, [0, 0], buffer);
        }
        for (rect, picture) in retained.deferred_pictures() {
            copy_into(encoder, picture, rect, rect.min, buffer);
        }
        new
    }

    /// What the last [`Self::record`] brought up to date.
    pub fn changed(&self) -> &[PixelRect] {
        &self.changed
    }

    /// The buffer, once a picture has been recorded.
    pub fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.buffer.as_ref().map(|buffer| &buffer.buffer)
    }

    /// The picture's size in pixels (zero before the first picture).
    pub fn size(&self) -> [u32; 2] {
        self.buffer.as_ref().map_or([0, 0], |buffer| buffer.size)
    }

    /// The buffer's row pitch in bytes: each row holds the picture's row of 4-byte pixels,
    /// padded.
    pub fn bytes_per_row(&self) -> u32 {
        self.buffer.as_ref().map_or(0, |buffer| buffer.bytes_per_row)
    }
}

/// Records the copy of `rect` of the picture (pixels, within the buffer's picture) from
/// `texture`, where it lies at `rect.min - origin`, into the buffer.
fn copy_into(
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
    rect: PixelRect,
    origin: [u32; 2],
    buffer: &Buffer,
) {
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d {
                x: rect.min[0] - origin[0],
                y: rect.min[1] - origin[1],
                z: 0,
            },
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer.buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: u64::from(rect.min[1]) * u64::from(buffer.bytes_per_row)
                    + u64::from(rect.min[0]) * 4,
                bytes_per_row: Some(buffer.bytes_per_row),
                rows_per_image: None,
            },
        },
        wgpu::Extent3d {
            width: rect.max[0] - rect.min[0],
            height: rect.max[1] - rect.min[1],
            depth_or_array_layers: 1,
        },
    );
}
