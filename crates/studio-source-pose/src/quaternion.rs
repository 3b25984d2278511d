//! The quaternion operations of the engine's blending (source-bonesetup.md, "Quaternion
//! operations used by blending"), in float as the engine computes them. Quaternions are glam's
//! `Quat` read as (x, y, z, w).

use glam::{Quat, Vec4};

/// `QuaternionAlign`: `q`, or −`q` when that is closer to `p` (|p − q|² > |p + q|²).
pub fn align(p: Quat, q: Quat) -> Quat {
    let (p, q4) = (Vec4::from(p), Vec4::from(q));
    let apart = (p - q4).length_squared();
    let together = (p + q4).length_squared();
    if apart > together { -q } else { q }
}

/// Normalises, leaving a zero quaternion as it is (the engine's `QuaternionNormalize`).
pub fn normalize(q: Vec4) -> Quat {
    let length = q.length();
    if length > 0.0 { Quat::from_vec4(q / length) } else { Quat::from_vec4(q) }
}

/// `QuaternionBlend`: the normalised linear blend from `p` to `q` (aligned to `p`) at `t`.
pub fn nlerp(p: Quat, q: Quat, t: f32) -> Quat {
    let q = align(p, q);
    normalize(Vec4::from(p) * (1.0 - t) + Vec4::from(q) * t)
}

/// `QuaternionSlerp`: spherical interpolation from `p` to `q` aligned to `p`.
pub fn slerp(p: Quat, q: Quat, t: f32) -> Quat {
    slerp_no_align(p, align(p, q), t)
}

/// `QuaternionSlerpNoAlign`.
pub fn slerp_no_align(p: Quat, q: Quat, t: f32) -> Quat {
    let (p4, q4) = (Vec4::from(p), Vec4::from(q));
    let cosom = p4.dot(q4);
    if 1.0 + cosom > 0.000_001 {
        let (sclp, sclq) = if 1.0 - cosom > 0.000_001 {
            let omega = cosom.acos();
            let sinom = omega.sin();
            (((1.0 - t) * omega).sin() / sinom, (t * omega).sin() / sinom)
        } else {
            (1.0 - t, t)
        };
        Quat::from_vec4(p4 * sclp + q4 * sclq)
    } else {
        // Opposite: through a perpendicular quaternion.
        let perpendicular = Vec4::new(-q4.y, q4.x, -q4.w, q4.z);
        let sclp = ((1.0 - t) * 0.5 * std::f32::consts::PI).sin();
        let sclq = (t * 0.5 * std::f32::consts::PI).sin();
        Quat::from_vec4(p4 * sclp + perpendicular * sclq)
    }
}

/// `QuaternionScale`: the rotation of `q` with its angle multiplied by `t`.
pub fn scale(q: Quat, t: f32) -> Quat {
    let xyz = glam::Vec3::new(q.x, q.y, q.z);
    let sin_a = xyz.length().min(1.0);
    let a = sin_a.asin();
    let sin_ta = (t * a).sin();
    let factor = sin_ta / (sin_a + f32::EPSILON);
    let w = (1.0 - sin_ta * sin_ta).max(0.0).sqrt();
    let w = if q.w < 0.0 { -w } else { w };
    Quat::from_xyzw(xyz.x * factor, xyz.y * factor, xyz.z * factor, w)
}

/// `QuaternionMult`: the Hamilton product `p · q`, `q` first aligned to `p`.
pub fn mult(p: Quat, q: Quat) -> Quat {
    let q = align(p, q);
    Quat::from_xyzw(
        p.x * q.w + p.y * q.z - p.z * q.y + p.w * q.x,
        -p.x * q.z + p.y * q.w + p.z * q.x + p.w * q.y,
        p.x * q.y - p.y * q.x + p.z * q.w + p.w * q.z,
        -p.x * q.x - p.y * q.y - p.z * q.z + p.w * q.w,
    )
}

/// `AngleQuaternion` of a `RadianEuler` (x roll, y pitch, z yaw): qZ · qY · qX
/// (source-animdata.md, "Euler angles to quaternion").
pub fn from_euler(angles: glam::Vec3) -> Quat {
    let (sr, cr) = (angles.x * 0.5).sin_cos();
    let (sp, cp) = (angles.y * 0.5).sin_cos();
    let (sy, cy) = (angles.z * 0.5).sin_cos();
    Quat::from_xyzw(
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_order_is_z_then_y_then_x() {
        let angles = glam::Vec3::new(0.3, -0.7, 1.9);
        let expected = Quat::from_rotation_z(angles.z)
            * Quat::from_rotation_y(angles.y)
            * Quat::from_rotation_x(angles.x);
        assert!(from_euler(angles).abs_diff_eq(expected, 1e-6));
    }

    #[test]
    fn scale_and_mult() {
        let q = Quat::from_rotation_z(1.2);
        assert!(scale(q, 0.5).abs_diff_eq(Quat::from_rotation_z(0.6), 1e-6));
        assert!(scale(q, 0.0).abs_diff_eq(Quat::IDENTITY, 1e-6));
        let p = Quat::from_rotation_x(0.4);
        assert!(mult(p, q).abs_diff_eq(p * q, 1e-6));
        // q on the far side is aligned before multiplying.
        assert!(mult(p, -q).abs_diff_eq(p * q, 1e-6));
    }

    #[test]
    fn blends() {
        let (p, q) = (Quat::from_rotation_y(0.2), Quat::from_rotation_y(1.0));
        assert!(slerp(p, q, 0.5).abs_diff_eq(Quat::from_rotation_y(0.6), 1e-6));
        assert!(slerp(p, -q, 0.5).abs_diff_eq(Quat::from_rotation_y(0.6), 1e-6));
        assert!(nlerp(p, q, 0.5).abs_diff_eq(Quat::from_rotation_y(0.6), 1e-6));
        assert!(nlerp(p, q, 0.25).angle_between(Quat::from_rotation_y(0.4)) < 0.01);
    }
}
