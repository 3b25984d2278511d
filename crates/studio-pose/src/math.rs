//! Valve's quaternion arithmetic from the Half-Life SDK's `studio_util.cpp`, kept to its order
//! of operations: `AngleQuaternion`, `QuaternionSlerp`, `QuaternionMatrix`.
//!
//! Quaternions are `[x, y, z, w]` like Valve's `vec4_t`, and are never renormalised (the
//! reference poses depend on that). Where C promotes to double (`1.0 - t`, the sines of the
//! slerp), the arithmetic here is done in `f64` and rounded back, as the compiled C does.

use glam::{Affine3A, Mat3A, Vec3A, Vec4};

/// A quaternion as Valve stores it: x, y, z, w.
pub type Quaternion = [f32; 4];

/// `AngleQuaternion`: Euler angles (x, y, z) in radians, read as roll, pitch, yaw, to the
/// quaternion of the rotation `Rz(z) · Ry(y) · Rx(x)`.
pub fn angle_quaternion(angles: [f32; 3]) -> Quaternion {
    let half = |a: f32| (f64::from(a) * 0.5) as f32;
    let (sy, cy) = sin_cos(half(angles[2]));
    let (sp, cp) = sin_cos(half(angles[1]));
    let (sr, cr) = sin_cos(half(angles[0]));
    [
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    ]
}

/// `sin` and `cos` of a float computed in double and rounded, as C's `sin(float)` does.
fn sin_cos(angle: f32) -> (f32, f32) {
    let (s, c) = f64::from(angle).sin_cos();
    (s as f32, c as f32)
}

/// `QuaternionSlerp`: from `p` to `q` by `t`, the shorter way round (`q` is negated when
/// `|p − q|² > |p + q|²`); a plain lerp when `1 − cos ω ≤ 1e-6`.
pub fn quaternion_slerp(p: Quaternion, q: Quaternion, t: f32) -> Quaternion {
    let mut a = 0.0f32;
    let mut b = 0.0f32;
    for i in 0..4 {
        a += (p[i] - q[i]) * (p[i] - q[i]);
        b += (p[i] + q[i]) * (p[i] + q[i]);
    }
    let q = if a > b { [-q[0], -q[1], -q[2], -q[3]] } else { q };
    let cosom = p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3];
    let cosom64 = f64::from(cosom);
    let t64 = f64::from(t);
    if 1.0 + cosom64 > 0.000001 {
        let (sclp, sclq) = if 1.0 - cosom64 > 0.000001 {
            let omega = cosom64.acos() as f32;
            let sinom = f64::from(omega).sin() as f32;
            let omega64 = f64::from(omega);
            (
                (((1.0 - t64) * omega64).sin() / f64::from(sinom)) as f32,
                ((t64 * omega64).sin() / f64::from(sinom)) as f32,
            )
        } else {
            ((1.0 - t64) as f32, t)
        };
        [
            sclp * p[0] + sclq * q[0],
            sclp * p[1] + sclq * q[1],
            sclp * p[2] + sclq * q[2],
            sclp * p[3] + sclq * q[3],
        ]
    } else {
        let perpendicular = [-q[1], q[0], -q[3], q[2]];
        let sclp = ((1.0 - t64) * (0.5 * std::f64::consts::PI)).sin() as f32;
        let sclq = (t64 * (0.5 * std::f64::consts::PI)).sin() as f32;
        [
            sclp * p[0] + sclq * perpendicular[0],
            sclp * p[1] + sclq * perpendicular[1],
            sclp * p[2] + sclq * perpendicular[2],
            perpendicular[3],
        ]
    }
}

/// `QuaternionMatrix` with the translation `pos`: a bone's transform relative to its parent.
/// Valve's terms in the same order, in single precision (C evaluates them in double; the
/// difference is within an ulp of each element).
pub fn bone_matrix(q: Vec4, pos: Vec3A) -> Affine3A {
    let (c0, c1, c2) = quaternion_columns(q);
    Affine3A { matrix3: Mat3A::from_cols(c0, c1, c2), translation: pos }
}

/// `QuaternionMatrix`'s rotation as the columns of Valve's row-major `matrix[row][col]`:
///
/// ```text
/// 1 − 2yy − 2zz   2xy − 2wz       2xz + 2wy
/// 2xy + 2wz       1 − 2xx − 2zz   2yz − 2wx
/// 2xz − 2wy       2yz + 2wx       1 − 2xx − 2yy
/// ```
///
/// Each element is formed as in C, left to right (`1.0 - 2.0*y*y - 2.0*z*z`), three lanes at a
/// time. Doubling is exact, so `2·x·z` is the same float whichever factor is doubled, and the
/// lanes can share their products.
#[inline]
fn quaternion_columns(q: Vec4) -> (Vec3A, Vec3A, Vec3A) {
    let v = Vec3A::new(q.x, q.y, q.z);
    let v2 = v + v;
    let square = v2 * v; // 2xx, 2yy, 2zz
    let cross = v2 * Vec3A::new(q.y, q.z, q.x); // 2xy, 2yz, 2zx
    let w = v * (q.w + q.w); // 2wx, 2wy, 2wz
    let w_turned = Vec3A::new(w.z, w.x, w.y); // 2wz, 2wx, 2wy
    let plus = cross + w_turned; // 2xy + 2wz, 2yz + 2wx, 2zx + 2wy
    let minus = cross - w_turned; // 2xy − 2wz, 2yz − 2wx, 2zx − 2wy
    let diagonal =
        (Vec3A::ONE - Vec3A::new(square.y, square.x, square.x)) - Vec3A::new(square.z, square.z, square.y);
    (
        Vec3A::new(diagonal.x, plus.x, minus.z),
        Vec3A::new(minus.x, diagonal.y, plus.y),
        Vec3A::new(plus.z, minus.y, diagonal.z),
    )
}

/// `ConcatTransforms(parent, bone_matrix(q, pos))`: a child bone's model-space transform. Each
/// element is Valve's sum `in1[i][0]*in2[0][j] + in1[i][1]*in2[1][j] + in1[i][2]*in2[2][j]`,
/// left to right, for three rows at once.
#[inline]
pub fn concat_bone(parent: &Affine3A, q: Vec4, pos: Vec3A) -> Affine3A {
    let (r0, r1, r2) = quaternion_columns(q);
    let (a, b, c) = (parent.matrix3.x_axis, parent.matrix3.y_axis, parent.matrix3.z_axis);
    Affine3A {
        matrix3: Mat3A::from_cols(
            a * r0.x + b * r0.y + c * r0.z,
            a * r1.x + b * r1.y + c * r1.z,
            a * r2.x + b * r2.y + c * r2.z,
        ),
        translation: a * pos.x + b * pos.y + c * pos.z + parent.translation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Quaternion, b: Quaternion) -> bool {
        a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-6)
    }

    #[test]
    fn angle_quaternion_is_z_then_y_then_x() {
        let q = angle_quaternion([0.3, -0.7, 1.1]);
        let g = glam::Quat::from_rotation_z(1.1)
            * glam::Quat::from_rotation_y(-0.7)
            * glam::Quat::from_rotation_x(0.3);
        assert!(close(q, g.to_array()), "{q:?} {g:?}");
    }

    #[test]
    fn slerp_takes_the_shorter_way_and_ends_on_its_inputs() {
        let p = angle_quaternion([0.0, 0.0, 0.2]);
        let q = angle_quaternion([0.0, 0.0, 1.4]);
        assert!(close(quaternion_slerp(p, q, 0.0), p));
        assert!(close(quaternion_slerp(p, q, 1.0), q));
        assert!(close(quaternion_slerp(p, q, 0.5), angle_quaternion([0.0, 0.0, 0.8])));
        // -q is the same rotation: the result is the same, not the long way round.
        let neg = q.map(|c| -c);
        let mid = quaternion_slerp(p, neg, 0.5);
        assert!(close(mid, angle_quaternion([0.0, 0.0, 0.8])), "{mid:?}");
    }

    #[test]
    fn nearly_equal_quaternions_are_lerped() {
        let p = angle_quaternion([0.1, 0.2, 0.3]);
        let q = angle_quaternion([0.1, 0.2, 0.3001]);
        let r = quaternion_slerp(p, q, 0.25);
        let lerp: Vec<f32> = (0..4).map(|i| 0.75 * p[i] + 0.25 * q[i]).collect();
        assert_eq!(r.to_vec(), lerp);
    }

    #[test]
    fn concat_bone_is_parent_times_bone_matrix() {
        let parent =
            bone_matrix(Vec4::from_array(angle_quaternion([0.1, 0.2, 0.3])), Vec3A::new(4.0, 5.0, 6.0));
        let q = Vec4::from_array(angle_quaternion([-0.4, 0.5, 1.6]));
        let pos = Vec3A::new(1.0, -2.0, 3.0);
        assert!(concat_bone(&parent, q, pos).abs_diff_eq(parent * bone_matrix(q, pos), 1e-6));
    }

    #[test]
    fn bone_matrix_matches_glam_for_unit_quaternions() {
        let q = angle_quaternion([0.4, 0.5, -0.6]);
        let m = bone_matrix(Vec4::from_array(q), Vec3A::new(1.0, 2.0, 3.0));
        let g =
            Affine3A::from_rotation_translation(glam::Quat::from_array(q), glam::Vec3::new(1.0, 2.0, 3.0));
        assert!(m.abs_diff_eq(g, 1e-6));
    }
}
