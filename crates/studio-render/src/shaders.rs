//! The WGSL shaders, embedded from the top-level `shaders/` folder at build time. WGSL has no
//! includes: `frame.wgsl`, the per-frame uniform both read, is prepended to each.

/// The skinned mesh: `shaders/frame.wgsl` and `shaders/mesh.wgsl`.
pub const MESH: &str =
    concat!(include_str!("../../../shaders/frame.wgsl"), include_str!("../../../shaders/mesh.wgsl"));
/// Overlay lines and solids: `shaders/frame.wgsl` and `shaders/overlay.wgsl`.
pub const OVERLAY: &str =
    concat!(include_str!("../../../shaders/frame.wgsl"), include_str!("../../../shaders/overlay.wgsl"));

/// Every shader module with the files it is made of, for validation.
pub const ALL: [(&str, &[&str], &str); 2] =
    [("mesh", &["frame.wgsl", "mesh.wgsl"], MESH), ("overlay", &["frame.wgsl", "overlay.wgsl"], OVERLAY)];
