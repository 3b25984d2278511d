// The per-frame uniform both shaders read: prepended to each by studio-render's shaders.rs.
// Keep in sync with studio-render's gpu_types.rs (FrameUniform).

struct Frame {
    clip_from_model: mat4x4<f32>,
    view_from_model: mat4x4<f32>,
    // xyz: direction the light travels, in model space; w: unused (the lighting rule is the
    // mesh pipeline's SOURCE_LIGHTING constant, docs/lighting.md).
    light: vec4<f32>,
    // x: 1 for flat shading; y: mesh opacity; z: 1 to light the mesh; w: unused.
    options: vec4<f32>,
    wire_color: vec4<f32>,
    // rgb: the light's colour; w: the ambient level.
    light_color: vec4<f32>,
    // x: bone weights view (0 off, 1 a colour per bone, 2 one bone's weight); y: that bone;
    // z: the length of normals' lines; w: unused.
    debug: vec4<f32>,
};

@group(0) @binding(0) var<uniform> frame: Frame;
