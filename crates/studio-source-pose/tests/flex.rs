//! Flex controllers → rules → weights → flexed vertices on the face fixture
//! (studio_testing::source_face), against values worked out here from docs/flex.md's formulas
//! and the fixture's constants, not from the evaluator's code; and no allocation once warm.

use glam::Vec3;
use studio_source::SourceModel;
use studio_source_pose::{apply_flexes, run_flex_rules};
use studio_testing::source_face;

fn face() -> Option<SourceModel> {
    let [mdl, vvd, vtx] = source_face::face_files(&studio_testing::shared()?, None);
    let files = studio_source::SourceFiles {
        mdl: &mdl,
        vvd: Some(&vvd),
        vtx: Some(&vtx),
        ani: None,
        includes: vec![],
    };
    Some(studio_source::parse_set(&files).expect("the face fixture reads"))
}

/// Mesh 0's bind-pose positions and normals.
fn bind_pose(model: &SourceModel) -> (Vec<Vec3>, Vec<Vec3>) {
    let body = &model.body_parts[0].models[0];
    let mesh = &body.meshes[0];
    let first = body.vertex_index as usize / 48 + mesh.vertex_offset as usize;
    let vertices = &model.vertices.as_ref().unwrap().vertices[first..first + mesh.num_vertices as usize];
    (vertices.iter().map(|v| v.position).collect(), vertices.iter().map(|v| v.normal).collect())
}

/// `RemapValClamped`.
fn remap(v: f32, a: f32, b: f32, c: f32, d: f32) -> f32 {
    c + (d - c) * ((v - a) / (b - a)).clamp(0.0, 1.0)
}

/// The weights the fixture's six rules give, each written out as the formula its comment in
/// source_face states.
fn expected_weights(c: [f32; 6]) -> [f32; 6] {
    let [jaw_drop, left, right, updown, close_lid, nway_value] = c;
    let jaw = jaw_drop * 2.0 - 0.5;
    let smile_r = right.max(remap(updown, 0.0, 1.0, 0.0, 1.0));
    let dominated = jaw * (1.0 - left * right);
    let filter = if nway_value <= -1.0 || nway_value >= 1.0 {
        0.0
    } else if nway_value < -0.5 {
        remap(nway_value, -1.0, -0.5, 0.0, 1.0)
    } else if nway_value > 0.5 {
        remap(nway_value, 0.5, 1.0, 1.0, 0.0)
    } else {
        1.0
    };
    let close_lid_v = remap(left, 0.0, 1.0, 0.0, 1.0);
    let lid = remap(close_lid, 0.0, 1.0, 0.0, 1.0);
    let up_down = remap(updown, -45.0, 45.0, -1.0, 1.0);
    let upper = if up_down < 0.0 { (1.0 + up_down) * close_lid_v * lid } else { close_lid_v * lid };
    [jaw, left, smile_r, dominated, filter * jaw_drop, upper * 0.5 * jaw_drop]
}

/// The ramp of targets (t0, t1, t2, t3).
fn ramp(t: [f32; 4], w: f32) -> f32 {
    if w <= t[0] || w >= t[3] {
        0.0
    } else if w < t[1] {
        (w - t[0]) / (t[1] - t[0])
    } else if w > t[2] {
        (t[3] - w) / (t[3] - t[2])
    } else {
        1.0
    }
}

/// Mesh 0's vertices flexed by the fixture's flexes at description weights `weights`.
fn expected_vertices(weights: [f32; 6], (mut p, mut n): (Vec<Vec3>, Vec<Vec3>)) -> (Vec<Vec3>, Vec<Vec3>) {
    let mut moved = vec![false; p.len()];
    for (desc, pair, targets, _, vertices) in source_face::FLEXES {
        let w1 = ramp(targets, weights[desc as usize]);
        let w3 = if pair != 0 { ramp(targets, weights[pair as usize]) } else { w1 };
        if w1.abs() < 0.001 && w3.abs() < 0.001 {
            continue;
        }
        for &(index, speed, side, delta, normal, _) in vertices {
            let s = f32::from(speed) * (1.0 / 255.0);
            let b = f32::from(side) * (1.0 / 255.0);
            let w = (w1 * s + (1.0 - s) * w1) * (1.0 - b) + b * (w3 * s + (1.0 - s) * w3);
            let i = usize::from(index);
            p[i] += Vec3::from_array(delta) * w;
            n[i] += Vec3::from_array(normal) * w;
            moved[i] = true;
        }
    }
    for (normal, _) in n.iter_mut().zip(&moved).filter(|(_, m)| **m) {
        *normal = normal.normalize_or_zero();
    }
    (p, n)
}

/// The evaluator's weights and flexed mesh 0 for controller values `c`.
fn evaluate(model: &SourceModel, c: [f32; 6]) -> ([f32; 6], Vec<Vec3>, Vec<Vec3>) {
    let mut weights = [0.0f32; 6];
    run_flex_rules(&model.flexes, &c, &mut weights);
    let (mut positions, mut normals) = bind_pose(model);
    let mut moved = Vec::new();
    apply_flexes(
        &model.body_parts[0].models[0].meshes[0],
        &weights,
        &mut positions,
        &mut normals,
        &mut moved,
    );
    (weights, positions, normals)
}

#[test]
fn rules_and_vertices_follow_the_formulas() {
    let Some(model) = face() else { return };
    let cases = [
        // Every rule at work: the eyes look up (2WAY_1 clamps 9 to 1), the n-way value is on
        // its plateau.
        [0.6, 0.3, 0.8, 9.0, 0.5, 0.0],
        // At rest: jaw is -0.5, below every ramp, and nothing moves.
        [0.0; 6],
        // The jaw flex's weight 0.0004 is under 0.001: that flex is passed over whole.
        [0.2502, 0.0, 0.0, 0.0, 0.0, 0.7],
        // Eyes down: the upper lid's (1 + up_down) branch; jaw on its plateau; n-way ramping in.
        [1.0, 1.0, 0.25, -22.5, 1.0, -0.75],
        // Past a ramp's far end (jaw 2.5 is not below t3 = 3, smile 2 is at t3 = 2).
        [1.5, 2.0, 0.0, 45.0, 0.0, 0.99],
    ];
    for c in cases {
        let (weights, positions, normals) = evaluate(&model, c);
        assert_eq!(weights, expected_weights(c), "weights for {c:?}");
        let (p, n) = expected_vertices(weights, bind_pose(&model));
        assert_eq!(positions, p, "positions for {c:?}");
        assert_eq!(normals, n, "normals for {c:?}");
    }
    // Case 1 by hand, for vertex 0 (to the rounding of adding to its bind-pose position): jaw 0.7 through [0, 1, 2, 3] is 0.7, smile_l 0.3 on the left
    // side: 0.7 · (0.5, 0, 0.25) + 0.3 · (0, 0, 1).
    let (_, positions, _) = evaluate(&model, cases[0]);
    let (base, _) = bind_pose(&model);
    let moved = positions[0] - base[0];
    assert!((moved - Vec3::new(0.35, 0.0, 0.475)).length() < 1e-5, "{moved}");
    // At rest every vertex is where the bind pose has it.
    let (_, rest, _) = evaluate(&model, cases[1]);
    assert_eq!(rest, base);
    // The skipped flex: vertex 0 (jaw and smile only) does not move, vertex 4 (n-way) does.
    let (_, tiny, _) = evaluate(&model, cases[2]);
    assert_eq!(tiny[0], base[0]);
    assert_ne!(tiny[4], base[4]);
}

#[test]
fn flexing_allocates_nothing_once_warm() {
    let Some(model) = face() else { return };
    let mesh = &model.body_parts[0].models[0].meshes[0];
    let (base_p, base_n) = bind_pose(&model);
    let (mut p, mut n) = (base_p.clone(), base_n.clone());
    let mut weights = vec![0.0f32; model.flexes.descs.len()];
    let mut moved = Vec::new();
    let mut controllers = [0.0f32; 6];
    let mut run = |weights: &mut Vec<f32>, moved: &mut Vec<bool>| {
        for k in 0..100 {
            for (j, c) in controllers.iter_mut().enumerate() {
                *c = ((k as f32) * 0.17 + j as f32 * 0.31).fract();
            }
            run_flex_rules(&model.flexes, &controllers, weights);
            p.copy_from_slice(&base_p);
            n.copy_from_slice(&base_n);
            apply_flexes(mesh, weights, &mut p, &mut n, moved);
        }
    };
    run(&mut weights, &mut moved);
    let info = allocation_counter::measure(|| run(&mut weights, &mut moved));
    assert_eq!(info.count_total, 0);
}
