//! Parser throughput on the shared models: `cargo bench -p studio-model`.

#![allow(missing_docs)]

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use studio_model::{ModelFiles, parse};

fn shared() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    dir.join("models").is_dir().then_some(dir)
}

fn parse_models(c: &mut Criterion) {
    let Some(shared) = shared() else {
        eprintln!("../shared is missing: no models to benchmark");
        return;
    };
    let mut group = c.benchmark_group("parse");
    for (name, textures) in [("soldier", None), ("alien4", None), ("v_mg", None), ("hive", Some("hivet"))] {
        let main = std::fs::read(shared.join(format!("models/ns/{name}.mdl"))).expect("model");
        let textures =
            textures.map(|t| std::fs::read(shared.join(format!("models/ns/{t}.mdl"))).expect("textures"));
        let size = main.len() + textures.as_ref().map_or(0, Vec::len);
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                let files =
                    ModelFiles { stem: name, main: &main, textures: textures.as_deref(), groups: vec![] };
                parse(std::hint::black_box(&files)).expect("parses")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, parse_models);
criterion_main!(benches);
