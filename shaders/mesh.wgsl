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
    // rgb: tint; w: 1 for Half-Life's STUDIO_NF_FLATSHADE (lit at one level).
    tint: vec4<f32>,
    // x: 1 for fullbright; y: 1 for blended (the texels' alpha is kept); z: 1 for reflective
    // ($envmap, drawn as a rim of light where the surface turns away from the eye); w: 1 for
    // Source's $selfillum (game shading: self-lit by the texels' alpha; plain: fullbright).
    flags: vec4<f32>,
    // Game shading: x 1 with a normal map; y 1 with phong; z 1 with a light warp; w 1 with an
    // iris.
    maps: vec4<f32>,
    // Phong: x $phongexponent, y $phongboost.
    phong: vec4<f32>,
    // $phongfresnelranges in xyz.
    fresnel: vec4<f32>,
};

// How many of a vertex's bone slots weigh in: 2 for GoldSrc models (the position's bone and the
// normal's), 3 for Source ones that use the third (gpu_types.rs, BoneSlots). A pipeline for 2
// reads one skinning matrix less per vertex and compiles with 7% fewer instructions on lavapipe.
override BONE_SLOTS: u32 = 3u;

// Whether the pipeline shades as Source's VertexLitGeneric does: tangent-space normal maps
// ($bumpmap), phong ($phongexponent, $phongboost, $phongfresnelranges), light warps
// ($lightwarptexture) and $selfillum masked by the base texture's alpha; and the iris over an
// eyeball's texture. A constant at pipeline creation, so the plain pipeline compiles none of it
// (on lavapipe each texture sample is code compiled lane by lane), and it is used only for
// materials that have any of it.
override GAME_SHADING: bool = false;

// Whether the model is lit by Source's rule (the ambient cube and a directional light) rather
// than Half-Life's studio renderer (docs/lighting.md). A constant at pipeline creation: a model
// is of one engine, and each pipeline computes its rule alone.
override SOURCE_LIGHTING: bool = false;

@group(0) @binding(1) var<storage, read> bones: Bones;
@group(1) @binding(0) var skin_texture: texture_2d<f32>;
@group(1) @binding(1) var skin_sampler: sampler;
@group(1) @binding(2) var<uniform> texture_params: TextureParams;
// Tangent-space normal map, linear: rgb the normal (x along the tangent, y along the bitangent),
// a the phong mask. A flat texel for materials without one.
@group(1) @binding(3) var normal_texture: texture_2d<f32>;
// The light warp: the diffuse term's colour, read along u at the half-Lambert term.
@group(1) @binding(4) var warp_texture: texture_2d<f32>;
// The iris, drawn over the base texture by its alpha at the second texture coordinates.
@group(1) @binding(5) var iris_texture: texture_2d<f32>;

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
    // xyz: the tangent (increasing u), zero where there is none; w: the bitangent's side.
    @location(6) tangent: vec4<f32>,
    // Second texture coordinates (an eyeball's iris projection).
    @location(7) texel2: vec2<f32>,
};

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) model_position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    // How squarely the surface faces the eye: the view-space normal's z.
    @location(3) facing: f32,
    // The tangent turned like the normal (not normalised), and the bitangent's side.
    @location(4) tangent: vec4<f32>,
    @location(5) uv2: vec2<f32>,
    // Half-Life's light on the vertex (Gouraud, as the studio renderer lights vertices), made
    // linear: the factor its texels' linear colour is multiplied by.
    @location(6) studio_light: vec3<f32>,
    // The bone weights view's colour (frame.debug.x above 0).
    @location(7) weight_color: vec3<f32>,
};

// A bright colour for bone `b`: hues a golden angle apart, so neighbours differ.
fn bone_color(b: u32) -> vec3<f32> {
    let h = fract(f32(b) * 0.618034);
    let p = abs(fract(vec3<f32>(h) + vec3<f32>(1.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0);
    return mix(vec3<f32>(1.0), clamp(p - 1.0, vec3<f32>(0.0), vec3<f32>(1.0)), 0.8);
}

// A weight from 0 to 1 as blue, green, red.
fn heat(w: f32) -> vec3<f32> {
    let t = clamp(w, 0.0, 1.0);
    return select(mix(vec3<f32>(0.0, 1.0, 0.0), vec3<f32>(1.0, 0.0, 0.0), 2.0 * t - 1.0),
                  mix(vec3<f32>(0.0, 0.2, 1.0), vec3<f32>(0.0, 1.0, 0.0), 2.0 * t), t < 0.5);
}

// The bone weights view's colour of a vertex of bones `b` and position weights `w`: the bones'
// colours mixed by weight, or (debug.x 2) the weight of bone debug.y as heat.
fn weight_color(b: vec3<u32>, w: vec3<f32>) -> vec3<f32> {
    let per_bone = bone_color(b.x) * w.x + bone_color(b.y) * w.y + bone_color(b.z) * w.z;
    let shown = u32(max(frame.debug.y, 0.0));
    let on = dot(w, select(vec3<f32>(0.0), vec3<f32>(1.0), b == vec3<u32>(shown)));
    return select(per_bone, heat(on), frame.debug.x > 1.5);
}

// Half-Life's level of light (0..1) on a normal whose cosine with the direction the light
// travels is `lightcos` (StudioModel::Lighting in the HL SDK's model viewer): ambient + shade,
// less shade times the light wrapped round by lambert 1.5; a flat-shaded texture takes
// ambient + 0.8 shade. Shade is 192 of 255; the ambient level comes with the frame.
fn goldsrc_level(lightcos: f32, flat: bool) -> f32 {
    let ambient = frame.light_color.w;
    let shade = 192.0 / 255.0;
    let wrapped = max((min(lightcos, 1.0) + 0.5) / 1.5, 0.0);
    return clamp(select(ambient + shade - shade * wrapped, ambient + shade * 0.8, flat), 0.0, 1.0);
}

// sRGB's decoding: the game multiplies its 8-bit texels by the light level, which is the linear
// texel times the decoded level (exact for a power law; within 1% for sRGB's curve).
fn srgb_to_linear(c: vec3<f32>) -> vec3<f32> {
    return select(pow((c + 0.055) / 1.055, vec3<f32>(2.4)), c / 12.92, c <= vec3<f32>(0.04045));
}

// Half-Life's light as the factor on linear texels: the level times the light's colour, both
// as the game's vertex colour, decoded.
fn studio_factor(level: f32) -> vec3<f32> {
    return srgb_to_linear(min(level * frame.light_color.rgb, vec3<f32>(1.0)));
}

// A vertex skinned: its position in the posed model, and the matrix that turns its normal and
// tangent.
struct Skinned {
    position: vec3<f32>,
    turn: mat3x3<f32>,
};

fn skinned(in: VertexIn) -> Skinned {
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
    return Skinned(skin * vec4<f32>(in.position, 1.0), mat3x3<f32>(turn[0], turn[1], turn[2]));
}

@vertex
fn vs_main(in: VertexIn) -> VertexOut {
    let b = min(in.bones.xyz, vec3<u32>(255u));
    let skin = skinned(in);
    let position = skin.position;
    let turn3 = skin.turn;
    let normal = normalize(turn3 * in.normal);
    var out: VertexOut;
    // Only game shading reads them: the plain pipeline compiles neither.
    if GAME_SHADING {
        out.tangent = vec4<f32>(turn3 * in.tangent.xyz, in.tangent.w);
        out.uv2 = in.texel2;
    }
    // Half-Life's lighting is per vertex; Source's pipelines compile none of it.
    if !SOURCE_LIGHTING {
        out.studio_light = studio_factor(goldsrc_level(dot(normal, frame.light.xyz), texture_params.tint.w > 0.5));
    }
    out.weight_color = weight_color(b, in.weights);
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

// The texel's colour lit by the model's engine's rule: Half-Life's level per vertex (per face
// with flat shading), or Source's ambient plus the directional light's Lambert term; unlit when
// the view is fullbright or the material is self-lit.
fn lit_color(in: VertexOut, albedo: vec3<f32>) -> vec3<f32> {
    // Flat shading: the face's own normal, turned towards the light's side.
    let face = normalize(cross(dpdx(in.model_position), dpdy(in.model_position)));
    let flat_normal = select(face, -face, dot(face, frame.light.xyz) > 0.0);
    let flat_view = frame.options.x > 0.5;
    var light: vec3<f32>;
    // A constant at pipeline creation: the other rule compiles away.
    if SOURCE_LIGHTING {
        let n = select(normalize(in.normal), flat_normal, flat_view);
        light = vec3<f32>(frame.light_color.w) + frame.light_color.rgb * max(dot(n, -frame.light.xyz), 0.0);
    } else {
        // Per pixel, sRGB's decoding by a cubic (within 0.5%): pow on every pixel would cost a
        // software renderer more than the rest of the lighting.
        let flat_level = goldsrc_level(dot(flat_normal, frame.light.xyz), texture_params.tint.w > 0.5);
        let c = min(flat_level * frame.light_color.rgb, vec3<f32>(1.0));
        light = select(in.studio_light, c * (c * (c * 0.3053 + 0.6822) + 0.0125), flat_view);
    }
    // Unlit when options.z is 0 (fullbright view) or the material is self-lit; `|` rather than
    // `||`, which would be a branch.
    let unlit = (frame.options.z < 0.5) | (texture_params.flags.x > 0.5) | (texture_params.flags.w > 0.5);
    return select(albedo * light, albedo, unlit);
}

// The eye's position in model space, from the view matrix (a rotation and a translation).
fn eye_position() -> vec3<f32> {
    let v = frame.view_from_model;
    let r = mat3x3<f32>(v[0].xyz, v[1].xyz, v[2].xyz);
    return -(transpose(r) * v[3].xyz);
}

// Source's three-range Fresnel term (VertexLitGeneric's phong): f = 1 − n·v, from the facing
// value to the middle one over f in 0..0.5, and on to the grazing one over 0.5..1.
fn fresnel_ranges(n: vec3<f32>, v: vec3<f32>, ranges: vec3<f32>) -> f32 {
    let f = 1.0 - clamp(dot(n, v), 0.0, 1.0);
    return select(mix(ranges.x, ranges.y, 2.0 * f), mix(ranges.y, ranges.z, 2.0 * f - 1.0), f > 0.5);
}

// Game shading of a texel: the iris over it, the normal map's normal, the light warp or the
// Lambert term, phong, and $selfillum by the texel's alpha.
fn game_color(in: VertexOut, texel: vec4<f32>) -> vec3<f32> {
    let p = texture_params;
    let iris = textureSample(iris_texture, skin_sampler, in.uv2);
    let albedo = mix(texel.rgb, iris.rgb, iris.a * p.maps.w) * p.tint.rgb;
    let face = normalize(cross(dpdx(in.model_position), dpdy(in.model_position)));
    let flat_normal = select(face, -face, dot(face, frame.light.xyz) > 0.0);
    let n0 = select(normalize(in.normal), flat_normal, frame.options.x > 0.5);
    // The tangent frame: the tangent made square to the normal, the bitangent on its side
    // (cross(normal, tangent) · w, as the engine builds it).
    let mapped = textureSample(normal_texture, skin_sampler, in.uv);
    let along = in.tangent.xyz - n0 * dot(n0, in.tangent.xyz);
    let has_frame = (p.maps.x > 0.5) & (dot(along, along) > 1e-12);
    let t = along * inverseSqrt(max(dot(along, along), 1e-24));
    let b = cross(n0, t) * select(1.0, -1.0, in.tangent.w < 0.0);
    let m = mapped.xyz * 2.0 - 1.0;
    let n = select(n0, normalize(t * m.x + b * m.y + n0 * m.z), has_frame);
    let l = -frame.light.xyz;
    let n_dot_l = dot(n, l);
    let warp = textureSample(warp_texture, skin_sampler, vec2<f32>(n_dot_l * 0.5 + 0.5, 0.5)).rgb;
    let diffuse = select(vec3<f32>(max(n_dot_l, 0.0)), warp, p.maps.z > 0.5);
    // Source's ambient cube (all six sides the ambient colour) and the directional light.
    let lit = vec3<f32>(frame.light_color.w) + frame.light_color.rgb * diffuse;
    let v = normalize(eye_position() - in.model_position);
    let r = reflect(-v, n);
    let highlight = pow(max(dot(r, l), 0.0), p.phong.x) * max(n_dot_l, 0.0);
    let mask = select(1.0, mapped.a, p.maps.x > 0.5);
    let specular = highlight * p.phong.y * fresnel_ranges(n, v, p.fresnel.xyz) * mask * p.maps.y;
    let lighting = frame.options.z > 0.5;
    let shaded = select(albedo, albedo * lit + vec3<f32>(specular), lighting & (p.flags.x < 0.5));
    // $selfillum: the texel's alpha blends the lit colour to the unlit one.
    return select(shaded, mix(shaded, albedo, texel.a), p.flags.w > 0.5);
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    let texel = textureSample(skin_texture, skin_sampler, in.uv);
    // Masked and alpha-tested materials drop texels below their reference; others (0) none.
    if texel.a < texture_params.params.w {
        discard;
    }
    // Blended materials keep their texels' alpha; others are opaque but for the view's opacity.
    let alpha = select(1.0, texel.a, texture_params.flags.y > 0.5) * frame.options.y;
    let rim = 1.0 - abs(in.facing);
    let sheen = vec3<f32>(texture_params.flags.z * 0.4 * rim * rim);
    // The bone weights view: its colours, shaded a little so that the shape shows.
    let shape = 0.45 + 0.55 * max(dot(normalize(in.normal), -frame.light.xyz), 0.0);
    let weights = frame.debug.x > 0.5;
    let weighed = vec4<f32>(in.weight_color * shape, 1.0);
    // A constant at pipeline creation: the other side compiles away.
    if GAME_SHADING {
        return select(vec4<f32>(game_color(in, texel) + sheen, alpha), weighed, weights);
    }
    return select(vec4<f32>(lit_color(in, texel.rgb * texture_params.tint.rgb) + sheen, alpha), weighed, weights);
}

@fragment
fn fs_wire(in: VertexOut) -> @location(0) vec4<f32> {
    return frame.wire_color;
}

// Vertex normals: each vertex of the mesh (stepped per instance) as a line from its skinned
// position along its skinned normal, frame.debug.z long; corner 0 is the start, 1 the end.
@vertex
fn vs_normal(in: VertexIn, @builtin(vertex_index) corner: u32) -> NormalOut {
    let skin = skinned(in);
    let normal = normalize(skin.turn * in.normal);
    let end = skin.position + normal * frame.debug.z * f32(min(corner, 1u));
    var out: NormalOut;
    out.clip = frame.clip_from_model * vec4<f32>(end, 1.0);
    return out;
}

struct NormalOut {
    @builtin(position) clip: vec4<f32>,
};

@fragment
fn fs_normal(in: NormalOut) -> @location(0) vec4<f32> {
    // sRGB 60, 230, 255: cyan, as other viewers draw normals.
    return vec4<f32>(0.045, 0.79, 1.0, 1.0);
}
