//! Sprites built here as `sprgen` lays them out: read back field by field; every cut of the
//! file and a thousand mutations give an error naming its place, never a panic or a runaway
//! allocation.

use studio_sprite::{Frame, Orientation, Problem, RenderFormat, parse};

/// A picture's `dspriteframe_t` and pixels.
fn picture(out: &mut Vec<u8>, origin: [i32; 2], width: i32, height: i32, fill: impl Fn(i32, i32) -> u8) {
    for v in [origin[0], origin[1], width, height] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for y in 0..height {
        for x in 0..width {
            out.push(fill(x, y));
        }
    }
}

/// A version 2 sprite: a single 4 × 2 frame, then a group of three 2 × 2 pictures.
fn sprite(format: i32) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"IDSP");
    for v in [2i32, 2, format] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&3.5f32.to_le_bytes());
    for v in [4i32, 2, 2] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&0.0f32.to_le_bytes());
    out.extend_from_slice(&0i32.to_le_bytes());
    out.extend_from_slice(&256i16.to_le_bytes());
    for i in 0..256u32 {
        out.extend_from_slice(&[i as u8, (255 - i) as u8, 7]);
    }
    out.extend_from_slice(&0i32.to_le_bytes());
    picture(&mut out, [-2, 1], 4, 2, |x, y| (x + 4 * y) as u8 * 30 + 5);
    out.extend_from_slice(&1i32.to_le_bytes());
    out.extend_from_slice(&3i32.to_le_bytes());
    for t in [0.1f32, 0.25, 0.5] {
        out.extend_from_slice(&t.to_le_bytes());
    }
    for k in 0..3u8 {
        picture(&mut out, [-1, 1], 2, 2, |_, _| 255 - k);
    }
    out
}

#[test]
fn a_sprite_reads_back_field_by_field() {
    let s = parse(&sprite(3)).unwrap();
    assert_eq!((s.orientation, s.format), (Orientation::Parallel, RenderFormat::AlphaTest));
    assert_eq!((s.width, s.height, s.bounding_radius), (4, 2, 3.5));
    assert_eq!(s.palette.len(), 256);
    assert_eq!(s.palette[10], [10, 245, 7]);
    assert_eq!(s.frames.len(), 2);
    let Frame::Single(p) = &s.frames[0] else { panic!("a single frame") };
    assert_eq!((p.origin, p.width, p.height), ([-2, 1], 4, 2));
    assert_eq!(p.pixels[5], (1 + 4) * 30 + 5, "pixel (1, 1)");
    let Frame::Group { intervals, pictures } = &s.frames[1] else { panic!("a group") };
    assert_eq!(intervals, &[0.1, 0.25, 0.5]);
    assert_eq!(pictures.len(), 3);
    // R_GetSpriteFrame's choice: the first picture whose time is past, looping over 0.5 s.
    let at = |t: f32| s.frames[1].picture_at(t).unwrap().pixels[0];
    assert_eq!([at(0.0), at(0.12), at(0.3), at(0.55), at(0.49)], [255, 254, 253, 255, 253]);
    // Alpha test: index 255 transparent; index alpha: the last colour, alpha the index.
    let rgba = s.rgba(&pictures[0]);
    assert_eq!(&rgba[..4], &[255, 0, 7, 0]);
    let rgba = s.rgba(p);
    assert_eq!(&rgba[..4], &[5, 250, 7, 255]);
    let s = parse(&sprite(2)).unwrap();
    let Frame::Single(p) = &s.frames[0] else { panic!() };
    assert_eq!(&s.rgba(p)[..4], &[255, 0, 7, 5]);
}

#[test]
fn what_is_wrong_is_named_with_its_place() {
    let mut bytes = sprite(1);
    bytes[0] = b'X';
    let e = parse(&bytes).unwrap_err();
    assert!(matches!(e.problem, Problem::Ident(_)) && e.to_string().starts_with("header at byte 0"), "{e}");
    let mut bytes = sprite(1);
    bytes[4] = 1;
    assert!(matches!(parse(&bytes).unwrap_err().problem, Problem::Version(1)));
    let mut bytes = sprite(1);
    bytes[28..32].copy_from_slice(&1_000_000i32.to_le_bytes());
    let e = parse(&bytes).unwrap_err();
    assert_eq!((e.record.as_str(), e.offset), ("header", 28), "{e}");
    // A group's intervals must rise.
    let mut bytes = sprite(1);
    let at = bytes.len() - 3 * (16 + 4) - 12;
    bytes[at + 4..at + 8].copy_from_slice(&0.05f32.to_le_bytes());
    let e = parse(&bytes).unwrap_err();
    assert!(matches!(e.problem, Problem::Interval { index: 1, .. }) && e.record == "frame 1", "{e}");
}

#[test]
fn cuts_and_mutations_are_errors_with_a_place_never_panics() {
    let bytes = sprite(0);
    for len in 0..bytes.len() {
        let cut = &bytes[..len];
        let e = parse(cut).expect_err("a cut file");
        assert!(e.offset <= len as u64, "{e}");
    }
    let mut rng = studio_testing::Rng::new(2);
    for _ in 0..2000 {
        let mut mutated = bytes.clone();
        studio_testing::mutate(&mut rng, &mut mutated, (8, 9));
        let read = studio_testing::read_guarded(mutated.len() as u64, "sprite", || {
            parse(&mutated).map(|_| ()).map_err(|e| e.to_string())
        });
        assert!(read.is_ok(), "{read:?}");
    }
}
