//! An orbit camera around a target, for Z-up studio models.

use glam::{Mat4, Vec2, Vec3};

/// Orbit, pan and zoom around a target point. Yaw 0 looks at the model's front (+X, where
/// studio models face) from the +X side; pitch raises the eye above the XY plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OrbitCamera {
    /// The point looked at.
    pub target: Vec3,
    /// Angle round the Z axis, degrees.
    pub yaw_deg: f32,
    /// Angle above the XY plane, degrees (kept within ±89).
    pub pitch_deg: f32,
    /// Distance from the target.
    pub distance: f32,
    /// Vertical field of view, degrees.
    pub fov_y_deg: f32,
}

impl Default for OrbitCamera {
    fn default() -> Self {
        Self { target: Vec3::ZERO, yaw_deg: 30.0, pitch_deg: 15.0, distance: 100.0, fov_y_deg: 50.0 }
    }
}

impl OrbitCamera {
    /// A camera that frames the box `min`..`max` from the given angles, for a 4:3 image.
    pub fn framing(min: Vec3, max: Vec3, yaw_deg: f32, pitch_deg: f32) -> Self {
        let mut camera = Self { yaw_deg, pitch_deg, ..Self::default() };
        camera.frame(min, max, 4.0 / 3.0);
        camera
    }

    /// Looks at the centre of the box `min`..`max` from just far enough that all its corners
    /// are in view, with a margin, in an image of `aspect` = width / height.
    pub fn frame(&mut self, min: Vec3, max: Vec3, aspect: f32) {
        let (min, max) = if min.is_finite() && max.is_finite() && min.cmple(max).all() {
            (min, max)
        } else {
            (Vec3::splat(-16.0), Vec3::splat(16.0))
        };
        self.target = (min + max) * 0.5;
        let radius = ((max - min).length() * 0.5).max(1.0);
        let corners: [Vec3; 8] = std::array::from_fn(|k| {
            Vec3::new(
                if k & 1 != 0 { max.x } else { min.x },
                if k & 2 != 0 { max.y } else { min.y },
                if k & 4 != 0 { max.z } else { min.z },
            )
        });
        let fits = |camera: &Self| {
            let clip_from_model = camera.clip_from_model(aspect);
            corners.iter().all(|&c| {
                let clip = clip_from_model * c.extend(1.0);
                clip.w > 0.0 && (clip.truncate() / clip.w).truncate().abs().max_element() <= 0.9
            })
        };
        // The bounding sphere always fits; shrink towards the box by bisection.
        let (mut lo, mut hi) = (0.0f32, radius / (self.fov_y_deg.to_radians() * 0.5).sin() * 1.2);
        for _ in 0..24 {
            self.distance = (lo + hi) * 0.5;
            if fits(self) { hi = self.distance } else { lo = self.distance }
        }
        self.distance = hi;
    }

    /// Where the eye is.
    pub fn eye(&self) -> Vec3 {
        let (yaw, pitch) = (self.yaw_deg.to_radians(), self.pitch_deg.clamp(-89.0, 89.0).to_radians());
        self.target + self.distance * Vec3::new(pitch.cos() * yaw.cos(), pitch.cos() * yaw.sin(), pitch.sin())
    }

    /// Model space to view space.
    pub fn view_from_model(&self) -> Mat4 {
        glam::camera::rh::view::look_at_mat4(self.eye(), self.target, Vec3::Z)
    }

    /// Model space to clip space (WebGPU's depth range 0..1) for an image of `aspect` = w / h.
    pub fn clip_from_model(&self, aspect: f32) -> Mat4 {
        let near = (self.distance * 0.01).max(0.01);
        let far = self.distance * 20.0 + 1000.0;
        let projection = glam::camera::rh::proj::directx::perspective(
            self.fov_y_deg.to_radians(),
            aspect.max(1e-3),
            near,
            far,
        );
        projection * self.view_from_model()
    }

    /// The pixel a model-space point lands on in a `width × height` image (origin top left),
    /// or `None` behind the eye.
    pub fn project(&self, point: Vec3, width: u32, height: u32) -> Option<Vec2> {
        let clip = self.clip_from_model(width as f32 / height as f32) * point.extend(1.0);
        if clip.w <= 0.0 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some(Vec2::new((ndc.x * 0.5 + 0.5) * width as f32, (0.5 - ndc.y * 0.5) * height as f32))
    }

    /// Turns round the target by a drag of `dx`, `dy` degrees.
    pub fn orbit(&mut self, dx_deg: f32, dy_deg: f32) {
        self.yaw_deg = (self.yaw_deg + dx_deg).rem_euclid(360.0);
        self.pitch_deg = (self.pitch_deg + dy_deg).clamp(-89.0, 89.0);
    }

    /// Moves the target across the view by `dx`, `dy` in units of the distance.
    pub fn pan(&mut self, dx: f32, dy: f32) {
        let view = self.view_from_model().inverse();
        let right = view.transform_vector3(Vec3::X);
        let up = view.transform_vector3(Vec3::Y);
        self.target += (right * dx + up * dy) * self.distance;
    }

    /// Moves closer (factor below 1) or farther.
    pub fn zoom(&mut self, factor: f32) {
        if factor.is_finite() && factor > 0.0 {
            self.distance = (self.distance * factor).clamp(0.1, 1e6);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_projects_to_the_centre_and_up_is_up() {
        let camera =
            OrbitCamera::framing(Vec3::new(-10.0, -10.0, 0.0), Vec3::new(10.0, 10.0, 60.0), 30.0, 10.0);
        let centre = camera.project(camera.target, 200, 100).unwrap();
        assert!((centre - Vec2::new(100.0, 50.0)).length() < 1e-3, "{centre}");
        let above = camera.project(camera.target + Vec3::Z * 10.0, 200, 100).unwrap();
        assert!(above.y < centre.y, "Z is up on screen");
        // The whole box is in view.
        for corner in [Vec3::new(-10.0, -10.0, 0.0), Vec3::new(10.0, 10.0, 60.0)] {
            let p = camera.project(corner, 200, 100).unwrap();
            assert!((0.0..200.0).contains(&p.x) && (0.0..100.0).contains(&p.y), "{p}");
        }
    }

    #[test]
    fn front_view_shows_the_models_left_on_the_right() {
        // From +X, facing a model that faces +X: its left hand (+Y) is on the viewer's right.
        let camera = OrbitCamera { yaw_deg: 0.0, pitch_deg: 0.0, distance: 50.0, ..OrbitCamera::default() };
        let left = camera.project(Vec3::Y * 5.0, 100, 100).unwrap();
        assert!(left.x > 50.0, "from the front, the model's +Y (its left) is on the viewer's right");
    }
}
