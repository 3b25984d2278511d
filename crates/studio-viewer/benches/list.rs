//! What `studioview list` costs on a large game: a generated game folder whose VPK holds 20,000
//! files (5,000 models, each the Source fixture skeleton48.mdl, beside their .vvd, .vtx and
//! .vmt), its data in a numbered archive. Indexed with the headers only (`list`), and with every
//! sequence's name and activity (`list --json`): `cargo bench -p studio-viewer --bench list`.

#![allow(missing_docs)]

use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use studio_archive::write::{VpkFile, vpk};

/// The game folder, written once.
fn game(shared: &std::path::Path) -> PathBuf {
    let root = std::env::temp_dir().join("studioview-list-bench/game");
    if root.join("pak01_dir.vpk").is_file() {
        return root;
    }
    std::fs::create_dir_all(&root).unwrap();
    let mdl = std::fs::read(shared.join("fixtures/source/models/fixture/skeleton48.mdl")).unwrap();
    let mut paths = Vec::new();
    for i in 0..5_000 {
        let folder = format!("models/props_{}/item{i}", i % 50);
        for ext in ["mdl", "vvd", "dx90.vtx"] {
            paths.push(format!("{folder}.{ext}"));
        }
        paths.push(format!("materials/props_{}/item{i}.vmt", i % 50));
    }
    let small = b"small".to_vec();
    let files: Vec<VpkFile<'_>> = paths
        .iter()
        .map(|p| VpkFile { path: p, bytes: if p.ends_with(".mdl") { &mdl } else { &small }, preload: 0 })
        .collect();
    assert_eq!(files.len(), 20_000);
    let (dir, data) = vpk(2, &files, true);
    std::fs::write(root.join("pak01_000.vpk"), data).unwrap();
    std::fs::write(root.join("pak01_dir.vpk"), dir).unwrap();
    root
}

fn list(c: &mut Criterion) {
    let Some(shared) = studio_testing::shared() else { return };
    let root = game(&shared);
    let mut group = c.benchmark_group("list");
    group.sample_size(10);
    group.bench_function("20000_entries/headers", |b| {
        b.iter(|| {
            let (entries, broken) = studio_viewer::catalog::index(&root, false);
            assert_eq!((entries.len(), broken.len()), (5_000, 0));
        })
    });
    group.bench_function("20000_entries/with_names", |b| {
        b.iter(|| {
            let (entries, _) = studio_viewer::catalog::index(&root, true);
            assert_eq!(entries.len(), 5_000);
        })
    });
    group.finish();
}

criterion_group!(benches, list);
criterion_main!(benches);
