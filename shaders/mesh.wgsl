// Skinned, textured studio model mesh, after frame.wgsl. Keep in sync with studio-render's
// gpu_types.rs (BonesBuffer, MeshVertex, TextureParams).
//
// Each vertex is skinned by up to 3 weighted bones, its position and its normal each with their
// own weights over them: GoldSrc vertices follow one bone with weight 1 and their normal its own
// bone (goldsrc-geometry.md, "Submodels"); Source vertices carry the .vvd's up to 3 weights, and
// their normal follows the same blend (source-bonesetup.md, "Skinning and poseToBone").
// `bones` holds each bone's skinning matrix. Skinning matrices are affine, so only their top
// three rows are read (mat4x3 has mat4x4's layout). Every element read through a per-vertex
// index is a gather, and `bones` is a read-only storage buffer rather than a uniform one
// because of how Mesa's software renderer compiles them: from a uniform buffer it unrolls each
// gather lane by lane, from a storage buffer it loops over the lanes. Compiling the mesh
// pipeline then takes a fifth fewer instructions (callgrind: about 990 M → 780 M on the NS
// soldier). Each vertex costs a little more to skin, which is small beside its pixels.
//
// No branch depends on a uniform alone: Mesa's software Vulkan driver (lavapipe) inlines the
// uniforms such a branch reads and compiles the shader again whenever their bind group is
// bound, which cost a shader compilation, and memory never given back, per mesh per frame.
// The choices are made with select() instead.

struct Bones {
    model_from_bone: array<mat4x3<f32>, 256>,
};

struct TextureParams {
    // xy: texel scale (1 / texture size for texel units); z: 1 for chrome; w: alpha below which
    // texels are dropped (0: none).
    params: vec4<f32>,
    // rgb: tint; w: unused.
    tint: vec4<f32>,
    // x: 1 for fullbright; y: 1 for blended (the texels' alpha is kept); z: 1 for reflective
    // ($envmap, drawn as a rim of light where the surface turns away from the eye); w: unused.
    flags: vec4<f32>,
};

// How many of a vertex's bone slots weigh in: 2 for GoldSrc models (the position's bone and the
// normal's), 3 for Source ones that use the third (gpu_types.rs, BoneSlots). A pipeline for 2
// reads one skinning matrix less per vertex and compiles with 7% fewer instructions on lavapipe.
override BONE_SLOTS: u32 = 3u;

@group(0) @binding(1) var<storage, read> bones: Bones;
@group(1) @binding(0) var skin_texture: texture_2d<f32>;
@group(1) @binding(1) var skin_sampler: sampler;
@group(1) @binding(2) var<uniform> texture_params: TextureParams;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) texel: vec2<f32>,
    // The bone of each slot; w is padding.
    @location(3) bones: vec4<u32>,
    // The position's weight on each slot's bone.
    @location(4) weights: vec3<f32>,
    // The normal's weight on each slot's bone.
    @location(5) normal_weights: vec3<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) model_position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    // How squarely the surface faces the eye: the view-space normal's z.
    @location(3) facing: f32,
};

@vertex
fn vs_main(in: VertexIn) -> VertexOut {
    let b = min(in.bones.xyz, vec3<u32>(255u));
    let m0 = bones.model_from_bone[b.x];
    let m1 = bones.model_from_bone[b.y];
    var skin = m0 * in.weights.x + m1 * in.weights.y;
    var turn = m0 * in.normal_weights.x + m1 * in.normal_weights.y;
    // A constant at pipeline creation: the branch and, for 2, the third read compile away.
    if BONE_SLOTS > 2u {
        let m2 = bones.model_from_bone[b.z];
        skin += m2 * in.weights.z;
        turn += m2 * in.normal_weights.z;
    }
    let position = skin * vec4<f32>(in.position, 1.0);
    let normal = normalize(mat3x3<f32>(turn[0], turn[1], turn[2]) * in.normal);
    var out: VertexOut;
    out.clip = frame.clip_from_model * vec4<f32>(position, 1.0);
    out.model_position = position;
    out.normal = normal;
    // Chrome: texture coordinates from the normal as seen from the eye.
    let view_normal = normalize((frame.view_from_model * vec4<f32>(normal, 0.0)).xyz);
    let chrome_uv = vec2<f32>(view_normal.x * 0.5 + 0.5, 0.5 - view_normal.y * 0.5);
    out.uv = select(in.texel * texture_params.params.xy, chrome_uv, texture_params.params.z > 0.5);
    out.facing = view_normal.z;
    return out;
}

fn shade(in: VertexOut) -> f32 {
    // Flat shading: the face's own normal, turned towards the light's side.
    let face = normalize(cross(dpdx(in.model_position), dpdy(in.model_position)));
    let flat_normal = select(face, -face, dot(face, frame.light.xyz) > 0.0);
    let n = select(normalize(in.normal), flat_normal, frame.options.x > 0.5);
    let diffuse = max(dot(n, -frame.light.xyz), 0.0);
    let lit = min(frame.light.w + (1.0 - frame.light.w) * diffuse, 1.0);
    // Unlit when options.z is 0 (fullbright view) or the material is self-lit; `|` rather than
    // `||`, which would be a branch.
    return select(lit, 1.0, (frame.options.z < 0.5) | (texture_params.flags.x > 0.5));
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let texel = textureSample(skin_texture, skin_sampler, in.uv);
    // Masked and alpha-tested materials drop texels below their reference; others (0) none.
    if texel.a < texture_params.params.w {
        discard;
    }
    let light = shade(in);
    // Blended materials keep their texels' alpha; others are opaque but for the view's opacity.
    let alpha = select(1.0, texel.a, texture_params.flags.y > 0.5) * frame.options.y;
    let rim = 1.0 - abs(in.facing);
    let sheen = texture_params.flags.z * 0.4 * rim * rim;
    return vec4<f32>(texel.rgb * texture_params.tint.rgb * light + vec3<f32>(sheen), alpha);
}

@fragment
fn fs_wire(in: VertexOut) -> @location(0) vec4<f32> {
    return frame.wire_color;
}
