//! What a thumbnail costs the model browser: drawing one (the model loaded from its game, posed,
//! uploaded and drawn at 128×96 offscreen, then read back) for a Source fixture and two Half-Life
//! models, and reading one back from the disk cache: `cargo bench -p studio-viewer --bench
//! thumbnails`.

#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use studio_viewer::thumbnail::{Drawer, Thumbnails};

fn thumbnails(c: &mut Criterion) {
    let Some(shared) = studio_testing::shared() else { return };
    let Ok(mut drawer) = Drawer::new() else {
        eprintln!("no graphics adapter: nothing to benchmark");
        return;
    };
    let mut group = c.benchmark_group("thumbnail");
    group.sample_size(20);
    for model in ["fixtures/source/models/fixture/anim48.mdl", "models/ns/soldier.mdl", "models/ns/hive.mdl"]
    {
        let path = shared.join(model);
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        group.bench_function(format!("draw/{name}"), |b| b.iter(|| drawer.draw(&path, &[]).unwrap()));
    }
    // Read back: the cache holds it after the first request.
    let cache = std::env::temp_dir().join("studioview-thumbnail-bench");
    let path = shared.join("models/ns/soldier.mdl");
    let mut worker = Thumbnails::start(Some(cache), Vec::new(), Box::new(|| {}));
    worker.want(&path);
    worker.wait(std::time::Duration::from_secs(60)).expect("drawn");
    group.bench_function("from_cache/soldier", |b| {
        b.iter(|| {
            worker.want(&path);
            let made = worker.wait(std::time::Duration::from_secs(60)).expect("read back");
            assert!(made.cached);
        })
    });
    group.finish();
}

criterion_group!(benches, thumbnails);
criterion_main!(benches);
