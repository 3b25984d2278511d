//! `render --muzzle-flashes`: Natural Selection's `v_mg.mdl` fires event 5001 ("20") on frame 0
//! of `shoot`. In a game folder with a `sprites/muzzleflash1.spr` of our own (a solid green
//! square, additive), the flash is drawn on that frame only, green added over a small patch
//! at the barrel; with no sprite to be found, the picture is the plain one and the places
//! tried are said.

use std::process::{Command, Output};

fn studioview(args: &[&str]) -> Output {
    studio_testing::process::output(Command::new(env!("CARGO_BIN_EXE_studioview")).args(args))
}

/// The pixels (x, y) where PNG `with` is much greener than PNG `plain`.
fn greener(plain: &std::path::Path, with: &std::path::Path, width: usize) -> Vec<(usize, usize)> {
    let (_, _, a) = studio_testing::png_image::read_png(plain);
    let (_, _, b) = studio_testing::png_image::read_png(with);
    a.chunks_exact(4)
        .zip(b.chunks_exact(4))
        .enumerate()
        .filter(|(_, (p, w))| i32::from(w[1]) - i32::from(p[1]) > 60 && w[0] <= p[0].saturating_add(8))
        .map(|(i, _)| (i % width, i / width))
        .collect()
}

#[test]
fn a_flash_event_draws_its_sprite_at_the_attachment_on_its_frame() {
    let Some(shared) = studio_testing::shared() else { return };
    if studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none() {
        eprintln!("note: no graphics adapter; skipping the render");
        return;
    }
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), "muzzle-flash");
    let game = dir.join("ns");
    std::fs::create_dir_all(game.join("models")).unwrap();
    std::fs::create_dir_all(game.join("sprites")).unwrap();
    std::fs::write(game.join("liblist.gam"), "game \"Natural Selection\"\n").unwrap();
    let model = game.join("models/v_mg.mdl");
    studio_testing::copy(shared.join("models/ns/v_mg.mdl"), &model).unwrap();
    let render = |extra: &[&str], out: &str| {
        let out = dir.join(out);
        let mut args = vec!["render", model.to_str().unwrap(), "--seq", "shoot", "--size", "320x240"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", out.to_str().unwrap()]);
        let result = studioview(&args);
        assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
        (out, String::from_utf8_lossy(&result.stderr).into_owned())
    };
    let bytes = |p: &std::path::Path| std::fs::read(p).unwrap();
    // No sprite yet: nothing drawn, and where it was looked for is said.
    let (plain, _) = render(&["--frame", "0"], "plain.png");
    let (missing, said) = render(&["--frame", "0", "--muzzle-flashes"], "missing.png");
    assert_eq!(bytes(&plain), bytes(&missing));
    assert!(said.contains("sprites/muzzleflash1.spr not found"), "{said}");
    assert!(said.contains("ns"), "the game folder is among the places tried: {said}");

    // A 128-pixel green square, parallel to the view, additive.
    let sprite = studio_testing::sprite_file::solid(2, 1, 128, [0, 255, 0]);
    std::fs::write(game.join("sprites/muzzleflash1.spr"), sprite).unwrap();
    let (flash, said) = render(&["--frame", "0", "--muzzle-flashes"], "flash.png");
    assert!(!said.contains("not drawn"), "{said}");
    let green = greener(&plain, &flash, 320);
    // 0.2 × 0.5–0.6 of 128 units: a patch of some pixels, far from filling the picture.
    assert!(green.len() > 20, "{} pixels turned green", green.len());
    let (xs, ys): (Vec<usize>, Vec<usize>) = green.iter().copied().unzip();
    let span = |v: &[usize]| v.iter().max().unwrap() - v.iter().min().unwrap();
    assert!(span(&xs) < 160 && span(&ys) < 120, "a compact patch: {} × {}", span(&xs), span(&ys));

    // Frame 5 fires nothing: the plain picture of that frame.
    let (plain5, _) = render(&["--frame", "5"], "plain5.png");
    let (flash5, _) = render(&["--frame", "5", "--muzzle-flashes"], "flash5.png");
    assert_eq!(bytes(&plain5), bytes(&flash5));

    // An animation from frame 0: the first frame flashes, the second does not.
    let frames = dir.join("frames");
    std::fs::create_dir_all(&frames).unwrap();
    let out = format!("{}/", frames.display());
    let result = studioview(&[
        "render",
        model.to_str().unwrap(),
        "--seq",
        "shoot",
        "--size",
        "320x240",
        "--frames",
        "2",
        "--muzzle-flashes",
        "--out",
        &out,
    ]);
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    let mut written: Vec<_> = std::fs::read_dir(&frames).unwrap().map(|e| e.unwrap().path()).collect();
    written.sort();
    assert_eq!(written.len(), 2);
    assert_eq!(greener(&plain, &written[0], 320).len(), green.len(), "the first frame flashes as the still");
}
