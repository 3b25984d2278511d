//! `render --frames`: an animation of the demo model written as GIF, APNG, WebP and PNG
//! frames, read back with each format's own decoder (frame count, size, delays, alpha).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn studioview(args: &[&str]) -> Output {
    studio_testing::process::output(Command::new(env!("CARGO_BIN_EXE_studioview")).args(args))
}

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

fn no_adapter_outside_ci() -> bool {
    let skip = studio_render::GpuContext::headless().is_err() && std::env::var_os("CI").is_none();
    if skip {
        eprintln!("note: no graphics adapter; skipping");
    }
    skip
}

/// `render` of the demo model's walk, 12 frames at 24 a second, 96 × 72, to `out`.
fn capture(out: &Path, transparent: bool) {
    let mut args =
        vec!["render", "--seq", "walk", "--frames", "12", "--fps", "24", "--size", "96x72", "--out"];
    args.push(out.to_str().unwrap());
    if transparent {
        args.push("--transparent");
    }
    let result = studioview(&args);
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
}

#[test]
fn an_animation_reads_back_in_every_format() {
    if no_adapter_outside_ci() {
        return;
    }
    let dir = scratch("capture");
    // GIF: 12 frames of 96 × 72, 4 or 5 hundredths each (12 frames at 24 fps: half a second),
    // differing as the critter walks; transparent pixels where it is not.
    for transparent in [false, true] {
        let path = dir.join(format!("walk_{transparent}.gif"));
        capture(&path, transparent);
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(std::fs::File::open(&path).unwrap()).unwrap();
        assert_eq!((decoder.width(), decoder.height()), (96, 72));
        let mut frames = Vec::new();
        let mut length = 0;
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            length += u32::from(frame.delay);
            frames.push(frame.buffer.to_vec());
        }
        assert_eq!(frames.len(), 12);
        assert_eq!(length, 50);
        assert_ne!(frames[0], frames[6], "the critter walks");
        let clear = frames[0].chunks_exact(4).filter(|p| p[3] == 0).count();
        if transparent {
            assert!(clear > 96 * 72 / 2, "{clear} clear pixels");
        } else {
            assert_eq!(clear, 0);
        }
    }
    // APNG: 12 frames, each 1/24 s, alpha where the critter is not.
    let path = dir.join("walk.png");
    capture(&path, true);
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let control = reader.info().animation_control().copied().expect("an animated PNG");
    assert_eq!(control.num_frames, 12);
    assert_eq!(reader.info().color_type, png::ColorType::Rgba);
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let mut read = 0;
    while read < 12 {
        reader.next_frame(&mut buffer).unwrap();
        let fc = reader.info().frame_control().copied().unwrap();
        assert_eq!((fc.width, fc.height, fc.delay_num, fc.delay_den), (96, 72, 1, 24));
        read += 1;
    }
    assert!(buffer.chunks_exact(4).any(|p| p[3] == 0) && buffer.chunks_exact(4).any(|p| p[3] == 255));
    // WebP: animated, 12 frames with alpha, half a second in all.
    let path = dir.join("walk.webp");
    capture(&path, true);
    let mut decoder =
        image_webp::WebPDecoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap())).unwrap();
    assert!(decoder.is_animated() && decoder.has_alpha());
    assert_eq!((decoder.dimensions(), decoder.num_frames()), ((96, 72), 12));
    let mut frame = vec![0; decoder.output_buffer_size().unwrap()];
    let mut length = 0;
    for _ in 0..12 {
        length += decoder.read_frame(&mut frame).unwrap();
    }
    assert_eq!(length, 500);
    assert!(frame.chunks_exact(4).any(|p| p[3] == 0) && frame.chunks_exact(4).any(|p| p[3] == 255));
    // A folder of PNG frames.
    let folder = dir.join("frames");
    capture(&PathBuf::from(format!("{}/", folder.display())), false);
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 12);
    assert!(folder.join("frame_0012.png").is_file());
    // An extension with no format, and --fps without --frames, are refused.
    let bad = studioview(&["render", "--frames", "2", "--out", dir.join("walk.bmp").to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(1));
    let bad = studioview(&["render", "--fps", "2", "--out", dir.join("x.png").to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn an_animation_too_large_to_hold_is_refused_before_drawing() {
    let dir = scratch("capture-budget");
    let out = dir.join("huge.gif");
    let result =
        studioview(&["render", "--frames", "5000", "--size", "4096x4096", "--out", out.to_str().unwrap()]);
    assert_eq!(result.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("MiB") && stderr.contains("fewer frames"), "{stderr}");
    assert!(!out.exists());
}
