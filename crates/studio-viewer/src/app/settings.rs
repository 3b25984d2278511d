//! What the viewer remembers between runs: display choices, playback preferences and recent
//! files (saved through eframe's storage).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// How many recent files are kept.
pub const MAX_RECENT: usize = 10;

/// The slowest and fastest free-look speeds offered, units per second.
pub const FREE_LOOK_SPEEDS: std::ops::RangeInclusive<f32> = 10.0..=2000.0;

/// Persisted settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Draw the mesh.
    pub mesh: bool,
    /// Texture the mesh (otherwise flat white).
    pub textures: bool,
    /// Draw the triangle edges.
    pub wireframe: bool,
    /// Flat shading.
    pub flat: bool,
    /// Draw the skeleton.
    pub skeleton: bool,
    /// Write bone names beside the joints.
    pub bone_names: bool,
    /// Draw hit boxes.
    pub hitboxes: bool,
    /// Draw attachments with their numbers.
    pub attachments: bool,
    /// Draw overlays through the mesh.
    pub xray: bool,
    /// Draw the ground grid.
    pub ground: bool,
    /// Draw the model's bounding box.
    pub bounding_box: bool,
    /// Draw the sequence's bounding box.
    pub sequence_box: bool,
    /// Draw back faces.
    pub double_sided: bool,
    /// Background colour, sRGB.
    pub background: [u8; 3],
    /// Playback speed, 0.1 to 4.
    pub speed: f32,
    /// Move the model along the sequence's linear movement while playing.
    pub apply_movement: bool,
    /// Blend from the sequence left into the new one, as the game does.
    pub blend_transitions: bool,
    /// Go to a chosen sequence through the model's transition graph, as the games do.
    pub transition_graph: bool,
    /// Draw Half-Life's muzzle flash events with the game's sprites.
    pub muzzle_flashes: bool,
    /// Play the sounds of events as playback passes them.
    pub event_sounds: bool,
    /// Recently opened files, newest first.
    pub recent: Vec<PathBuf>,
    /// Game folders Source materials are looked up in besides the model's own.
    pub game_folders: Vec<PathBuf>,
    /// Steam folders read besides those found where Steam keeps them.
    pub steam_folders: Vec<PathBuf>,
    /// The games' language, for their `_<language>` search paths.
    pub game_language: String,
    /// Search paths as a low-violence build mounts them.
    pub low_violence: bool,
    /// HD content (Half-Life's `_hd` folders, Source's `game_hd`).
    pub hd_models: bool,
    /// Half-Life's custom addon content (`_addon` folders).
    pub addon_content: bool,
    /// Shade Source materials as the game does (normal maps, phong, light warps, masked
    /// self-illumination) rather than with plain diffuse lighting.
    pub game_shading: bool,
    /// First person: a crosshair at the centre, as the game draws one.
    pub crosshair: bool,
    /// First person: lines through the centre of the view.
    pub guidelines: bool,
    /// Free look: how fast the eye flies, units per second.
    pub free_look_speed: f32,
    /// Views saved per model, newest first.
    pub saved_views: Vec<super::view::SavedView>,
    /// Reload the open model when its file or a companion changes on disk.
    pub auto_reload: bool,
    /// Degrees right of the view the light comes from.
    pub light_yaw: f32,
    /// Degrees above the view the light comes from.
    pub light_pitch: f32,
    /// The light's colour, sRGB.
    pub light_color: [u8; 3],
    /// The ambient level, 0..1; `None`: the model's engine's (32 of 255 for Half-Life, 0.3 for
    /// Source).
    pub ambient: Option<f32>,
    /// Multisampled edges in the viewport (where the adapter offers them); `None`: on a GPU,
    /// off on a software renderer (where 4× costs the processor several times the fill work).
    pub msaa: Option<bool>,
    /// Each vertex's normal as a short line.
    pub normals: bool,
    /// The mesh coloured by its bone weights.
    pub weights: Weights,
    /// The player's standing and crouching hulls at the origin.
    pub player_hull: bool,
    /// Scroll the ground under the model by the sequence's linear movement (while the model
    /// is not moved along it), so that a walk looks like a walk.
    pub scroll_ground: bool,
}

/// How the Display panel's bone weights view colours the mesh.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Weights {
    /// Textured and lit as usual.
    #[default]
    Off,
    /// Each bone its own colour, mixed by the vertices' weights.
    PerBone,
    /// The weight of the bone whose joint is under the pointer (or the selected bone), from
    /// blue (none) to red (all).
    UnderCursor,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            mesh: true,
            textures: true,
            wireframe: false,
            flat: false,
            skeleton: false,
            bone_names: false,
            hitboxes: false,
            attachments: false,
            xray: false,
            ground: true,
            bounding_box: false,
            sequence_box: false,
            double_sided: false,
            background: [48, 52, 60],
            speed: 1.0,
            apply_movement: false,
            blend_transitions: true,
            transition_graph: true,
            muzzle_flashes: true,
            event_sounds: true,
            recent: Vec::new(),
            game_folders: Vec::new(),
            steam_folders: Vec::new(),
            game_language: "english".into(),
            low_violence: false,
            hd_models: true,
            addon_content: false,
            game_shading: true,
            crosshair: true,
            guidelines: false,
            free_look_speed: FREE_LOOK_SPEEDS.start() * 20.0,
            saved_views: Vec::new(),
            auto_reload: true,
            light_yaw: studio_render::Light::default().yaw_deg,
            light_pitch: studio_render::Light::default().pitch_deg,
            light_color: [255; 3],
            ambient: None,
            msaa: None,
            normals: false,
            weights: Weights::Off,
            player_hull: false,
            scroll_ground: false,
        }
    }
}

impl Settings {
    /// The light the settings describe.
    pub fn light(&self) -> studio_render::Light {
        studio_render::Light {
            yaw_deg: self.light_yaw,
            pitch_deg: self.light_pitch,
            color: self.light_color.map(|c| f32::from(c) / 255.0),
            ambient: self.ambient,
        }
    }

    /// Keeps the direction of `light`.
    pub fn set_light_direction(&mut self, light: &studio_render::Light) {
        self.light_yaw = light.yaw_deg;
        self.light_pitch = light.pitch_deg;
    }

    /// The game settings search paths depend on.
    pub fn preferences(&self) -> studio_games::Preferences {
        studio_games::Preferences {
            language: self.game_language.trim().to_ascii_lowercase(),
            low_violence: self.low_violence,
            hd_models: self.hd_models,
            addon_content: self.addon_content,
        }
    }

    /// Puts `path` first in the recent files.
    pub fn remember(&mut self, path: PathBuf) {
        self.recent.retain(|p| *p != path);
        self.recent.insert(0, path);
        self.recent.truncate(MAX_RECENT);
    }
}
