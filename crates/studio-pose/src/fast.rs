//! Fast single-precision versions of the trigonometry in Valve's slerp and Euler-to-quaternion
//! conversion, for the per-pose path. Each agrees with the double-precision C library to within
//! about one unit in the last place of an `f32` over the ranges used (checked in the tests), so
//! results stay within float precision of Valve's; the table-free path keeps the library calls.

use std::f64::consts::{FRAC_PI_2, PI, TAU};

use crate::math::Quaternion;

/// `sin x` for |x| ≤ π/2 + 0.1: Taylor series to x¹³ (truncation error below 1e-9).
#[inline]
fn sin_kernel(x: f32) -> f32 {
    let x2 = x * x;
    let p = 1.0 / 6_227_020_800.0_f32;
    let p = p * x2 - 1.0 / 39_916_800.0;
    let p = p * x2 + 1.0 / 362_880.0;
    let p = p * x2 - 1.0 / 5_040.0;
    let p = p * x2 + 1.0 / 120.0;
    let p = p * x2 - 1.0 / 6.0;
    x + x * x2 * p
}

/// `sin x` for x in [−0.1, π/2 + 0.1], the arguments of a slerp.
#[inline]
pub fn sin_small(x: f32) -> f32 {
    sin_kernel(x)
}

/// `sin` and `cos` of any finite angle, reduced in double precision.
#[inline]
pub fn sin_cos(x: f32) -> (f32, f32) {
    let x64 = f64::from(x);
    // Into [−π, π]; most angles already are.
    let mut r = if x64.abs() <= PI { x64 } else { x64 - (x64 / TAU).round() * TAU };
    // Fold into [−π/2, π/2]: sin(π − r) = sin r, and cos changes sign.
    let mut cos_sign = 1.0f32;
    if r > FRAC_PI_2 {
        r = PI - r;
        cos_sign = -1.0;
    } else if r < -FRAC_PI_2 {
        r = -PI - r;
        cos_sign = -1.0;
    }
    let r = r as f32;
    let s = sin_kernel(r);
    // cos r = sin(π/2 − |r|), with π/2 − |r| in [0, π/2].
    let c = sin_kernel((FRAC_PI_2 - f64::from(r.abs())) as f32);
    (s, cos_sign * c)
}

/// `acos x` for x in [0, 1] (Abramowitz and Stegun 4.4.46, error below 2e-8).
#[inline]
pub fn acos_unit(x: f32) -> f32 {
    let p = -0.001_262_491_1_f32;
    let p = p * x + 0.006_670_090_1;
    let p = p * x - 0.017_088_125_6;
    let p = p * x + 0.030_891_881_0;
    let p = p * x - 0.050_174_304_6;
    let p = p * x + 0.088_978_987_4;
    let p = p * x - 0.214_598_801_6;
    let p = p * x + 1.570_796_305_0;
    (1.0 - x).sqrt() * p
}

/// `AngleQuaternion` with [`sin_cos`].
#[inline]
pub fn angle_quaternion(angles: [f32; 3]) -> Quaternion {
    let (sy, cy) = sin_cos(angles[2] * 0.5);
    let (sp, cp) = sin_cos(angles[1] * 0.5);
    let (sr, cr) = sin_cos(angles[0] * 0.5);
    [
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    ]
}

/// `QuaternionSlerp` with the fast functions; the same branches and constants as Valve's.
#[inline]
pub fn quaternion_slerp(p: Quaternion, q: Quaternion, t: f32) -> Quaternion {
    let mut a = 0.0f32;
    let mut b = 0.0f32;
    for i in 0..4 {
        a += (p[i] - q[i]) * (p[i] - q[i]);
        b += (p[i] + q[i]) * (p[i] + q[i]);
    }
    let q = if a > b { [-q[0], -q[1], -q[2], -q[3]] } else { q };
    let cosom = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
    if 1.0 + f64::from(cosom) <= 0.000001 {
        // Opposite quaternions (only degenerate input reaches this): Valve's exact branch.
        return crate::math::quaternion_slerp(p, q, t);
    }
    let (sclp, sclq) = if 1.0 - f64::from(cosom) > 0.000001 {
        let omega = acos_unit(cosom.max(0.0));
        let inv = 1.0 / sin_small(omega);
        (sin_small((1.0 - t) * omega) * inv, sin_small(t * omega) * inv)
    } else {
        (1.0 - t, t)
    };
    [
        sclp * p[0] + sclq * q[0],
        sclp * p[1] + sclq * q[1],
        sclp * p[2] + sclq * q[2],
        sclp * p[3] + sclq * q[3],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sin_agrees_with_the_library() {
        for i in -100..=1700 {
            let x = i as f32 * 0.001;
            let exact = f64::from(x).sin();
            assert!((f64::from(sin_small(x)) - exact).abs() < 1.2e-7, "sin {x}");
        }
    }

    #[test]
    fn sin_cos_agrees_with_the_library_over_many_turns() {
        for i in -50_000..=50_000 {
            let x = i as f32 * 0.000_37;
            let (s, c) = sin_cos(x);
            let (es, ec) = f64::from(x).sin_cos();
            assert!((f64::from(s) - es).abs() < 2e-7 && (f64::from(c) - ec).abs() < 2e-7, "{x}: {s} {c} vs {es} {ec}");
        }
    }

    #[test]
    fn acos_agrees_with_the_library() {
        for i in 0..=10_000 {
            let x = i as f32 / 10_000.0;
            let exact = f64::from(x).acos();
            assert!((f64::from(acos_unit(x)) - exact).abs() < 2.5e-7, "acos {x}: {} vs {exact}", acos_unit(x));
        }
    }

    #[test]
    fn slerp_agrees_with_valves() {
        let mut worst = 0.0f32;
        for i in 0..400 {
            let a = [i as f32 * 0.013, -(i as f32) * 0.007, 0.3 + i as f32 * 0.011];
            let b = [a[0] + 0.4 - i as f32 * 0.002, a[1] * 1.7, a[2] - 2.9 + i as f32 * 0.015];
            let (p, q) = (crate::math::angle_quaternion(a), crate::math::angle_quaternion(b));
            for t in [0.0, 0.1, 0.37, 0.5, 0.99, 1.0, -0.01] {
                let fast = quaternion_slerp(p, q, t);
                let exact = crate::math::quaternion_slerp(p, q, t);
                for c in 0..4 {
                    worst = worst.max((fast[c] - exact[c]).abs());
                }
            }
            let fa = angle_quaternion(b);
            let ea = crate::math::angle_quaternion(b);
            for c in 0..4 {
                worst = worst.max((fa[c] - ea[c]).abs());
            }
        }
        assert!(worst < 1e-6, "largest difference {worst}");
    }
}
