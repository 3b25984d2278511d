//! Numbers as people read them: a negated zero (a flipped box corner, soldier's eye position
//! `-0 0 0`) is shown as `0` in the CLI's text, the QC and the panels. JSON keeps the exact value.

use glam::Vec3;

/// `x` with a negated zero made `+0` (adding zero does it; every other value is unchanged).
pub fn num(x: f32) -> f32 {
    x + 0.0
}

/// [`num`] of each component.
pub fn vec(v: Vec3) -> Vec3 {
    v + Vec3::ZERO
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_negated_zero_reads_as_zero_and_nothing_else_changes() {
        assert_eq!(format!("{}", -0.0f32), "-0");
        assert_eq!(format!("{}", num(-0.0)), "0");
        assert_eq!(format!("{}", vec(Vec3::new(-0.0, 0.0, -0.0))), "[0, 0, 0]");
        for x in [-1.5f32, 1e-30, -1e-30, f32::MIN_POSITIVE, -f32::MAX, 7.25] {
            assert_eq!(num(x).to_bits(), x.to_bits(), "{x}");
        }
        assert!(num(f32::NAN).is_nan());
    }
}
