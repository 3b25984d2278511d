//! studioview patch: a window picture kept from frame to frame, redrawn only where the
//! primitives changed.
//!
//! egui paints every frame whole. On a software rasterizer (Mesa's lavapipe) that is most of a
//! playing frame's cost: the panels around a model are rasterized again 30 or 60 times a
//! second although only the viewport and a counter changed. [`RetainedTarget`] keeps the last
//! picture in a texture of its own, compares this frame's primitives with the last frame's and
//! clears and redraws only the rectangles that hold a difference; the caller copies the texture
//! to the surface (whose contents are not kept between frames).
//!
//! The comparison is exact: a pixel outside every damaged rectangle is covered, in the same
//! order, by the same triangles with the same clip rectangle and texture in both frames, so it
//! has the value a whole redraw would give it. Paint callbacks draw what egui cannot see, so
//! their rectangles are always redrawn; where an opaque one ([`crate::CallbackTrait::opaque`])
//! covers a whole rectangle, what is drawn before it there is left out. An opaque callback that
//! offers its picture as a texture ([`crate::CallbackTrait::picture`]) is copied into place
//! rather than drawn: what comes before it there is drawn first (where it must be drawn at
//! all), then the copy, then what comes after it, over its viewport. A texture upload, a new
//! size, scale or clear colour redraws everything.

use core::ops::Range;

use epaint::{ClippedPrimitive, Primitive, Rect, TextureId, Vertex};

use crate::{Renderer, ScreenDescriptor};

/// A rectangle of pixels, `min` inclusive and `max` exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PixelRect {
    pub min: [u32; 2],
    pub max: [u32; 2],
}

impl PixelRect {
    fn is_empty(&self) -> bool {
        self.min[0] >= self.max[0] || self.min[1] >= self.max[1]
    }

    pub(crate) fn intersect(&self, other: &Self) -> Self {
        Self {
            min: [self.min[0].max(other.min[0]), self.min[1].max(other.min[1])],
            max: [self.max[0].min(other.max[0]), self.max[1].min(other.max[1])],
        }
    }

    fn union(&self, other: &Self) -> Self {
        Self {
            min: [self.min[0].min(other.min[0]), self.min[1].min(other.min[1])],
            max: [self.max[0].max(other.max[0]), self.max[1].max(other.max[1])],
        }
    }

    /// Sharing a pixel.
    pub(crate) fn overlaps(&self, other: &Self) -> bool {
        self.min[0] < other.max[0]
            && other.min[0] < self.max[0]
            && self.min[1] < other.max[1]
            && other.min[1] < self.max[1]
    }

    /// The pixels of `self` outside `other`: up to four rectangles (the rows above and below
    /// `other`, then the columns left and right of it), none empty, none overlapping.
    pub(crate) fn minus(&self, other: &Self) -> impl Iterator<Item = Self> + use<> {
        let cut = self.intersect(other);
        let pieces = if cut.is_empty() {
            [*self, Self::EMPTY, Self::EMPTY, Self::EMPTY]
        } else {
            [
                Self {
                    min: self.min,
                    max: [self.max[0], cut.min[1]],
                },
                Self {
                    min: [self.min[0], cut.max[1]],
                    max: self.max,
                },
                Self {
                    min: [self.min[0], cut.min[1]],
                    max: [cut.min[0], cut.max[1]],
                },
                Self {
                    min: [cut.max[0], cut.min[1]],
                    max: [self.max[0], cut.max[1]],
                },
            ]
        };
        pieces.into_iter().filter(|piece| !piece.is_empty())
    }

    const EMPTY: Self = Self {
        min: [0, 0],
        max: [0, 0],
    };

    fn contains(&self, other: &Self) -> bool {
        self.min[0] <= other.min[0]
            && self.min[1] <= other.min[1]
            && other.max[0] <= self.max[0]
            && other.max[1] <= self.max[1]
    }

    /// The pixels a paint callback with viewport `rect` and clip rectangle `clip` may draw:
    /// its viewport as the renderer sets it, within its scissor rectangle.
    pub(crate) fn viewport(rect: &Rect, clip: &Rect, pixels_per_point: f32, size: [u32; 2]) -> Self {
        let info = epaint::PaintCallbackInfo {
            viewport: *rect,
            clip_rect: *clip,
            pixels_per_point,
            screen_size_px: size,
        };
        let v = info.viewport_in_pixels();
        let x0 = v.left_px.clamp(0, size[0] as i32) as u32;
        let y0 = v.top_px.clamp(0, size[1] as i32) as u32;
        let viewport = Self {
            min: [x0, y0],
            max: [
                (v.left_px.saturating_add(v.width_px)).clamp(x0 as i32, size[0] as i32) as u32,
                (v.top_px.saturating_add(v.height_px)).clamp(y0 as i32, size[1] as i32) as u32,
            ],
        };
        viewport.intersect(&Self::from_clip(clip, pixels_per_point, size))
    }

    /// The whole of a paint callback's viewport `rect` in pixels, as the renderer sets it, when
    /// it lies within the screen and its clip rectangle; `None` when part of it is cut off.
    fn whole_viewport(rect: &Rect, clip: &Rect, pixels_per_point: f32, size: [u32; 2]) -> Option<Self> {
        let info = epaint::PaintCallbackInfo {
            viewport: *rect,
            clip_rect: *clip,
            pixels_per_point,
            screen_size_px: size,
        };
        let v = info.viewport_in_pixels();
        let (x0, y0) = (u32::try_from(v.left_px).ok()?, u32::try_from(v.top_px).ok()?);
        let whole = Self {
            min: [x0, y0],
            max: [
                x0.checked_add(u32::try_from(v.width_px).ok()?)?,
                y0.checked_add(u32::try_from(v.height_px).ok()?)?,
            ],
        };
        (!whole.is_empty() && Self::viewport(rect, clip, pixels_per_point, size) == whole).then_some(whole)
    }

    /// Pixels in the rectangle.
    pub fn area(&self) -> u64 {
        if self.is_empty() {
            0
        } else {
            u64::from(self.max[0] - self.min[0]) * u64::from(self.max[1] - self.min[1])
        }
    }

    /// `clip` in pixels, rounded as the renderer rounds a scissor rectangle.
    fn from_clip(clip: &Rect, pixels_per_point: f32, size: [u32; 2]) -> Self {
        let x0 = ((clip.min.x * pixels_per_point).round() as u32).min(size[0]);
        let y0 = ((clip.min.y * pixels_per_point).round() as u32).min(size[1]);
        let x1 = ((clip.max.x * pixels_per_point).round() as u32).clamp(x0, size[0]);
        let y1 = ((clip.max.y * pixels_per_point).round() as u32).clamp(y0, size[1]);
        Self {
            min: [x0, y0],
            max: [x1, y1],
        }
    }

    /// The pixels a shape within `bounds` (points) can touch: one pixel of margin for the
    /// rasterizer's rounding.
    fn around(bounds: &Rect, pixels_per_point: f32, size: [u32; 2]) -> Self {
        let lo = |v: f32, limit: u32| ((v * pixels_per_point).floor() as i64 - 1).clamp(0, i64::from(limit)) as u32;
        let hi = |v: f32, limit: u32| ((v * pixels_per_point).ceil() as i64 + 1).clamp(0, i64::from(limit)) as u32;
        Self {
            min: [lo(bounds.min.x, size[0]), lo(bounds.min.y, size[1])],
            max: [hi(bounds.max.x, size[0]), hi(bounds.max.y, size[1])],
        }
    }
}

/// What must be drawn again this frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Damage {
    /// Everything: the first frame, a new size, scale, clear colour or texture.
    Full,
    /// These rectangles, which do not overlap (possibly none).
    Rects(Vec<PixelRect>),
}

/// One primitive of a recorded frame; its mesh lies in the frame's pools.
#[derive(Clone, Debug, PartialEq)]
enum Record {
    Mesh {
        clip: Rect,
        texture: TextureId,
        vertices: Range<usize>,
        indices: Range<usize>,
    },
    Callback {
        clip: Rect,
        rect: Rect,
        /// [`crate::CallbackTrait::opaque`].
        opaque: bool,
    },
}

/// A frame's primitives, copied so that the next frame can be compared with them.
#[derive(Default)]
struct Frame {
    records: Vec<Record>,
    vertices: Vec<Vertex>,
    indices: Vec<u32>,
}

impl Frame {
    fn record(&mut self, primitives: &[ClippedPrimitive]) {
        self.records.clear();
        self.vertices.clear();
        self.indices.clear();
        for primitive in primitives {
            let clip = primitive.clip_rect;
            match &primitive.primitive {
                Primitive::Mesh(mesh) => {
                    let vertices = self.vertices.len()..self.vertices.len() + mesh.vertices.len();
                    let indices = self.indices.len()..self.indices.len() + mesh.indices.len();
                    self.vertices.extend_from_slice(&mesh.vertices);
                    self.indices.extend_from_slice(&mesh.indices);
                    self.records.push(Record::Mesh {
                        clip,
                        texture: mesh.texture_id,
                        vertices,
                        indices,
                    });
                }
                Primitive::Callback(callback) => self.records.push(Record::Callback {
                    clip,
                    rect: callback.rect,
                    opaque: callback
                        .callback
                        .downcast_ref::<crate::Callback>()
                        .is_some_and(crate::Callback::opaque),
                }),
            }
        }
    }

    fn mesh(&self, record: &Record) -> Option<(&[Vertex], &[u32])> {
        match record {
            Record::Mesh {
                vertices, indices, ..
            } => Some((&self.vertices[vertices.clone()], &self.indices[indices.clone()])),
            Record::Callback { .. } => None,
        }
    }
}

/// Whether record `i` of `a` draws exactly what record `j` of `b` draws (a callback never does:
/// what it draws is its own).
fn same(a: &Frame, i: usize, b: &Frame, j: usize) -> bool {
    match (&a.records[i], &b.records[j]) {
        (
            Record::Mesh {
                clip: clip_a,
                texture: texture_a,
                ..
            },
            Record::Mesh {
                clip: clip_b,
                texture: texture_b,
                ..
            },
        ) => {
            clip_a == clip_b
                && texture_a == texture_b
                && a.mesh(&a.records[i]) .map(|(v, x)| (bytemuck::cast_slice::<Vertex, u8>(v), x))
                    == b.mesh(&b.records[j]).map(|(v, x)| (bytemuck::cast_slice::<Vertex, u8>(v), x))
        }
        _ => false,
    }
}

/// Triangle `t` of a mesh, its indices resolved; `None` for an index out of range.
fn triangle(vertices: &[Vertex], indices: &[u32], t: usize) -> Option<[Vertex; 3]> {
    let corner = |k: usize| {
        let index = *indices.get(3 * t + k)?;
        vertices.get(index as usize).copied()
    };
    Some([corner(0)?, corner(1)?, corner(2)?])
}

/// Bounds (points) of triangles `range` of a mesh, grown into `bounds`.
fn grow_by_triangles(bounds: &mut Rect, vertices: &[Vertex], indices: &[u32], range: Range<usize>) {
    for t in range {
        for k in 0..3 {
            if let Some(vertex) = indices.get(3 * t + k).and_then(|&i| vertices.get(i as usize)) {
                bounds.extend_with(vertex.pos);
            }
        }
    }
}

/// Compares two frames and says which pixels differ.
struct Comparison<'a> {
    old: &'a Frame,
    new: &'a Frame,
    pixels_per_point: f32,
    size: [u32; 2],
    rects: Vec<PixelRect>,
}

impl Comparison<'_> {
    fn add(&mut self, bounds: &Rect, clip: &Rect) {
        if !(bounds.min.x <= bounds.max.x && bounds.min.y <= bounds.max.y) {
            return; // nothing was grown into it
        }
        let rect = PixelRect::around(bounds, self.pixels_per_point, self.size)
            .intersect(&PixelRect::from_clip(clip, self.pixels_per_point, self.size));
        if !rect.is_empty() {
            self.rects.push(rect);
        }
    }

    /// What a paint callback may draw.
    fn add_callback(&mut self, rect: &Rect, clip: &Rect) {
        let rect = PixelRect::viewport(rect, clip, self.pixels_per_point, self.size);
        if !rect.is_empty() {
            self.rects.push(rect);
        }
    }

    /// All of what record `i` of `frame` draws.
    fn add_whole(&mut self, frame: &Frame, i: usize) {
        match &frame.records[i] {
            Record::Mesh { clip, .. } => {
                let (vertices, indices) = frame.mesh(&frame.records[i]).unwrap_or_default();
                let mut bounds = Rect::NOTHING;
                grow_by_triangles(&mut bounds, vertices, indices, 0..indices.len() / 3);
                self.add(&bounds, clip);
            }
            Record::Callback { clip, rect, .. } => self.add_callback(rect, clip),
        }
    }

    /// What differs between two meshes with the same clip rectangle and texture: the triangles
    /// between their common first and last ones.
    fn add_mesh_difference(&mut self, i: usize, clip: &Rect) {
        let (Some((va, xa)), Some((vb, xb))) = (
            self.old.mesh(&self.old.records[i]),
            self.new.mesh(&self.new.records[i]),
        ) else {
            return;
        };
        let (ta, tb) = (xa.len() / 3, xb.len() / 3);
        let common = ta.min(tb);
        let mut first = 0;
        while first < common && triangle(va, xa, first).is_some() && triangle(va, xa, first) == triangle(vb, xb, first) {
            first += 1;
        }
        let mut last = 0;
        while last < common - first
            && triangle(va, xa, ta - 1 - last).is_some()
            && triangle(va, xa, ta - 1 - last) == triangle(vb, xb, tb - 1 - last)
        {
            last += 1;
        }
        let mut bounds = Rect::NOTHING;
        grow_by_triangles(&mut bounds, va, xa, first..ta - last);
        grow_by_triangles(&mut bounds, vb, xb, first..tb - last);
        if first < ta - last || first < tb - last {
            self.add(&bounds, clip);
        }
    }

    fn compare(mut self) -> Vec<PixelRect> {
        let (old, new) = (self.old, self.new);
        let (m, n) = (old.records.len(), new.records.len());
        let mut first = 0;
        while first < m.min(n) && same(old, first, new, first) {
            first += 1;
        }
        let mut last = 0;
        while last < m.min(n) - first && same(old, m - 1 - last, new, n - 1 - last) {
            last += 1;
        }
        if m - last - first == n - last - first {
            for i in first..m - last {
                match (&old.records[i], &new.records[i]) {
                    (
                        Record::Mesh {
                            clip: clip_a,
                            texture: texture_a,
                            ..
                        },
                        Record::Mesh {
                            clip: clip_b,
                            texture: texture_b,
                            ..
                        },
                    ) if clip_a == clip_b && texture_a == texture_b => {
                        let clip = *clip_a;
                        self.add_mesh_difference(i, &clip);
                    }
                    _ => {
                        self.add_whole(old, i);
                        self.add_whole(new, i);
                    }
                }
            }
        } else {
            for i in first..m - last {
                self.add_whole(old, i);
            }
            for j in first..n - last {
                self.add_whole(new, j);
            }
        }
        // A callback's picture is its own: always drawn again.
        for record in &new.records {
            if let Record::Callback { clip, rect, .. } = record {
                self.add_callback(rect, clip);
            }
        }
        merge(&mut self.rects);
        self.rects
    }
}

/// Most rectangles drawn apart; more are drawn as the one rectangle around them all.
const MOST_RECTS: usize = 8;

/// Merges rectangles that overlap until none do, so that no pixel is drawn twice.
fn merge(rects: &mut Vec<PixelRect>) {
    if rects.len() > 4 * MOST_RECTS {
        let all = rects.iter().skip(1).fold(rects[0], |all, r| all.union(r));
        rects.clear();
        rects.push(all);
        return;
    }
    'again: loop {
        for i in 0..rects.len() {
            for j in i + 1..rects.len() {
                if rects[i].overlaps(&rects[j]) {
                    rects[i] = rects[i].union(&rects[j]);
                    rects.swap_remove(j);
                    continue 'again;
                }
            }
        }
        break;
    }
    if rects.len() > MOST_RECTS {
        let all = rects.iter().skip(1).fold(rects[0], |all, r| all.union(r));
        rects.clear();
        rects.push(all);
    }
}

/// A window picture kept between frames (see the module's documentation).
pub struct RetainedTarget {
    format: wgpu::TextureFormat,
    texture: Option<(wgpu::Texture, wgpu::TextureView)>,
    clear_pipeline: wgpu::RenderPipeline,
    last: Frame,
    next: Frame,
    /// What the last frame was drawn with; `None` until a frame has been drawn whole.
    drawn_with: Option<([u32; 2], f32, [f32; 4])>,
    damage: Damage,
    /// This frame's callbacks whose pictures are copied into place (kept to be reused).
    copies: Vec<PictureCopy>,
    /// The indices of `copies`' callbacks among this frame's primitives.
    copied: Vec<usize>,
    /// Whether pictures with nothing drawn over them are left for a [`crate::mirror::Mirror`]
    /// ([`Self::defer_pictures`]).
    defer: bool,
}

/// An opaque paint callback's picture copied into the kept picture.
struct PictureCopy {
    /// The callback's index among the frame's primitives.
    index: usize,
    /// Its viewport, in pixels.
    rect: PixelRect,
    picture: wgpu::Texture,
    /// Whether anything follows it over its viewport ([`covered`]): drawn again over the copy.
    covered: bool,
    /// Left for a mirror to copy rather than copied into the kept picture: nothing covers it
    /// and the target defers pictures ([`RetainedTarget::defer_pictures`]).
    deferred: bool,
}

/// Whether anything among `primitives` after the one at `index` may draw over `rect`, the
/// viewport of the picture copied for it: a mesh where it may touch a pixel (its bounds, within
/// its clip rectangle, as for the damage), a callback where it may draw.
fn covered(primitives: &[ClippedPrimitive], index: usize, rect: &PixelRect, screen: &ScreenDescriptor) -> bool {
    let (ppp, size) = (screen.pixels_per_point, screen.size_in_pixels);
    primitives[index + 1..].iter().any(|primitive| {
        let clip = &primitive.clip_rect;
        let clip_px = PixelRect::from_clip(clip, ppp, size);
        clip_px.overlaps(rect)
            && match &primitive.primitive {
                Primitive::Mesh(mesh) => PixelRect::around(&mesh.calc_bounds(), ppp, size)
                    .intersect(&clip_px)
                    .overlaps(rect),
                Primitive::Callback(callback) => PixelRect::viewport(&callback.rect, clip, ppp, size).overlaps(rect),
            }
    })
}

impl RetainedTarget {
    /// A retained picture for a surface of `format`.
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("egui_retained_clear"),
            source: wgpu::ShaderSource::Wgsl(CLEAR_SHADER.into()),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("egui_retained_clear"),
            bind_group_layouts: &[],
            immediate_size: 0,
        });
        // The fragment's output times the blend constant, the destination times zero: the
        // scissored rectangle is set to the clear colour.
        let replace = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::Constant,
            dst_factor: wgpu::BlendFactor::Zero,
            operation: wgpu::BlendOperation::Add,
        };
        let clear_pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("egui_retained_clear"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                ..Default::default()
            },
            depth_stencil: None,
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState {
                        color: replace,
                        alpha: replace,
                    }),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        Self {
            format,
            texture: None,
            clear_pipeline,
            last: Frame::default(),
            next: Frame::default(),
            drawn_with: None,
            damage: Damage::Full,
            copies: Vec::new(),
            copied: Vec::new(),
            defer: false,
        }
    }

    /// The opaque callbacks among `primitives` whose pictures can be copied into place: each
    /// with its whole viewport on the screen, a texture of that size and a format this
    /// picture's can take by a copy, and overlapping no other such callback. Each is marked
    /// once with whether anything covers it and whether it is left for a mirror.
    fn find_copies(&mut self, primitives: &[ClippedPrimitive], screen: &ScreenDescriptor) {
        self.copies.clear();
        self.copied.clear();
        for (index, primitive) in primitives.iter().enumerate() {
            let Primitive::Callback(callback) = &primitive.primitive else {
                continue;
            };
            let Some(callback_fn) = callback.callback.downcast_ref::<crate::Callback>() else {
                continue;
            };
            let Some(rect) = PixelRect::whole_viewport(
                &callback.rect,
                &primitive.clip_rect,
                screen.pixels_per_point,
                screen.size_in_pixels,
            ) else {
                continue;
            };
            let size = [rect.max[0] - rect.min[0], rect.max[1] - rect.min[1]];
            let Some(picture) = callback_fn.opaque().then(|| callback_fn.picture(self.format, size)).flatten() else {
                continue;
            };
            let fits = [picture.width(), picture.height()] == size
                && picture.format().remove_srgb_suffix() == self.format.remove_srgb_suffix()
                && picture.sample_count() == 1
                && picture.usage().contains(wgpu::TextureUsages::COPY_SRC);
            if fits && !self.copies.iter().any(|copy| copy.rect.overlaps(&rect)) {
                let covered = covered(primitives, index, &rect, screen);
                self.copies.push(PictureCopy {
                    index,
                    rect,
                    picture: picture.clone(),
                    covered,
                    deferred: self.defer && !covered,
                });
                self.copied.push(index);
            }
        }
    }

    /// Whether the next paints leave a copied picture that nothing is drawn over out of the kept
    /// picture, for a [`crate::mirror::Mirror`] to copy straight from its texture
    /// ([`Self::deferred_pictures`]). The kept picture then does not hold those pixels: it
    /// must be shown only through the mirror. Turning it off draws the next frame whole.
    pub fn defer_pictures(&mut self, defer: bool) {
        if self.defer && !defer {
            self.invalidate();
        }
        self.defer = defer;
    }

    /// The pictures the last [`Self::paint`] left for a mirror: each with its rectangle in the
    /// window, which the texture fills.
    pub fn deferred_pictures(&self) -> impl Iterator<Item = (PixelRect, &wgpu::Texture)> {
        self.copies
            .iter()
            .filter(|copy| copy.deferred)
            .map(|copy| (copy.rect, &copy.picture))
    }

    /// Draw everything on the next frame (after something else drew the window).
    pub fn invalidate(&mut self) {
        self.drawn_with = None;
    }

    /// What the last [`Self::paint`] drew.
    pub fn damage(&self) -> &Damage {
        &self.damage
    }

    /// How many paint callbacks' pictures the last [`Self::paint`] copied into place rather than
    /// drew ([`crate::CallbackTrait::picture`]).
    pub fn copied(&self) -> usize {
        self.copies.len()
    }

    /// The picture, once a frame has been painted.
    pub fn texture(&self) -> Option<&wgpu::Texture> {
        self.texture.as_ref().map(|(texture, _)| texture)
    }

    /// Draws this frame's `primitives` into the kept picture where they differ from the last
    /// frame's. `textures_changed`: whether egui's textures changed since the last frame. The
    /// renderer's buffers must have been updated for `primitives`.
    pub fn paint(
        &mut self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        renderer: &Renderer,
        primitives: &[ClippedPrimitive],
        screen: &ScreenDescriptor,
        clear_color: [f32; 4],
        textures_changed: bool,
    ) {
        let size = screen.size_in_pixels;
        if self
            .texture
            .as_ref()
            .is_none_or(|(texture, _)| [texture.width(), texture.height()] != size)
        {
            let texture = device.create_texture(&wgpu::TextureDescriptor {
                label: Some("egui_retained"),
                size: wgpu::Extent3d {
                    width: size[0].max(1),
                    height: size[1].max(1),
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: self.format,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::COPY_SRC
                    | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            });
            let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
            self.texture = Some((texture, view));
            self.drawn_with = None;
        }
        self.next.record(primitives);
        let drawn_with = (size, screen.pixels_per_point, clear_color);
        self.damage = if textures_changed || self.drawn_with != Some(drawn_with) {
            Damage::Full
        } else {
            Damage::Rects(
                Comparison {
                    old: &self.last,
                    new: &self.next,
                    pixels_per_point: screen.pixels_per_point,
                    size,
                    rects: Vec::new(),
                }
                .compare(),
            )
        };
        core::mem::swap(&mut self.last, &mut self.next);
        self.drawn_with = Some(drawn_with);

        if matches!(&self.damage, Damage::Rects(rects) if rects.is_empty()) {
            self.copies.clear();
            self.copied.clear();
            return;
        }
        self.find_copies(primitives, screen);
        let Some((texture, view)) = &self.texture else {
            return;
        };
        let color = wgpu::Color {
            r: f64::from(clear_color[0]),
            g: f64::from(clear_color[1]),
            b: f64::from(clear_color[2]),
            a: f64::from(clear_color[3]),
        };
        let full = self.damage == Damage::Full;
        // The rectangle that each damaged rectangle is drawn from: the last opaque callback
        // covering it (nothing under it shows), or the first.
        let from = |rect: &PixelRect| {
            self.last.records.iter().rposition(|record| {
                matches!(record, Record::Callback { clip, rect: viewport, opaque: true }
                    if PixelRect::viewport(viewport, clip, screen.pixels_per_point, size).contains(rect))
            })
        };
        // What is drawn before the copies: all but the rectangles that lie under a copied
        // picture (drawn by the copy and what follows it).
        let before_copies = match &self.damage {
            Damage::Full => true,
            Damage::Rects(rects) => rects
                .iter()
                .any(|rect| from(rect).is_none_or(|from| !self.copied.contains(&from))),
        };
        if before_copies {
            let mut pass = begin(encoder, view, full.then_some(color));
            match &self.damage {
                Damage::Full => renderer.render_within(&mut pass, primitives, screen, None, 0, &self.copied),
                Damage::Rects(rects) => {
                    for rect in rects {
                        let from = from(rect);
                        if from.is_some_and(|from| self.copied.contains(&from)) {
                            continue;
                        }
                        if from.is_none() {
                            let (w, h) = (rect.max[0] - rect.min[0], rect.max[1] - rect.min[1]);
                            pass.set_viewport(0.0, 0.0, size[0] as f32, size[1] as f32, 0.0, 1.0);
                            pass.set_scissor_rect(rect.min[0], rect.min[1], w, h);
                            pass.set_pipeline(&self.clear_pipeline);
                            pass.set_blend_constant(color);
                            pass.draw(0..3, 0..1);
                        }
                        renderer.render_within(
                            &mut pass,
                            primitives,
                            screen,
                            Some(*rect),
                            from.unwrap_or(0),
                            &self.copied,
                        );
                    }
                }
            }
        }
        for copy in self.copies.iter().filter(|copy| !copy.deferred) {
            let [x, y] = copy.rect.min;
            encoder.copy_texture_to_texture(
                copy.picture.as_image_copy(),
                wgpu::TexelCopyTextureInfo {
                    texture,
                    mip_level: 0,
                    origin: wgpu::Origin3d { x, y, z: 0 },
                    aspect: wgpu::TextureAspect::All,
                },
                copy.picture.size(),
            );
        }
        if self.copies.iter().any(|copy| copy.covered) {
            let mut pass = begin(encoder, view, None);
            for copy in self.copies.iter().filter(|copy| copy.covered) {
                renderer.render_within(
                    &mut pass,
                    primitives,
                    screen,
                    Some(copy.rect),
                    copy.index + 1,
                    &self.copied,
                );
            }
        }
    }
}

/// A render pass on the kept picture `view`, cleared to `clear` or loading what it holds.
fn begin(
    encoder: &mut wgpu::CommandEncoder,
    view: &wgpu::TextureView,
    clear: Option<wgpu::Color>,
) -> wgpu::RenderPass<'static> {
    encoder
        .begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("egui_retained"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: clear.map_or(wgpu::LoadOp::Load, wgpu::LoadOp::Clear),
                    store: wgpu::StoreOp::Store,
                },
                depth_slice: None,
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        })
        .forget_lifetime()
}

/// One triangle over the whole target; the blend state turns its colour into the clear colour.
const CLEAR_SHADER: &str = "
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4<f32> {
    return vec4<f32>(1.0);
}
";
