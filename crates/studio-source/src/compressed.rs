//! The compressed types of animation data (source-animdata.md, "Compressed types"), decoded
//! in float as the engine does.

use glam::{Quat, Vec3};

/// `Quaternion48`: x and y in 16 bits, z in 15, and the sign of w.
pub fn quaternion48(bytes: [u8; 6]) -> Quat {
    let x = u16::from_le_bytes([bytes[0], bytes[1]]);
    let y = u16::from_le_bytes([bytes[2], bytes[3]]);
    let zw = u16::from_le_bytes([bytes[4], bytes[5]]);
    let x = (f32::from(x) - 32768.0) * (1.0 / 32768.0);
    let y = (f32::from(y) - 32768.0) * (1.0 / 32768.0);
    let z = (f32::from(zw & 0x7FFF) - 16384.0) * (1.0 / 16384.0);
    Quat::from_xyzw(x, y, z, w(x, y, z, zw & 0x8000 != 0))
}

/// `Quaternion64`: x, y and z in 21 bits each, and the sign of w.
pub fn quaternion64(bytes: [u8; 8]) -> Quat {
    let bits = u64::from_le_bytes(bytes);
    // The engine's arithmetic: (int)X − 1048576, times the float constant 1 / 1048576.5f.
    let component = |shift: u32| {
        let part = ((bits >> shift) & 0x1F_FFFF) as i32 - 1_048_576;
        part as f32 * (1.0f32 / 1_048_576.5f32)
    };
    let (x, y, z) = (component(0), component(21), component(42));
    Quat::from_xyzw(x, y, z, w(x, y, z, bits >> 63 != 0))
}

/// w from x, y, z of a unit quaternion, in float; the argument is clamped at 0 where rounding
/// takes x² + y² + z² above 1 (the engine would get NaN).
fn w(x: f32, y: f32, z: f32, negative: bool) -> f32 {
    let w = (1.0 - x * x - y * y - z * z).max(0.0).sqrt();
    if negative { -w } else { w }
}

/// One IEEE half float as `Vector48` reads it: exponent 31 is ±65504 (mantissa 0) or 0 (NaN).
pub fn half(bits: u16) -> f32 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((bits >> 10) & 0x1F);
    let mantissa = f32::from(bits & 0x3FF);
    sign * match exponent {
        0 => mantissa / 1024.0 * (2.0f32).powi(-14),
        31 if mantissa == 0.0 => 65504.0,
        31 => 0.0,
        e => (1.0 + mantissa / 1024.0) * (2.0f32).powi(e - 15),
    }
}

/// `Vector48`: three half floats.
pub fn vector48(bytes: [u8; 6]) -> Vec3 {
    let h = |i: usize| half(u16::from_le_bytes([bytes[i], bytes[i + 1]]));
    Vec3::new(h(0), h(2), h(4))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves() {
        assert_eq!(half(0x3C00), 1.0);
        assert_eq!(half(0xC000), -2.0);
        assert_eq!(half(0x7BFF), 65504.0);
        assert_eq!(half(0x7C00), 65504.0, "infinity reads as the largest half");
        assert_eq!(half(0xFC00), -65504.0);
        assert_eq!(half(0x7E00), 0.0, "NaN reads as 0");
        assert_eq!(half(0x0001), 2.0f32.powi(-24), "denormals decode");
        assert_eq!(half(0x3555), 0.333_251_95);
    }

    #[test]
    fn quaternions() {
        // Identity: x = y = z = 0 (X = Y = 32768, Z = 16384), w positive.
        let q = quaternion48([0, 0x80, 0, 0x80, 0, 0x40]);
        assert_eq!(q, Quat::IDENTITY);
        let q = quaternion48([0, 0x80, 0, 0x80, 0, 0xC0]);
        assert_eq!(q.w, -1.0);
        let identity = (1u64 << 20) | (1 << 41) | (1 << 62);
        assert_eq!(quaternion64(identity.to_le_bytes()), Quat::IDENTITY);
        // x at its largest: (2²¹ − 1 − 2²⁰) / (2²⁰ + 0.5) stays below 1, w from what is left.
        let q = quaternion64(((0x1F_FFFFu64) | (1 << 41) | (1 << 62)).to_le_bytes());
        assert!(q.x < 1.0 && q.x > 0.999_99);
        assert!(q.w >= 0.0 && q.w < 0.01);
    }
}
