//! Fast single-precision versions of the trigonometry in Valve's slerp and Euler-to-quaternion
//! conversion, for the per-pose path. Each agrees with the double-precision C library to within
//! about one unit in the last place of an `f32` over the ranges used (checked in the tests), so
//! results stay within float precision of Valve's; the table-free path keeps the library calls.

use std::f64::consts::{FRAC_PI_2, PI, TAU};

use glam::Vec4;

/// The coefficients of [`sin_small`]'s series (`sin x = x + x·x²·p(x²)`), highest first, with
/// their signs; [`sin_short`] takes the last three.
pub const SIN_SERIES: [f32; 6] =
    [1.0 / 6_227_020_800.0, -1.0 / 39_916_800.0, 1.0 / 362_880.0, -1.0 / 5_040.0, 1.0 / 120.0, -1.0 / 6.0];

/// `x + x·x²·p(x²)`, with `p` by Horner's rule over `series` (highest coefficient first).
#[inline]
fn sin_series(x: f32, series: &[f32]) -> f32 {
    let x2 = x * x;
    let mut p = series[0];
    for &c in &series[1..] {
        p = p * x2 + c;
    }
    x + x * x2 * p
}

/// `sin x` for |x| ≤ π/2 + 0.1 (a slerp's arguments, and reduced angles): Taylor series to
/// x¹³ (truncation error below 1e-9).
#[inline]
pub fn sin_small(x: f32) -> f32 {
    sin_series(x, &SIN_SERIES)
}

/// Below this angle a slerp's sines need only the series to x⁷ (truncation error below 1e-9).
pub const SHORT_SERIES_LIMIT: f32 = 0.4;

/// `sin x` for |x| ≤ 0.41: Taylor series to x⁷.
#[inline]
pub fn sin_short(x: f32) -> f32 {
    sin_series(x, &SIN_SERIES[3..])
}

/// [`SIN_SERIES`] for [`sin_lanes`], its three highest coefficients scaled by `long`: 1 in a
/// lane that takes [`sin_small`]'s series, 0 in one that takes [`sin_short`]'s.
#[inline]
pub fn sin_series_lanes(long: Vec4) -> [Vec4; 6] {
    let mut series = SIN_SERIES.map(Vec4::splat);
    for c in &mut series[..3] {
        *c *= long;
    }
    series
}

/// `sin` of each lane of `x` by a series from [`sin_series_lanes`], lane by lane: the arithmetic
/// of [`sin_small`], or with the three highest coefficients 0 that of [`sin_short`] (each Horner
/// step on a 0 gives exactly 0, and then the short series' first coefficient).
#[inline]
pub fn sin_lanes(x: Vec4, series: &[Vec4; 6]) -> Vec4 {
    let x2 = x * x;
    let mut p = series[0];
    for &c in &series[1..] {
        p = p * x2 + c;
    }
    x + x * x2 * p
}

/// `cos x` for |x| ≤ π/2: Taylor series to x¹⁴ (truncation error below 1e-8).
#[inline]
fn cos_kernel(x: f32) -> f32 {
    let x2 = x * x;
    let p = -1.0 / 87_178_291_200.0_f32;
    let p = p * x2 + 1.0 / 479_001_600.0;
    let p = p * x2 - 1.0 / 3_628_800.0;
    let p = p * x2 + 1.0 / 40_320.0;
    let p = p * x2 - 1.0 / 720.0;
    let p = p * x2 + 1.0 / 24.0;
    let p = p * x2 - 0.5;
    1.0 + x2 * p
}

/// `sin` and `cos` of any finite angle. Half of an Euler angle is nearly always within
/// [−π/2, π/2], where this is two polynomials; other angles are reduced in double precision.
#[inline]
pub fn sin_cos(x: f32) -> (f32, f32) {
    if x.abs() <= std::f32::consts::FRAC_PI_2 {
        return (sin_small(x), cos_kernel(x));
    }
    let x64 = f64::from(x);
    // Into [−π, π], then folded into [−π/2, π/2]: sin(π − r) = sin r, cos(π − r) = −cos r.
    let mut r = if x64.abs() <= PI { x64 } else { x64 - (x64 / TAU).round() * TAU };
    let mut cos_sign = 1.0f32;
    if r > FRAC_PI_2 {
        r = PI - r;
        cos_sign = -1.0;
    } else if r < -FRAC_PI_2 {
        r = -PI - r;
        cos_sign = -1.0;
    }
    let r = r as f32;
    (sin_small(r), cos_sign * cos_kernel(r))
}

/// `acos x` for x in [0, 1] (Abramowitz and Stegun 4.4.46, error below 2e-8).
#[inline]
pub fn acos_unit(x: f32) -> f32 {
    let mut p = ACOS_SERIES[0];
    for &c in &ACOS_SERIES[1..] {
        p = p * x + c;
    }
    (1.0 - x).sqrt() * p
}

/// [`acos_unit`]'s polynomial, highest coefficient first.
// The coefficients are quoted as published; the compiler rounds them to f32.
#[allow(clippy::excessive_precision)]
const ACOS_SERIES: [f32; 8] = [
    -0.001_262_491_1,
    0.006_670_090_1,
    -0.017_088_125_6,
    0.030_891_881_0,
    -0.050_174_304_6,
    0.088_978_987_4,
    -0.214_598_801_6,
    1.570_796_305_0,
];

/// How Valve's slerp goes from one quaternion to another, worked out once for any `t`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SlerpSetup {
    /// `1 − cos ω ≤ 1e-6`: Valve's lerp, towards the second negated if `flip`.
    Lerp {
        /// Whether the second quaternion is negated (the shorter way round).
        flip: bool,
    },
    /// A slerp by `omega`.
    Slerp {
        /// Whether the second quaternion is negated.
        flip: bool,
        /// The angle between them.
        omega: f32,
        /// 1 / sin ω.
        inv_sin: f32,
    },
    /// `1 + cos ω ≤ 1e-6` (opposite quaternions, only degenerate input): Valve's own branch.
    Full,
}

/// Valve's test in `QuaternionSlerp` for negating `q`: |p − q|² > |p + q|², each sum of squares
/// formed in float in index order, as the C loop does. Mathematically this is p · q < 0, but
/// near p · q = 0 the two roundings decide differently, and the game follows this one.
#[inline]
pub fn valve_flips(p: Vec4, q: Vec4) -> bool {
    let (d, s) = (p - q, p + q);
    let (d, s) = (d * d, s * s);
    // Each lane's square is the C expression's; the sums run in the C loop's order.
    let a = ((d.x + d.y) + d.z) + d.w;
    let b = ((s.x + s.y) + s.z) + s.w;
    a > b
}

/// `cos ω` as Valve's slerp forms it: `p[0]*q[0] + p[1]*q[1] + p[2]*q[2] + p[3]*q[3]` in float,
/// left to right (no fused multiply-add, unlike a SIMD dot product).
#[inline]
pub fn valve_cosom(p: Vec4, q: Vec4) -> f32 {
    let m = p * q;
    ((m.x + m.y) + m.z) + m.w
}

/// `acos x` for x in [−1, 1]: [`acos_unit`], mirrored for negative x (which Valve's flip rule
/// leaves only within rounding of 0).
#[inline]
fn acos_signed(x: f32) -> f32 {
    if x >= 0.0 { acos_unit(x) } else { std::f32::consts::PI - acos_unit(-x) }
}

/// Valve's choices in `QuaternionSlerp` for `p` and `q`, each made with Valve's float arithmetic
/// in Valve's order ([`valve_flips`], [`valve_cosom`], and the `1 ± cos ω > 1e-6` tests in
/// double as C promotes them), so every branch goes the way the game's does.
#[inline]
pub fn slerp_setup(p: Vec4, q: Vec4) -> SlerpSetup {
    let flip = valve_flips(p, q);
    let cosom = f64::from(valve_cosom(p, if flip { -q } else { q }));
    if 1.0 + cosom <= 0.000001 {
        SlerpSetup::Full
    } else if 1.0 - cosom > 0.000001 {
        // C takes acos in double and keeps ω in a float.
        let omega = acos_signed(cosom as f32);
        SlerpSetup::Slerp { flip, omega, inv_sin: 1.0 / sin_small(omega) }
    } else {
        SlerpSetup::Lerp { flip }
    }
}

/// Applies a [`SlerpSetup`] at `t`.
#[inline]
pub fn slerp_with(setup: SlerpSetup, p: Vec4, q: Vec4, t: f32) -> Vec4 {
    match setup {
        SlerpSetup::Lerp { flip } => p * (1.0 - t) + if flip { -q } else { q } * t,
        SlerpSetup::Slerp { flip, omega, inv_sin } => {
            // t stays within [−0.01, 1.01], so both arguments stay below 1.01 ω (ω ≤ π/2 + 1e-7).
            let sin = if omega < SHORT_SERIES_LIMIT { sin_short } else { sin_small };
            let sclp = sin((1.0 - t) * omega) * inv_sin;
            let sclq = sin(t * omega) * inv_sin;
            p * sclp + if flip { -q } else { q } * sclq
        }
        SlerpSetup::Full => Vec4::from_array(crate::math::quaternion_slerp(p.to_array(), q.to_array(), t)),
    }
}

/// The largest `cos ω` for which Valve's slerp takes its slerp branch (`1 − cos ω > 1e-6`, formed
/// in double): the same test as a comparison of floats.
pub const SLERP_COS_MAX: f32 = {
    let mut c = 1.0f32;
    while 1.0 - c as f64 <= 0.000001 {
        c = f32::from_bits(c.to_bits() - 1);
    }
    c
};

/// The largest `cos ω` for which Valve's slerp takes its branch for opposite quaternions
/// (`1 + cos ω ≤ 1e-6`, formed in double), as a float.
pub const FULL_COS_MAX: f32 = {
    let mut c = -1.0f32;
    while 1.0 + f32::from_bits(c.to_bits() - 1) as f64 <= 0.000001 {
        c = f32::from_bits(c.to_bits() - 1);
    }
    c
};

/// [`acos_unit`] lane by lane.
#[inline]
fn acos_unit_lanes(x: Vec4) -> Vec4 {
    let mut p = Vec4::splat(ACOS_SERIES[0]);
    for &c in &ACOS_SERIES[1..] {
        p = p * x + Vec4::splat(c);
    }
    (Vec4::ONE - x).sqrt() * p
}

/// Four `Vec4`s transposed: four quaternions into their x, y, z and w lanes, and back.
#[inline]
pub fn transposed([a, b, c, d]: [Vec4; 4]) -> [Vec4; 4] {
    let m = glam::Mat4::from_cols(a, b, c, d).transpose();
    [m.x_axis, m.y_axis, m.z_axis, m.w_axis]
}

/// [`quaternion_slerp`] of four pairs at once, lane by lane (`p` and `q` as their x, y, z and w
/// lanes), with the same arithmetic in every lane: Valve's branches become per-lane choices
/// between results. `None` when a pair is opposite (only degenerate input), which takes
/// [`quaternion_slerp`]'s full branch.
#[inline]
pub fn quaternion_slerp_lanes(p: [Vec4; 4], q: [Vec4; 4], t: f32) -> Option<[Vec4; 4]> {
    let [px, py, pz, pw] = p;
    let [qx, qy, qz, qw] = q;
    let square = |v: Vec4| v * v;
    // `valve_flips`, in its order.
    let a = ((square(px - qx) + square(py - qy)) + square(pz - qz)) + square(pw - qw);
    let b = ((square(px + qx) + square(py + qy)) + square(pz + qz)) + square(pw + qw);
    let sign = Vec4::select(a.cmpgt(b), Vec4::NEG_ONE, Vec4::ONE);
    let (qx, qy, qz, qw) = (qx * sign, qy * sign, qz * sign, qw * sign);
    // `valve_cosom`.
    let cosom = ((px * qx + py * qy) + pz * qz) + pw * qw;
    if cosom.cmple(Vec4::splat(FULL_COS_MAX)).any() {
        return None;
    }
    let slerp = cosom.cmple(Vec4::splat(SLERP_COS_MAX));
    // `acos_signed`.
    let unit = acos_unit_lanes(cosom.abs());
    let omega = Vec4::select(cosom.cmpge(Vec4::ZERO), unit, Vec4::splat(std::f32::consts::PI) - unit);
    let inv_sin = Vec4::ONE / sin_lanes(omega, &sin_series_lanes(Vec4::ONE));
    // `slerp_with`'s choice of series: the short one below its limit.
    let long = Vec4::select(omega.cmplt(Vec4::splat(SHORT_SERIES_LIMIT)), Vec4::ZERO, Vec4::ONE);
    let series = sin_series_lanes(long);
    let sclp = Vec4::select(slerp, sin_lanes(omega * (1.0 - t), &series) * inv_sin, Vec4::splat(1.0 - t));
    let sclq = Vec4::select(slerp, sin_lanes(omega * t, &series) * inv_sin, Vec4::splat(t));
    Some([px * sclp + qx * sclq, py * sclp + qy * sclq, pz * sclp + qz * sclq, pw * sclp + qw * sclq])
}

/// `QuaternionSlerp` with the fast functions: the same branches and constants as Valve's.
#[inline]
pub fn quaternion_slerp(p: Vec4, q: Vec4, t: f32) -> Vec4 {
    // The same rotation twice (a bone that blends share): Valve's flip test sees |p − q|² = 0
    // and keeps q, and cos ω = |p|², within 1e-6 of 1 for any unit quaternion, so its lerp.
    // That test is made as Valve's is; only the flip test's sums of squares are skipped.
    if p == q && 1.0 - f64::from(valve_cosom(p, q)) <= 0.000001 {
        return p * (1.0 - t) + q * t;
    }
    slerp_with(slerp_setup(p, q), p, q, t)
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
            assert!(
                (f64::from(s) - es).abs() < 2e-7 && (f64::from(c) - ec).abs() < 2e-7,
                "{x}: {s} {c} vs {es} {ec}"
            );
        }
    }

    #[test]
    fn short_series_agrees_with_the_library_below_its_limit() {
        for i in -100..=410 {
            let x = i as f32 * 0.001;
            assert!((f64::from(sin_short(x)) - f64::from(x).sin()).abs() < 6e-8, "sin {x}");
        }
    }

    #[test]
    fn acos_agrees_with_the_library() {
        for i in 0..=10_000 {
            let x = i as f32 / 10_000.0;
            let exact = f64::from(x).acos();
            assert!(
                (f64::from(acos_unit(x)) - exact).abs() < 2.5e-7,
                "acos {x}: {} vs {exact}",
                acos_unit(x)
            );
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
                let fast = quaternion_slerp(Vec4::from_array(p), Vec4::from_array(q), t).to_array();
                let exact = crate::math::quaternion_slerp(p, q, t);
                for c in 0..4 {
                    worst = worst.max((fast[c] - exact[c]).abs());
                }
            }
        }
        assert!(worst < 1e-6, "largest difference {worst}");
    }

    #[test]
    fn the_float_thresholds_make_valves_double_tests() {
        let around = |c: f32| (0..4000u32).map(move |i| f32::from_bits(c.to_bits() - 2000 + i));
        for c in around(0.999_999).chain(around(-0.999_999)).chain([1.0, -1.0, 0.0, 0.5, -0.5]) {
            let cosom = f64::from(c);
            assert_eq!(c <= SLERP_COS_MAX, 1.0 - cosom > 0.000001, "{c}");
            assert_eq!(c <= FULL_COS_MAX, 1.0 + cosom <= 0.000001, "{c}");
        }
    }

    #[test]
    fn four_lane_slerp_is_the_one_lane_slerp() {
        let mut rng = studio_testing::Rng::new(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.unit();
        for trial in 0..5000 {
            let pairs: [(Vec4, Vec4); 4] = std::array::from_fn(|lane| {
                let a = [next() * 6.0 - 3.0, next() * 3.0 - 1.5, next() * 6.0 - 3.0];
                // Equal, a hair apart (lerp), short and long slerps, and the far way round.
                let step = [0.0, 1e-5, 0.2, 1.2, 3.1][(trial + lane) % 5];
                let b = [a[0] + step * (next() - 0.5), a[1] - step * next(), a[2] + step];
                let quaternion = |a| Vec4::from_array(crate::math::angle_quaternion(a));
                (quaternion(a), quaternion(b))
            });
            let t = [0.0, 0.3, 0.5, 1.0, next()][trial % 5];
            let lanes = |f: fn(&(Vec4, Vec4)) -> Vec4| transposed(pairs.map(|pair| f(&pair)));
            let [x, y, z, w] = quaternion_slerp_lanes(lanes(|p| p.0), lanes(|p| p.1), t).unwrap();
            for (lane, (p, q)) in pairs.iter().enumerate() {
                let one = quaternion_slerp(*p, *q, t);
                assert_eq!(Vec4::new(x[lane], y[lane], z[lane], w[lane]), one, "trial {trial} lane {lane}");
            }
        }
        // Negated quaternions are the same rotation: the flip makes them equal, and the lerp
        // gives them back.
        let p = [Vec4::X, Vec4::Y, Vec4::Z, Vec4::W];
        assert_eq!(quaternion_slerp_lanes(p, p.map(|c| -c), 0.5), Some(p));
    }
}
