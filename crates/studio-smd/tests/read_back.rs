//! SMD and BMP files read back to what was written, bad files give errors naming their line,
//! and no input makes the readers panic or allocate out of proportion (every truncation and
//! 20,000 mutations of a sample of each).

use studio_smd::bmp::{self, Indexed};
use studio_smd::{BoneKey, Corner, Frame, Node, ShapeFrame, ShapeVertex, Smd, Triangle, read};

fn sample() -> Smd {
    let nodes = vec![
        Node { name: "root".into(), parent: None },
        Node { name: "Bip01 Spine".into(), parent: Some(0) },
        Node { name: "arm \"left\"".into(), parent: Some(1) },
    ];
    let key = |bone, x: f64| BoneKey {
        bone,
        position: [x, -0.0, 1e-7],
        rotation: [0.1, f64::from(0.1f32), 4.712_388_980_384_69],
    };
    let frames = vec![
        Frame { time: 0, bones: vec![key(0, 1.5), key(1, 2.25), key(2, -3.0)] },
        Frame { time: 1, bones: vec![key(0, 100.919_021_606_445_31), key(1, 1.0 / 3.0), key(2, 7.0)] },
    ];
    let corner = |bone, links: Vec<(usize, f64)>| Corner {
        bone,
        position: [1.0, 2.0, f64::from(3.3f32)],
        normal: [0.0, 0.0, 1.0],
        uv: [0.25, 1.0 - f64::from(0.3f32)],
        links,
    };
    let triangles = vec![
        Triangle {
            material: "body.bmp".into(),
            corners: [corner(0, vec![]), corner(1, vec![]), corner(2, vec![])],
        },
        Triangle {
            material: "models/x/skin a".into(),
            corners: [
                corner(0, vec![(0, 0.5), (1, 0.5)]),
                corner(1, vec![(1, 1.0)]),
                corner(2, vec![(2, 0.25), (1, 0.75)]),
            ],
        },
    ];
    let vertex = |index, x| ShapeVertex { index, position: [x, 1.0, 2.0], normal: [0.0, 1.0, 0.0] };
    let shapes = vec![
        ShapeFrame { time: 0, vertices: vec![vertex(0, 0.5), vertex(1, 1.5), vertex(2, 2.5)] },
        ShapeFrame { time: 1, vertices: vec![vertex(1, 1.0 / 3.0)] },
    ];
    Smd { nodes, frames, triangles, shapes }
}

#[test]
fn an_smd_reads_back_to_what_was_written() {
    let smd = sample();
    let back = read(&smd.to_text()).expect("the sample reads");
    // A quote in a name cannot be written: it becomes an apostrophe.
    let mut expected = smd.clone();
    expected.nodes[2].name = "arm 'left'".into();
    assert_eq!(back, expected);
}

#[test]
fn numbers_read_back_exactly() {
    // An f32's shortest form is that f32; anything else the f64 it spells.
    for value in
        [0.1f64, f64::from(0.1f32), 1.0 / 3.0, f64::from(1.0f32 / 3.0), 4.712_388_980_384_69, -0.0, 1e-30]
    {
        let text = studio_smd::smd::number(value);
        let smd = format!("version 1\nnodes\n0 \"a\" -1\nend\nskeleton\ntime 0\n0 {text} 0 0 0 0 0\nend\n");
        let back = read(&smd).expect("reads").frames[0].bones[0].position[0];
        assert_eq!(back.to_bits(), value.to_bits(), "{value} written as {text}");
    }
}

#[test]
fn bad_smd_files_name_their_line() {
    let cases = [
        ("version 2\n", 1, "version 2 is not 1"),
        ("version 1\nnodes\n0 \"a\" -1\n", 3, "ends inside the nodes"),
        ("version 1\nnodes\n1 \"a\" -1\nend\n", 3, "node 1 comes where node 0 should"),
        ("version 1\nnodes\n0 \"a\" 0\nend\n", 3, "not an earlier node"),
        ("version 1\nnodes\n0 \"a\" -1\nend\nskeleton\n0 0 0 0 0 0 0\nend\n", 6, "before any time"),
        (
            "version 1\nnodes\n0 \"a\" -1\nend\nskeleton\ntime 0\n3 0 0 0 0 0 0\nend\n",
            7,
            "not one of the 1 nodes",
        ),
        ("version 1\nnodes\n0 \"a\" -1\nend\nskeleton\ntime 0\n0 0 nan 0 0 0 0\nend\n", 7, "not finite"),
        ("version 1\nnodes\n0 \"a\" -1\nend\ntriangles\nm\n0 0 0 0 0 0 1 0 0\n", 7, "ends inside a triangle"),
        ("version 1\nnodes\n0 \"a\" -1\nend\ntriangles\nm\n0 0 0 0 0 0 1 0 0 1000 0 1\n", 7, "more than 64"),
        ("version 1\nbones\n", 2, "not a section"),
        ("version 1\n", 1, "no nodes section"),
    ];
    for (text, line, what) in cases {
        let error = read(text).expect_err(text);
        assert_eq!(error.line, line, "{text:?}: {error}");
        assert!(error.what.contains(what), "{text:?}: {error}");
    }
}

#[test]
fn the_smd_reader_survives_any_input() {
    let text = sample().to_text();
    studio_testing::robust("sample.smd", text.as_bytes(), |bytes| {
        let text = String::from_utf8_lossy(bytes);
        read(&text).map(|_| ()).map_err(|e| e.to_string())
    });
}

fn image() -> Indexed {
    let (width, height) = (5, 3);
    Indexed {
        width,
        height,
        pixels: (0..width * height).map(|i| (i * 17 % 256) as u8).collect(),
        palette: (0..256).map(|i| [i as u8, (255 - i) as u8, (i * 3 % 256) as u8]).collect(),
    }
}

#[test]
fn a_bitmap_reads_back_to_its_pixels_and_palette() {
    let image = image();
    let bytes = bmp::write(&image).expect("writes");
    // 14 + 40 + 1024 header and palette, rows of 5 padded to 8.
    assert_eq!(bytes.len(), 14 + 40 + 1024 + 8 * 3);
    assert_eq!(bmp::read(&bytes), Some(image));
    let wrong =
        Indexed { pixels: vec![0; 4], ..Indexed { width: 5, height: 3, pixels: vec![], palette: vec![] } };
    assert_eq!(bmp::write(&wrong), None, "pixels that are not width × height");
}

#[test]
fn the_bitmap_reader_survives_any_input() {
    let bytes = bmp::write(&image()).expect("writes");
    studio_testing::robust("sample.bmp", &bytes, |bytes| {
        bmp::read(bytes);
        Ok(())
    });
}
