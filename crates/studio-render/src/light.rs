//! The light a model is drawn under, and the rule each engine lights a studio model by
//! (`docs/lighting.md` has the formulas and where they come from).
//!
//! - **Half-Life**: per vertex, the studio renderer's "modified hemispherical" Lambert term
//!   (`StudioModel::Lighting` in the HL SDK's model viewer, `utils/mdlviewer/studio_render.cpp`;
//!   the engine's `R_StudioLighting` is the same rule): with `lightcos` the cosine between the
//!   normal and the direction the light travels, the level is `ambient + shade − shade ·
//!   max(0, (lightcos + λ − 1) / λ)`, clamped to 0..255, over 255; ambient 32, shade 192,
//!   λ (`lambert`) 1.5. A `STUDIO_NF_FLATSHADE` texture takes `ambient + 0.8 · shade` everywhere;
//!   `STUDIO_NF_FULLBRIGHT` is not lit. The level (times the light's colour) multiplies the
//!   texel's 8-bit colour, as the fixed-function vertex colour did.
//! - **Source**: `VertexLitGeneric`'s ambient cube plus one directional light, in linear
//!   colour: `cube(n) + colour · max(0, n · −L)`, where `cube(n) = n.x² · c±x + n.y² · c±y +
//!   n.z² · c±z`. The Source SDK's model viewer sets all six sides to its ambient colour (0.3)
//!   and the light's to white, so the cube is that colour whatever the normal.

use glam::Vec3;

/// The engine whose rules a model follows: how it is lit (here), the player's hull beside it
/// (`overlay.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// Half-Life (GoldSrc): the studio renderer's lighting.
    #[default]
    GoldSrc,
    /// Source: vertex-lit models, an ambient cube and a directional light.
    Source,
}

impl Engine {
    /// The ambient level the engine's own viewer starts with: 32 of 255 for Half-Life, 0.3 for
    /// Source.
    pub fn default_ambient(self) -> f32 {
        match self {
            Self::GoldSrc => GOLDSRC_AMBIENT,
            Self::Source => SOURCE_AMBIENT,
        }
    }
}

/// Half-Life's ambient light level, of 1 (32 of 255: `g_ambientlight`).
pub const GOLDSRC_AMBIENT: f32 = 32.0 / 255.0;
/// Half-Life's shade light level, of 1 (192 of 255: `g_shadelight`).
pub const GOLDSRC_SHADE: f32 = 192.0 / 255.0;
/// Half-Life's `lambert` (`v_lambert`, 1.5): how far round the model the light wraps.
pub const GOLDSRC_LAMBERT: f32 = 1.5;
/// The Source SDK model viewer's ambient colour (`aColor`, 0.3 on each channel).
pub const SOURCE_AMBIENT: f32 = 0.3;

/// Half-Life's light level (0..1) of a vertex whose normal makes `lightcos` with the direction
/// the light travels (−1 facing the light), at `ambient` and `shade` levels (of 1); `flat` for
/// a `STUDIO_NF_FLATSHADE` texture. The shader computes the same (mesh.wgsl, `goldsrc_level`).
pub fn goldsrc_level(lightcos: f32, ambient: f32, shade: f32, flat: bool) -> f32 {
    if flat {
        return (ambient + shade * 0.8).clamp(0.0, 1.0);
    }
    let lightcos = lightcos.min(1.0);
    let wrapped = (lightcos + (GOLDSRC_LAMBERT - 1.0)) / GOLDSRC_LAMBERT;
    (ambient + shade - shade * wrapped.max(0.0)).clamp(0.0, 1.0)
}

/// Source's light (linear, per channel) on a normal `n` from an ambient cube whose six sides
/// are `cube` (+X, −X, +Y, −Y, +Z, −Z) and a light of `colour` travelling along `direction`.
pub fn source_light(n: Vec3, cube: [Vec3; 6], colour: Vec3, direction: Vec3) -> Vec3 {
    let n2 = n * n;
    let side = |positive: bool, plus: usize| if positive { cube[plus] } else { cube[plus + 1] };
    let ambient = n2.x * side(n.x >= 0.0, 0) + n2.y * side(n.y >= 0.0, 2) + n2.z * side(n.z >= 0.0, 4);
    ambient + colour * n.dot(-direction).max(0.0)
}

/// The light the viewer draws with. Its direction is set relative to the view (it turns with
/// the camera, so the side looked at stays lit however the model is turned), as angles of
/// where the light comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Light {
    /// Degrees to the right of the view the light comes from (0: from the eye's direction).
    pub yaw_deg: f32,
    /// Degrees above the view the light comes from.
    pub pitch_deg: f32,
    /// The light's colour, 0..1 per channel, sRGB-encoded as a colour picker gives it: Half-Life
    /// takes it as its vertex colours are (gamma space), Source decoded to linear.
    pub color: [f32; 3],
    /// The ambient level, 0..1; `None`: the model's engine's default
    /// ([`Engine::default_ambient`]).
    pub ambient: Option<f32>,
}

impl Default for Light {
    /// From a little right of and above the eye (travelling along (−0.3, −0.5, −1) in view
    /// space), as the viewer has always lit models.
    fn default() -> Self {
        Self { yaw_deg: 16.7, pitch_deg: 25.6, color: [1.0; 3], ambient: None }
    }
}

impl Light {
    /// The light from `pitch_deg` above and `yaw_deg` right of the view.
    pub fn from_angles(pitch_deg: f32, yaw_deg: f32) -> Self {
        Self { pitch_deg, yaw_deg, ..Self::default() }
    }

    /// The direction the light travels, in view space (x right, y up, z towards the eye).
    pub fn direction_in_view(&self) -> Vec3 {
        let (yaw, pitch) = (self.yaw_deg.to_radians(), self.pitch_deg.clamp(-90.0, 90.0).to_radians());
        let from = Vec3::new(pitch.cos() * yaw.sin(), pitch.sin(), pitch.cos() * yaw.cos());
        if from.is_finite() { -from } else { Vec3::new(-0.3, -0.5, -1.0).normalize() }
    }

    /// Turns the light by a drag of `dx`, `dy` degrees (right and down on the screen).
    pub fn turn(&mut self, dx_deg: f32, dy_deg: f32) {
        if dx_deg.is_finite() && dy_deg.is_finite() {
            self.yaw_deg = (self.yaw_deg + dx_deg + 180.0).rem_euclid(360.0) - 180.0;
            self.pitch_deg = (self.pitch_deg - dy_deg).clamp(-89.0, 89.0);
        }
    }

    /// The ambient level under `rule`.
    pub fn ambient_for(&self, rule: Engine) -> f32 {
        self.ambient.filter(|a| a.is_finite()).map_or(rule.default_ambient(), |a| a.clamp(0.0, 1.0))
    }

    /// The colour as `rule` takes it, each channel within 0..1 (anything else white): sRGB for
    /// Half-Life's vertex colours, linear for Source.
    pub fn color_for(&self, rule: Engine) -> [f32; 3] {
        let color = self.color.map(|c| if c.is_finite() { c.clamp(0.0, 1.0) } else { 1.0 });
        match rule {
            Engine::GoldSrc => color,
            Engine::Source => color.map(crate::overlay::srgb_to_linear),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_life_wraps_the_light_round_the_model() {
        let level = |c: f32| (goldsrc_level(c, GOLDSRC_AMBIENT, GOLDSRC_SHADE, false) * 255.0).round();
        // Facing the light, and up to 60° from it: ambient + shade, 224.
        assert_eq!(level(-1.0), 224.0);
        assert_eq!(level(-0.5), 224.0);
        // Side on: 224 − 192 / 3 = 160. Facing away: the ambient 32 alone.
        assert_eq!(level(0.0), 160.0);
        assert_eq!(level(1.0), 32.0);
        assert_eq!(level(7.0), 32.0, "cosines past 1 are clamped");
        // A flat-shaded texture: 32 + 0.8 · 192 = 185.6 whatever the normal.
        assert!((goldsrc_level(1.0, GOLDSRC_AMBIENT, GOLDSRC_SHADE, true) * 255.0 - 185.6).abs() < 1e-3);
        // Bright settings clamp to 1.
        assert_eq!(goldsrc_level(-1.0, 0.9, GOLDSRC_SHADE, false), 1.0);
    }

    #[test]
    fn source_adds_the_ambient_cube_to_the_light() {
        let grey = [Vec3::splat(0.3); 6];
        let down = -Vec3::Z;
        // A uniform cube is its colour whatever the normal.
        for n in [Vec3::X, -Vec3::Y, Vec3::new(0.6, 0.0, 0.8)] {
            let lit = source_light(n, grey, Vec3::ZERO, down);
            assert!(lit.abs_diff_eq(Vec3::splat(0.3), 1e-6), "{n}: {lit}");
        }
        assert!(source_light(Vec3::Z, grey, Vec3::ONE, down).abs_diff_eq(Vec3::splat(1.3), 1e-6));
        assert!(source_light(-Vec3::Z, grey, Vec3::ONE, down).abs_diff_eq(Vec3::splat(0.3), 1e-6));
        // Each side of the cube by the squares of the normal's components.
        let mut cube = [Vec3::ZERO; 6];
        cube[0] = Vec3::X;
        cube[5] = Vec3::Z;
        let n = Vec3::new(0.6, 0.0, -0.8);
        assert!(source_light(n, cube, Vec3::ZERO, down).abs_diff_eq(Vec3::new(0.36, 0.0, 0.64), 1e-6));
    }

    #[test]
    fn the_light_turns_with_drags_and_comes_from_its_angles() {
        let ahead = Light::from_angles(0.0, 0.0);
        assert!(ahead.direction_in_view().abs_diff_eq(-Vec3::Z, 1e-6), "from the eye, into the view");
        let above = Light::from_angles(90.0, 0.0);
        assert!(above.direction_in_view().abs_diff_eq(-Vec3::Y, 1e-6), "from above, downwards");
        let right = Light::from_angles(0.0, 90.0);
        assert!(right.direction_in_view().abs_diff_eq(-Vec3::X, 1e-6), "from the right, leftwards");
        let mut light = Light::default();
        light.turn(30.0, 10.0);
        assert!((light.yaw_deg - 46.7).abs() < 1e-4 && (light.pitch_deg - 15.6).abs() < 1e-4);
        light.turn(f32::NAN, 0.0);
        assert!((light.yaw_deg - 46.7).abs() < 1e-4);
        assert_eq!(light.ambient_for(Engine::GoldSrc), GOLDSRC_AMBIENT);
        assert_eq!(Light { ambient: Some(2.0), ..light }.ambient_for(Engine::Source), 1.0);
        let half = Light { color: [0.5, 1.0, f32::NAN], ..light };
        assert_eq!(half.color_for(Engine::GoldSrc), [0.5, 1.0, 1.0]);
        let linear = half.color_for(Engine::Source);
        assert!((linear[0] - 0.214).abs() < 1e-3 && linear[1] == 1.0, "{linear:?}");
    }
}
