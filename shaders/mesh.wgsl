// Skinned, textured studio model mesh, after frame.wgsl. Keep in sync with studio-render's
// gpu_types.rs (BonesUniform, MeshVertex, TextureParams).
//
// Skinning is rigid, as in the format: each vertex and each normal follows one bone
// (goldsrc-geometry.md, "Submodels").
//
// No branch depends on a uniform alone: Mesa's software Vulkan driver (lavapipe) inlines the
// uniforms such a branch reads and compiles the shader again whenever their bind group is
// bound, which cost a shader compilation, and memory never given back, per mesh per frame.
// The choices are made with select() instead.

struct Bones {
    model_from_bone: array<mat4x4<f32>, 256>,
};

struct TextureParams {
    // xy: 1 / texture size in texels; z: 1 for chrome; w: 1 for masked.
    params: vec4<f32>,
};

@group(0) @binding(1) var<uniform> bones: Bones;
@group(1) @binding(0) var skin_texture: texture_2d<f32>;
@group(1) @binding(1) var skin_sampler: sampler;
@group(1) @binding(2) var<uniform> texture_params: TextureParams;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) texel: vec2<f32>,
    @location(3) bone: vec2<u32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) model_position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
};

@vertex
fn vs_main(in: VertexIn) -> VertexOut {
    let vertex_bone = bones.model_from_bone[min(in.bone.x, 255u)];
    let normal_bone = bones.model_from_bone[min(in.bone.y, 255u)];
    let position = (vertex_bone * vec4<f32>(in.position, 1.0)).xyz;
    let normal = normalize((normal_bone * vec4<f32>(in.normal, 0.0)).xyz);
    var out: VertexOut;
    out.clip = frame.clip_from_model * vec4<f32>(position, 1.0);
    out.model_position = position;
    out.normal = normal;
    // Chrome: texture coordinates from the normal as seen from the eye.
    let view_normal = normalize((frame.view_from_model * vec4<f32>(normal, 0.0)).xyz);
    let chrome_uv = vec2<f32>(view_normal.x * 0.5 + 0.5, 0.5 - view_normal.y * 0.5);
    out.uv = select(in.texel * texture_params.params.xy, chrome_uv, texture_params.params.z > 0.5);
    return out;
}

fn shade(in: VertexOut) -> f32 {
    // Flat shading: the face's own normal, turned towards the light's side.
    let face = normalize(cross(dpdx(in.model_position), dpdy(in.model_position)));
    let flat_normal = select(face, -face, dot(face, frame.light.xyz) > 0.0);
    let n = select(normalize(in.normal), flat_normal, frame.options.x > 0.5);
    let diffuse = max(dot(n, -frame.light.xyz), 0.0);
    let lit = min(frame.light.w + (1.0 - frame.light.w) * diffuse, 1.0);
    // Unlit (fullbright) when options.z is 0.
    return select(lit, 1.0, frame.options.z < 0.5);
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let texel = textureSample(skin_texture, skin_sampler, in.uv);
    // Masked textures (params.w = 1) drop texels below half alpha; others (0) drop none.
    if texel.a < 0.5 * texture_params.params.w {
        discard;
    }
    let light = shade(in);
    return vec4<f32>(texel.rgb * light, frame.options.y);
}

@fragment
fn fs_wire(in: VertexOut) -> @location(0) vec4<f32> {
    return frame.wire_color;
}
