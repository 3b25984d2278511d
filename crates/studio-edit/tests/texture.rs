//! Texture export, import and UV maps on the demo model (always here) and the shared models.

use studio_edit::texture::{
    self, ImageFormat, Picture, PictureError, UvMapOptions, decode_picture, image_bytes, import_picture,
    uv_map,
};
use studio_edit::{Change, GoldRecord, Records};
use studio_model::Model;
use studio_testing::{Rng, shared};

/// The demo model, and the shared models whose textures differ in kind: the soldier's (two skin
/// families sharing a slot), the groups fixture's (a texture file, chrome, masked).
fn models() -> Vec<(String, Model)> {
    let mut models = vec![("demo".to_owned(), studio_demo::demo_model())];
    if let Some(shared) = shared() {
        for path in ["models/ns/soldier.mdl", "fixtures/groups.mdl"] {
            let loaded = studio_model::load(&shared.join(path)).unwrap();
            models.push((path.to_owned(), loaded.model));
        }
    }
    models
}

fn written(model: &Model) -> studio_model::WrittenFiles {
    studio_model::write(model).unwrap()
}

/// Applies an import as the viewer does: through the edit's record, so that it can be undone.
fn apply(
    model: &mut Model,
    index: usize,
    picture: Picture,
) -> (GoldRecord, GoldRecord, texture::ImportReport) {
    let (before, after, report) = import_picture(model, index, picture).unwrap();
    let before = GoldRecord::TextureImage(index, Box::new(before));
    let after = GoldRecord::TextureImage(index, Box::new(after));
    assert!(model.apply(&Change::Set { before: before.clone(), after: after.clone() }));
    (before, after, report)
}

#[test]
fn export_then_import_changes_nothing() {
    for (name, original) in models() {
        let files = written(&original);
        for format in [ImageFormat::Png, ImageFormat::Bmp] {
            let mut model = original.clone();
            for index in 0..model.textures.len() {
                let bytes = image_bytes(&model.textures[index], format).unwrap();
                let picture = decode_picture(&bytes, "exported").unwrap();
                assert!(matches!(picture, Picture::Indexed { .. }), "{name} {index} {format:?}");
                let (_, _, report) = apply(&mut model, index, picture);
                assert!(report.kept_indices && report.coordinates == 0, "{name} {index}: {report:?}");
            }
            assert_eq!(model, original, "{name} {format:?}");
            assert_eq!(written(&model), files, "{name} {format:?}: the saved files differ");
        }
    }
}

/// A true-colour picture of `width × height` in four flat colours by quadrant; with `hole`, its
/// top-left quadrant transparent.
fn quadrants(width: u32, height: u32, hole: bool) -> Picture {
    let colours = [[200, 10, 10, 255], [10, 200, 10, 255], [10, 10, 200, 255], [240, 240, 0, 255]];
    let mut pixels = Vec::new();
    for y in 0..height {
        for x in 0..width {
            let q = usize::from(x >= width / 2) + 2 * usize::from(y >= height / 2);
            let mut colour = colours[q];
            if hole && q == 0 {
                colour[3] = 0;
            }
            pixels.extend_from_slice(&colour);
        }
    }
    Picture::Rgba { width, height, pixels }
}

#[test]
fn a_picture_of_another_size_gives_its_colours_and_rescaled_coordinates() {
    let original = studio_demo::demo_model();
    // The chrome texture (32 × 32) is shown by the same slot in both families, so its size may
    // change: 70 × 48 becomes 72 × 48 (the width a multiple of 4).
    let index = original.textures.iter().position(|t| t.name == "chrome.bmp").unwrap();
    let mut model = original.clone();
    let (_, after, report) = apply(&mut model, index, quadrants(70, 48, false));
    assert_eq!(report.new_size, (72, 48), "{report:?}");
    assert!(!report.kept_indices && !report.reduced && !report.size_held, "{report:?}");
    let texture = &model.textures[index];
    assert_eq!((texture.width, texture.height, texture.pixels.len()), (72, 48, 72 * 48));
    assert_eq!(texture.flags, original.textures[index].flags);
    // Few colours, kept exactly: the four, and the blends the filter that widened it made
    // along the seams.
    let colour = |x: usize, y: usize| texture.palette[usize::from(texture.pixels[y * 72 + x])];
    assert_eq!(colour(2, 2), [200, 10, 10]);
    assert_eq!(colour(70, 2), [10, 200, 10]);
    assert_eq!(colour(2, 40), [10, 10, 200]);
    assert_eq!(colour(70, 40), [240, 240, 0]);
    // Every coordinate of the meshes drawn with it: s × 72 / 32, t × 48 / 32, to the nearest.
    let GoldRecord::TextureImage(_, after) = after else { unreachable!() };
    let places = texture::import::meshes_using(&original, index);
    assert!(!places.is_empty());
    assert_eq!(after.meshes.len(), places.len());
    let mut moved = 0;
    for place in places {
        let old = &original.body_parts[place.body_part].submodels[place.submodel].meshes[place.mesh];
        let new = &model.body_parts[place.body_part].submodels[place.submodel].meshes[place.mesh];
        for (a, b) in old.vertices.iter().zip(&new.vertices) {
            assert_eq!(i32::from(b.s), (f64::from(a.s) * 72.0 / 32.0).round() as i32);
            assert_eq!(i32::from(b.t), (f64::from(a.t) * 48.0 / 32.0).round() as i32);
            moved += usize::from(a.s != b.s || a.t != b.t);
        }
    }
    assert_eq!(moved, report.coordinates);
    assert!(moved > 0);
    // Meshes drawn with other textures keep theirs.
    for (p, part) in model.body_parts.iter().enumerate() {
        for (s, sub) in part.submodels.iter().enumerate() {
            for (m, mesh) in sub.meshes.iter().enumerate() {
                if !texture::import::meshes_using(&original, index)
                    .iter()
                    .any(|q| (q.body_part, q.submodel, q.mesh) == (p, s, m))
                {
                    assert_eq!(mesh, &original.body_parts[p].submodels[s].meshes[m]);
                }
            }
        }
    }
    // Saved and read back: the same texture and coordinates.
    let files = written(&model);
    let read = studio_model::parse(&studio_model::ModelFiles {
        stem: "demo",
        main: &files.main,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(read.textures[index].pixels, model.textures[index].pixels);
    assert_eq!(read.textures[index].palette, model.textures[index].palette);
    assert_eq!(read.body_parts, model.body_parts);
}

#[test]
fn a_shared_slot_holds_the_size_and_undo_restores_everything() {
    let original = studio_demo::demo_model();
    // critter_green.bmp: slot 0 shows it in family 0 and critter_orange.bmp in family 1.
    let index = original.textures.iter().position(|t| t.name == "critter_green.bmp").unwrap();
    let mut model = original.clone();
    let (before, after, report) = apply(&mut model, index, quadrants(100, 30, false));
    assert!(report.size_held, "{report:?}");
    assert_eq!(report.new_size, (64, 64));
    assert_eq!(report.coordinates, 0);
    assert_ne!(model, original);
    assert!(Model::changes_upload(&Change::Set { before: before.clone(), after: after.clone() }));
    assert!(model.apply(&Change::Set { before: after, after: before }));
    assert_eq!(model, original);
}

#[test]
fn a_masked_texture_keeps_index_255_for_transparent_pixels() {
    let original = studio_demo::demo_model();
    let index = original.textures.iter().position(|t| t.is_masked()).unwrap();
    let mut model = original.clone();
    let (_, _, report) = apply(&mut model, index, quadrants(32, 32, true));
    assert!(!report.kept_indices);
    let texture = &model.textures[index];
    for y in 0..32usize {
        for x in 0..32usize {
            let transparent = x < 16 && y < 16;
            assert_eq!(texture.pixels[y * 32 + x] == 255, transparent, "({x}, {y})");
        }
    }
    assert_eq!(texture.palette[255], texture::quantize::MASK_COLOUR);
    // The exported PNG shows the holes: index 255 is transparent in it.
    let png = image_bytes(texture, ImageFormat::Png).unwrap();
    let rgba = image::load_from_memory(&png).unwrap().into_rgba8();
    assert_eq!(rgba.get_pixel(3, 3).0[3], 0);
    assert_eq!(rgba.get_pixel(20, 3).0, [10, 200, 10, 255]);
    // Imported again as true colour (a painter's program saved it as RGBA): the same pixels.
    let again = Picture::Rgba { width: 32, height: 32, pixels: rgba.into_raw() };
    let mut twice = model.clone();
    apply(&mut twice, index, again);
    assert_eq!(twice.textures[index].rgba(), model.textures[index].rgba());
}

#[test]
fn a_true_colour_picture_of_many_colours_is_quantized_close_to_it() {
    let original = studio_demo::demo_model();
    let index = original.textures.iter().position(|t| t.name == "chrome.bmp").unwrap();
    let (width, height) = (128u32, 96u32);
    let pixels: Vec<u8> = (0..height)
        .flat_map(|y| {
            (0..width).flat_map(move |x| [(x * 2) as u8, (y * 2 + x / 4) as u8, (255 - x - y) as u8, 255])
        })
        .collect();
    let mut model = original.clone();
    let (_, _, report) = apply(&mut model, index, Picture::Rgba { width, height, pixels: pixels.clone() });
    assert!(report.reduced && report.colours_in.is_some_and(|n| n > 256), "{report:?}");
    let rgba = model.textures[index].rgba();
    let error: u64 = rgba.iter().zip(&pixels).map(|(a, b)| u64::from(a.abs_diff(*b))).sum();
    let mean = error as f64 / (width * height * 3) as f64;
    assert!(mean < 4.0, "mean error {mean}");
}

#[test]
fn bad_pictures_are_refused_with_the_files_name() {
    // Not an image.
    let error = decode_picture(b"this is no picture at all", "notes.txt").unwrap_err();
    assert!(
        matches!(error, PictureError::Format { .. }) && error.to_string().contains("notes.txt"),
        "{error}"
    );
    // A PNG whose header claims 100000 × 100000 pixels: refused before a pixel is decoded.
    let mut png = image_bytes(&studio_demo::demo_model().textures[0], ImageFormat::Png).unwrap();
    png[16..20].copy_from_slice(&100_000u32.to_be_bytes());
    png[20..24].copy_from_slice(&100_000u32.to_be_bytes());
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    let error = decode_picture(&png, "huge.png").unwrap_err();
    assert!(matches!(error, PictureError::TooLarge { width: 100_000, .. }), "{error}");
    // A true-colour TGA as large: refused the same way.
    let mut tga = vec![0u8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    tga.extend_from_slice(&20_000u16.to_le_bytes());
    tga.extend_from_slice(&20_000u16.to_le_bytes());
    tga.extend_from_slice(&[32, 8]);
    let error = decode_picture(&tga, "huge.tga").unwrap_err();
    assert!(matches!(error, PictureError::TooLarge { .. }), "{error}");
    // No pixels: a TGA of 0 × 0, and a PNG of width 0.
    let mut empty = vec![0u8, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 8];
    empty.extend_from_slice(&[0; 4]);
    let error = decode_picture(&empty, "empty.tga").unwrap_err();
    assert!(error.to_string().contains("empty.tga"), "{error}");
    png[16..20].copy_from_slice(&0u32.to_be_bytes());
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    let error = decode_picture(&png, "empty.png").unwrap_err();
    assert!(error.to_string().contains("empty.png"), "{error}");
}

/// PNG's CRC-32 of a chunk's type and data.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// The same picture in every format the importer reads.
fn encoded_pictures() -> Vec<(&'static str, Vec<u8>)> {
    let model = studio_demo::demo_model();
    let texture = &model.textures[2];
    let rgba = image::RgbaImage::from_raw(texture.width, texture.height, texture.rgba()).unwrap();
    let rgb = image::DynamicImage::ImageRgba8(rgba.clone()).into_rgb8();
    let encode = |format: image::ImageFormat, image: &image::DynamicImage| {
        let mut out = std::io::Cursor::new(Vec::new());
        image.write_to(&mut out, format).unwrap();
        out.into_inner()
    };
    vec![
        ("indexed.png", image_bytes(texture, ImageFormat::Png).unwrap()),
        ("indexed.bmp", image_bytes(texture, ImageFormat::Bmp).unwrap()),
        ("rgba.png", encode(image::ImageFormat::Png, &image::DynamicImage::ImageRgba8(rgba))),
        ("rgb.bmp", encode(image::ImageFormat::Bmp, &image::DynamicImage::ImageRgb8(rgb.clone()))),
        ("rgb.tga", encode(image::ImageFormat::Tga, &image::DynamicImage::ImageRgb8(rgb.clone()))),
        ("rgb.jpg", encode(image::ImageFormat::Jpeg, &image::DynamicImage::ImageRgb8(rgb))),
    ]
}

#[test]
fn every_format_reads_and_cut_or_mutated_files_never_crash_the_reader() {
    let model = studio_demo::demo_model();
    let texture = &model.textures[2];
    for (name, bytes) in encoded_pictures() {
        let picture = decode_picture(&bytes, name).unwrap();
        assert_eq!(picture.size(), (texture.width, texture.height), "{name}");
        if !name.ends_with(".jpg") {
            assert_eq!(picture.to_rgba(), texture.rgba(), "{name}");
        }
        // Every cut, and 400 mutations: an error or a picture within the limits, never a panic.
        let check = |cut: &[u8], what: &str| match decode_picture(cut, name) {
            Ok(picture) => {
                let (w, h) = picture.size();
                assert!(
                    w > 0 && h > 0 && u64::from(w) * u64::from(h) <= texture::picture::MAX_PIXELS,
                    "{what}"
                );
            }
            Err(error) => assert!(error.to_string().contains(name), "{what}: {error}"),
        };
        for len in (0..bytes.len()).step_by(bytes.len() / 97 + 1) {
            check(&bytes[..len], &format!("{name} cut at {len}"));
        }
        let mut rng = Rng::new(45);
        for round in 0..400 {
            let mut mutated = bytes.clone();
            studio_testing::mutate(&mut rng, &mut mutated, (0, 8));
            check(&mutated, &format!("{name} mutation {round}"));
        }
    }
}

#[test]
fn the_uv_map_draws_the_edges_of_the_textures_triangles() {
    let model = studio_demo::demo_model();
    let index = model.textures.iter().position(|t| t.name == "critter_green.bmp").unwrap();
    let (width, height, lines) = uv_map(&model, index, &UvMapOptions::default()).unwrap();
    assert_eq!((width, height), (64, 64));
    // The middle of every edge is drawn; the picture is transparent away from the lines.
    let alpha =
        |pixels: &[u8], x: f32, y: f32, w: u32| pixels[(y as usize * w as usize + x as usize) * 4 + 3];
    let mut edges = 0;
    let mut drawn = vec![false; (width * height) as usize];
    for place in texture::import::meshes_using(&model, index) {
        let mesh = &model.body_parts[place.body_part].submodels[place.submodel].meshes[place.mesh];
        for triangle in &mesh.triangles {
            for (a, b) in [(0, 1), (1, 2), (2, 0)] {
                let (p, q) = (mesh.vertices[triangle[a] as usize], mesh.vertices[triangle[b] as usize]);
                let (x, y) =
                    ((f32::from(p.s) + f32::from(q.s)) / 2.0, (f32::from(p.t) + f32::from(q.t)) / 2.0);
                if (0.0..64.0).contains(&x) && (0.0..64.0).contains(&y) {
                    assert!(alpha(&lines, x, y, width) > 0, "the edge through ({x}, {y}) is missing");
                    drawn[y as usize * 64 + x as usize] = true;
                    edges += 1;
                }
            }
        }
    }
    assert!(edges > 10);
    let clear = lines.chunks_exact(4).filter(|p| p[3] == 0).count();
    assert!(clear > 64 * 64 / 4, "only {clear} pixels are left clear");
    assert!(lines.chunks_exact(4).all(|p| p[3] == 0 || p[..3] == [255, 255, 255]));
    // Over the texture, at twice the size: the texture's colours where no line is.
    let options = UvMapOptions { scale: 2.0, over_texture: true, ..UvMapOptions::default() };
    let (w2, h2, over) = uv_map(&model, index, &options).unwrap();
    assert_eq!((w2, h2), (128, 128));
    let rgba = model.textures[index].rgba();
    let same = (0..128 * 128)
        .filter(|i| {
            let (x, y) = (i % 128 / 2, i / 128 / 2);
            over[i * 4..i * 4 + 4] == rgba[(y * 64 + x) * 4..(y * 64 + x) * 4 + 4]
        })
        .count();
    assert!(same > 128 * 128 / 4, "only {same} pixels show the texture");
    // Scales that make no picture are refused.
    for scale in [0.0, -1.0, f32::NAN, 1000.0] {
        assert!(uv_map(&model, index, &UvMapOptions { scale, ..UvMapOptions::default() }).is_err());
    }
}

#[test]
fn a_texture_is_renamed_and_the_name_checked() {
    let mut model = studio_demo::demo_model();
    let before = GoldRecord::TextureName(0, model.textures[0].name.clone());
    let after = GoldRecord::TextureName(0, "painted.bmp".to_owned());
    assert!(model.apply(&Change::Set { before, after }));
    assert_eq!(model.textures[0].name, "painted.bmp");
    let read = studio_model::Model::parse(&written(&model).main).unwrap();
    assert_eq!(read.textures[0].name, "painted.bmp");
    assert!(texture::is_valid_name("DM_Base.bmp"));
    assert!(!texture::is_valid_name(""));
    assert!(!texture::is_valid_name(&"x".repeat(64)));
    assert!(!texture::is_valid_name("bad\u{e9}.bmp"));
}

#[test]
fn a_true_colour_import_over_dm_base_says_the_recoloured_ranges_are_lost() {
    let mut model = studio_demo::demo_model();
    let index = model.textures.iter().position(|t| t.name == "chrome.bmp").unwrap();
    model.textures[index].name = "DM_Base.bmp".to_owned();
    let (_, _, report) = import_picture(&model, index, quadrants(32, 32, false)).unwrap();
    let ranges = report.lost_remap.expect("the ranges are lost");
    assert_eq!((ranges.low, ranges.high), (160, 223));
    assert!(report.summary().contains("160–223"), "{}", report.summary());
    // Its own palette, exported and imported, keeps them.
    let bytes = image_bytes(&model.textures[index], ImageFormat::Png).unwrap();
    let (_, _, report) = import_picture(&model, index, decode_picture(&bytes, "dm.png").unwrap()).unwrap();
    assert_eq!(report.lost_remap, None);
}
