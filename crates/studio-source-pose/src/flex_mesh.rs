//! Flex description weights → a mesh's flexed vertices: the engine's `R_StudioFlexVerts`
//! (`docs/flex.md`, "Vertices"). Each flex's weight goes through its target ramp
//! (`RampFlexWeight`); a stereo flex also ramps its partner's; each moved vertex takes
//! `w = (w₁·s + (1 − s)·w₂)·(1 − b) + b·(w₃·s + (1 − s)·w₄)` with s = speed / 255 and
//! b = side / 255, where w₁, w₃ are the flex's and its partner's weights and w₂, w₄ their
//! delayed weights (the game's speech lag; a viewer has none, so they are w₁ and w₃, and the
//! sum is computed as written so that it rounds as the engine's does), and adds `w·delta` to its
//! bind-pose position and `w·normal_delta` to its normal, flex by flex in the mesh's order,
//! before skinning. A flex whose weights are both within 0.001 of 0 is passed over whole.

use glam::Vec3;
use studio_source::{Mesh, MeshFlex};

/// `RampFlexWeight`: weight `w` through the flex's targets.
pub fn ramp_flex_weight(targets: [f32; 4], w: f32) -> f32 {
    let [t0, t1, t2, t3] = targets;
    if w <= t0 || w >= t3 {
        0.0
    } else if w < t1 {
        (w - t0) / (t1 - t0)
    } else if w > t2 {
        (t3 - w) / (t3 - t2)
    } else {
        1.0
    }
}

/// The flex's own and its partner's ramped weights, from the descriptions' `weights`.
pub fn flex_weights(flex: &MeshFlex, weights: &[f32]) -> (f32, f32) {
    let weight = |d: usize| weights.get(d).copied().unwrap_or(0.0);
    let own = ramp_flex_weight(flex.targets, weight(flex.desc));
    let partner = flex.pair.map_or(own, |p| ramp_flex_weight(flex.targets, weight(p)));
    (own, partner)
}

/// Whether the flex moves nothing at these weights (the engine's 0.001 test).
fn negligible((own, partner): (f32, f32)) -> bool {
    own > -0.001 && own < 0.001 && partner > -0.001 && partner < 0.001
}

/// Whether the flex moves its vertices at description `weights`: the opposite of the engine's
/// test that passes a flex over (both ramped weights within 0.001 of 0).
pub fn flex_is_active(flex: &MeshFlex, weights: &[f32]) -> bool {
    !negligible(flex_weights(flex, weights))
}

/// Adds the flexes of `mesh` at description `weights` to `positions` and `normals` (the mesh's
/// vertices, which the caller has set to the bind pose); normals of moved vertices are
/// normalised again. `moved` is a scratch list the caller keeps between calls (it grows to
/// the mesh's vertex count once). Allocates nothing once the lists have grown.
pub fn apply_flexes(
    mesh: &Mesh,
    weights: &[f32],
    positions: &mut [Vec3],
    normals: &mut [Vec3],
    moved: &mut Vec<bool>,
) {
    moved.clear();
    moved.resize(positions.len(), false);
    for flex in &mesh.flexes {
        let (own, partner) = flex_weights(flex, weights);
        if negligible((own, partner)) {
            continue;
        }
        for v in &flex.vertices {
            let n = usize::from(v.index);
            let (Some(position), Some(normal)) = (positions.get_mut(n), normals.get_mut(n)) else {
                continue;
            };
            let s = f32::from(v.speed) * (1.0 / 255.0);
            let b = f32::from(v.side) * (1.0 / 255.0);
            let w = (own * s + (1.0 - s) * own) * (1.0 - b) + b * (partner * s + (1.0 - s) * partner);
            *position += v.delta * w;
            *normal += v.normal_delta * w;
            moved[n] = true;
        }
    }
    for (normal, _) in normals.iter_mut().zip(moved.iter()).filter(|(_, m)| **m) {
        *normal = normal.normalize_or_zero();
    }
}
