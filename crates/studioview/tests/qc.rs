//! `studioview qc`: the `$hbox` and `$attachment` lines parsed back equal the file's records,
//! for every Natural Selection model and the Source fixtures.

use std::process::Command;

use glam::Vec3;
use studio_decompile::qc;

/// The tokens of a QC line, quotes taken off, a `//` comment dropped.
fn tokens(line: &str) -> Vec<String> {
    let line = line.split("//").next().unwrap_or("");
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if c == '"' {
            chars.next();
            out.push(chars.by_ref().take_while(|&c| c != '"').collect());
        } else {
            let mut token = String::new();
            while let Some(&c) = chars.peek().filter(|c| !c.is_whitespace()) {
                token.push(c);
                chars.next();
            }
            out.push(token);
        }
    }
    out
}

fn number(token: &str) -> f32 {
    token.parse().unwrap_or_else(|_| panic!("{token} is not a number"))
}

fn vec3(tokens: &[String]) -> Vec3 {
    Vec3::new(number(&tokens[0]), number(&tokens[1]), number(&tokens[2]))
}

/// Bits of a vector, so that -0 and 0 differ and NaN equals itself.
fn bits(v: Vec3) -> [u32; 3] {
    v.to_array().map(f32::to_bits)
}

#[test]
fn ns_models_hbox_and_attachment_lines_read_back_to_the_records() {
    let Some(shared) = studio_testing::shared() else { return };
    let mut checked = (0, 0);
    for name in ["soldier.mdl", "alien4.mdl", "hive.mdl", "v_mg.mdl"] {
        let path = shared.join("models/ns").join(name);
        let model = studio_model::load(&path).unwrap().model;
        let output = studio_testing::process::output(
            Command::new(env!("CARGO_BIN_EXE_studioview")).arg("qc").arg(&path),
        );
        assert!(output.status.success(), "{name}");
        let text = String::from_utf8(output.stdout).unwrap();
        assert_eq!(text, qc::goldsrc(&model));
        let bone = |name: &str| model.bones.iter().position(|b| b.name == name).unwrap();
        let hboxes: Vec<Vec<String>> = text.lines().filter(|l| l.starts_with("$hbox ")).map(tokens).collect();
        assert_eq!(hboxes.len(), model.hitboxes.len(), "{name}");
        for (t, h) in hboxes.iter().zip(&model.hitboxes) {
            assert_eq!(t.len(), 9, "{t:?}");
            assert_eq!(t[1].parse::<i32>().unwrap(), h.group);
            assert_eq!(bone(&t[2]), h.bone);
            assert_eq!(bits(vec3(&t[3..6])), bits(h.bbmin), "{name} {t:?}");
            assert_eq!(bits(vec3(&t[6..9])), bits(h.bbmax), "{name} {t:?}");
            checked.0 += 1;
        }
        let attachments: Vec<Vec<String>> =
            text.lines().filter(|l| l.starts_with("$attachment ")).map(tokens).collect();
        assert_eq!(attachments.len(), model.attachments.len(), "{name}");
        for (i, (t, a)) in attachments.iter().zip(&model.attachments).enumerate() {
            assert_eq!(t[1].parse::<usize>().unwrap(), i);
            assert_eq!(bone(&t[2]), a.bone);
            assert_eq!(bits(vec3(&t[3..6])), bits(a.org), "{name} {t:?}");
            checked.1 += 1;
        }
        // Every sequence has its line, with its fps.
        let sequences: Vec<Vec<String>> =
            text.lines().filter(|l| l.starts_with("$sequence ")).map(tokens).collect();
        assert_eq!(sequences.len(), model.sequences.len());
        for (t, s) in sequences.iter().zip(&model.sequences) {
            assert_eq!(t[1], s.label);
            assert_eq!(number(&t[4]).to_bits(), s.fps.to_bits());
            assert_eq!(t.contains(&"loop".to_owned()), s.is_looping());
        }
    }
    assert!(checked.0 > 50 && checked.1 > 3, "{checked:?}");
}

#[test]
fn source_fixture_hbox_and_attachment_lines_read_back() {
    let Some(shared) = studio_testing::shared() else { return };
    let path = shared.join("fixtures/source/models/fixture/anim48.mdl");
    let model = studio_source::load(&path).unwrap().model;
    let text = qc::source(&model);
    let names: Vec<&str> = model.bones.iter().map(|b| b.name.as_str()).collect();
    let hboxes: Vec<Vec<String>> = text.lines().filter(|l| l.starts_with("$hbox ")).map(tokens).collect();
    let all: Vec<_> = model.hitbox_sets.iter().flat_map(|s| &s.hitboxes).collect();
    assert_eq!(hboxes.len(), all.len());
    assert!(!all.is_empty());
    for (t, h) in hboxes.iter().zip(all) {
        assert_eq!(names.iter().position(|&n| n == t[2]), Some(h.bone));
        assert_eq!(bits(vec3(&t[3..6])), bits(h.bbmin));
        assert_eq!(bits(vec3(&t[6..9])), bits(h.bbmax));
    }
    let attachments: Vec<Vec<String>> =
        text.lines().filter(|l| l.starts_with("$attachment ")).map(tokens).collect();
    assert_eq!(attachments.len(), model.attachments.len());
    for (t, a) in attachments.iter().zip(&model.attachments) {
        assert_eq!(t[1], a.name);
        assert_eq!(names.iter().position(|&n| n == t[2]), a.bone);
        let m = &a.local;
        assert_eq!(bits(vec3(&t[3..6])), bits(Vec3::new(m[0][3], m[1][3], m[2][3])));
        // The angles rebuild the rotation (to float precision).
        assert_eq!(t[6], "rotate");
        let [p, y, r] = [number(&t[7]), number(&t[8]), number(&t[9])].map(f32::to_radians);
        let rotation =
            glam::Mat3::from_rotation_z(y) * glam::Mat3::from_rotation_y(p) * glam::Mat3::from_rotation_x(r);
        for row in 0..3 {
            for col in 0..3 {
                assert!((rotation.col(col)[row] - m[row][col]).abs() < 1e-5, "{t:?} {m:?}");
            }
        }
    }
}
