//! Motion flags: degrees of freedom for bone controllers, blends and sequence motion
//! (goldsrc-skeleton.md, "Motion flags").

/// Position x.
pub const STUDIO_X: i32 = 0x0001;
/// Position y.
pub const STUDIO_Y: i32 = 0x0002;
/// Position z.
pub const STUDIO_Z: i32 = 0x0004;
/// Rotation about x.
pub const STUDIO_XR: i32 = 0x0008;
/// Rotation about y.
pub const STUDIO_YR: i32 = 0x0010;
/// Rotation about z.
pub const STUDIO_ZR: i32 = 0x0020;
/// Linear movement along x over the sequence.
pub const STUDIO_LX: i32 = 0x0040;
/// Linear movement along y.
pub const STUDIO_LY: i32 = 0x0080;
/// Linear movement along z.
pub const STUDIO_LZ: i32 = 0x0100;
/// Automatic movement along x.
pub const STUDIO_AX: i32 = 0x0200;
/// Automatic movement along y.
pub const STUDIO_AY: i32 = 0x0400;
/// Automatic movement along z.
pub const STUDIO_AZ: i32 = 0x0800;
/// Automatic rotation about x.
pub const STUDIO_AXR: i32 = 0x1000;
/// Automatic rotation about y.
pub const STUDIO_AYR: i32 = 0x2000;
/// Automatic rotation about z.
pub const STUDIO_AZR: i32 = 0x4000;
/// Mask of all the flags above.
pub const STUDIO_TYPES: i32 = 0x7FFF;
/// A controller that wraps round the shortest way.
pub const STUDIO_RLOOP: i32 = 0x8000;

/// Names of the motion flags, lowest bit first, for display.
pub const MOTION_FLAG_NAMES: [(i32, &str); 16] = [
    (STUDIO_X, "X"),
    (STUDIO_Y, "Y"),
    (STUDIO_Z, "Z"),
    (STUDIO_XR, "XR"),
    (STUDIO_YR, "YR"),
    (STUDIO_ZR, "ZR"),
    (STUDIO_LX, "LX"),
    (STUDIO_LY, "LY"),
    (STUDIO_LZ, "LZ"),
    (STUDIO_AX, "AX"),
    (STUDIO_AY, "AY"),
    (STUDIO_AZ, "AZ"),
    (STUDIO_AXR, "AXR"),
    (STUDIO_AYR, "AYR"),
    (STUDIO_AZR, "AZR"),
    (STUDIO_RLOOP, "RLOOP"),
];

/// The names of the flags set in `flags`, joined with `|`; unknown bits as hex; `0` when none.
pub fn motion_flags_text(flags: i32) -> String {
    let mut parts: Vec<String> = MOTION_FLAG_NAMES
        .iter()
        .filter(|(bit, _)| flags & bit != 0)
        .map(|(_, name)| (*name).to_owned())
        .collect();
    let unknown = flags & !(STUDIO_TYPES | STUDIO_RLOOP);
    if unknown != 0 {
        parts.push(format!("{unknown:#x}"));
    }
    if parts.is_empty() { "0".to_owned() } else { parts.join("|") }
}

/// The degree of freedom (0–5: x, y, z, x rotation, y rotation, z rotation) a single flag from
/// `STUDIO_X` to `STUDIO_ZR` names, ignoring `STUDIO_RLOOP`; `None` for anything else.
pub fn degree_of_freedom(flags: i32) -> Option<usize> {
    match flags & STUDIO_TYPES {
        STUDIO_X => Some(0),
        STUDIO_Y => Some(1),
        STUDIO_Z => Some(2),
        STUDIO_XR => Some(3),
        STUDIO_YR => Some(4),
        STUDIO_ZR => Some(5),
        _ => None,
    }
}
