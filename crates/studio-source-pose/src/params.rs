//! Pose parameters: from real values to the engine's normalised 0–1 and back
//! (source-bonesetup.md, "Pose parameters").

use studio_source::PoseParameter;

/// The normalised default: the value meaning 0 where the range spans 0, else the middle.
pub fn default_value(p: &PoseParameter) -> f32 {
    if p.start < 0.0 && 0.0 < p.end { -p.start / (p.end - p.start) } else { 0.5 }
}

/// `Studio_SetPoseParameter`: a real value, wrapped by its loop into the loop around the range's
/// middle, then normalised and clamped to [0, 1].
pub fn normalise(p: &PoseParameter, value: f32) -> f32 {
    let mut v = value;
    if p.loop_range != 0.0 && v.is_finite() {
        let middle = (p.start + p.end) * 0.5;
        let (low, high) = (middle - p.loop_range * 0.5, middle + p.loop_range * 0.5);
        v -= ((v - low) / p.loop_range).floor() * p.loop_range;
        // Rounding can land on the top of the half-open range.
        if v >= high {
            v -= p.loop_range;
        }
    }
    let n = (v - p.start) / (p.end - p.start);
    if n.is_nan() { 0.0 } else { n.clamp(0.0, 1.0) }
}

/// The real value of a normalised one.
pub fn real(p: &PoseParameter, normalised: f32) -> f32 {
    normalised * (p.end - p.start) + p.start
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(start: f32, end: f32, loop_range: f32) -> PoseParameter {
        PoseParameter { name: String::new(), flags: 0, start, end, loop_range }
    }

    #[test]
    fn a_looping_parameter_wraps_around_its_middle() {
        let spin = param(0.0, 360.0, 360.0);
        assert_eq!(normalise(&spin, 400.0), 40.0 / 360.0);
        assert_eq!(normalise(&spin, -90.0), 270.0 / 360.0);
        assert_eq!(default_value(&spin), 0.5);
        let aim = param(-45.0, 45.0, 0.0);
        assert_eq!(default_value(&aim), 0.5);
        assert_eq!(normalise(&aim, 90.0), 1.0, "clamped");
        assert_eq!(real(&aim, 0.25), -22.5);
        assert_eq!(default_value(&param(-1.0, 3.0, 0.0)), 0.25);
    }
}
