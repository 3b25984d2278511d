//! The `.phy` reader: a file written by the fixture generator (studio-testing's `phy`) reads
//! back to its pieces, in the engine's axes and units; the layouts it must refuse are refused
//! with the record and byte named; and no truncation or mutation makes it panic or run away.

use studio_testing::phy::{cuboid, write};

fn two_solids() -> Vec<u8> {
    let pelvis = vec![cuboid([-3.0, -4.0, -6.0], [6.0, 4.0, 6.0])];
    // The head: two pieces, so the ledge tree has an inner node.
    let head = vec![cuboid([0.0, -3.0, -3.0], [8.0, 3.0, 3.0]), cuboid([2.0, -1.0, 3.0], [4.0, 1.0, 5.0])];
    write(&[pelvis, head], 1234, "solid {\n\"index\" \"0\"\n\"name\" \"pelvis\"\n}\n")
}

#[test]
fn a_phy_reads_back_to_its_pieces() {
    let phy = studio_source::parse_phy(&two_solids()).expect("the file reads");
    assert_eq!(phy.checksum, 1234);
    assert_eq!(phy.solids.len(), 2);
    assert_eq!(phy.solids[0].pieces.len(), 1);
    assert_eq!(phy.solids[1].pieces.len(), 2, "both leaves of the tree, left first");
    let (points, triangles) = cuboid([2.0, -1.0, 3.0], [4.0, 1.0, 5.0]);
    let piece = &phy.solids[1].pieces[1];
    assert_eq!(piece.triangles.len(), triangles.len());
    for (read, tri) in piece.triangles.iter().zip(&triangles) {
        for (&r, &t) in read.iter().zip(tri) {
            let (got, want) = (piece.points[r as usize], glam::Vec3::from_array(points[usize::from(t)]));
            assert!((got - want).abs().max_element() < 1e-4, "{got} vs {want}");
        }
    }
    assert!(phy.text.starts_with("solid {"), "{:?}", phy.text);
}

#[test]
fn bad_phy_files_are_refused_with_their_place() {
    let good = two_solids();
    let with = |at: usize, bytes: &[u8]| {
        let mut file = good.clone();
        file[at..at + bytes.len()].copy_from_slice(bytes);
        file
    };
    let cases = [
        (with(0, &20i32.to_le_bytes()), "size is 20"),
        (with(8, &(-1i32).to_le_bytes()), "solidCount is -1"),
        (with(8, &1_000_000i32.to_le_bytes()), "solidCount is 1000000"),
        (with(16, &100_000i32.to_le_bytes()), "collision solid 0"),
        // modelType 1: a MOPP surface.
        (with(26, &1i16.to_le_bytes()), "modelType is 1"),
        // offset_ledgetree_root of solid 0 (surface at 20 + 28) out of its solid.
        (with(48 + 32, &9_999i32.to_le_bytes()), "offset_ledgetree_root"),
    ];
    for (file, what) in cases {
        let error = studio_source::parse_phy(&file).expect_err(what).to_string();
        assert!(error.contains(what) && error.contains(".phy") && error.contains("byte"), "{what}: {error}");
    }
}

#[test]
fn the_phy_reader_survives_any_input() {
    studio_testing::robust("two_solids.phy", &two_solids(), |bytes| {
        studio_source::parse_phy(bytes).map(|_| ()).map_err(|e| e.to_string())
    });
}
