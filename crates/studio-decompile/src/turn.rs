//! The turn every decompiled file carries for studiomdl's default `$origin` rotation: studiomdl
//! turns what it loads +90° about Z (Half-Life's animations; Source's every source, through
//! `g_defaultrotation`), so the files are turned −90°: `x, y → y, −x`, exact in `f64`, and
//! [`ROOT_TURN`] added to a root bone's z angle.

/// 270° in radians: what a root bone's z angle gets so that studiomdl's +90° lands it back.
pub const ROOT_TURN: f64 = 1.5 * std::f64::consts::PI;

/// A point or direction turned −90° about Z (`0.0 −` keeps a zero positive).
pub fn turn(v: [f64; 3]) -> [f64; 3] {
    [v[1], 0.0 - v[0], v[2]]
}

/// The inverse of [`turn`].
pub fn unturn(v: [f64; 3]) -> [f64; 3] {
    [0.0 - v[1], v[0], v[2]]
}
