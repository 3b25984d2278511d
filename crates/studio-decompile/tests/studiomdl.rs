//! What a modder checks: a decompiled Half-Life model builds again with Valve's own studiomdl
//! (`../shared/tools/studiomdl/studiomdl`), and the model it writes is the original
//! (`studio_decompile::rebuild::compare`: bones, sequences with their events, hit boxes,
//! attachments, controllers, body parts, skins, texture flags and sizes, triangles, and the pose
//! at every frame of every sequence and blend within studiomdl's quantisation). Every
//! difference is one the QC's comments name; each model's list of them is written out here.

mod common;

use std::path::PathBuf;

use studio_decompile::goldsrc;
use studio_decompile::rebuild::{Report, compare, compile};
use studio_model::{Model, STUDIO_NF_ADDITIVE, STUDIO_NF_CHROME, STUDIO_NF_FLATSHADE, STUDIO_NF_MASKED};

/// Valve's studiomdl, or `None` (said) where `../shared` is missing or it cannot run here
/// (`studio_testing::studiomdl`).
fn studiomdl() -> Option<PathBuf> {
    studio_testing::studiomdl(&studio_testing::shared()?)
}

/// Decompiles `model` into a scratch folder, builds it there with studiomdl and compares.
fn round_trip(studiomdl: &std::path::Path, name: &str, model: &Model) -> Report {
    let stem = name.trim_end_matches(".mdl").to_lowercase();
    let dir = studio_testing::scratch(env!("CARGO_TARGET_TMPDIR"), &format!("studiomdl-{stem}"));
    let files = goldsrc::decompile(model, &stem, &mut |_| {}).expect("decompiles");
    files.write_to(&dir).expect("writes");
    let built = compile(studiomdl, &dir, &stem).unwrap_or_else(|e| panic!("{name}: {e}"));
    let rebuilt = studio_model::load(&built).unwrap_or_else(|e| panic!("{name} rebuilt: {e}")).model;
    compare(model, &goldsrc::layout(model), &rebuilt)
}

/// What each model may lose, as its QC's comments say (the start of each expected line).
const EXPECTED: &[(&str, &[&str])] = &[
    (
        "demo",
        &[
            "sequence 4 \"look\": its second blend axis",
            "attachment 0: its name \"mouth\"",
            "attachment 1: its name \"left_hand\"",
            "attachment 2: its name \"right_hand\"",
            "controller 0: rest 128",
            "texture \"chrome.bmp\": chrome without flat shading",
            "texture \"chrome.bmp\": 32×32 becomes 64×64",
            "sequence 1 \"walk\": its root moves [64, 0, 0]",
        ],
    ),
    (
        "blends.mdl",
        &[
            "sequence 2 \"aim4\": its second blend axis",
            "a body part \"studioview_bones\"",
            "sequence 0 \"idle\" loops but its last frame differs",
            "sequence 1 \"aim2\" loops but its last frame differs",
            "sequence 3 \"walk\": its root moves [1.3999999, 0, 0]",
        ],
    ),
    (
        "controllers.mdl",
        &[
            "attachment 0: its name \"muzzle\"",
            "controller 0: RLOOP as studiomdl's rule gives it (0x20 → 0x8020)",
            "controller 0: rest 128",
            "controller 3: rest 64",
            "a body part \"studioview_bones\"",
        ],
    ),
    (
        "groups.mdl",
        &[
            "the transition graph [0, 2, 2, 1, 0, 1, 2, 2, 0] is not the one studiomdl makes",
            "sequence 1 \"walk\": its pivots' origins",
            "texture \"skin_a.bmp\": 32×16 becomes 40×17",
            "texture \"skin_b.bmp\": 32×16 becomes 40×17",
            "texture \"chrome.bmp\": chrome without flat shading",
            "texture \"chrome.bmp\": 16×16 becomes 64×64",
        ],
    ),
    (
        "rle.mdl",
        &[
            "a body part \"studioview_bones\"",
            "sequence 0 \"loop\" loops but its last frame differs",
            "sequence 2 \"long\" loops but its last frame differs",
        ],
    ),
    ("alien4.mdl", &[]),
    ("hive.mdl", &[]),
    ("soldier.mdl", &[]),
    ("v_mg.mdl", &[]),
];

/// Checks `report` for `name`: no differences, the expected ones exactly (renamings aside),
/// and a line for the table.
fn check(name: &str, report: &Report, expected: &[&str], renames: usize) -> String {
    assert!(report.differences.is_empty(), "{name}:\n{}", report.text());
    let lost: Vec<&String> = report.expected.iter().skip(renames).collect();
    assert_eq!(lost.len(), expected.len(), "{name}: {lost:#?}");
    for (line, start) in lost.iter().zip(expected) {
        assert!(line.starts_with(start), "{name}: {line:?} should start {start:?}");
    }
    assert!(report.poses > 0, "{name}: poses were compared");
    assert_eq!(report.extra_triangles, report.keeping_triangles, "{name}");
    format!(
        "{name:<16} yes  {:>5} poses  worst {:.4} (allowed {:.4})  +{} triangles  {} renamed  {} expected",
        report.poses,
        report.worst_position,
        report.worst_tolerance,
        report.extra_triangles,
        renames,
        lost.len()
    )
}

#[test]
fn every_shared_model_and_the_demo_build_again_and_compare_equal() {
    let Some(studiomdl) = studiomdl() else { return };
    let models = common::models();
    assert_eq!(models.len(), EXPECTED.len(), "{:?}", models.iter().map(|m| &m.0).collect::<Vec<_>>());
    let mut table = Vec::new();
    for ((name, model), (expected_name, expected)) in models.iter().zip(EXPECTED) {
        assert_eq!(name, expected_name);
        let report = round_trip(&studiomdl, name, model);
        let renames = goldsrc::layout(model).renamed.len();
        table.push(check(name, &report, expected, renames));
    }
    eprintln!("{}", table.join("\n"));
}

/// The demo, changed to hold what the real models broke: events with and without options, an
/// empty bone name, a bone name that fills its field, two sequences with one label, names with
/// spaces, braces and a leading `$` (which studiomdl reads back inside quotes), a chrome texture
/// whose name does not say so, a texture named "chrome" that is not, flat shading without
/// chrome, additive and masked textures, and a sequence whose activity has no name. Its
/// controller (on `rotor`) and attachment (on `jaw`) are on bones the first reference file's
/// vertices do not use.
#[test]
fn what_the_real_models_broke_builds_again() {
    let Some(studiomdl) = studiomdl() else { return };
    let mut model = common::demo_model();
    model.bones[5].name = String::new();
    model.bones[7].name = "$Bip01 {spine}".to_owned();
    let first = model.sequences[0].label.clone();
    model.sequences[2].label = first;
    model.sequences[3].label = "walk fast".to_owned();
    model.sequences[3].activity = 150;
    model.sequences[0].events.push(studio_model::Event {
        frame: 2,
        event: 1004,
        kind: 0,
        options: String::new(),
    });
    model.sequences[0].events.push(studio_model::Event {
        frame: 3,
        event: 5004,
        kind: 0,
        options: "common/null.wav".to_owned(),
    });
    model.body_parts[1].name = "$head {choice}".to_owned();
    model.textures[0].flags = STUDIO_NF_CHROME | STUDIO_NF_FLATSHADE;
    model.textures[1].flags = STUDIO_NF_ADDITIVE;
    model.textures[2].flags = STUDIO_NF_FLATSHADE;
    model.textures[3].flags = STUDIO_NF_MASKED | STUDIO_NF_ADDITIVE;
    model.textures[4].flags = 0;
    let mut main = studio_model::write(&model).expect("writes").main;
    // The writer keeps a NUL; a name that fills its 32 bytes is made by hand (`numbones` and
    // `boneindex` at 140 and 144, 112-byte bone records, the name first).
    let bones_at = i32::from_le_bytes(main[144..148].try_into().unwrap()) as usize;
    main[bones_at + 6 * 112..bones_at + 6 * 112 + 32].fill(b'b');
    let model = Model::parse(&main).expect("reads back");
    assert_eq!(model.bones[6].name.len(), 32);
    assert!(model.sequences[0].events.len() >= 2);

    let layout = goldsrc::layout(&model);
    let warnings = goldsrc::decompile(&model, "edge", &mut |_| {}).unwrap().warnings;
    assert_eq!(warnings.len(), layout.renamed.len(), "a warning per name changed: {warnings:?}");
    let renamed: Vec<(&str, usize, &str)> =
        layout.renamed.iter().map(|r| (r.kind, r.index, r.to.as_str())).collect();
    assert_eq!(
        renamed,
        [
            ("bone", 5, "bone5"),
            ("bone", 6, &*"b".repeat(31)),
            ("sequence", 2, &*format!("{}_2", model.sequences[0].label))
        ]
    );
    assert!(layout.keep.bones.len() >= 2, "rotor and jaw are kept by triangles: {:?}", layout.keep);
    let qc = String::from_utf8(
        goldsrc::decompile(&model, "edge", &mut |_| {}).unwrap().file("edge.qc").unwrap().to_vec(),
    )
    .unwrap();
    // The event block opens on the $sequence line; chrome is said by the name; only the two
    // render modes studiomdl knows are written.
    let idle =
        qc.lines().find(|l| l.starts_with(&format!("$sequence \"{}\"", model.sequences[0].label))).unwrap();
    assert!(idle.ends_with(" {"), "{idle}");
    assert!(
        qc.contains("\t{ event 1004 2 }") && qc.contains("\t{ event 5004 3 \"common/null.wav\" }"),
        "{qc}"
    );
    assert!(qc.contains("critter_green_chrome.bmp") && qc.contains("chrom_e.bmp"), "{qc}");
    for line in qc.lines().filter(|l| l.starts_with("$texrendermode")) {
        assert!(line.ends_with(" additive") || line.ends_with(" masked"), "{line}");
    }
    assert!(qc.contains("$texrendermode \"critter_orange.bmp\" additive"), "{qc}");
    assert!(qc.contains("flat shading without chrome"), "{qc}");
    assert!(qc.contains(" ACT_150 "), "{qc}");
    eprintln!(
        "{}",
        qc.lines().filter(|l| l.contains("event") || l.contains("chrome")).collect::<Vec<_>>().join("\n")
    );

    let report = round_trip(&studiomdl, "edge", &model);
    let lost: Vec<&str> = report.expected.iter().map(String::as_str).collect();
    eprintln!("{}", report.text());
    assert!(report.differences.is_empty(), "{}", report.text());
    for needed in [
        "texture \"head_green.bmp\": flat shading without chrome",
        "texture \"critter_green.bmp\" is named \"critter_green_chrome.bmp\"",
        "texture \"chrome.bmp\" is named \"chrom_e.bmp\"",
        "attachment 0: its name \"mouth\"",
        "controller 0: rest 128",
    ] {
        assert!(lost.iter().any(|l| l.starts_with(needed)), "{needed}: {lost:#?}");
    }
    assert_eq!(report.extra_triangles, layout.added_triangles());
}
