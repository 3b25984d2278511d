//! A stereo flex's `flexpair` split, back from its vertices' side bytes.
//!
//! studiomdl's `flexpair NAME split frame N` makes the flex descriptions `NAMER` (the flex's
//! own) and `NAMEL` (its partner), and gives each vertex the frame moves a side from its `x`
//! in the `.vta` frame (`ComputeSideAndScale`): `t = (split − x) / (2·split)`, the scale is
//! `3t² − 2t³` inside `|x| < |split|` and 0 or 1 beyond it, the side is `1 − scale`, and the
//! model keeps `⌊255·side⌋` (the engine weighs the partner by `side / 255`, see
//! `studio_source_pose::flex_mesh`). The split is not stored, so it is found again as the value
//! whose sides equal the model's bytes.

/// The side byte studiomdl gives a vertex at `x` of a flex paired with split `split`: its
/// float arithmetic as written, the `2.0` a double for a positive split and a float for a
/// negative one.
pub fn side_byte(split: f32, x: f32) -> u8 {
    let scale = if split > 0.0 {
        if x > split {
            0.0
        } else if x < -split {
            1.0
        } else {
            let t = (f64::from(split - x) / (2.0 * f64::from(split))) as f32;
            3.0 * t * t - 2.0 * t * t * t
        }
    } else if split < 0.0 {
        if x < split {
            0.0
        } else if x > -split {
            1.0
        } else {
            let t = (split - x) / (2.0 * split);
            3.0 * t * t - 2.0 * t * t * t
        }
    } else {
        1.0
    };
    let side = (1.0 - f64::from(scale)) as f32;
    // `pvertanim->side = 255.0F * side`: a float to an unsigned char, truncated.
    (255.0 * side) as u8
}

/// A split, and how many of the vertices it gives their side byte.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Split {
    /// The split (never 0: studiomdl reads 0 as "not a pair").
    pub split: f32,
    /// Vertices whose side byte it gives.
    pub matched: usize,
    /// Vertices.
    pub of: usize,
}

/// At most this many candidates of each kind are tried, so a flex of many vertices costs a
/// bounded number of passes over them.
const MAX_CANDIDATES: usize = 48;

/// The split that gives the most of `points` (`x` in the `.vta` frame, side byte) their side
/// byte; among equals, the first candidate: the middle of the splits every vertex inside the
/// blend allows, the median of their estimates, the others from the middle out, then bounds
/// from vertices outside it.
pub fn split_of(points: &[(f32, u8)]) -> Split {
    // The split a vertex inside the blend (x ≠ 0, 0 < byte < 255) gives side `side`: through
    // the inverse of 3t² − 2t³, t = ½ − sin(asin(1 − 2·scale) / 3), and x = split·(1 − 2t).
    let split_for = |x: f32, side: f64| -> Option<f64> {
        let scale = 1.0 - side;
        let t = 0.5 - ((1.0 - 2.0 * scale).clamp(-1.0, 1.0).asin() / 3.0).sin();
        let across = 1.0 - 2.0 * t;
        (across.abs() > 1e-9).then(|| f64::from(x) / across).filter(|s| s.is_finite() && *s != 0.0)
    };
    let inside = || points.iter().filter(|(x, b)| *b > 0 && *b < 255 && *x != 0.0 && x.is_finite());
    // Each such byte holds the sides [b/255, (b+1)/255): an interval of splits. Where they
    // overlap, its middle gives every one of them.
    let mut overlap: Option<(f64, f64)> = None;
    for &(x, b) in inside() {
        let (Some(a), Some(c)) = (split_for(x, f64::from(b) / 255.0), split_for(x, f64::from(b + 1) / 255.0))
        else {
            continue;
        };
        let (lo, hi) = (a.min(c), a.max(c));
        overlap = Some(match overlap {
            None => (lo, hi),
            Some((l, h)) => (l.max(lo), h.min(hi)),
        });
    }
    let mut estimates: Vec<f32> =
        inside().filter_map(|&(x, b)| split_for(x, (f64::from(b) + 0.5) / 255.0)).map(|s| s as f32).collect();
    estimates.sort_by(f32::total_cmp);
    let mut candidates = Vec::new();
    if let Some((lo, hi)) = overlap.filter(|(lo, hi)| lo < hi) {
        candidates.push(((lo + hi) / 2.0) as f32);
    }
    if !estimates.is_empty() {
        // The median first, then outwards, a bounded sample.
        let middle = estimates.len() / 2;
        let step = estimates.len().div_ceil(MAX_CANDIDATES).max(1);
        candidates.push(estimates[middle]);
        for k in (step..=middle.max(estimates.len() - middle)).step_by(step) {
            for i in [middle.checked_sub(k), middle.checked_add(k)].into_iter().flatten() {
                if let Some(&s) = estimates.get(i) {
                    candidates.push(s);
                }
            }
        }
    }
    // Vertices fully on one side bound the blend: splits just inside their distance, both ways.
    let mut bounds: Vec<f32> =
        points.iter().map(|(x, _)| x.abs()).filter(|a| *a > 0.0 && a.is_finite()).collect();
    bounds.sort_by(f32::total_cmp);
    bounds.dedup();
    for &a in bounds.iter().take(MAX_CANDIDATES / 2) {
        for s in [a * 0.5, a, -a * 0.5, -a] {
            candidates.push(s);
        }
    }
    candidates.push(1.0);
    candidates.push(-1.0);
    let matched = |split: f32| points.iter().filter(|&&(x, b)| side_byte(split, x) == b).count();
    let mut best: Option<Split> = None;
    for split in candidates.into_iter().filter(|s| s.is_finite() && *s != 0.0) {
        let m = matched(split);
        if best.is_none_or(|b| m > b.matched) {
            best = Some(Split { split, matched: m, of: points.len() });
            if m == points.len() {
                break;
            }
        }
    }
    // The candidates always hold ±1, so there is a best; the fallback is for the type.
    best.unwrap_or(Split { split: 1.0, matched: 0, of: points.len() })
}

/// The `NAME` of a `flexpair`: the flex's description without its `R` where its partner's is
/// the same with an `L` (any case); `None` for names studiomdl's pairing cannot give.
pub fn pair_stem<'a>(own: &'a str, partner: &str) -> Option<&'a str> {
    let stem = own.strip_suffix(['R', 'r'])?;
    let partner_stem = partner.strip_suffix(['L', 'l'])?;
    (!stem.is_empty() && stem.eq_ignore_ascii_case(partner_stem)).then_some(stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_follow_the_smoothstep_across_the_split() {
        // Beyond the split one way the partner has it all, the other way the flex itself.
        assert_eq!(side_byte(1.0, 2.0), 255);
        assert_eq!(side_byte(1.0, -2.0), 0);
        assert_eq!(side_byte(1.0, 1.0), 255);
        assert_eq!(side_byte(1.0, -1.0), 0);
        // The middle: t = ½, scale ½, side ½, ⌊127.5⌋.
        assert_eq!(side_byte(1.0, 0.0), 127);
        // A negative split mirrors it.
        assert_eq!(side_byte(-1.0, -2.0), 255);
        assert_eq!(side_byte(-1.0, 2.0), 0);
        // t = 0.25 at x = ½: scale 0.15625, side 0.84375, ⌊215.15625⌋.
        assert_eq!(side_byte(1.0, 0.5), 215);
    }

    #[test]
    fn the_split_that_made_the_sides_is_found_again() {
        for split in [0.75f32, 2.5, -1.25, 0.1] {
            let xs: Vec<f32> = (-20..=20).map(|k| k as f32 * 0.05 * split.abs()).collect();
            let points: Vec<(f32, u8)> = xs.iter().map(|&x| (x, side_byte(split, x))).collect();
            let found = split_of(&points);
            assert_eq!(found.matched, found.of, "split {split}: {found:?}");
            assert!((found.split - split).abs() < 0.02 * split.abs(), "split {split}: {found:?}");
        }
        // Every vertex fully on one side: any split short of them will do, and one is found.
        let points = [(1.0, 255), (2.0, 255), (-3.0, 0)];
        let found = split_of(&points);
        assert_eq!(found.matched, 3, "{found:?}");
        assert!(found.split != 0.0);
        // No vertices: a split all the same; damaged positions give one too.
        assert_eq!(split_of(&[]).of, 0);
        let damaged = [(f32::NAN, 100), (f32::INFINITY, 20), (f32::MAX, 128), (f32::MIN_POSITIVE, 3)];
        let found = split_of(&damaged);
        assert!(found.split.is_finite() && found.split != 0.0, "{found:?}");
    }

    #[test]
    fn pairs_are_named_r_then_l() {
        assert_eq!(pair_stem("AU12R", "AU12L"), Some("AU12"));
        assert_eq!(pair_stem("smiler", "SMILEL"), Some("smile"));
        assert_eq!(pair_stem("smile_l", "smile_r"), None);
        assert_eq!(pair_stem("R", "L"), None);
        assert_eq!(pair_stem("AU12R", "AU13L"), None);
    }
}
