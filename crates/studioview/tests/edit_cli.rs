//! `studioview texture export|import|rename|uvmap` and `transform` as a modder runs them: on the
//! demo model written to a scratch folder, and on the shared models.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use studio_testing::png_image::{read_png, write_rgba_png};

fn studioview(args: &[&str]) -> Output {
    studio_testing::process::output(Command::new(env!("CARGO_BIN_EXE_studioview")).args(args))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// The demo model, written as a file.
fn demo(dir: &Path) -> PathBuf {
    let path = dir.join("critter.mdl");
    std::fs::write(&path, studio_demo::demo_bytes().unwrap()).unwrap();
    path
}

#[test]
fn export_writes_each_texture_by_name_and_import_of_it_saves_the_same_model() {
    let dir = scratch("texture-export");
    let model = demo(&dir);
    for format in ["png", "bmp"] {
        let out = dir.join(format);
        let result = studioview(&["texture", "export", s(&model), "--out", s(&out), "--format", format]);
        assert!(result.status.success(), "{}", text(&result.stderr));
        let mut names: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let expected: Vec<String> =
            ["chrome", "crest", "critter_green", "critter_orange", "head_green", "head_orange"]
                .iter()
                .map(|n| format!("{n}.{format}"))
                .collect();
        assert_eq!(names, expected);
        // Imported back over its texture and saved: the file as the writer wrote it before.
        let again = dir.join(format!("again_{format}.mdl"));
        let image = out.join(format!("crest.{format}"));
        let result = studioview(&[
            "texture",
            "import",
            s(&model),
            "--texture",
            "crest",
            "--image",
            s(&image),
            "--out",
            s(&again),
        ]);
        assert!(result.status.success(), "{}", text(&result.stderr));
        assert!(text(&result.stdout).contains("its palette and indices kept"), "{}", text(&result.stdout));
        assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&model).unwrap());
    }
    // One texture by name; an unknown name lists the model's.
    let one = dir.join("one");
    let result =
        studioview(&["texture", "export", s(&model), "--out", s(&one), "--texture", "HEAD_GREEN.BMP"]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    assert_eq!(std::fs::read_dir(&one).unwrap().count(), 1);
    let result = studioview(&["texture", "export", s(&model), "--out", s(&one), "--texture", "nose"]);
    assert_eq!(result.status.code(), Some(1));
    assert!(text(&result.stderr).contains("critter_green.bmp"), "{}", text(&result.stderr));
}

/// How many pixels of a render are strongly red.
fn red_pixels(path: &Path) -> usize {
    let (_, _, pixels) = read_png(path);
    pixels.chunks_exact(4).filter(|p| p[0] > 150 && p[1] < 60 && p[2] < 60).count()
}

#[test]
fn an_imported_picture_is_drawn_on_the_model() {
    let dir = scratch("texture-import");
    let model = demo(&dir);
    // A red picture of another size over the body texture.
    let red: Vec<u8> = [230u8, 20, 20, 255].repeat(50 * 40);
    let image = dir.join("red.png");
    write_rgba_png(&image, 50, 40, &red);
    let painted = dir.join("painted.mdl");
    let result = studioview(&[
        "texture",
        "import",
        s(&model),
        "--texture",
        "critter_green",
        "--image",
        s(&image),
        "--out",
        s(&painted),
    ]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let stdout = text(&result.stdout);
    assert!(stdout.contains("50 × 40 picture, resampled to 64 × 64"), "{stdout}");
    let loaded = studio_model::load(&painted).unwrap().model;
    let texture = &loaded.textures[0];
    assert!(texture.rgba().chunks_exact(4).all(|p| p == [230, 20, 20, 255]));
    if studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none() {
        eprintln!("note: no graphics adapter; skipping the render");
        return;
    }
    let render = |model: &Path, out: &Path| {
        let result = studioview(&["render", s(model), "--out", s(out), "--size", "200x150"]);
        assert!(result.status.success(), "{}", text(&result.stderr));
    };
    let (before, after) = (dir.join("before.png"), dir.join("after.png"));
    render(&model, &before);
    render(&painted, &after);
    let (red_before, red_after) = (red_pixels(&before), red_pixels(&after));
    assert!(red_before < 20 && red_after > 1500, "red pixels: {red_before} before, {red_after} after");
}

#[test]
fn a_bad_image_or_model_fails_and_writes_nothing() {
    let dir = scratch("texture-bad");
    let model = demo(&dir);
    let junk = dir.join("junk.png");
    std::fs::write(&junk, b"\x89PNG\r\n\x1a\nnot really").unwrap();
    let out = dir.join("never.mdl");
    for image in [junk, dir.join("missing.png")] {
        let result = studioview(&[
            "texture",
            "import",
            s(&model),
            "--texture",
            "0",
            "--image",
            s(&image),
            "--out",
            s(&out),
        ]);
        assert_eq!(result.status.code(), Some(1));
        let stderr = text(&result.stderr);
        assert!(stderr.contains(image.file_name().unwrap().to_str().unwrap()), "{stderr}");
        assert!(!out.exists());
    }
    let Some(shared) = studio_testing::shared() else { return };
    let source = shared.join("fixtures/source/models/fixture/anim48.mdl");
    for args in [
        vec!["texture", "rename", s(&source), "--texture", "0", "--to", "x.bmp", "--out", s(&out)],
        vec!["transform", s(&source), "--scale", "2", "--out", s(&out)],
    ] {
        let result = studioview(&args);
        assert_eq!(result.status.code(), Some(1));
        assert!(text(&result.stderr).contains("Source model"), "{}", text(&result.stderr));
        assert!(!out.exists());
    }
}

#[test]
fn uvmap_writes_the_layout_at_its_scale() {
    let dir = scratch("texture-uvmap");
    let model = demo(&dir);
    let out = dir.join("uv.png");
    let result = studioview(&[
        "texture",
        "uvmap",
        s(&model),
        "--texture",
        "head_green",
        "--out",
        s(&out),
        "--scale",
        "4",
    ]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (width, height, pixels) = read_png(&out);
    assert_eq!((width, height), (256, 128));
    let lines = pixels.chunks_exact(4).filter(|p| p[3] > 0).count();
    assert!(lines > 500 && lines < 256 * 128 / 2, "{lines} pixels drawn");
}

#[test]
fn a_texture_renamed_dm_base_takes_the_player_colours_in_render() {
    let dir = scratch("texture-rename");
    let model = demo(&dir);
    let renamed = dir.join("player.mdl");
    let result = studioview(&[
        "texture",
        "rename",
        s(&model),
        "--texture",
        "chrome",
        "--to",
        "DM_Base.bmp",
        "--out",
        s(&renamed),
    ]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    // The chrome texture's pixels use every palette entry.
    assert_eq!(studio_model::load(&renamed).unwrap().model.textures[4].name, "DM_Base.bmp");
    let bad =
        studioview(&["texture", "rename", s(&model), "--texture", "0", "--to", "", "--out", s(&renamed)]);
    assert_eq!(bad.status.code(), Some(1));
    if studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none() {
        eprintln!("note: no graphics adapter; skipping the render");
        return;
    }
    let render = |model: &Path, colours: Option<&str>, out: &str| {
        let out = dir.join(out);
        let mut args = vec!["render", s(model), "--out", s(&out), "--size", "160x120"];
        if let Some(colours) = colours {
            args.extend(["--player-colors", colours]);
        }
        let result = studioview(&args);
        assert!(result.status.success(), "{}", text(&result.stderr));
        read_png(&out).2
    };
    // The renamed body texture takes the colours; a model without one is drawn as stored.
    let (red, blue) =
        (render(&renamed, Some("0,0"), "red.png"), render(&renamed, Some("170,170"), "blue.png"));
    assert!(red != blue, "the colours recolour DM_Base");
    let plain = render(&model, None, "plain.png");
    assert!(plain == render(&model, Some("170,170"), "plain_coloured.png"), "nothing to recolour");
    let bad = studioview(&["render", s(&model), "--out", s(&dir.join("x.png")), "--player-colors", "300,2"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn transform_scales_turns_moves_and_flips_then_saves() {
    let dir = scratch("transform");
    let model = demo(&dir);
    let out = dir.join("big.mdl");
    let result = studioview(&[
        "transform",
        s(&model),
        "--scale",
        "2",
        "--rotate",
        "-90",
        "--move",
        "0,0,-4",
        "--flip-normals",
        "--out",
        s(&out),
    ]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (before, after) = (studio_demo::demo_model(), studio_model::load(&out).unwrap().model);
    let eye = before.header.eye_position * 2.0;
    let expected = glam::Vec3::new(eye.y, -eye.x, eye.z - 4.0);
    assert!((after.header.eye_position - expected).length() < 1e-3, "{}", after.header.eye_position);
    let (n0, n1) =
        (before.body_parts[0].submodels[0].normals[0], after.body_parts[0].submodels[0].normals[0]);
    assert_eq!(n1, -n0);
    // Nonsense is refused and nothing is written.
    let never = dir.join("never.mdl");
    let bad = studioview(&["transform", s(&model), "--scale", "0", "--out", s(&never)]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(text(&bad.stderr).contains("positive"), "{}", text(&bad.stderr));
    let bad = studioview(&["transform", s(&model), "--move", "1,2", "--out", s(&never)]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(!never.exists());
}

#[test]
fn a_source_models_materials_export_as_png_and_map_their_uvs() {
    let Some(shared) = studio_testing::shared() else { return };
    // A game folder: skeleton48 under models/fixture, one material with a base texture and a
    // bump map, the other with none found.
    let game = scratch("texture-source");
    let models = game.join("models/fixture");
    let materials = game.join("materials/models/fixture");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::create_dir_all(&materials).unwrap();
    for file in ["skeleton48.mdl", "skeleton48.vvd", "skeleton48.dx90.vtx"] {
        studio_testing::copy(shared.join("fixtures/source/models/fixture").join(file), models.join(file))
            .unwrap();
    }
    std::fs::write(
        materials.join("fixture_skin_a.vmt"),
        br#""VertexLitGeneric" { "$basetexture" "models/fixture/green" "$bumpmap" "models/fixture/flat" }"#,
    )
    .unwrap();
    // RGB888 (format 2), 8 × 4, one mip: a green texture; the bump map 2 × 2.
    let vtf = |w: u16, h: u16, rgb: [u8; 3]| {
        studio_material::write::vtf(4, (w, h), 2, 1, &[rgb.repeat(usize::from(w * h))], None)
    };
    std::fs::write(materials.join("green.vtf"), vtf(8, 4, [10, 200, 30])).unwrap();
    std::fs::write(materials.join("flat.vtf"), vtf(2, 2, [128, 128, 255])).unwrap();
    let model = models.join("skeleton48.mdl");
    let out = game.join("exported");
    let result = studioview(&["texture", "export", s(&model), "--out", s(&out)]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (w, h, pixels) = read_png(&out.join("fixture_skin_a.png"));
    assert_eq!((w, h), (8, 4));
    assert!(pixels.chunks_exact(4).all(|p| p == [10, 200, 30, 255]));
    assert_eq!(read_png(&out.join("fixture_skin_a_normal.png")).0, 2);
    let stderr = text(&result.stderr);
    assert!(stderr.contains("fixture_skin_b: nothing written"), "{stderr}");
    // BMP is for Half-Life's indexed textures.
    let bmp = studioview(&["texture", "export", s(&model), "--out", s(&out), "--format", "bmp"]);
    assert_eq!(bmp.status.code(), Some(1));
    // The UV map at the base texture's size, scaled.
    let map = game.join("uv.png");
    let result = studioview(&[
        "texture",
        "uvmap",
        s(&model),
        "--texture",
        "fixture_skin_a",
        "--out",
        s(&map),
        "--scale",
        "16",
        "--over-texture",
    ]);
    assert!(result.status.success(), "{}", text(&result.stderr));
    let (w, h, pixels) = read_png(&map);
    assert_eq!((w, h), (128, 64));
    // Anti-aliased white lines over green: their red channel stands out.
    let white = pixels.chunks_exact(4).filter(|p| p[0] > 100).count();
    let green = pixels.chunks_exact(4).filter(|p| *p == [10, 200, 30, 255]).count();
    assert!(white > 50 && green > 1000, "{white} line pixels, {green} texture pixels");
    // Import and transform say what they are for.
    let result = studioview(&[
        "texture",
        "import",
        s(&model),
        "--texture",
        "0",
        "--image",
        s(&map),
        "--out",
        s(&game.join("x.mdl")),
    ]);
    assert_eq!(result.status.code(), Some(1));
    assert!(text(&result.stderr).contains("Source model"), "{}", text(&result.stderr));
}
