//! The camera as the viewer drives it: the camera each model starts with (first person for a
//! view model, at the game's field of view), camera modes, axis views, the field of view,
//! orthographic projection, free-look flying, and a view saved per model.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use studio_render::{Camera, CameraMode};

use super::command::Command;
use super::state::{AppState, Level};
use studio_document::view_model::{is_view_model, view_model_fov};

/// Most views kept, one per model (the oldest forgotten first).
pub const MAX_SAVED_VIEWS: usize = 100;

/// The narrowest and widest field of view offered, as the games count it (degrees).
pub const FOV_RANGE: std::ops::RangeInclusive<f32> = 10.0..=150.0;

/// How a saved view's camera moves (the settings' spelling of [`CameraMode`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SavedMode {
    /// Round a target.
    Orbit,
    /// At a view model's eye.
    FirstPerson,
    /// Flying free.
    FreeLook,
}

/// A camera saved for one model (View ▸ Save view for this model), restored when it opens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedView {
    /// The model's file.
    pub path: PathBuf,
    /// How the camera moves.
    pub mode: SavedMode,
    /// Orthographic projection.
    pub orthographic: bool,
    /// The target orbited.
    pub target: [f32; 3],
    /// Yaw, degrees.
    pub yaw: f32,
    /// Pitch, degrees.
    pub pitch: f32,
    /// Distance from the target.
    pub distance: f32,
    /// Vertical field of view, degrees.
    pub fov_y: f32,
    /// The free-look eye.
    pub position: [f32; 3],
}

impl SavedView {
    /// `camera`, saved for the model at `path`.
    pub fn of(path: PathBuf, camera: &Camera) -> Self {
        let mode = match camera.mode {
            CameraMode::Orbit => SavedMode::Orbit,
            CameraMode::FirstPerson => SavedMode::FirstPerson,
            CameraMode::FreeLook => SavedMode::FreeLook,
        };
        Self {
            path,
            mode,
            orthographic: camera.orthographic,
            target: camera.target.into(),
            yaw: camera.yaw_deg,
            pitch: camera.pitch_deg,
            distance: camera.distance,
            fov_y: camera.fov_y_deg,
            position: camera.position.into(),
        }
    }

    /// The camera saved; `None` when a value is not a number or out of its range (a settings
    /// file edited by hand).
    pub fn camera(&self) -> Option<Camera> {
        let mode = match self.mode {
            SavedMode::Orbit => CameraMode::Orbit,
            SavedMode::FirstPerson => CameraMode::FirstPerson,
            SavedMode::FreeLook => CameraMode::FreeLook,
        };
        let camera = Camera {
            mode,
            orthographic: self.orthographic,
            target: self.target.into(),
            yaw_deg: self.yaw,
            pitch_deg: self.pitch.clamp(-90.0, 90.0),
            distance: self.distance,
            fov_y_deg: self.fov_y,
            position: self.position.into(),
        };
        let numbers = [camera.yaw_deg, camera.pitch_deg, camera.distance, camera.fov_y_deg];
        let sane = numbers.iter().all(|v| v.is_finite())
            && camera.target.is_finite()
            && camera.position.is_finite()
            && (0.1..=1e6).contains(&camera.distance)
            && (1.0..=170.0).contains(&camera.fov_y_deg);
        sane.then_some(camera)
    }
}

impl AppState {
    /// The camera the shown model starts with: at the eye, with the game's field of view, for
    /// a view model; otherwise round it from the default angles. Either keeps the projection
    /// chosen.
    pub fn default_camera(&self) -> Camera {
        let mut camera = if is_view_model(self.path()) {
            Camera::first_person(view_model_fov(self.source.is_some()))
        } else {
            Camera::default()
        };
        camera.orthographic = self.camera.orthographic;
        camera
    }

    /// The view saved for the shown model, if any.
    pub fn saved_view(&self) -> Option<&SavedView> {
        let path = self.path()?;
        self.settings.saved_views.iter().find(|v| v.path == path)
    }

    /// Puts the camera where a newly opened model wants it: its saved view, or its default
    /// camera framing it.
    pub(super) fn place_camera_for_model(&mut self) {
        match self.saved_view().and_then(SavedView::camera) {
            Some(camera) => self.camera = camera,
            None => self.frame_model(true),
        }
    }

    /// Looks at the whole model; with `reset`, from the model's default camera first.
    pub(super) fn frame_model(&mut self, reset: bool) {
        if reset {
            self.camera = self.default_camera();
        }
        let (min, max) = self.bounds();
        self.camera.frame(min, max, 4.0 / 3.0);
    }

    /// Carries out a camera command; false for the others.
    pub(super) fn apply_view(&mut self, command: &Command) -> bool {
        match *command {
            Command::FrameModel => self.frame_model(false),
            Command::ResetView => self.frame_model(true),
            Command::SetCameraMode(mode) => self.set_camera_mode(mode),
            Command::SetFov(fov) => {
                if fov.is_finite() {
                    self.camera.set_game_fov(fov.clamp(*FOV_RANGE.start(), *FOV_RANGE.end()));
                }
            }
            Command::SetOrthographic(on) => self.camera.orthographic = on,
            Command::SetAxisView(view) => {
                let from_orbit = self.camera.mode == CameraMode::Orbit;
                self.camera.axis_view(view);
                if !from_orbit {
                    // Its target and distance were not the model's.
                    self.camera.fov_y_deg = Camera::default().fov_y_deg;
                    self.frame_model(false);
                }
            }
            Command::Fly { forward, right, up } => self.camera.fly(forward, right, up),
            Command::SaveView => self.save_view(),
            Command::RestoreView => match self.saved_view().and_then(SavedView::camera) {
                Some(camera) => self.camera = camera,
                None => self.say(Level::Info, "no view saved for this model"),
            },
            Command::TogglePanels => self.panels_hidden = !self.panels_hidden,
            _ => return false,
        }
        true
    }

    /// Orbit frames the model from the default angles; first person goes to the eye with the
    /// game's field of view; free look starts where the eye is.
    fn set_camera_mode(&mut self, mode: CameraMode) {
        if self.camera.mode == mode {
            return;
        }
        let orthographic = self.camera.orthographic;
        match mode {
            CameraMode::Orbit => {
                self.camera = Camera { orthographic, ..Camera::default() };
                self.frame_model(false);
            }
            CameraMode::FirstPerson => {
                self.camera = Camera::first_person(view_model_fov(self.source.is_some()));
                self.camera.orthographic = orthographic;
            }
            CameraMode::FreeLook => self.camera.to_free_look(),
        }
    }

    /// Keeps the camera for the shown model (the demo model has no file to key it by).
    fn save_view(&mut self) {
        let Some(path) = self.path().map(Path::to_path_buf) else {
            return self.say(Level::Info, "the demo model's view is not saved: open a model from a file");
        };
        let views = &mut self.settings.saved_views;
        views.retain(|v| v.path != path);
        views.insert(0, SavedView::of(path.clone(), &self.camera));
        views.truncate(MAX_SAVED_VIEWS);
        self.say(Level::Info, format!("view saved for {}", path.display()));
    }
}

/// The keys of the axis views, in [`studio_render::AxisView::ALL`]'s order: 1 to 6.
pub const AXIS_VIEW_KEYS: [egui::Key; 6] =
    [egui::Key::Num1, egui::Key::Num2, egui::Key::Num3, egui::Key::Num4, egui::Key::Num5, egui::Key::Num6];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_saved_view_gives_back_its_camera_and_refuses_nonsense() {
        let camera = Camera {
            mode: CameraMode::FreeLook,
            orthographic: true,
            target: glam::Vec3::new(1.0, 2.0, 3.0),
            yaw_deg: 40.0,
            pitch_deg: -20.0,
            distance: 75.0,
            fov_y_deg: 60.0,
            position: glam::Vec3::new(-5.0, 6.0, 7.0),
        };
        let saved = SavedView::of(PathBuf::from("a.mdl"), &camera);
        assert_eq!(saved.camera(), Some(camera));
        let text = serde_json::to_string(&saved).unwrap();
        assert_eq!(serde_json::from_str::<SavedView>(&text).unwrap(), saved);
        for broken in [
            SavedView { distance: f32::NAN, ..saved.clone() },
            SavedView { distance: 0.0, ..saved.clone() },
            SavedView { fov_y: 500.0, ..saved.clone() },
            SavedView { target: [f32::INFINITY, 0.0, 0.0], ..saved.clone() },
        ] {
            assert_eq!(broken.camera(), None, "{broken:?}");
        }
    }
}
