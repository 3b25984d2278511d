//! studioview's bundled demo model, built in code and written with studio-model's writer: a
//! small two-legged critter of our own design that shows what the viewer does. 21 bones; idle,
//! walk (with linear movement) and attack (with events) sequences; a 2-way blended aim and a
//! 4-way blended look; controllers for a head turn, a looping rotor (RLOOP) and the mouth; hit
//! boxes in every hit group 0–7; three attachments; two skin families; a head body part with
//! two choices; chrome and masked textures.
//!
//! `cargo run -p studio-demo --bin make-demo` rewrites `assets/demo.mdl`; a test checks that the
//! committed file is what this code makes. Everything is computed from integers and `f32`
//! arithmetic without library trigonometry, so the bytes are the same on every machine.

#![forbid(unsafe_code)]

mod animation;
mod geometry;
mod skeleton;
mod textures;

use glam::Vec3;
use studio_model::{Header, Model, TextureSource, WriteError};

/// Where the committed demo model lives, relative to the repository root.
pub const DEMO_PATH: &str = "assets/demo.mdl";

/// The demo model.
pub fn demo_model() -> Model {
    let mut model = Model::new(Header {
        name: "models/demo.mdl".into(),
        length: 0,
        eye_position: Vec3::new(6.0, 0.0, 64.0),
        min: Vec3::new(-16.0, -16.0, 0.0),
        max: Vec3::new(16.0, 16.0, 72.0),
        bbmin: Vec3::new(-22.0, -22.0, 0.0),
        bbmax: Vec3::new(22.0, 22.0, 76.0),
        flags: 0,
    });
    model.bones = skeleton::bones();
    model.bone_controllers = skeleton::controllers();
    model.hitboxes = skeleton::hitboxes();
    model.attachments = skeleton::attachments();
    model.body_parts = geometry::body_parts();
    (model.textures, model.skins) = textures::textures_and_skins();
    model.texture_source = TextureSource::Main;
    let (groups, sequences) = animation::sequences(&model);
    model.sequence_groups = groups;
    model.sequences = sequences;
    model
}

/// The bytes of `assets/demo.mdl`.
pub fn demo_bytes() -> Result<Vec<u8>, WriteError> {
    Ok(studio_model::write(&demo_model())?.main)
}

/// `sin(turn × 2π)` for a turn in [0, 1), from a polynomial, so that the model's bytes do not
/// depend on the platform's math library.
pub(crate) fn sin_turns(turn: f32) -> f32 {
    // Reduce to [−0.5, 0.5) turns, fold to [−0.25, 0.25], then a Taylor series in radians.
    let t = turn - (turn + 0.5).floor();
    let t = if t > 0.25 {
        0.5 - t
    } else if t < -0.25 {
        -0.5 - t
    } else {
        t
    };
    let x = t * std::f32::consts::TAU;
    let x2 = x * x;
    x * (1.0 - x2 / 6.0 * (1.0 - x2 / 20.0 * (1.0 - x2 / 42.0 * (1.0 - x2 / 72.0))))
}

#[cfg(test)]
mod tests {
    #[test]
    fn sin_turns_is_sine() {
        for i in -40..=40 {
            let turn = i as f32 / 16.0;
            let expected = (f64::from(turn) * std::f64::consts::TAU).sin();
            assert!((f64::from(super::sin_turns(turn)) - expected).abs() < 1e-5, "{turn}");
        }
    }
}
