//! Overlay geometry built each frame from the pose: skeleton, hit boxes, attachments and
//! bounding boxes, as coloured lines and translucent triangles. The vertex lists are reused from
//! frame to frame, with room reserved when the model is loaded. (The ground grid, one of the
//! [`OverlayOptions`], is drawn by the mesh's pipeline: see `grid.rs`.)

use glam::{Vec3, Vec3A};

use crate::gpu_types::OverlayVertex;
use crate::scene::{FramePose, RenderModel};

/// The colours of hit groups 0–7 (Half-Life's generic, head, chest, stomach, left arm, right
/// arm, left leg, right leg), as sRGB bytes: the app's legend shows the same.
pub const HIT_GROUP_COLORS: [[u8; 3]; 8] = [
    [220, 220, 220],
    [255, 40, 40],
    [40, 220, 40],
    [60, 110, 255],
    [255, 230, 0],
    [255, 0, 255],
    [0, 230, 230],
    [255, 140, 0],
];

/// Colour of hit groups outside 0–7.
pub const OTHER_HIT_GROUP_COLOR: [u8; 3] = [150, 150, 150];

/// The colour a hit group is drawn in, as sRGB bytes.
pub fn hit_group_color(group: i32) -> [u8; 3] {
    usize::try_from(group)
        .ok()
        .and_then(|g| HIT_GROUP_COLORS.get(g).copied())
        .unwrap_or(OTHER_HIT_GROUP_COLOR)
}

/// Colour of skeleton lines and joints.
pub const BONE_COLOR: [u8; 3] = [255, 255, 0];
/// Colour of the selected bone and hit box.
pub const SELECTED_COLOR: [u8; 3] = [255, 255, 255];
/// Colour of the model's bounding box.
pub const BOUNDING_BOX_COLOR: [u8; 3] = [0, 160, 255];
/// Colour of the sequence's bounding box.
pub const SEQUENCE_BOX_COLOR: [u8; 3] = [255, 120, 200];

/// Colour of the standing player's hull.
pub const STANDING_HULL_COLOR: [u8; 3] = [90, 200, 255];
/// Colour of the crouching player's hull.
pub const CROUCHING_HULL_COLOR: [u8; 3] = [255, 170, 60];

/// The player's hulls beside a model of `engine`, standing and crouching, in the model's space
/// with the player's origin at the model's.
///
/// - Half-Life: the origin is the hull's centre: standing −16, −16, −36 to 16, 16, 36 and
///   crouching −16, −16, −18 to 16, 16, 18 (the HL SDK's `pm_shared.c`, `VEC_HULL_MIN` and
///   `VEC_DUCK_HULL_MIN`; player models stand on −36).
/// - Source: the origin is at the feet: standing −16, −16, 0 to 16, 16, 72, crouching to 36
///   (the Source SDK's `g_DefaultViewVectors`, `gamerules.cpp`).
pub fn player_hulls(engine: crate::light::Engine) -> [(Vec3, Vec3); 2] {
    match engine {
        crate::light::Engine::GoldSrc => [
            (Vec3::new(-16.0, -16.0, -36.0), Vec3::new(16.0, 16.0, 36.0)),
            (Vec3::new(-16.0, -16.0, -18.0), Vec3::new(16.0, 16.0, 18.0)),
        ],
        crate::light::Engine::Source => [
            (Vec3::new(-16.0, -16.0, 0.0), Vec3::new(16.0, 16.0, 72.0)),
            (Vec3::new(-16.0, -16.0, 0.0), Vec3::new(16.0, 16.0, 36.0)),
        ],
    }
}

/// How the mesh shows its vertices' bone weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeightView {
    /// Not at all: textured and lit.
    #[default]
    Off,
    /// Each vertex in the colours of its bones, mixed by their weights.
    PerBone,
    /// How much one bone weighs on each vertex: blue none, through green, red all.
    Bone(usize),
}

/// sRGB bytes and an alpha to the linear colour the render target (an sRGB format) expects.
pub fn linear(rgb: [u8; 3], alpha: f32) -> [f32; 4] {
    let [r, g, b] = rgb.map(|c| srgb_to_linear(f32::from(c) / 255.0));
    [r, g, b, alpha]
}

/// sRGB's decoding of one channel, 0..1.
pub(crate) fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// The size of joint and attachment markers for a model whose box is `bounds`: 1.5% of the
/// box's diagonal (1 unit for an empty or broken box). The ground grid's step is 8 of them.
pub(crate) fn marker_size(bounds: (Vec3, Vec3)) -> f32 {
    let extent = (bounds.1 - bounds.0).length();
    if extent.is_finite() && extent > 1.0 { extent * 0.015 } else { 1.0 }
}

/// What the overlays show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OverlayOptions {
    /// Bones as lines from parent to child, with joint markers.
    pub skeleton: bool,
    /// Hit boxes, coloured by hit group.
    pub hitboxes: bool,
    /// Attachments as small axis crosses.
    pub attachments: bool,
    /// The model's bounding box (`bbmin`..`bbmax` of the header).
    pub bounding_box: bool,
    /// The current sequence's bounding box.
    pub sequence_box: bool,
    /// A ground grid under the model (drawn by the mesh's pipeline, not built here).
    pub grid: bool,
    /// The bone drawn highlighted.
    pub selected_bone: Option<usize>,
    /// The hit box drawn highlighted.
    pub selected_hitbox: Option<usize>,
    /// Only this hit box is drawn.
    pub only_hitbox: Option<usize>,
    /// Opacity of hit box faces (their edges are opaque).
    pub hitbox_fill: f32,
    /// Each vertex's normal as a short line (drawn from the mesh's own buffers).
    pub normals: bool,
    /// The mesh coloured by its bone weights.
    pub weights: WeightView,
    /// The player's hulls, standing and crouching, at the origin ([`player_hulls`]).
    pub player_hull: bool,
}

impl Default for OverlayOptions {
    fn default() -> Self {
        Self {
            skeleton: false,
            hitboxes: false,
            attachments: false,
            bounding_box: false,
            sequence_box: false,
            grid: true,
            selected_bone: None,
            selected_hitbox: None,
            only_hitbox: None,
            hitbox_fill: 0.25,
            normals: false,
            weights: WeightView::Off,
            player_hull: false,
        }
    }
}

/// The line and triangle vertices of one frame's overlays.
#[derive(Debug, Default)]
pub struct Overlay {
    /// Pairs of points: first those drawn depth-tested (or x-ray), from `on_top` on those
    /// always drawn over the mesh (skeleton and attachments, as model viewers show them).
    pub lines: Vec<OverlayVertex>,
    /// Where the always-on-top lines start.
    pub on_top: usize,
    /// Triples of points.
    pub triangles: Vec<OverlayVertex>,
}

/// The 12 edges of a box, as corner indices (corner k takes the maximum on axis i when bit i
/// of k is set).
const BOX_EDGES: [(usize, usize); 12] =
    [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)];

/// The 12 triangles of a box's faces.
const BOX_TRIANGLES: [[usize; 3]; 12] = [
    [0, 2, 1],
    [1, 2, 3],
    [4, 5, 6],
    [5, 7, 6],
    [0, 1, 4],
    [1, 5, 4],
    [2, 6, 3],
    [3, 6, 7],
    [0, 4, 2],
    [2, 4, 6],
    [1, 3, 5],
    [3, 7, 5],
];

impl Overlay {
    /// Room for every overlay of `model`, so building one never allocates.
    pub fn for_model(model: &RenderModel) -> Self {
        let bones = model.parents.len();
        let max_hitboxes = model.hitbox_sets.iter().map(Vec::len).max().unwrap_or(0);
        // Bones, hit boxes, attachments, the two boxes and the two hulls.
        let lines = bones * 8 + max_hitboxes * 24 + model.attachments * 6 + 4 * 24;
        Self { lines: Vec::with_capacity(lines), on_top: 0, triangles: Vec::with_capacity(max_hitboxes * 36) }
    }

    fn line(&mut self, a: Vec3A, b: Vec3A, color: [f32; 4]) {
        self.lines.push(OverlayVertex { position: a.to_array(), color });
        self.lines.push(OverlayVertex { position: b.to_array(), color });
    }

    fn cross(&mut self, at: Vec3A, size: f32, colors: [[f32; 4]; 3]) {
        for (axis, color) in [Vec3A::X, Vec3A::Y, Vec3A::Z].into_iter().zip(colors) {
            self.line(at - axis * size, at + axis * size, color);
        }
    }

    fn box_edges(&mut self, corners: &[Vec3A; 8], color: [f32; 4]) {
        for (a, b) in BOX_EDGES {
            self.line(corners[a], corners[b], color);
        }
    }

    fn axis_box(&mut self, min: Vec3, max: Vec3, color: [f32; 4]) {
        let corners: [Vec3A; 8] = std::array::from_fn(|k| {
            Vec3A::new(
                if k & 1 != 0 { max.x } else { min.x },
                if k & 2 != 0 { max.y } else { min.y },
                if k & 4 != 0 { max.z } else { min.z },
            )
        });
        self.box_edges(&corners, color);
    }

    /// Rebuilds the overlays for `pose` of a model whose bones have `parents`, whose box is
    /// `bounds`, whose hit box sets have the hit groups `hitbox_sets` and whose rules are
    /// `engine`'s.
    pub fn build(
        &mut self,
        parents: &[Option<usize>],
        bounds: (Vec3, Vec3),
        hitbox_sets: &[Vec<i32>],
        engine: crate::light::Engine,
        pose: &FramePose<'_>,
        options: &OverlayOptions,
    ) {
        self.lines.clear();
        self.triangles.clear();
        let size = marker_size(bounds);
        if options.player_hull {
            let [standing, crouching] = player_hulls(engine);
            self.axis_box(standing.0, standing.1, linear(STANDING_HULL_COLOR, 1.0));
            self.axis_box(crouching.0, crouching.1, linear(CROUCHING_HULL_COLOR, 1.0));
        }
        if options.bounding_box {
            self.axis_box(bounds.0, bounds.1, linear(BOUNDING_BOX_COLOR, 1.0));
        }
        if options.sequence_box
            && let Some((min, max)) = pose.sequence_box
        {
            self.axis_box(min, max, linear(SEQUENCE_BOX_COLOR, 1.0));
        }
        if options.hitboxes {
            let groups = hitbox_sets.get(pose.hitbox_set).map_or(&[][..], Vec::as_slice);
            for (i, (corners, &group)) in pose.hitboxes.iter().zip(groups).enumerate() {
                if options.only_hitbox.is_some_and(|only| only != i) {
                    continue;
                }
                let selected = options.selected_hitbox == Some(i);
                let rgb = if selected { SELECTED_COLOR } else { hit_group_color(group) };
                self.box_edges(corners, linear(rgb, 1.0));
                let fill = linear(rgb, options.hitbox_fill.clamp(0.0, 1.0));
                for triangle in BOX_TRIANGLES {
                    for corner in triangle {
                        self.triangles
                            .push(OverlayVertex { position: corners[corner].to_array(), color: fill });
                    }
                }
            }
        }
        self.on_top = self.lines.len();
        if options.skeleton {
            for (i, (bone, parent)) in pose.bones.iter().zip(parents).enumerate() {
                let color =
                    linear(if options.selected_bone == Some(i) { SELECTED_COLOR } else { BONE_COLOR }, 1.0);
                let at = bone.translation;
                if let Some(parent) = parent.and_then(|p| pose.bones.get(p)) {
                    self.line(parent.translation, at, color);
                }
                self.cross(at, size * 0.5, [color; 3]);
            }
        }
        if options.attachments {
            let axes = [linear([255, 60, 60], 1.0), linear([60, 255, 60], 1.0), linear([80, 120, 255], 1.0)];
            for point in pose.attachments {
                self.cross(*point, size, axes);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_edges_and_faces_use_every_corner() {
        let mut seen = [0; 8];
        for (a, b) in BOX_EDGES {
            seen[a] += 1;
            seen[b] += 1;
        }
        assert_eq!(seen, [3; 8]);
        let mut faces = [0; 8];
        for t in BOX_TRIANGLES {
            for c in t {
                faces[c] += 1;
            }
        }
        assert!(faces.iter().all(|&n| n >= 3));
    }

    #[test]
    fn hit_group_colours_are_distinct() {
        for (a, colour) in HIT_GROUP_COLORS.iter().enumerate() {
            assert!(!HIT_GROUP_COLORS[a + 1..].contains(colour), "group {a}'s colour is used twice");
        }
        assert_eq!(hit_group_color(9), OTHER_HIT_GROUP_COLOR);
        assert_eq!(hit_group_color(-1), OTHER_HIT_GROUP_COLOR);
    }
}
