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
}
