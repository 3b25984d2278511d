//! What a decompile costs, in memory (the files made, not written): Natural Selection's soldier
//! (2 submodels, 79 sequences, 129 files) and the largest Source fixture, anim48 (2 body parts
//! at 2 LODs, 25 animations): `cargo bench -p studio-decompile --bench decompile`.

#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use studio_decompile::{goldsrc, source};

fn decompile(c: &mut Criterion) {
    let Some(shared) = studio_testing::shared() else { return };
    let mut group = c.benchmark_group("decompile");
    let soldier = studio_model::load(&shared.join("models/ns/soldier.mdl")).expect("loads").model;
    group.bench_function("soldier", |b| {
        b.iter(|| goldsrc::decompile(&soldier, "soldier", &mut |_| {}).expect("decompiles"))
    });
    let path = shared.join("fixtures/source/models/fixture/anim48.mdl");
    let anim48 = studio_source::load(&path).expect("anim48 loads");
    group.bench_function("anim48", |b| {
        b.iter(|| source::decompile(&anim48.model, None, "anim48", &mut |_| {}).expect("decompiles"))
    });
    group.finish();
}

criterion_group!(benches, decompile);
criterion_main!(benches);
