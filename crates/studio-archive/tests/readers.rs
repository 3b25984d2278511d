//! The archive readers on archives made here from the format descriptions: `.vpk` versions 1
//! and 2 with preloads, data in the directory file and in a numbered archive; `.pak`; parts of
//! files across the preload; the game folders' search order and a model's files found in them;
//! opening an archive reads its tree, not its data; and every truncation and many mutations of
//! each archive give an error with a place or a result, never a panic or an allocation out of
//! proportion.

use std::path::PathBuf;
use std::sync::Arc;

use studio_archive::write::{VpkFile, pak, vpk};
use studio_archive::{Archive, ArchivePath, GameFiles, GameFolders, Pak, Vpk, archive_paths};
use studio_bytes::files::FileSet;
use studio_testing::{read_guarded, robust, write_below};

fn scratch(name: &str) -> PathBuf {
    studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), name)
}

fn files() -> Vec<(String, Vec<u8>)> {
    vec![
        (
            "materials/models/a/skin.vmt".into(),
            br#""VertexLitGeneric" { "$basetexture" "models/a/skin" }"#.to_vec(),
        ),
        ("models/props/crate.mdl".into(), (0..=255u8).cycle().take(3000).collect()),
        ("readme".into(), b"no extension".to_vec()),
    ]
}

#[test]
fn vpks_of_both_versions_give_back_their_files_and_parts() {
    let dir = scratch("vpk-round-trip");
    for version in [1, 2] {
        for separate in [false, true] {
            let owned = files();
            let entries: Vec<VpkFile<'_>> =
                owned.iter().map(|(p, b)| VpkFile { path: p, bytes: b, preload: 5 }).collect();
            let (dir_bytes, archive) = vpk(version, &entries, separate);
            let path = dir.join(format!("pak{version}{separate}_dir.vpk"));
            std::fs::write(&path, &dir_bytes).unwrap();
            if separate {
                std::fs::write(dir.join(format!("pak{version}{separate}_000.vpk")), &archive).unwrap();
            }
            let vpk = Vpk::open(&path).unwrap();
            assert_eq!(vpk.directory().len(), 3);
            let listed: Vec<(&str, u64)> = vpk.directory().files().collect();
            for (name, bytes) in &owned {
                assert_eq!(&vpk.read(name).unwrap().unwrap(), bytes, "v{version} {name}");
                assert!(listed.contains(&(name.as_str(), bytes.len() as u64)), "{listed:?}");
                // Parts inside the preload, across its end, past it, and clamped to the end.
                for (offset, len) in [(0, 3), (2, 7), (5, 4), (9, 100_000), (100_000, 4)] {
                    let start = (offset as usize).min(bytes.len());
                    let end = (start + len as usize).min(bytes.len());
                    let part = vpk.read_part(name, offset, len).unwrap().unwrap();
                    assert_eq!(part, bytes[start..end], "v{version} {name} {offset}+{len}");
                }
            }
            assert!(vpk.directory().contains("MODELS\\Props\\Crate.MDL"), "any case, either separator");
            assert!(vpk.read("materials/none.vmt").is_none());
        }
    }
}

#[test]
fn paks_give_back_their_files_and_parts() {
    let owned = files();
    let entries: Vec<(&str, &[u8])> = owned.iter().map(|(p, b)| (p.as_str(), b.as_slice())).collect();
    let dir = scratch("pak-round-trip");
    let path = dir.join("pak0.pak");
    std::fs::write(&path, pak(&entries)).unwrap();
    let archive = Archive::open(&path).unwrap();
    assert!(matches!(archive, Archive::Pak(_)));
    assert_eq!(archive.len(), 3);
    for (name, bytes) in &owned {
        assert_eq!(&archive.read(name).unwrap().unwrap(), bytes, "{name}");
        assert_eq!(archive.read_part(name, 1, 2).unwrap().unwrap(), bytes[1..3]);
    }
    assert!(archive.contains("Models/props/CRATE.mdl"));
    assert!(archive.read("models/none.mdl").is_none());
}

#[test]
fn a_broken_archive_is_an_error_with_a_byte_offset() {
    let owned = files();
    let entries: Vec<VpkFile<'_>> =
        owned.iter().map(|(p, b)| VpkFile { path: p, bytes: b, preload: 0 }).collect();
    let (good, _) = vpk(2, &entries, false);
    let mut bad = good.clone();
    bad[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    let error = Vpk::parse("x_dir.vpk".into(), bad).unwrap_err().to_string();
    assert!(error.starts_with("VPK header at byte 8: the tree of 4294967295 bytes runs past"), "{error}");
    let mut bad = good.clone();
    bad[0] = 0;
    assert!(Vpk::parse("x_dir.vpk".into(), bad).unwrap_err().to_string().contains("at byte 0: signature"));
    let paked: Vec<(&str, &[u8])> = owned.iter().map(|(p, b)| (p.as_str(), b.as_slice())).collect();
    let good = pak(&paked);
    let mut bad = good.clone();
    // The first entry's length (at the directory's byte 60) past the end of the file.
    let directory = u32::from_le_bytes(bad[4..8].try_into().unwrap()) as usize;
    bad[directory + 60..directory + 64].copy_from_slice(&1_000_000i32.to_le_bytes());
    let error = Pak::parse("pak0.pak".into(), bad).unwrap_err().to_string();
    assert_eq!(
        error,
        format!(
            "PAK directory at byte {}: materials/models/a/skin.vmt: 1000000 bytes at 12 run past the end of the file ({} bytes)",
            directory + 56,
            good.len()
        )
    );
    let error = Pak::parse("pak0.pak".into(), good[..good.len() - 1].to_vec()).unwrap_err().to_string();
    assert!(
        error.starts_with(&format!("PAK directory at byte {directory}: 192 bytes needed here")),
        "{error}"
    );
}

#[test]
fn truncated_and_mutated_archives_are_errors_with_a_place() {
    let owned = files();
    let entries: Vec<VpkFile<'_>> =
        owned.iter().map(|(p, b)| VpkFile { path: p, bytes: &b[..b.len().min(40)], preload: 3 }).collect();
    let read_all = |archive: &Archive| {
        // Reading every entry back, and parts of it, must not panic either (an error is fine).
        for (name, _) in &owned {
            let _ = archive.read(name);
            let _ = archive.read_part(name, 2, 9);
        }
        for (name, _) in archive.files() {
            let _ = archive.read(name);
        }
    };
    for version in [1, 2] {
        let (file, _) = vpk(version, &entries, false);
        robust(&format!("vpk v{version}"), &file, |b| {
            let vpk = Vpk::parse(PathBuf::from("x_dir.vpk"), b.to_vec()).map_err(|e| e.to_string())?;
            read_all(&Archive::Vpk(vpk));
            Ok(())
        });
    }
    let paked: Vec<(&str, &[u8])> = owned.iter().map(|(p, b)| (p.as_str(), &b[..b.len().min(40)])).collect();
    robust("pak", &pak(&paked), |b| {
        let pak = Pak::parse(PathBuf::from("pak0.pak"), b.to_vec()).map_err(|e| e.to_string())?;
        read_all(&Archive::Pak(pak));
        Ok(())
    });
}

#[test]
fn opening_an_archive_reads_its_directory_not_its_data() {
    let dir = scratch("vpk-large");
    // 48 MB of data after the tree, in the directory file itself, and the same in a .pak.
    let big = vec![7u8; 48 << 20];
    let small = b"small".to_vec();
    let entries = [
        VpkFile { path: "models/big.mdl", bytes: &big, preload: 0 },
        VpkFile { path: "models/small.mdl", bytes: &small, preload: 0 },
    ];
    let (dir_bytes, _) = vpk(2, &entries, false);
    let vpk_path = dir.join("big_dir.vpk");
    std::fs::write(&vpk_path, &dir_bytes).unwrap();
    let pak_path = dir.join("pak0.pak");
    std::fs::write(&pak_path, pak(&[("models/big.mdl", &big), ("models/small.mdl", &small)])).unwrap();
    for path in [&vpk_path, &pak_path] {
        // Guarded as if the input were 1 KB: 40 KB and a megabyte may be allocated, not 48 MB.
        let read = read_guarded(1024, &path.display().to_string(), || {
            let archive = Archive::open(path)?;
            assert_eq!(archive.read("models/small.mdl").unwrap()?, small);
            assert_eq!(archive.read_part("models/big.mdl", 1000, 16).unwrap()?, vec![7u8; 16]);
            Ok(())
        });
        assert_eq!(read, Ok(true));
    }
}

#[test]
fn game_folders_search_loose_files_then_vpks_by_name_then_paks_from_the_highest() {
    let game = scratch("search-order");
    write_below(&game, "models/loose.mdl", b"loose");
    let file = |bytes: &'static [u8]| VpkFile { path: "models/both.mdl", bytes, preload: 0 };
    std::fs::write(game.join("zz_dir.vpk"), vpk(1, &[file(b"zz")], false).0).unwrap();
    std::fs::write(game.join("aa_dir.vpk"), vpk(2, &[file(b"aa")], false).0).unwrap();
    for n in [0, 1, 3] {
        // pak3 follows a missing pak2: GoldSrc never looks at it.
        let name = format!("pak{n}.pak");
        std::fs::write(
            game.join(&name),
            pak(&[("models/both.mdl", name.as_bytes()), ("models/pakonly.mdl", name.as_bytes())]),
        )
        .unwrap();
    }
    let names: Vec<String> =
        archive_paths(&game).iter().map(|p| p.file_name().unwrap().to_str().unwrap().to_owned()).collect();
    assert_eq!(names, ["aa_dir.vpk", "zz_dir.vpk", "pak1.pak", "pak0.pak"]);
    let games = GameFolders::open(std::slice::from_ref(&game));
    let mut tried = Vec::new();
    let found = |relative: &str, tried: &mut Vec<String>| games.find(relative, tried).unwrap().unwrap().bytes;
    assert_eq!(found("models/both.mdl", &mut tried), b"aa");
    assert_eq!(tried.len(), 2, "loose, then aa: {tried:?}");
    assert_eq!(found("MODELS\\pakonly.mdl", &mut Vec::new()), b"pak1.pak");
    assert_eq!(found("models/loose.mdl", &mut Vec::new()), b"loose");
}

#[test]
fn a_models_files_are_found_beside_it_loose_first_then_in_the_archives() {
    let game = scratch("model-files");
    // The model and one companion in the archive, another companion loose beside where the
    // model would be, and a file of the game the model names.
    let entries = [
        VpkFile { path: "models/props/crate.mdl", bytes: b"mdl", preload: 0 },
        VpkFile { path: "models/props/crate.vvd", bytes: b"vvd in the archive", preload: 2 },
        VpkFile { path: "models/props/crate.dx90.vtx", bytes: b"vtx in the archive", preload: 0 },
        VpkFile { path: "models/props/anims.ani", bytes: b"ani", preload: 0 },
    ];
    let (dir_bytes, archive) = vpk(2, &entries, true);
    std::fs::write(game.join("pak01_dir.vpk"), dir_bytes).unwrap();
    std::fs::write(game.join("pak01_000.vpk"), archive).unwrap();
    write_below(&game, "Models/Props/Crate.VVD", b"loose vvd");
    let path = game.join("pak01_dir.vpk:models/props/crate.mdl");
    let files = GameFiles::open(&path, &[]).unwrap();
    assert_eq!(files.path(), path);
    assert_eq!(files.main().unwrap(), b"mdl");
    let vvd = files.beside("crate.vvd").unwrap();
    assert_eq!(
        (vvd.bytes.as_slice(), vvd.origin.clone()),
        (&b"loose vvd"[..], game.join("Models/Props/Crate.VVD"))
    );
    let vtx = files.beside("CRATE.dx90.vtx").unwrap();
    assert_eq!(vtx.bytes, b"vtx in the archive");
    assert_eq!(
        vtx.origin,
        game.join("pak01_dir.vpk:models/props/crate.dx90.vtx"),
        "named as the archive spells it"
    );
    assert_eq!(files.in_game("models\\props\\anims.ani").unwrap().bytes, b"ani");
    assert!(files.beside("crate.phy").is_none());
    assert_eq!(
        files.beside_place("crate.phy"),
        format!(
            "{}, then the game's 1 archive(s)",
            game.join("models").join("props").join("crate.phy").display()
        )
    );
    // A loose model of the game finds a companion the archive holds.
    write_below(&game, "models/props/crate.mdl", b"loose mdl");
    let loose = GameFiles::loose(&game.join("models/props/crate.mdl"), Arc::clone(files.game()));
    assert_eq!(loose.main().unwrap(), b"loose mdl");
    assert_eq!(loose.beside("crate.dx90.vtx").unwrap().bytes, b"vtx in the archive");
    // An archive that cannot be read: the error names it and the byte.
    std::fs::write(game.join("broken_dir.vpk"), b"\x34\x12\xaa\x55\x09\0\0\0").unwrap();
    let error = GameFiles::open(&game.join("broken_dir.vpk:models/x.mdl"), &[]).unwrap_err();
    assert!(error.contains("broken_dir.vpk: VPK header at byte 4: version 9 is not 1 or 2"), "{error}");
    assert_eq!(ArchivePath::parse(&path).unwrap().game(), game);
}
