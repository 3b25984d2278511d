//! The material readers on files made here from the format descriptions: every `.vtf` version
//! with mips, frames and thumbnails; the game-folder lookup (loose, archived, `patch`, missing);
//! and every truncation and many mutations of each file, which must give an error with a place
//! or a result, never a panic or an allocation out of proportion. (The archives' own tests are
//! studio-archive's.)

use std::path::PathBuf;

use studio_archive::write::{VpkFile, vpk};
use studio_material::write::vtf;
use studio_material::{Format, GameFolders, find_material, parse_vmt, parse_vtf};
use studio_testing::{robust, write_below};

/// A `w × h` BGRA8888 image whose texel (x, y) is (x, y, mip, 255).
fn bgra(w: u16, h: u16, mip: u8) -> Vec<u8> {
    (0..h).flat_map(|y| (0..w).flat_map(move |x| [mip, y as u8, x as u8, 255])).collect()
}

/// Every mip of a `w × h` BGRA8888 texture, largest first, `frames` frames each.
fn chain(w: u16, h: u16, frames: usize) -> Vec<Vec<u8>> {
    let mut mips = Vec::new();
    let (mut w, mut h, mut level) = (w, h, 0);
    loop {
        mips.push(bgra(w, h, level).repeat(frames));
        if w == 1 && h == 1 {
            return mips;
        }
        (w, h, level) = ((w / 2).max(1), (h / 2).max(1), level + 1);
    }
}

#[test]
fn every_version_gives_the_largest_mip_of_the_first_frame() {
    for minor in 0..=5 {
        for (frames, thumbnail) in [(1, None), (3, Some((4u8, 2u8, vec![0x55; 8])))] {
            let file = vtf(minor, (8, 4), 12, frames, &chain(8, 4, frames as usize), thumbnail);
            let texture = parse_vtf(&file).unwrap_or_else(|e| panic!("7.{minor}: {e}"));
            assert_eq!(
                (texture.width, texture.height, texture.mips, texture.frames),
                (8, 4, 4, u32::from(frames))
            );
            assert_eq!(texture.format, Format::Bgra8888);
            // Texel (5, 2) of mip 0 is (R, G, B) = (5, 2, 0) stored as B G R A = (0, 2, 5).
            let at = (2 * 8 + 5) * 4;
            assert_eq!(&texture.rgba[at..at + 4], [5, 2, 0, 255], "7.{minor}, {frames} frames");
        }
    }
}

#[test]
fn block_compressed_textures_decode() {
    // One DXT1 block, red; mips 4×4 → 2×2 → 1×1 each a whole block.
    let red = 0xF800u16.to_le_bytes();
    let block = vec![red[0], red[1], red[0], red[1], 0, 0, 0, 0];
    let file = vtf(5, (4, 4), 13, 1, &[block.clone(), block.clone(), block], None);
    let texture = parse_vtf(&file).unwrap();
    assert_eq!(texture.format, Format::Dxt1);
    assert!(texture.rgba.chunks(4).all(|t| t == [255, 0, 0, 255]));
}

#[test]
fn bad_headers_say_what_is_wrong() {
    let good = vtf(4, (8, 4), 12, 1, &chain(8, 4, 1), None);
    let cases: [(usize, &[u8], &str); 5] = [
        (0, b"VTX\0", "signature"),
        (8, &9u32.to_le_bytes(), "version 7.9"),
        (16, &0u16.to_le_bytes(), "size 0"),
        (52, &7i32.to_le_bytes(), "image format 7"),
        (56, &[9], "9 mip levels"),
    ];
    for (at, bytes, says) in cases {
        let mut file = good.clone();
        file[at..at + bytes.len()].copy_from_slice(bytes);
        let error = parse_vtf(&file).unwrap_err().to_string();
        assert!(error.contains(says) && error.contains("at byte"), "{says}: {error}");
    }
}

/// An empty folder under the build's scratch space (not the system's temporary folder, where
/// each run left one behind).
fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

#[test]
fn materials_are_found_loose_in_archives_and_through_patches() {
    let game = scratch("lookup");
    // Loose, in another case than the model writes it.
    write_below(
        &game,
        "Materials/Models/Loose/Skin.vmt",
        br#"VertexLitGeneric { $basetexture "models/loose/skin" $nocull 1 }"#,
    );
    write_below(&game, "materials/models/loose/skin.vtf", &vtf(1, (2, 2), 12, 1, &chain(2, 2, 1), None));
    // In an archive: a patch of a loose base material.
    write_below(
        &game,
        "materials/models/base.vmt",
        br#"VertexLitGeneric { $basetexture "models/packed/skin" $color2 "[1 0 0]" }"#,
    );
    let patch = br#"patch { include "materials/models/base.vmt" replace { $translucent 1 } }"#;
    let texture = vtf(5, (4, 4), 3, 1, &[vec![9u8; 48], vec![9; 12], vec![9; 3]], None);
    let entries = [
        VpkFile { path: "materials/models/packed/skin.vmt", bytes: patch, preload: 0 },
        VpkFile { path: "materials/models/packed/skin.vtf", bytes: &texture, preload: 16 },
    ];
    let (dir_bytes, _) = vpk(2, &entries, false);
    write_below(&game, "pak01_dir.vpk", &dir_bytes);
    let games = GameFolders::open(std::slice::from_ref(&game));
    assert_eq!(games.archives.len(), 1);

    let loose = find_material(&games, &["models/nowhere/".into(), "models\\loose\\".into()], "skin");
    assert_eq!(loose.problem, None, "tried {:?}", loose.tried);
    assert!(loose.shading.as_ref().unwrap().no_cull);
    assert_eq!(loose.vtf.as_ref().unwrap().width, 2);
    assert_eq!(loose.tried.len(), 4, "two folders, each loose and in the archive: {:?}", loose.tried);

    let packed = find_material(&games, &["models/packed".into()], "skin");
    assert_eq!(packed.problem, None, "tried {:?}", packed.tried);
    assert!(packed.vmt_origin.as_deref().unwrap().contains("pak01_dir.vpk:"));
    let shading = packed.shading.as_ref().unwrap();
    assert!(shading.translucent, "the patch's replace");
    assert_eq!(shading.color2, [1.0, 0.0, 0.0], "the included material's parameters");
    assert_eq!(packed.vtf.as_ref().unwrap().rgba[..4], [9, 9, 9, 255]);

    let missing = find_material(&games, &["models/none/".into()], "skin");
    assert_eq!(missing.problem.as_deref(), Some("no .vmt was found"));
    assert_eq!(missing.tried.len(), 2);
    assert!(missing.tried[0].ends_with("materials/models/none/skin.vmt"), "{:?}", missing.tried);
}

#[test]
fn truncated_and_mutated_files_are_errors_with_a_place() {
    fn text<T>(r: Result<T, studio_material::Error>) -> Result<(), String> {
        r.map(|_| ()).map_err(|e| e.to_string())
    }
    for minor in [0, 2, 5] {
        let file = vtf(
            minor,
            (8, 8),
            15,
            2,
            &[vec![7u8; 128], vec![7; 32], vec![7; 32], vec![7; 32]],
            Some((4, 4, vec![0; 8])),
        );
        parse_vtf(&file).unwrap();
        robust(&format!("vtf 7.{minor}"), &file, |b| text(parse_vtf(b)));
    }
    let vmt = br#""VertexLitGeneric" { "$basetexture" "a/b" "$color" "[1 1 1]" Proxies { Sine { a b } } }"#;
    robust("vmt", vmt, |b| text(parse_vmt(b)));
}
