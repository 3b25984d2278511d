//! The WGSL shaders, embedded from the top-level `shaders/` folder at build time.

/// The skinned mesh: `shaders/mesh.wgsl`.
pub const MESH: &str = include_str!("../../../shaders/mesh.wgsl");
/// Overlay lines and solids: `shaders/overlay.wgsl`.
pub const OVERLAY: &str = include_str!("../../../shaders/overlay.wgsl");

/// Every shader with its file name, for validation.
pub const ALL: [(&str, &str); 2] = [("mesh.wgsl", MESH), ("overlay.wgsl", OVERLAY)];
