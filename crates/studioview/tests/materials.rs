//! A Source fixture's materials found in a game folder made here: one `.vmt` and `.vtf` loose on
//! disk, the other in a `.vpk` archive; both draw their texels, and without the archive its
//! material draws the checkerboard and its note names the paths tried.

use std::path::PathBuf;

use studio_archive::write::{VpkFile, vpk};
use studio_material::write::vtf;
use studio_render::source::{SourceFrame, render_model};
use studio_render::{Camera, GpuContext, OFFSCREEN_FORMAT, OffscreenTarget, RenderOptions, Renderer, Scene};
use studio_source_pose::{SourceEvaluator, SourceRequest, params};

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

/// A game folder `name` in the scratch space with skeleton48 under `models/fixture` and an
/// empty `materials/models/fixture`: (the game folder, the models folder, the materials folder).
fn fixture_game(shared: &std::path::Path, name: &str) -> (PathBuf, PathBuf, PathBuf) {
    let game = scratch(name);
    let models = game.join("models/fixture");
    std::fs::create_dir_all(&models).unwrap();
    for file in ["skeleton48.mdl", "skeleton48.vvd", "skeleton48.dx90.vtx"] {
        studio_testing::copy(shared.join("fixtures/source/models/fixture").join(file), models.join(file))
            .unwrap();
    }
    let loose = game.join("materials/models/fixture");
    std::fs::create_dir_all(&loose).unwrap();
    (game, models, loose)
}

/// A 4×4 RGB888 texture of one colour with its mips.
fn solid(rgb: [u8; 3]) -> Vec<u8> {
    let mips: Vec<Vec<u8>> = [16, 4, 1].iter().map(|&n| rgb.repeat(n)).collect();
    vtf(4, (4, 4), 2, 1, &mips, None)
}

/// Pixels within 8 of `rgb`.
fn count(pixels: &[u8], rgb: [u8; 3]) -> usize {
    pixels.chunks(4).filter(|p| (0..3).all(|i| (i32::from(p[i]) - i32::from(rgb[i])).abs() <= 8)).count()
}

#[test]
fn materials_loose_and_archived_draw_their_texels_and_a_missing_one_the_checkerboard() {
    let Some(shared) = studio_testing::shared() else { return };
    let context = match GpuContext::headless() {
        Ok(c) => c,
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("note: no graphics adapter ({e}); skipping");
            return;
        }
        Err(e) => panic!("CI must be able to render: {e}"),
    };
    // The game folder: the fixture's files under models/, its materials beside them.
    let (game, models, loose) = fixture_game(&shared, "material-game");
    std::fs::write(
        loose.join("fixture_skin_a.vmt"),
        br#""VertexLitGeneric" { "$basetexture" "models/fixture/green" }"#,
    )
    .unwrap();
    std::fs::write(loose.join("green.vtf"), solid([0, 255, 0])).unwrap();
    let blue = solid([0, 0, 255]);
    let vmt = br#""VertexLitGeneric" { "$basetexture" "models/fixture/blue" }"#;
    let (dir, archive) = vpk(
        2,
        &[
            VpkFile { path: "materials/models/fixture/fixture_skin_b.vmt", bytes: vmt, preload: 0 },
            VpkFile { path: "materials/models/fixture/blue.vtf", bytes: &blue, preload: 8 },
        ],
        true,
    );
    std::fs::write(game.join("pak01_dir.vpk"), dir).unwrap();
    std::fs::write(game.join("pak01_000.vpk"), archive).unwrap();

    let path = models.join("skeleton48.mdl");
    let model = studio_source::load(&path).unwrap().model;
    let mut evaluator = SourceEvaluator::new(&model);
    let values: Vec<f32> = evaluator.rig().pose_parameters.iter().map(params::default_value).collect();
    let mut frame = SourceFrame::default();
    evaluator.evaluate(
        &SourceRequest {
            sequence: 0,
            cycle: 0.0,
            params: &values,
            controllers: None,
            time: 0.0,
            autoplay: false,
            layers: &[],
        },
        &mut frame.bones,
    );
    frame.place(&model, 0, None);
    let points: Vec<glam::Vec3> = frame.bones.iter().map(|b| b.translation.into()).collect();
    let min = points.iter().fold(glam::Vec3::INFINITY, |a, &p| a.min(p)) - glam::Vec3::splat(4.0);
    let max = points.iter().fold(glam::Vec3::NEG_INFINITY, |a, &p| a.max(p)) + glam::Vec3::splat(4.0);
    let camera = Camera::framing(min, max, 30.0, 15.0);
    let draw = |materials| {
        let samples = context.sample_count(OFFSCREEN_FORMAT);
        let mut renderer = Renderer::new(&context, OFFSCREEN_FORMAT, samples);
        let gpu = renderer.upload(&render_model(&model, materials));
        let target = OffscreenTarget::new(&context, 320, 240, samples);
        let mut options = RenderOptions { lighting: false, ..RenderOptions::default() };
        options.overlay.grid = false;
        let scene = Scene { pose: frame.frame_pose(), camera: &camera, options: &options };
        studio_render::render_image(&context, &mut renderer, &gpu, &target, &scene).unwrap().pixels
    };

    let resolved = studio_document::materials::resolve(&model, &path, &[]);
    assert_eq!(resolved.folders, std::slice::from_ref(&game), "the game folder is found above models/");
    assert!(resolved.messages.is_empty(), "{:?}", resolved.messages);
    assert!(resolved.found[0].vtf_origin.as_deref().unwrap().ends_with("green.vtf"));
    assert!(resolved.found[1].vtf_origin.as_deref().unwrap().contains("pak01_dir.vpk:"));
    let pixels = draw(resolved.materials);
    let (green, blue, magenta) =
        (count(&pixels, [0, 255, 0]), count(&pixels, [0, 0, 255]), count(&pixels, [255, 0, 255]));
    assert!(green > 300 && blue > 300 && magenta == 0, "green {green}, blue {blue}, magenta {magenta}");

    // Without the archive, skin b is missing: the checkerboard, and a note of where it looked.
    std::fs::remove_file(game.join("pak01_dir.vpk")).unwrap();
    let resolved = studio_document::materials::resolve(&model, &path, &[]);
    assert_eq!(resolved.messages.len(), 1, "{:?}", resolved.messages);
    assert!(
        resolved.messages[0].contains("fixture_skin_b")
            && resolved.messages[0].contains("materials/models/fixture/fixture_skin_b.vmt")
    );
    let pixels = draw(resolved.materials);
    let (green, blue, magenta) =
        (count(&pixels, [0, 255, 0]), count(&pixels, [0, 0, 255]), count(&pixels, [255, 0, 255]));
    assert!(green > 300 && blue == 0 && magenta > 30, "green {green}, blue {blue}, magenta {magenta}");
}

#[test]
fn a_material_brings_its_normal_map_light_warp_iris_and_phong_and_says_what_is_missing() {
    let Some(shared) = studio_testing::shared() else { return };
    let (_, models, loose) = fixture_game(&shared, "material-maps");
    std::fs::write(
        loose.join("fixture_skin_a.vmt"),
        br#""VertexLitGeneric" { "$basetexture" "models/fixture/green" "$bumpmap" "models/fixture/normal"
            "$phong" 1 "$phongexponent" 12 "$phongboost" 3 "$phongfresnelranges" "[0.1 0.5 0.9]"
            "$lightwarptexture" "models/fixture/warp" "$selfillum" 1 }"#,
    )
    .unwrap();
    std::fs::write(
        loose.join("fixture_skin_b.vmt"),
        br#""EyeRefract" { "$iris" "models/fixture/iris" "$bumpmap" "models/fixture/nowhere" }"#,
    )
    .unwrap();
    for (name, rgb) in [("green", [0, 255, 0]), ("normal", [128, 128, 255]), ("warp", [255, 0, 0])] {
        std::fs::write(loose.join(format!("{name}.vtf")), solid(rgb)).unwrap();
    }
    // The iris in RGBA8888 with an alpha of 0 (EyeRefract's alpha is not coverage).
    let mips: Vec<Vec<u8>> = [16, 4, 1].iter().map(|&n| [0, 0, 255, 0].repeat(n)).collect();
    std::fs::write(loose.join("iris.vtf"), vtf(4, (4, 4), 0, 1, &mips, None)).unwrap();
    let path = models.join("skeleton48.mdl");
    let model = studio_source::load(&path).unwrap().model;
    let resolved = studio_document::materials::resolve(&model, &path, &[]);
    let a = &resolved.materials[0];
    assert_eq!(a.normal_map.as_ref().map(|i| &i.rgba[..4]), Some(&[128, 128, 255, 255][..]));
    assert_eq!(a.light_warp.as_ref().map(|i| &i.rgba[..4]), Some(&[255, 0, 0, 255][..]));
    let phong = a.phong.expect("phong");
    assert_eq!((phong.exponent, phong.boost, phong.fresnel_ranges), (12.0, 3.0, [0.1, 0.5, 0.9]));
    assert!(a.self_illum && !a.fullbright, "$selfillum is masked, not fullbright");
    assert!(a.game_shaded());
    let b = &resolved.materials[1];
    assert_eq!(
        b.iris.as_ref().map(|i| &i.rgba[..4]),
        Some(&[0, 0, 255, 255][..]),
        "EyeRefract's iris is opaque"
    );
    assert!(b.image.is_none(), "EyeRefract has no base texture, and needs none: white under the iris");
    assert!(b.normal_map.is_none());
    assert!(!resolved.messages.iter().any(|m| m.contains("no $basetexture")), "{:?}", resolved.messages);
    assert!(
        resolved.messages.iter().any(|m| m.contains("fixture_skin_b") && m.contains("$bumpmap is left out")),
        "{:?}",
        resolved.messages
    );
}
