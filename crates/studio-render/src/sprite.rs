//! The sprite adapter: a Half-Life sprite ([`studio_sprite::Sprite`]) as the renderer takes a
//! model, so that sprites (muzzle flashes) are drawn by the mesh's pipelines with their
//! blending, unlit.
//!
//! Each picture of the sprite is a submodel (chosen by the body number) holding one quad, in a
//! space of its own: x to the right and y up, in pixels, from the sprite's origin (the
//! picture's `origin` is its top left corner; `R_DrawSpriteModel`'s `left`, `right`, `up` and
//! `down`). [`sprite_skinning`] turns that space to face the camera as the sprite's type asks,
//! scaled, at a point: the one bone of a [`FramePose`].

use glam::{Affine3A, Mat4, Vec3, Vec3A};
use studio_sprite::{Orientation, Sprite};

use crate::gpu_types::MeshVertex;
use crate::scene::{
    Blend, FramePose, Image, RenderBodyPart, RenderMaterial, RenderMesh, RenderModel, RenderSubmodel,
};

/// Every picture of `sprite` in frame order (a group's pictures in turn): the body numbers of
/// [`render_model`].
pub fn pictures(sprite: &Sprite) -> impl Iterator<Item = &studio_sprite::Picture> {
    sprite.frames.iter().flat_map(|frame| match frame {
        studio_sprite::Frame::Single(p) => std::slice::from_ref(p).iter(),
        studio_sprite::Frame::Group { pictures, .. } => pictures.iter(),
    })
}

/// `sprite` as a model of one bone: picture `n` is body number `n`, drawn with `blend`
/// (the entity's render mode: additive for `kRenderTransAdd`), unlit, from both sides.
pub fn render_model(sprite: &Sprite, blend: Blend) -> RenderModel {
    let mut submodels = Vec::new();
    let mut materials = Vec::new();
    let (mut min, mut max) = (Vec3::ZERO, Vec3::ZERO);
    for (slot, picture) in pictures(sprite).enumerate() {
        let (w, h) = (picture.width as f32, picture.height as f32);
        let left = picture.origin[0] as f32;
        let up = picture.origin[1] as f32;
        let (right, down) = (left + w, up - h);
        min = min.min(Vec3::new(left, down, 0.0));
        max = max.max(Vec3::new(right, up, 0.0));
        let corner =
            |x: f32, y: f32, u: f32, v: f32| MeshVertex::rigid([x, y, 0.0], [0.0, 0.0, 1.0], [u, v], 0, 0);
        let mesh = RenderMesh {
            vertices: vec![
                corner(left, up, 0.0, 0.0),
                corner(right, up, 1.0, 0.0),
                corner(right, down, 1.0, 1.0),
                corner(left, down, 0.0, 1.0),
            ],
            triangles: vec![[0, 1, 2], [0, 2, 3]],
            slot,
            moving: None,
        };
        submodels.push(RenderSubmodel { lods: vec![vec![mesh]] });
        materials.push(RenderMaterial {
            name: format!("picture {slot}"),
            image: Some(Image { width: picture.width, height: picture.height, rgba: sprite.rgba(picture) }),
            mipmaps: false,
            blend,
            alpha_test: if sprite.format == studio_sprite::RenderFormat::AlphaTest { 0.5 } else { 0.0 },
            double_sided: true,
            fullbright: true,
            ..RenderMaterial::default()
        });
    }
    let skins = vec![(0..materials.len()).map(Some).collect()];
    RenderModel {
        parents: vec![None],
        bounds: (min, max),
        body_parts: vec![RenderBodyPart { base: 1, submodels }],
        materials,
        skins,
        ..RenderModel::default()
    }
}

/// The bone placing a sprite of type `orientation` at `at` for a camera whose view is
/// `view_from_model`, scaled by `scale` and turned by `roll` degrees where its type takes
/// the entity's roll (as `R_DrawSpriteModel` orients each type):
///
/// - parallel: the view's right and up;
/// - parallel, oriented: the view's right and up turned by the roll;
/// - parallel upright: up is the world's, right is across the view direction;
/// - facing upright: up is the world's, right is across the line from the eye;
/// - oriented: the entity's angles (here no pitch or yaw: facing +x), with the roll.
pub fn sprite_skinning(
    orientation: Orientation,
    at: Vec3,
    view_from_model: Mat4,
    scale: f32,
    roll: f32,
) -> Affine3A {
    let model_from_view = view_from_model.inverse();
    let view_right = model_from_view.x_axis.truncate().normalize_or(Vec3::Y);
    let view_up = model_from_view.y_axis.truncate().normalize_or(Vec3::Z);
    let eye = model_from_view.w_axis.truncate();
    let (sin, cos) = roll.to_radians().sin_cos();
    let across = |forward: Vec3| Vec3::new(forward.y, -forward.x, 0.0).normalize_or(Vec3::NEG_Y);
    let (right, up) = match orientation {
        Orientation::Parallel => (view_right, view_up),
        Orientation::ParallelOriented => (view_right * cos + view_up * sin, view_up * cos - view_right * sin),
        Orientation::ParallelUpright => (across(view_up.cross(view_right)), Vec3::Z),
        Orientation::FacingUpright => (across(at - eye), Vec3::Z),
        // AngleVectors of (0, 0, roll): right (0, −cos, −sin), up (0, −sin, cos).
        Orientation::Oriented => (Vec3::new(0.0, -cos, -sin), Vec3::new(0.0, -sin, cos)),
    };
    let scale = if scale.is_finite() && scale > 0.0 { scale } else { 1.0 };
    let normal = right.cross(up).normalize_or(Vec3::X);
    Affine3A::from_cols(
        Vec3A::from(right * scale),
        Vec3A::from(up * scale),
        Vec3A::from(normal * scale),
        Vec3A::from(at),
    )
}

/// A sprite's pose: its one bone, and nothing else to overlay.
pub fn frame_pose(bone: &[Affine3A; 1]) -> FramePose<'_> {
    FramePose { skinning: bone, bones: bone, ..FramePose::default() }
}

/// One sprite to draw this frame: its kind (which sprite), its pose ([`frame_pose`]) and how
/// it is drawn (its picture is the body number).
pub struct SpriteDraw<'a> {
    /// Which sprite: the key its model is kept under.
    pub key: usize,
    /// Its pose.
    pub pose: FramePose<'a>,
    /// How it is drawn.
    pub options: crate::RenderOptions,
}

/// Renderers for the sprites drawn with a model, made as first needed and kept: the `n`th
/// sprite of one kind drawn in a frame has a renderer of its own (each holds its frame's bone).
#[derive(Default)]
pub struct SpriteRenderers {
    entries: Vec<(usize, usize, crate::Renderer, crate::GpuModel)>,
}

impl SpriteRenderers {
    /// The models to draw `draws` with, as extras of a scene drawn in `format` with `samples`;
    /// `model` builds the model of a kind of sprite not drawn before.
    pub fn extras<'a>(
        &'a mut self,
        context: &crate::GpuContext,
        (format, samples): (wgpu::TextureFormat, u32),
        draws: &'a [SpriteDraw<'a>],
        model: impl Fn(usize) -> RenderModel,
    ) -> Vec<crate::ExtraModel<'a>> {
        self.entries.retain(|(_, _, r, _)| r.format == format && r.sample_count == samples);
        // Each draw's place among those of its kind.
        let nth = |i: usize| draws[..i].iter().filter(|d| d.key == draws[i].key).count();
        for (i, draw) in draws.iter().enumerate() {
            let wanted = (draw.key, nth(i));
            if !self.entries.iter().any(|(k, n, _, _)| (*k, *n) == wanted) {
                let mut renderer = crate::Renderer::new(context, format, samples);
                let gpu = renderer.upload(&model(wanted.0));
                self.entries.push((wanted.0, wanted.1, renderer, gpu));
            }
        }
        let mut extras = Vec::with_capacity(draws.len());
        for (key, n, renderer, gpu) in self.entries.iter_mut() {
            let draw = (0..draws.len()).find(|&i| draws[i].key == *key && nth(i) == *n);
            if let Some(draw) = draw.map(|i| &draws[i]) {
                extras.push(crate::ExtraModel { renderer, gpu, pose: draw.pose, options: &draw.options });
            }
        }
        extras
    }

    /// Forgets every renderer (the sprites changed).
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprite(orientation: Orientation) -> Sprite {
        Sprite {
            orientation,
            format: studio_sprite::RenderFormat::Additive,
            bounding_radius: 8.0,
            width: 4,
            height: 2,
            beam_length: 0.0,
            sync: 0,
            palette: vec![[0, 0, 0], [255, 128, 0]],
            frames: vec![
                studio_sprite::Frame::Single(studio_sprite::Picture {
                    origin: [-2, 1],
                    width: 4,
                    height: 2,
                    pixels: vec![1; 8],
                }),
                studio_sprite::Frame::Group {
                    intervals: vec![0.1, 0.2],
                    pictures: vec![
                        studio_sprite::Picture { origin: [0, 0], width: 1, height: 1, pixels: vec![0] },
                        studio_sprite::Picture { origin: [0, 0], width: 1, height: 1, pixels: vec![1] },
                    ],
                },
            ],
        }
    }

    #[test]
    fn each_picture_is_a_quad_from_its_origin_and_a_body_number() {
        let model = render_model(&sprite(Orientation::Parallel), Blend::Additive);
        assert_eq!(model.body_parts[0].submodels.len(), 3);
        assert_eq!(model.materials.len(), 3);
        let quad = &model.body_parts[0].submodels[0].lods[0][0];
        let corners: Vec<[f32; 3]> = quad.vertices.iter().map(|v| v.position).collect();
        assert_eq!(corners, [[-2.0, 1.0, 0.0], [2.0, 1.0, 0.0], [2.0, -1.0, 0.0], [-2.0, -1.0, 0.0]]);
        assert_eq!(quad.vertices[2].texel, [1.0, 1.0]);
        let material = &model.materials[0];
        assert!(material.fullbright && material.double_sided);
        assert_eq!(material.blend, Blend::Additive);
        assert_eq!(material.image.as_ref().unwrap().rgba[..4], [255, 128, 0, 255]);
        assert_eq!(model.skins[0], [Some(0), Some(1), Some(2)]);
        assert_eq!(model.body_parts[0].submodel_index(2), Some(2));
    }

    #[test]
    fn a_parallel_sprite_faces_the_camera_and_an_oriented_one_turns_by_its_roll() {
        // Looking along +x from x = −100: right is −y, up is +z.
        let view = glam::camera::rh::view::look_at_mat4(Vec3::new(-100.0, 0.0, 0.0), Vec3::ZERO, Vec3::Z);
        let at = Vec3::new(5.0, 6.0, 7.0);
        let bone = sprite_skinning(Orientation::Parallel, at, view, 2.0, 90.0);
        assert!(bone.transform_point3(Vec3::ZERO).abs_diff_eq(at, 1e-5));
        assert!(bone.transform_vector3(Vec3::X).abs_diff_eq(Vec3::new(0.0, -2.0, 0.0), 1e-5));
        assert!(bone.transform_vector3(Vec3::Y).abs_diff_eq(Vec3::new(0.0, 0.0, 2.0), 1e-5));
        // Turned a quarter: right becomes up, up becomes left.
        let bone = sprite_skinning(Orientation::ParallelOriented, at, view, 1.0, 90.0);
        assert!(bone.transform_vector3(Vec3::X).abs_diff_eq(Vec3::Z, 1e-5));
        assert!(bone.transform_vector3(Vec3::Y).abs_diff_eq(Vec3::Y, 1e-5));
        // Upright: up stays the world's when the camera looks down on it.
        let above = glam::camera::rh::view::look_at_mat4(Vec3::new(-100.0, 0.0, 100.0), Vec3::ZERO, Vec3::Z);
        let bone = sprite_skinning(Orientation::ParallelUpright, at, above, 1.0, 0.0);
        assert!(bone.transform_vector3(Vec3::Y).abs_diff_eq(Vec3::Z, 1e-5));
        assert!(bone.transform_vector3(Vec3::X).abs_diff_eq(Vec3::NEG_Y, 1e-5));
        // A scale that is not a positive number draws at 1.
        let bone = sprite_skinning(Orientation::Parallel, at, view, f32::NAN, 0.0);
        assert!((bone.transform_vector3(Vec3::X).length() - 1.0).abs() < 1e-5);
    }
}
