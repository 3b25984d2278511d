//! The face tables (docs/flex.md): a face appended to anim48 (studio_testing::source_face)
//! reads back as written, and each rule the reader must refuse is refused with its place.

use studio_source::{FlexOp, Problem, Record, RemapType, SourceModel, parse_mdl};
use studio_testing::source_face::{self, CONTROLLERS, DESCS, EYEBALL, EYEBALL_NAME, FLEXES};
use studio_testing::source_mdl::{i32_at, set_i32};

fn face_bytes() -> Option<Vec<u8>> {
    let shared = studio_testing::shared()?;
    Some(source_face::with_face(&studio_testing::read(&shared, "fixtures/source/models/fixture/anim48.mdl")))
}

fn face() -> Option<SourceModel> {
    Some(parse_mdl(&face_bytes()?).expect("the face fixture reads"))
}

#[test]
fn controllers_descriptions_rules_and_ui_read_back() {
    let Some(model) = face() else { return };
    let flexes = &model.flexes;
    assert_eq!(flexes.descs, DESCS);
    let controllers: Vec<_> =
        flexes.controllers.iter().map(|c| (c.name.as_str(), c.kind.as_str(), c.min, c.max)).collect();
    assert_eq!(controllers, CONTROLLERS);
    assert_eq!(flexes.rules.len(), 6);
    assert_eq!(
        flexes.rules[0].ops,
        [FlexOp::Fetch1(0), FlexOp::Const(2.0), FlexOp::Mul, FlexOp::Const(0.5), FlexOp::Sub]
    );
    assert_eq!(flexes.rules[1].ops, [FlexOp::Fetch1(1), FlexOp::Ignored(9)]);
    assert_eq!(flexes.rules[3].ops[3], FlexOp::Dominate(2));
    assert_eq!(flexes.rules[4].ops[5], FlexOp::NWay(0));
    assert_eq!(flexes.rules[5].ops[3], FlexOp::UpperEyelid(1));
    assert_eq!(flexes.rules[5].ops[6], FlexOp::Combo(3));
    assert!(flexes.rules.iter().all(|r| r.fits_stack()));
    assert_eq!(flexes.rules.iter().map(|r| r.flex).collect::<Vec<_>>(), [0, 1, 2, 3, 4, 5]);
    assert_eq!(flexes.ui.len(), 2);
    assert_eq!((flexes.ui[1].name.as_str(), flexes.ui[1].stereo), ("smile", true));
    assert_eq!(flexes.ui[1].controllers, [Some(1), Some(2), None]);
    assert_eq!(flexes.ui[0].remap, RemapType::PassThrough);
    assert_eq!(flexes.mouths.len(), 1);
    assert_eq!((flexes.mouths[0].bone, flexes.mouths[0].flex_desc), (3, 0));
}

#[test]
fn mesh_flexes_and_the_eyeball_read_back() {
    let Some(model) = face() else { return };
    let body = &model.body_parts[0].models[0];
    let mesh = &body.meshes[0];
    assert_eq!(mesh.flexes.len(), FLEXES.len());
    for (flex, (desc, pair, targets, wrinkle, vertices)) in mesh.flexes.iter().zip(FLEXES) {
        assert_eq!(flex.desc, desc as usize);
        assert_eq!(flex.pair, (pair != 0).then_some(pair as usize));
        assert_eq!(flex.targets, targets);
        assert_eq!(flex.wrinkle, wrinkle);
        let read: Vec<_> = flex
            .vertices
            .iter()
            .map(|v| (v.index, v.speed, v.side, v.delta.to_array(), v.normal_delta.to_array(), v.wrinkle))
            .collect();
        assert_eq!(read, vertices);
    }
    // The other meshes have none.
    assert!(body.meshes[1..].iter().all(|m| m.flexes.is_empty()));
    assert_eq!(body.eyeballs.len(), 1);
    let eye = &body.eyeballs[0];
    assert_eq!(eye.name, EYEBALL_NAME);
    assert_eq!(
        (eye.bone as i32, eye.origin.to_array(), eye.radius, eye.iris_scale),
        (EYEBALL.0, EYEBALL.1, EYEBALL.3, EYEBALL.6)
    );
    assert_eq!(eye.upper_flex_desc, [None; 3]);
    assert_eq!(eye.upper_lid_flex_desc, Some(5));
}

/// Where rule `r`'s operation `i` is.
fn op_at(bytes: &[u8], r: usize, i: usize) -> usize {
    let rule = usize::try_from(i32_at(bytes, 280)).unwrap() + r * 12;
    usize::try_from(rule as i64 + i64::from(i32_at(bytes, rule + 8))).unwrap() + i * 8
}

#[test]
fn a_rule_that_would_leave_its_stack_is_refused_where_it_does() {
    let Some(mut bytes) = face_bytes() else { return };
    // Rule 0's MUL (operation 2) becomes a second operand-less ADD after one value: rule 1's
    // first operation turned into ADD on an empty stack.
    let at = op_at(&bytes, 1, 0);
    set_i32(&mut bytes, at, 4);
    let error = parse_mdl(&bytes).unwrap_err();
    assert_eq!(
        (error.place.record, error.place.index, error.place.offset),
        (Record::FlexOp, Some(0), at as u64)
    );
    assert_eq!(error.problem, Problem::FlexStack { op: 0, code: 4, depth: 0, needs: 2 });
    assert!(error.to_string().contains("flex rule operation 0 at byte"), "{error}");
}

#[test]
fn a_fetch_of_a_controller_that_does_not_exist_is_refused() {
    let Some(mut bytes) = face_bytes() else { return };
    let at = op_at(&bytes, 0, 0);
    set_i32(&mut bytes, at + 4, 6);
    let error = parse_mdl(&bytes).unwrap_err();
    assert_eq!(error.place.record, Record::FlexOp);
    assert!(matches!(error.problem, Problem::BadReference { value: 6, count: 6, .. }), "{error}");
}

#[test]
fn thirty_three_pushes_are_refused_and_thirty_two_are_not() {
    let Some(bytes) = face_bytes() else { return };
    // Rule 0 rewritten as `count` CONST operations, appended at the end of the file.
    let with_pushes = |count: usize| {
        let mut b = bytes.clone();
        let ops_at = b.len();
        for _ in 0..count {
            b.extend_from_slice(&1i32.to_le_bytes());
            b.extend_from_slice(&1.0f32.to_le_bytes());
        }
        let rule = usize::try_from(i32_at(&b, 280)).unwrap();
        set_i32(&mut b, rule + 4, count as i32);
        set_i32(&mut b, rule + 8, (ops_at - rule) as i32);
        let len = b.len() as i32;
        set_i32(&mut b, 76, len);
        parse_mdl(&b)
    };
    assert!(with_pushes(32).is_ok());
    let error = with_pushes(33).unwrap_err();
    assert_eq!(error.problem, Problem::FlexStack { op: 32, code: 1, depth: 32, needs: 0 });
}

#[test]
fn a_flex_vertex_past_its_mesh_is_refused() {
    let Some(bytes) = face_bytes() else { return };
    let model = parse_mdl(&bytes).unwrap();
    let vertices = model.body_parts[0].models[0].meshes[0].num_vertices;
    // The first vertex record of the first flex: found from the mesh's flexindex.
    let part = usize::try_from(i32_at(&bytes, 236)).unwrap();
    let body = usize::try_from(part as i64 + i64::from(i32_at(&bytes, part + 12))).unwrap();
    let mesh = usize::try_from(body as i64 + i64::from(i32_at(&bytes, body + 76))).unwrap();
    let flex = usize::try_from(mesh as i64 + i64::from(i32_at(&bytes, mesh + 20))).unwrap();
    let vert = usize::try_from(flex as i64 + i64::from(i32_at(&bytes, flex + 24))).unwrap();
    let mut bad = bytes.clone();
    bad[vert..vert + 2].copy_from_slice(&(vertices as u16).to_le_bytes());
    let error = parse_mdl(&bad).unwrap_err();
    assert_eq!((error.place.record, error.place.offset), (Record::VertAnim, vert as u64));
    let mut last = bytes;
    last[vert..vert + 2].copy_from_slice(&(vertices as u16 - 1).to_le_bytes());
    assert!(parse_mdl(&last).is_ok());
}
