//! The ground kept between frames: the cleared background and the ground grid alone, colour
//! and depth, kept after a frame draws them and copied into the target in the frames after it,
//! instead of clearing the target and drawing the grid again, while the camera, the grid and the
//! background stay as they were (a model playing in a still view).
//!
//! On Mesa's software Vulkan driver (lavapipe) the grid's 42 lines cost more than the model they
//! stand under: each long thin line crosses many of the rasterizer's tiles, and each tile it
//! touches costs a pass of the fragment code over blocks that the line barely covers. Measured
//! in the viewer on the NS soldier playing at 32 fps (Xvfb, 1280×800): 31.8, 40.2 and 40.4% of a
//! core with the grid, 26.8, 28.1 and 28.6% without it: 1.5 to 3.7 ms a frame for the grid.
//! Two copies of the viewport's size cost a fraction of that, and give the same pixels: the
//! depth the grid left is the depth the model is then tested against, bit for bit.
//!
//! A frame whose ground differs from the last frame's (the camera turning) is drawn in one pass
//! as before; a frame whose ground is the same as the last one's draws the ground in a pass of
//! its own and keeps it; the frames after it copy it. Multisampled targets draw in one pass.

/// What the ground's picture depends on: the camera's projection of the model's space, the
/// grid's lines (from the model's box), where its bone put it, and the background colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroundKey {
    pub(crate) clip_from_model: [f32; 16],
    pub(crate) bounds: [f32; 6],
    pub(crate) shift: [f32; 3],
    pub(crate) background: [u8; 3],
}

/// How a frame treats its ground (see [`GroundCache::plan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GroundPlan {
    /// Clear and draw everything in one pass, keeping nothing.
    Draw,
    /// Clear and draw the ground in a pass of its own, keep it, then draw the rest.
    Keep,
    /// Copy the kept ground in, then draw the rest.
    Copy,
}

/// The kept ground of one target: colour and depth textures of its size, made at the first
/// frame that keeps one.
#[derive(Debug, Default)]
pub(crate) struct GroundCache {
    /// The kept colour and depth.
    kept: Option<(wgpu::Texture, wgpu::Texture)>,
    /// The ground the textures hold.
    kept_key: Option<GroundKey>,
    /// The last frame's ground.
    last: Option<GroundKey>,
    /// The last frame's plan.
    pub(crate) last_plan: Option<GroundPlan>,
}

impl GroundCache {
    /// What this frame does with a ground of `key` (`None`: no ground, or one drawn over the
    /// model), and remembers it as the last frame's.
    pub(crate) fn plan(&mut self, key: Option<GroundKey>) -> GroundPlan {
        let last = std::mem::replace(&mut self.last, key);
        let plan = match key {
            None => GroundPlan::Draw,
            Some(_) if self.kept.is_some() && self.kept_key == key => GroundPlan::Copy,
            Some(_) if last == key => GroundPlan::Keep,
            Some(_) => GroundPlan::Draw,
        };
        self.last_plan = Some(plan);
        plan
    }

    /// The textures to keep a ground of `key` in, made like `color` and `depth` (those of the
    /// target, single-sampled) the first time.
    pub(crate) fn keep(
        &mut self,
        device: &wgpu::Device,
        color: &wgpu::Texture,
        depth: &wgpu::Texture,
        key: GroundKey,
    ) -> &(wgpu::Texture, wgpu::Texture) {
        self.kept_key = Some(key);
        self.kept.get_or_insert_with(|| {
            let like = |label, texture: &wgpu::Texture| {
                device.create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: texture.size(),
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format: texture.format(),
                    usage: wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST,
                    view_formats: &[],
                })
            };
            (like("kept ground colour", color), like("kept ground depth", depth))
        })
    }

    /// The kept colour and depth.
    pub(crate) fn kept(&self) -> Option<&(wgpu::Texture, wgpu::Texture)> {
        self.kept.as_ref()
    }
}

/// Records the copy of the whole of `from` into `to` (textures of one size and format).
pub(crate) fn copy_whole(encoder: &mut wgpu::CommandEncoder, from: &wgpu::Texture, to: &wgpu::Texture) {
    encoder.copy_texture_to_texture(from.as_image_copy(), to.as_image_copy(), from.size());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(x: f32) -> Option<GroundKey> {
        Some(GroundKey { clip_from_model: [x; 16], bounds: [0.0; 6], shift: [0.0; 3], background: [1, 2, 3] })
    }

    #[test]
    fn a_ground_is_kept_once_two_frames_share_it_and_copied_while_it_stays() {
        let mut cache = GroundCache::default();
        // The camera turning: each frame's ground differs from the last.
        assert_eq!(cache.plan(key(1.0)), GroundPlan::Draw);
        assert_eq!(cache.plan(key(2.0)), GroundPlan::Draw);
        // It stops: the second frame with the same ground keeps it.
        assert_eq!(cache.plan(key(2.0)), GroundPlan::Keep);
        // (Nothing kept yet in this test: without textures it is kept again.)
        assert_eq!(cache.plan(key(2.0)), GroundPlan::Keep);
        // No ground, or one over the model: drawn, whatever was kept.
        assert_eq!(cache.plan(None), GroundPlan::Draw);
        assert_eq!(cache.plan(key(2.0)), GroundPlan::Draw);
    }
}
