//! The WGSL shaders, embedded from the top-level `shaders/` folder at build time. WGSL has no
//! includes: `frame.wgsl`, the per-frame uniform both read, is prepended to each.

/// The skinned mesh: `shaders/frame.wgsl` and `shaders/mesh.wgsl`.
pub const MESH: &str =
    concat!(include_str!("../../../shaders/frame.wgsl"), include_str!("../../../shaders/mesh.wgsl"));
/// Overlay lines and solids: `shaders/frame.wgsl` and `shaders/overlay.wgsl`.
pub const OVERLAY: &str =
    concat!(include_str!("../../../shaders/frame.wgsl"), include_str!("../../../shaders/overlay.wgsl"));

/// A finished picture drawn into another pass: `shaders/picture.wgsl` (no per-frame uniform).
pub const PICTURE: &str = include_str!("../../../shaders/picture.wgsl");

/// The bones' declaration in `mesh.wgsl`, a read-only storage buffer.
pub const BONES_STORAGE: &str = "var<storage, read> bones: Bones;";

/// The mesh shader reading the bones from a uniform buffer instead, for devices without
/// storage buffers in vertex shaders ([`crate::bones_binding`]).
pub fn mesh_with_uniform_bones() -> String {
    MESH.replacen(BONES_STORAGE, "var<uniform> bones: Bones;", 1)
}

/// Every shader module with the files it is made of, for validation.
pub const ALL: [(&str, &[&str], &str); 3] = [
    ("mesh", &["frame.wgsl", "mesh.wgsl"], MESH),
    ("overlay", &["frame.wgsl", "overlay.wgsl"], OVERLAY),
    ("picture", &["picture.wgsl"], PICTURE),
];
