//! The camera, for Z-up studio models: orbiting a target, at the eye of a first-person view
//! model, or flying free; seen in perspective or orthographically.
//!
//! Field of view: the engines count it as the horizontal angle on a 4:3 screen and widen the
//! picture for wider screens keeping its height (Source's `ScaleFOVByWidthRatio` in
//! `game/client/view.cpp`, Half-Life since its 2013 update), so a 90° view shows the same
//! height at every aspect. [`game_fov_to_vertical`] and [`vertical_fov_to_game`] convert.

use glam::{Mat4, Vec2, Vec3};

/// How the camera moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CameraMode {
    /// Round a target: yaw and pitch place the eye, at `distance` from the target.
    #[default]
    Orbit,
    /// At the eye of a first-person view model: the model's origin, looking down +X at
    /// yaw and pitch 0 (how both engines place a `v_` model: at the view origin, with the
    /// view's angles).
    FirstPerson,
    /// At `position`, looking along yaw and pitch; moved with the keys.
    FreeLook,
}

/// A view along an axis, each of the model's sides in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AxisView {
    /// From +X, facing the model's front (studio models face +X).
    Front,
    /// From −X.
    Back,
    /// From +Y, the model's left side.
    Left,
    /// From −Y, the model's right side.
    Right,
    /// From above, the model's front at the bottom of the picture.
    Top,
    /// From below.
    Bottom,
}

impl AxisView {
    /// All six, in the order of their keys (1–6).
    pub const ALL: [Self; 6] = [Self::Front, Self::Back, Self::Left, Self::Right, Self::Top, Self::Bottom];

    /// The orbit camera's yaw and pitch for this view, degrees.
    pub fn angles(self) -> (f32, f32) {
        match self {
            Self::Front => (0.0, 0.0),
            Self::Back => (180.0, 0.0),
            Self::Left => (90.0, 0.0),
            Self::Right => (270.0, 0.0),
            Self::Top => (0.0, 90.0),
            Self::Bottom => (0.0, -90.0),
        }
    }

    /// Its name, as the command line and the menus spell it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Front => "front",
            Self::Back => "back",
            Self::Left => "left",
            Self::Right => "right",
            Self::Top => "top",
            Self::Bottom => "bottom",
        }
    }

    /// The view named `name` (any case).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name().eq_ignore_ascii_case(name.trim()))
    }
}

/// The vertical field of view, degrees, of a game's field of view `fov_deg` (horizontal on a
/// 4:3 screen).
pub fn game_fov_to_vertical(fov_deg: f32) -> f32 {
    let half = (fov_deg.clamp(1.0, 179.0) * 0.5).to_radians();
    2.0 * (half.tan() * 0.75).atan().to_degrees()
}

/// The game's field of view (horizontal on a 4:3 screen), degrees, of a vertical one.
pub fn vertical_fov_to_game(fov_y_deg: f32) -> f32 {
    let half = (fov_y_deg.clamp(0.75, 179.0) * 0.5).to_radians();
    (2.0 * (half.tan() / 0.75).atan().to_degrees()).clamp(1.0, 179.0)
}

/// Half-Life's field of view: `default_fov` 90 (the HL SDK's `cl_dll/hud.cpp`); view models
/// are drawn with the world's.
pub const GOLDSRC_VIEW_MODEL_FOV: f32 = 90.0;

/// Source's view model field of view: `viewmodel_fov`'s default, 54 (`game/client/view.cpp`).
pub const SOURCE_VIEW_MODEL_FOV: f32 = 54.0;

/// Where the camera is, where it looks and how it projects.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// How it moves.
    pub mode: CameraMode,
    /// Orthographic projection: the picture is as tall as a perspective one's at the target
    /// (`2 · distance · tan(fov_y / 2)`), whatever the depth.
    pub orthographic: bool,
    /// The point orbited and looked at (orbit).
    pub target: Vec3,
    /// Orbit: the eye's angle round the Z axis, degrees (0 on +X, in front of the model).
    /// First person and free look: the direction looked in (0 along +X).
    pub yaw_deg: f32,
    /// Orbit: the eye's angle above the XY plane; first person and free look: the angle
    /// looked above it. Degrees, within ±90.
    pub pitch_deg: f32,
    /// Distance from the target (orbit; the orthographic picture's scale in every mode).
    pub distance: f32,
    /// Vertical field of view, degrees.
    pub fov_y_deg: f32,
    /// The eye in free look (first person's is the origin).
    pub position: Vec3,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            mode: CameraMode::Orbit,
            orthographic: false,
            target: Vec3::ZERO,
            yaw_deg: 30.0,
            pitch_deg: 15.0,
            distance: 100.0,
            fov_y_deg: 50.0,
            position: Vec3::ZERO,
        }
    }
}

/// The unit vector at `yaw` round Z and `pitch` above the XY plane (radians).
fn direction(yaw: f32, pitch: f32) -> Vec3 {
    Vec3::new(pitch.cos() * yaw.cos(), pitch.cos() * yaw.sin(), pitch.sin())
}

impl Camera {
    /// An orbit camera that frames the box `min`..`max` from the given angles, for a 4:3 image.
    pub fn framing(min: Vec3, max: Vec3, yaw_deg: f32, pitch_deg: f32) -> Self {
        let mut camera = Self { yaw_deg, pitch_deg, ..Self::default() };
        camera.frame(min, max, 4.0 / 3.0);
        camera
    }

    /// A first-person camera at the view model's eye, looking down +X, with a game's field of
    /// view (horizontal on a 4:3 screen, degrees).
    pub fn first_person(game_fov_deg: f32) -> Self {
        Self {
            mode: CameraMode::FirstPerson,
            yaw_deg: 0.0,
            pitch_deg: 0.0,
            fov_y_deg: game_fov_to_vertical(game_fov_deg),
            ..Self::default()
        }
    }

    /// Looks at the centre of the box `min`..`max` from just far enough that all its corners
    /// are in view, with a margin, in an image of `aspect` = width / height. An orbit camera
    /// keeps its angles; a free-look one moves back from the box along its view; a
    /// first-person one stays at the eye.
    pub fn frame(&mut self, min: Vec3, max: Vec3, aspect: f32) {
        if self.mode == CameraMode::FirstPerson {
            return;
        }
        let (min, max) = if min.is_finite() && max.is_finite() && min.cmple(max).all() {
            (min, max)
        } else {
            (Vec3::splat(-16.0), Vec3::splat(16.0))
        };
        // Framed as an orbit camera looking the same way.
        let free = self.mode == CameraMode::FreeLook;
        if free {
            (self.yaw_deg, self.pitch_deg) = (self.yaw_deg + 180.0, -self.pitch_deg);
            self.mode = CameraMode::Orbit;
        }
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
        if free {
            self.to_free_look();
        }
    }

    /// Turns to an axis view: an orbit camera round the same target (first person and free
    /// look become orbit; frame the model afterwards).
    pub fn axis_view(&mut self, view: AxisView) {
        self.mode = CameraMode::Orbit;
        (self.yaw_deg, self.pitch_deg) = view.angles();
    }

    /// Becomes a free-look camera where the eye is now, looking the same way.
    pub fn to_free_look(&mut self) {
        match self.mode {
            CameraMode::FreeLook => {}
            CameraMode::FirstPerson => {
                self.position = Vec3::ZERO;
                self.mode = CameraMode::FreeLook;
            }
            CameraMode::Orbit => {
                self.position = self.eye();
                (self.yaw_deg, self.pitch_deg) = ((self.yaw_deg + 180.0).rem_euclid(360.0), -self.pitch_deg);
                self.mode = CameraMode::FreeLook;
            }
        }
    }

    /// Whether the ground grid belongs in the picture: not in first person, where the eye is at
    /// the ground's height and it would run through it as a line across the view.
    pub fn shows_ground(&self) -> bool {
        self.mode != CameraMode::FirstPerson
    }

    /// Where the eye is.
    pub fn eye(&self) -> Vec3 {
        match self.mode {
            CameraMode::Orbit => self.target + self.distance * self.orbit_direction(),
            CameraMode::FirstPerson => Vec3::ZERO,
            CameraMode::FreeLook => self.position,
        }
    }

    /// The direction looked in (a unit vector).
    pub fn forward(&self) -> Vec3 {
        match self.mode {
            CameraMode::Orbit => -self.orbit_direction(),
            CameraMode::FirstPerson | CameraMode::FreeLook => self.orbit_direction(),
        }
    }

    /// The unit vector of the yaw and pitch.
    fn orbit_direction(&self) -> Vec3 {
        direction(self.yaw_deg.to_radians(), self.pitch_deg.clamp(-90.0, 90.0).to_radians())
    }

    /// Up on the picture: +Z but looking straight up or down, then the way the yaw faced.
    fn up(&self) -> Vec3 {
        let pitch = self.pitch_deg.clamp(-90.0, 90.0);
        if pitch.abs() < 89.9 {
            return Vec3::Z;
        }
        // The derivative of the direction along the pitch, at ±90°.
        let yaw = self.yaw_deg.to_radians();
        let along = Vec3::new(yaw.cos(), yaw.sin(), 0.0);
        let toward_eye_up = if pitch > 0.0 { -along } else { along };
        match self.mode {
            CameraMode::Orbit => toward_eye_up,
            CameraMode::FirstPerson | CameraMode::FreeLook => -toward_eye_up,
        }
    }

    /// Model space to view space.
    pub fn view_from_model(&self) -> Mat4 {
        match self.mode {
            CameraMode::Orbit => glam::camera::rh::view::look_at_mat4(self.eye(), self.target, self.up()),
            CameraMode::FirstPerson | CameraMode::FreeLook => {
                glam::camera::rh::view::look_to_mat4(self.eye(), self.forward(), self.up())
            }
        }
    }

    /// The near and far planes' distances.
    fn depth_range(&self) -> (f32, f32) {
        match self.mode {
            CameraMode::Orbit => ((self.distance * 0.01).max(0.01), self.distance * 20.0 + 1000.0),
            // Half-Life's view model frustum starts 1 unit from the eye (its 4 clips a view
            // model's nearest parts); Source draws view models from 1 as well.
            CameraMode::FirstPerson => (1.0, 8192.0),
            CameraMode::FreeLook => (0.5, 65536.0),
        }
    }

    /// Model space to clip space (WebGPU's depth range 0..1) for an image of `aspect` = w / h.
    pub fn clip_from_model(&self, aspect: f32) -> Mat4 {
        let aspect = if aspect.is_finite() { aspect.max(1e-3) } else { 1.0 };
        let (near, far) = self.depth_range();
        let projection = if self.orthographic {
            let half_height = (self.distance * (self.fov_y_deg.to_radians() * 0.5).tan()).max(1e-3);
            let half_width = half_height * aspect;
            // Everything the perspective view would show, in front of the eye and behind it.
            glam::camera::rh::proj::directx::orthographic(
                -half_width,
                half_width,
                -half_height,
                half_height,
                -far,
                far,
            )
        } else {
            glam::camera::rh::proj::directx::perspective(self.fov_y_deg.to_radians(), aspect, near, far)
        };
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

    /// A drag of `dx`, `dy` degrees: round the target (orbit), or turning the view (first
    /// person, free look; dragging right looks right, dragging down looks down).
    pub fn orbit(&mut self, dx_deg: f32, dy_deg: f32) {
        if !(dx_deg.is_finite() && dy_deg.is_finite()) {
            return;
        }
        let (dx, dy) = match self.mode {
            CameraMode::Orbit => (dx_deg, dy_deg),
            CameraMode::FirstPerson | CameraMode::FreeLook => (dx_deg, -dy_deg),
        };
        self.yaw_deg = (self.yaw_deg + dx).rem_euclid(360.0);
        self.pitch_deg = (self.pitch_deg + dy).clamp(-89.0, 89.0);
    }

    /// Moves the target (orbit) or the eye (free look) across the view by `dx`, `dy` in units
    /// of the distance; first person stays at the eye.
    pub fn pan(&mut self, dx: f32, dy: f32) {
        let view = self.view_from_model().inverse();
        let right = view.transform_vector3(Vec3::X);
        let up = view.transform_vector3(Vec3::Y);
        let by = (right * dx + up * dy) * self.distance;
        if !by.is_finite() {
            return;
        }
        match self.mode {
            CameraMode::Orbit => self.target += by,
            CameraMode::FreeLook => self.position += by,
            CameraMode::FirstPerson => {}
        }
    }

    /// Moves closer (factor below 1) or farther (orbit, and every orthographic picture's
    /// scale); narrows or widens the view in first person; moves along the view in free look.
    pub fn zoom(&mut self, factor: f32) {
        if !(factor.is_finite() && factor > 0.0) {
            return;
        }
        match self.mode {
            CameraMode::FirstPerson if !self.orthographic => {
                self.fov_y_deg = (self.fov_y_deg * factor).clamp(1.0, 170.0)
            }
            CameraMode::FreeLook if !self.orthographic => {
                self.position += self.forward() * (1.0 - factor) * self.distance
            }
            _ => self.distance = (self.distance * factor).clamp(0.1, 1e6),
        }
    }

    /// Free look: moves the eye by `forward`, `right` and `up` units along the view, its right
    /// and +Z.
    pub fn fly(&mut self, forward: f32, right: f32, up: f32) {
        if self.mode != CameraMode::FreeLook {
            return;
        }
        let ahead = self.forward();
        let side = ahead.cross(Vec3::Z).try_normalize().unwrap_or_else(|| {
            let yaw = self.yaw_deg.to_radians();
            Vec3::new(yaw.sin(), -yaw.cos(), 0.0)
        });
        let by = ahead * forward + side * right + Vec3::Z * up;
        if by.is_finite() {
            self.position += by;
        }
    }

    /// The game's field of view (horizontal on a 4:3 screen), degrees.
    pub fn game_fov(&self) -> f32 {
        vertical_fov_to_game(self.fov_y_deg)
    }

    /// Sets the field of view from a game's (horizontal on a 4:3 screen), degrees.
    pub fn set_game_fov(&mut self, fov_deg: f32) {
        if fov_deg.is_finite() {
            self.fov_y_deg = game_fov_to_vertical(fov_deg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_target_projects_to_the_centre_and_up_is_up() {
        let camera = Camera::framing(Vec3::new(-10.0, -10.0, 0.0), Vec3::new(10.0, 10.0, 60.0), 30.0, 10.0);
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
        let camera = Camera { yaw_deg: 0.0, pitch_deg: 0.0, distance: 50.0, ..Camera::default() };
        let left = camera.project(Vec3::Y * 5.0, 100, 100).unwrap();
        assert!(left.x > 50.0, "from the front, the model's +Y (its left) is on the viewer's right");
    }

    #[test]
    fn the_engines_fov_is_horizontal_on_a_4_3_screen() {
        // 90° across a 4:3 screen is 2·atan(3/4) ≈ 73.74° up it.
        assert!((game_fov_to_vertical(90.0) - 73.739_8).abs() < 1e-3);
        // Source's view models: 2·atan(tan 27° · 3/4).
        assert!((game_fov_to_vertical(54.0) - 41.828).abs() < 1e-2, "{}", game_fov_to_vertical(54.0));
        for fov in [10.0, 54.0, 90.0, 120.0, 170.0] {
            assert!((vertical_fov_to_game(game_fov_to_vertical(fov)) - fov).abs() < 1e-3, "{fov}");
        }
        // On a 4:3 picture, a point at 45° to the right of the view lies on its edge.
        let camera = Camera::first_person(90.0);
        let edge = camera.project(Vec3::new(10.0, -10.0, 0.0), 400, 300).unwrap();
        assert!((edge.x - 400.0).abs() < 0.05 && (edge.y - 150.0).abs() < 1e-3, "{edge}");
        // Wider pictures show more across, the same height (Hor+).
        let wide = camera.project(Vec3::new(10.0, -10.0, 0.0), 800, 450).unwrap();
        assert!(wide.x < 800.0 - 50.0, "{wide}");
    }

    #[test]
    fn first_person_looks_down_x_from_the_origin() {
        let camera = Camera::first_person(GOLDSRC_VIEW_MODEL_FOV);
        assert_eq!(camera.eye(), Vec3::ZERO);
        let ahead = camera.project(Vec3::X * 20.0, 100, 100).unwrap();
        assert!((ahead - Vec2::splat(50.0)).length() < 1e-3, "{ahead}");
        assert!(camera.project(-Vec3::X * 20.0, 100, 100).is_none(), "behind the eye");
        // +Y is the player's left; +Z up.
        assert!(camera.project(Vec3::new(20.0, 5.0, 0.0), 100, 100).unwrap().x < 50.0);
        assert!(camera.project(Vec3::new(20.0, 0.0, 5.0), 100, 100).unwrap().y < 50.0);
        // Dragging right looks right (towards −Y); dragging up looks up.
        let mut turned = camera;
        turned.orbit(-30.0, -10.0);
        assert!(turned.forward().y < 0.0 && turned.forward().z > 0.0, "{}", turned.forward());
        // It stays at the eye: panning and framing leave it there; the wheel narrows the view.
        turned.pan(1.0, 1.0);
        turned.frame(Vec3::splat(-5.0), Vec3::splat(5.0), 1.0);
        assert_eq!(turned.eye(), Vec3::ZERO);
        turned.zoom(0.5);
        assert!(turned.fov_y_deg < camera.fov_y_deg);
    }

    #[test]
    fn axis_views_look_along_each_axis() {
        let mut camera = Camera { distance: 50.0, ..Camera::default() };
        let expected = [
            (AxisView::Front, Vec3::X),
            (AxisView::Back, -Vec3::X),
            (AxisView::Left, Vec3::Y),
            (AxisView::Right, -Vec3::Y),
            (AxisView::Top, Vec3::Z),
            (AxisView::Bottom, -Vec3::Z),
        ];
        for (view, side) in expected {
            camera.axis_view(view);
            assert!((camera.eye() - side * 50.0).length() < 1e-3, "{view:?}: {}", camera.eye());
            assert_eq!(AxisView::from_name(view.name()), Some(view));
            // The target stays in the middle, and nothing is degenerate straight up or down.
            let centre = camera.project(Vec3::ZERO, 100, 100).unwrap();
            assert!((centre - Vec2::splat(50.0)).length() < 1e-3, "{view:?}: {centre}");
        }
        // From above, the model's front (+X) is at the bottom and its left (+Y) on the right.
        camera.axis_view(AxisView::Top);
        let front = camera.project(Vec3::X * 10.0, 100, 100).unwrap();
        let left = camera.project(Vec3::Y * 10.0, 100, 100).unwrap();
        assert!(front.y > 50.0 && (front.x - 50.0).abs() < 1e-3, "{front}");
        assert!(left.x > 50.0, "{left}");
        camera.axis_view(AxisView::Bottom);
        let front = camera.project(Vec3::X * 10.0, 100, 100).unwrap();
        assert!(front.y < 50.0, "from below, the front is at the top: {front}");
        assert_eq!(AxisView::from_name("Sideways"), None);
    }

    #[test]
    fn orthographic_keeps_sizes_whatever_the_depth() {
        let camera =
            Camera { yaw_deg: 0.0, pitch_deg: 0.0, distance: 100.0, orthographic: true, ..Camera::default() };
        let near = camera.project(Vec3::new(40.0, 10.0, 0.0), 200, 200).unwrap();
        let far = camera.project(Vec3::new(-40.0, 10.0, 0.0), 200, 200).unwrap();
        assert!((near - far).length() < 1e-3, "{near} {far}");
        // As tall at the target as the perspective view.
        let perspective = Camera { orthographic: false, ..camera };
        let a = camera.project(Vec3::new(0.0, 0.0, 20.0), 200, 200).unwrap();
        let b = perspective.project(Vec3::new(0.0, 0.0, 20.0), 200, 200).unwrap();
        assert!((a - b).length() < 1e-2, "{a} {b}");
        // Points behind the eye still show (the picture has no eye).
        assert!(camera.project(Vec3::new(150.0, 0.0, 0.0), 200, 200).is_some());
    }

    #[test]
    fn free_look_starts_where_the_orbit_eye_was_and_flies() {
        let mut camera = Camera { yaw_deg: 0.0, pitch_deg: 0.0, distance: 50.0, ..Camera::default() };
        let (eye, view) = (camera.eye(), camera.view_from_model());
        camera.to_free_look();
        assert_eq!(camera.mode, CameraMode::FreeLook);
        assert!((camera.eye() - eye).length() < 1e-4);
        assert!(camera.view_from_model().abs_diff_eq(view, 1e-4), "the same view");
        camera.fly(10.0, 0.0, 0.0);
        assert!((camera.eye() - Vec3::new(40.0, 0.0, 0.0)).length() < 1e-4, "forward is towards the model");
        camera.fly(0.0, 5.0, 2.0);
        // Looking down −X, right is +Y.
        assert!((camera.eye() - Vec3::new(40.0, 5.0, 2.0)).length() < 1e-4, "{}", camera.eye());
        // Framing comes back to the same angles, moved back along the view.
        camera.frame(Vec3::splat(-5.0), Vec3::splat(5.0), 1.0);
        assert_eq!(camera.mode, CameraMode::FreeLook);
        let ahead = camera.project(Vec3::ZERO, 100, 100).unwrap();
        assert!((ahead - Vec2::splat(50.0)).length() < 1e-2, "{ahead}");
        // Nonsense input goes nowhere.
        let before = camera;
        camera.orbit(f32::NAN, 1.0);
        camera.fly(f32::INFINITY, 0.0, 0.0);
        camera.zoom(f32::NAN);
        assert_eq!(camera, before);
    }
}
