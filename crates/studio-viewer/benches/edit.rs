//! What an edit costs the viewer: one step of a hit box drag (the edit applied, a new model and
//! evaluator, the pose evaluated again) and one save, on Natural Selection's soldier and the
//! Source fixture: `cargo bench -p studio-viewer --bench edit`.

#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use studio_edit::{Change, GoldRecord, SourceRecord};
use studio_viewer::app::command::Command;
use studio_viewer::app::settings::Settings;
use studio_viewer::app::state::AppState;

fn drag_and_save(c: &mut Criterion) {
    let Some(shared) = studio_testing::shared() else { return };
    let scratch = std::env::temp_dir().join("studioview-edit-bench");
    let _ = std::fs::create_dir_all(&scratch);
    let mut group = c.benchmark_group("edit");

    let mut state = AppState::demo(Settings::default());
    state.apply(Command::Open(shared.join("models/ns/soldier.mdl")));
    state.playing = false;
    let h = state.model().hitboxes[0].clone();
    let mut step = 0u32;
    group.bench_function("soldier/drag_step", |b| {
        b.iter(|| {
            step += 1;
            let mut after = h.clone();
            after.bbmax.x += (step % 100) as f32 * 0.01;
            let before = GoldRecord::Hitbox(0, state.model().hitboxes[0].clone());
            let edit = studio_edit::Edit {
                name: "Move hit box 0".into(),
                change: Change::Set { before, after: GoldRecord::Hitbox(0, after) },
            };
            state.apply(Command::Edit {
                edit: Box::new(studio_viewer::app::command::DocEdit::Gold(edit)),
                merge: true,
            });
        })
    });
    let target = scratch.join("soldier.mdl");
    group.bench_function("soldier/save", |b| b.iter(|| state.apply(Command::SaveAs(target.clone()))));

    let mut state = AppState::demo(Settings::default());
    state.apply(Command::Open(shared.join("fixtures/source/models/fixture/anim48.mdl")));
    state.playing = false;
    let model = state.source.as_ref().map(|v| v.doc.model.clone()).expect("a Source model");
    let h = model.hitbox_sets[0].hitboxes[0].clone();
    group.bench_function("anim48/drag_step", |b| {
        b.iter(|| {
            step += 1;
            let mut after = h.clone();
            after.bbmax.x += (step % 100) as f32 * 0.01;
            let current =
                state.source.as_ref().map(|v| v.doc.model.hitbox_sets[0].hitboxes[0].clone()).expect("model");
            let edit = studio_edit::Edit {
                name: "Move hit box 0".into(),
                change: Change::Set {
                    before: SourceRecord::Hitbox(0, 0, current),
                    after: SourceRecord::Hitbox(0, 0, after),
                },
            };
            state.apply(Command::Edit {
                edit: Box::new(studio_viewer::app::command::DocEdit::Source(edit)),
                merge: true,
            });
        })
    });
    group.finish();
}

criterion_group!(benches, drag_and_save);
criterion_main!(benches);
