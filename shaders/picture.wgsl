// A finished picture (the offscreen target's `Rgba8Unorm` copy, sRGB bytes) drawn as it is over
// the render pass's viewport: the viewer's window shows its 3D view through this. No blending,
// no filtering between texels and nothing else per pixel, so that a software rasterizer spends
// on each pixel little more than the copy (see `picture.rs`).

struct Picture {
    // The part of the texture holding the picture: (width, height) as fractions of its sides.
    uv_max: vec2<f32>,
    _pad: vec2<f32>,
};

@group(0) @binding(0) var<uniform> picture: Picture;
@group(0) @binding(1) var picture_texture: texture_2d<f32>;
@group(0) @binding(2) var picture_sampler: sampler;

// Whether the pass's target decodes sRGB on writing: the bytes are then decoded here, so that
// they are stored as they were.
override DECODE_SRGB: bool = false;

struct Corner {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

// The viewport's four corners as a triangle strip: (0,0), (1,0), (0,1), (1,1) in uv.
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> Corner {
    let corner = vec2<f32>(f32(index & 1u), f32(index >> 1u));
    var out: Corner;
    out.position = vec4<f32>(corner.x * 2.0 - 1.0, 1.0 - corner.y * 2.0, 0.0, 1.0);
    out.uv = corner * picture.uv_max;
    return out;
}

fn linear_from_srgb(c: vec3<f32>) -> vec3<f32> {
    let low = c / 12.92;
    let high = pow((c + 0.055) / 1.055, vec3<f32>(2.4));
    return select(high, low, c <= vec3<f32>(0.04045));
}

@fragment
fn fs_main(in: Corner) -> @location(0) vec4<f32> {
    let texel = textureSample(picture_texture, picture_sampler, in.uv);
    if DECODE_SRGB {
        return vec4<f32>(linear_from_srgb(texel.rgb), texel.a);
    }
    return texel;
}
