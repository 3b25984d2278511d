//! Bone controller adjustments, as `StudioCalcBoneAdj` computes them (goldsrc-skeleton.md,
//! "Bone controllers"; exact rules in `../shared/reference/README.md`).

use studio_model::{BoneController, ControllerInput};

/// The entity's controller inputs: four user bytes and the mouth byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ControllerBytes {
    /// User controllers 0–3, each 0–255.
    pub user: [u8; 4],
    /// The mouth, 0–64 (larger values open it no further).
    pub mouth: u8,
}

/// The value (radians for rotations, units for positions) controller `controller` adds to its
/// degree of freedom, with no interpolation from previous values (the viewer's case).
pub fn adjustment(controller: &BoneController, bytes: ControllerBytes) -> f32 {
    let (start, end) = (f64::from(controller.start), f64::from(controller.end));
    let value: f32 = match controller.input() {
        Some(ControllerInput::User(i)) => {
            let byte = f64::from(bytes.user[i]);
            if controller.is_rloop() {
                (byte * (360.0 / 256.0) + start) as f32
            } else {
                // Valve stores the fraction in a float before mixing, in double, with the range.
                let v = f64::from(((byte / 255.0) as f32).clamp(0.0, 1.0));
                ((1.0 - v) * start + v * end) as f32
            }
        }
        Some(ControllerInput::Mouth) => {
            let v = f64::from(((f64::from(bytes.mouth) / 64.0) as f32).min(1.0));
            ((1.0 - v) * start + v * end) as f32
        }
        None => return 0.0,
    };
    match controller.degree_of_freedom() {
        Some(3..=5) => (f64::from(value) * (std::f64::consts::PI / 180.0)) as f32,
        Some(_) => value,
        None => 0.0,
    }
}

/// Fills `adj` (one slot per controller) for `bytes`.
pub fn adjustments(controllers: &[BoneController], bytes: ControllerBytes, adj: &mut [f32]) {
    for (slot, controller) in adj.iter_mut().zip(controllers) {
        *slot = adjustment(controller, bytes);
    }
}

/// The setting that puts `controller` nearest 0 in its own units (degrees or units; a looping
/// rotation measured the short way round from 0): the neutral the game's `SetBoneController(0)`
/// and other viewers start from. A user controller's byte (0–255) or the mouth's (0–64); the
/// first of equally near settings.
pub fn neutral_byte(controller: &BoneController) -> u8 {
    let highest = match controller.input() {
        Some(ControllerInput::User(_)) => 255u8,
        Some(ControllerInput::Mouth) => 64,
        None => return 0,
    };
    let distance = |byte: u8| {
        let bytes = ControllerBytes { user: [byte; 4], mouth: byte };
        let value = f64::from(adjustment(controller, bytes));
        if controller.is_rloop() && matches!(controller.degree_of_freedom(), Some(3..=5)) {
            let turn = std::f64::consts::TAU;
            (value - (value / turn).round() * turn).abs()
        } else {
            value.abs()
        }
    };
    let mut best = (0u8, f64::INFINITY);
    for byte in 0..=highest {
        let d = distance(byte);
        // Nearer by more than rounding; NaN (a broken range) never wins, so byte 0 stays.
        if d < best.1 - 1e-6 {
            best = (byte, d);
        }
    }
    best.0
}

/// The neutral entity state for `controllers`: each user slot and the mouth at
/// [`neutral_byte`] of the first controller reading it (0 where none does).
pub fn neutral_bytes(controllers: &[BoneController]) -> ControllerBytes {
    let mut bytes = ControllerBytes::default();
    let mut set = [false; 5];
    for controller in controllers {
        let slot = match controller.input() {
            Some(ControllerInput::User(i)) => i,
            Some(ControllerInput::Mouth) => 4,
            None => continue,
        };
        if !set[slot] {
            set[slot] = true;
            let byte = neutral_byte(controller);
            match slot {
                4 => bytes.mouth = byte,
                i => bytes.user[i] = byte,
            }
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn controller(kind: i32, start: f32, end: f32, index: i32) -> BoneController {
        BoneController { bone: 0, kind, start, end, rest: 0, index }
    }

    fn bytes(user0: u8, mouth: u8) -> ControllerBytes {
        ControllerBytes { user: [user0, 0, 0, 0], mouth }
    }

    #[test]
    fn rotation_maps_bytes_over_the_range_in_radians() {
        let c = controller(studio_model::motion::STUDIO_YR, -30.0, 60.0, 0);
        assert_eq!(adjustment(&c, bytes(0, 0)), (-30.0f64).to_radians() as f32);
        assert_eq!(adjustment(&c, bytes(255, 0)), (60.0f64).to_radians() as f32);
        let mid = adjustment(&c, bytes(51, 0));
        assert!((mid - (-12.0f32).to_radians()).abs() < 1e-6, "{mid}");
    }

    #[test]
    fn rloop_is_a_256th_of_a_turn_per_step_from_start() {
        let c =
            controller(studio_model::motion::STUDIO_XR | studio_model::motion::STUDIO_RLOOP, 10.0, 20.0, 0);
        assert_eq!(adjustment(&c, bytes(64, 0)), ((90.0f64 + 10.0) * std::f64::consts::PI / 180.0) as f32);
        assert_eq!(adjustment(&c, bytes(0, 0)), (10.0f64.to_radians()) as f32);
    }

    #[test]
    fn translation_is_in_units_and_the_mouth_saturates_at_64() {
        let c = controller(studio_model::motion::STUDIO_Z, -4.0, 12.0, 4);
        assert_eq!(adjustment(&c, bytes(200, 0)), -4.0);
        assert_eq!(adjustment(&c, bytes(0, 32)), 4.0);
        assert_eq!(adjustment(&c, bytes(0, 64)), 12.0);
        assert_eq!(adjustment(&c, bytes(0, 255)), 12.0);
        // The mouth ignores RLOOP.
        let r = controller(studio_model::motion::STUDIO_Z | studio_model::motion::STUDIO_RLOOP, 0.0, 8.0, 4);
        assert_eq!(adjustment(&r, bytes(0, 32)), 4.0);
    }

    #[test]
    fn unknown_types_and_inputs_do_nothing() {
        assert_eq!(adjustment(&controller(0x40, 1.0, 2.0, 0), bytes(9, 0)), 0.0);
        assert_eq!(adjustment(&controller(studio_model::motion::STUDIO_X, 1.0, 2.0, -1), bytes(9, 0)), 0.0);
    }

    #[test]
    fn neutral_settings_are_nearest_zero_in_their_own_units() {
        // The soldier's spine: −22.5°..22.5°, where byte 0 twists it by −22.5°.
        let spine = controller(studio_model::motion::STUDIO_XR, -22.5, 22.5, 0);
        assert_eq!(neutral_byte(&spine), 127);
        assert!(adjustment(&spine, bytes(127, 0)).abs() < 0.2f32.to_radians());
        // A range that does not hold 0: its end nearer 0.
        assert_eq!(neutral_byte(&controller(studio_model::motion::STUDIO_YR, 10.0, 40.0, 1)), 0);
        assert_eq!(neutral_byte(&controller(studio_model::motion::STUDIO_YR, -40.0, -10.0, 1)), 255);
        // A backwards range and a translation.
        assert_eq!(neutral_byte(&controller(studio_model::motion::STUDIO_ZR, 90.0, -90.0, 2)), 127);
        assert_eq!(neutral_byte(&controller(studio_model::motion::STUDIO_Z, -5.0, 15.0, 3)), 64);
        // A looping rotor from 180°: half a turn on, back at 0.
        let rotor =
            controller(studio_model::motion::STUDIO_ZR | studio_model::motion::STUDIO_RLOOP, 180.0, 540.0, 1);
        assert_eq!(neutral_byte(&rotor), 128);
        // The mouth is already closed at 0.
        assert_eq!(neutral_byte(&controller(studio_model::motion::STUDIO_XR, 0.0, 30.0, 4)), 0);
        let all = [spine, controller(studio_model::motion::STUDIO_XR, 0.0, 30.0, 4)];
        assert_eq!(neutral_bytes(&all), ControllerBytes { user: [127, 0, 0, 0], mouth: 0 });
    }
}
