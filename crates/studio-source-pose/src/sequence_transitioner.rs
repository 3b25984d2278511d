//! The blend out of the sequences an entity has left, as the Source client makes it
//! (`CSequenceTransitioner` in `sequence_Transitioner.cpp`, used by
//! `C_BaseAnimating::MaintainSequenceTransitions`):
//!
//! - When the sequence changes, the one left keeps playing at its rate from where it was and
//!   fades out over `min(left.fadeouttime, entered.fadeintime)` seconds; a sequence entered with
//!   `STUDIO_SNAP`, or a change without interpolation, drops every sequence still fading.
//! - Its weight `s = 1 − elapsed / fade` goes through the spline `3s² − 2s³`
//!   (`CAnimationLayer::GetFadeout`); a fade of 0 or less is no blend at all. A sequence whose
//!   weight reaches 0 is dropped.
//! - Each frame the sequences left are accumulated after the one shown, the most recently left
//!   first, at their cycle moved on by the time since (`ClampCycle`: wrapped when looping, else
//!   held within 0 to 0.999) and their weight: before the layers and the autoplay sequences
//!   (`StandardBlendingRules`).

use crate::pose::SourceLayer;
use crate::rig::Rig;

/// `STUDIO_SNAP`: a sequence entered without blending from the one left.
pub const STUDIO_SNAP: i32 = 0x2;

/// At most this many sequences fade at once; a change beyond drops the oldest. The engine has
/// no bound, but a file's fade time can be anything, and the viewer allocates nothing a frame.
pub const MAX_FADING: usize = 8;

/// A sequence as last shown, or as left and fading.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    /// The combined sequence.
    sequence: usize,
    /// Its cycle when last shown.
    cycle: f32,
    /// Cycles per second of the clock.
    rate: f32,
    /// Whether it loops (its cycle wraps rather than stops).
    looping: bool,
    /// The clock when last shown.
    time: f32,
    /// Seconds it fades over (0 while it is the one shown).
    fade: f32,
    /// Its weight at the last update.
    weight: f32,
}

/// The sequences left and still fading out, and the one shown.
#[derive(Clone, Debug, Default)]
pub struct SequenceTransitioner {
    /// The sequences left, oldest first.
    fading: Vec<Entry>,
    /// The sequence shown at the last update; `None` before the first (nothing to blend from).
    current: Option<Entry>,
}

/// `CAnimationLayer::GetFadeout`: the weight of a sequence left `elapsed` seconds ago that fades
/// over `fade` seconds; 0 when it has faded (or never fades).
pub fn fadeout_weight(fade: f32, elapsed: f32) -> f32 {
    if fade.is_nan() || fade <= 0.0 {
        return 0.0;
    }
    let s = 1.0 - elapsed / fade;
    if !s.is_finite() {
        0.0
    } else if s > 0.0 && s <= 1.0 {
        3.0 * s * s - 2.0 * s * s * s
    } else if s > 1.0 {
        1.0
    } else {
        s
    }
}

/// `ClampCycle`: a cycle moved past its end, wrapped for a looping sequence, else held within 0
/// and 0.999.
pub fn clamp_cycle(cycle: f32, looping: bool) -> f32 {
    if !cycle.is_finite() {
        return 0.0;
    }
    if looping {
        let wrapped = cycle - cycle.trunc();
        if wrapped < 0.0 { wrapped + 1.0 } else { wrapped }
    } else {
        cycle.clamp(0.0, 0.999)
    }
}

impl SequenceTransitioner {
    /// `CheckForSequenceChange`: the shown sequence becomes `entered`. The one left starts to
    /// fade unless `interpolate` is false or `entered` has `STUDIO_SNAP`, which drop every
    /// sequence fading. Choosing the sequence already shown changes nothing.
    pub fn change(&mut self, rig: &Rig<'_>, entered: usize, interpolate: bool) {
        let Some(mut left) = self.current.take() else { return };
        if left.sequence == entered {
            self.current = Some(left);
            return;
        }
        let Some(new) = rig.sequence(entered) else { return };
        if new.seq.flags & STUDIO_SNAP != 0 || !interpolate {
            self.fading.clear();
            return;
        }
        let fade_out = rig.sequence(left.sequence).map_or(0.0, |s| s.seq.fade.1);
        left.fade = fade_out.min(new.seq.fade.0);
        if self.fading.len() >= MAX_FADING {
            self.fading.remove(0);
        }
        if self.fading.capacity() < MAX_FADING {
            self.fading.reserve_exact(MAX_FADING - self.fading.len());
        }
        self.fading.push(left);
    }

    /// `UpdateCurrent`: the shown sequence is at `cycle` (moving `rate` cycles a second, looping
    /// or not) when the clock reads `time`; every sequence left takes its weight at `time`, and
    /// those faded out are dropped. A clock that went back (a reset) drops them all.
    pub fn update(&mut self, sequence: usize, cycle: f32, rate: f32, looping: bool, time: f32) {
        let rate = if rate.is_finite() { rate } else { 0.0 };
        self.current = Some(Entry { sequence, cycle, rate, looping, time, fade: 0.0, weight: 1.0 });
        self.fading.retain_mut(|entry| {
            let elapsed = time - entry.time;
            entry.weight = if elapsed >= 0.0 { fadeout_weight(entry.fade, elapsed) } else { 0.0 };
            entry.weight > 0.0
        });
    }

    /// Adds the sequences left to `out` as the engine accumulates them after the one shown: the
    /// most recently left first, each at its cycle moved on to `time` and its weight.
    pub fn layers(&self, time: f32, out: &mut Vec<SourceLayer>) {
        for entry in self.fading.iter().rev() {
            let cycle = clamp_cycle(entry.cycle + (time - entry.time) * entry.rate, entry.looping);
            out.push(SourceLayer { sequence: entry.sequence, cycle, weight: entry.weight });
        }
    }

    /// How many sequences are fading out.
    pub fn fading(&self) -> usize {
        self.fading.len()
    }

    /// Drops every sequence fading, and forgets the one shown (a new model, a jump in time).
    pub fn clear(&mut self) {
        self.fading.clear();
        self.current = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fade_is_the_engines_spline() {
        assert_eq!(fadeout_weight(0.2, 0.0), 1.0);
        // s = 0.5: 3/4 − 2/8 = 0.5.
        assert!((fadeout_weight(0.2, 0.1) - 0.5).abs() < 1e-6);
        // s = 0.75: 3 × 0.5625 − 2 × 0.421875 = 0.84375.
        assert!((fadeout_weight(0.2, 0.05) - 0.843_75).abs() < 1e-6);
        assert_eq!(fadeout_weight(0.2, 0.2), 0.0);
        assert!(fadeout_weight(0.2, 0.3) < 0.0);
        // A clock behind the time left: held at 1.
        assert_eq!(fadeout_weight(0.2, -0.1), 1.0);
        assert_eq!(fadeout_weight(0.0, 0.0), 0.0);
        assert_eq!(fadeout_weight(-1.0, 0.0), 0.0);
        assert_eq!(fadeout_weight(f32::NAN, 0.0), 0.0);
        assert_eq!(fadeout_weight(f32::INFINITY, 0.1), 1.0);
    }

    #[test]
    fn cycles_wrap_or_hold_as_clamp_cycle_does() {
        assert!((clamp_cycle(1.25, true) - 0.25).abs() < 1e-6);
        assert!((clamp_cycle(-0.25, true) - 0.75).abs() < 1e-6);
        assert_eq!(clamp_cycle(1.25, false), 0.999);
        assert_eq!(clamp_cycle(-0.5, false), 0.0);
        assert_eq!(clamp_cycle(f32::NAN, true), 0.0);
    }

    /// anim48.mdl with its include models dropped and its first sequences' fade times and
    /// flags set by `setup`.
    fn with_model(setup: impl FnOnce(&mut studio_source::SourceModel), test: impl FnOnce(&Rig<'_>)) {
        let Some(shared) = studio_testing::shared() else { return };
        let bytes = studio_testing::read(&shared, "fixtures/source/models/fixture/anim48.mdl");
        let mut model = studio_source::parse_mdl(&bytes).unwrap();
        assert!(model.sequences.len() >= 3);
        model.includes.clear();
        for s in &mut model.sequences {
            s.fade = (0.2, 0.2);
            s.flags &= !STUDIO_SNAP;
        }
        setup(&mut model);
        test(&Rig::new(&model));
    }

    #[test]
    fn a_sequence_left_fades_over_the_shorter_time_at_its_own_rate() {
        with_model(
            |model| {
                model.sequences[0].fade = (0.2, 0.4);
                model.sequences[1].fade = (0.25, 0.2);
            },
            |rig| {
                let mut t = SequenceTransitioner::default();
                // Nothing shown yet: nothing to blend from.
                t.change(rig, 1, true);
                assert_eq!(t.fading(), 0);
                t.update(0, 0.5, 2.0, true, 1.0);
                t.change(rig, 0, true);
                assert_eq!(t.fading(), 0, "the sequence shown again changes nothing");
                t.change(rig, 1, true);
                assert_eq!(t.fading(), 1);
                // min(0.4 out, 0.25 in) = 0.25 s; 0.125 s on, s = 0.5: weight 0.5.
                t.update(1, 0.0, 1.0, true, 1.125);
                let mut out = Vec::new();
                t.layers(1.125, &mut out);
                assert_eq!(out.len(), 1);
                assert_eq!(out[0].sequence, 0);
                assert!((out[0].weight - 0.5).abs() < 1e-6);
                // Its cycle moved on at its own rate: 0.5 + 0.125 × 2.
                assert!((out[0].cycle - 0.75).abs() < 1e-6);
                // Past 0.25 s it is dropped.
                t.update(1, 0.1, 1.0, true, 1.25);
                assert_eq!(t.fading(), 0);
            },
        );
    }

    #[test]
    fn the_most_recently_left_comes_first_and_a_non_looping_cycle_holds() {
        with_model(
            |_| {},
            |rig| {
                let mut t = SequenceTransitioner::default();
                t.update(0, 0.9, 1.0, false, 0.0);
                t.change(rig, 1, true);
                t.update(1, 0.2, 1.0, true, 0.05);
                t.change(rig, 2, true);
                t.update(2, 0.0, 1.0, true, 0.1);
                let mut out = Vec::new();
                t.layers(0.1, &mut out);
                let order: Vec<usize> = out.iter().map(|l| l.sequence).collect();
                assert_eq!(order, [1, 0]);
                // Sequence 0 does not loop: 0.9 + 0.1 held at 0.999.
                assert_eq!(out[1].cycle, 0.999);
                // 0.1 s of 0.2: s = 0.5 → 0.5; 0.05 s: s = 0.75 → 0.84375.
                assert!((out[1].weight - 0.5).abs() < 1e-6);
                assert!((out[0].weight - 0.843_75).abs() < 1e-6);
            },
        );
    }

    #[test]
    fn snap_and_no_interpolation_drop_every_fading_sequence() {
        with_model(
            |model| model.sequences[2].flags |= STUDIO_SNAP,
            |rig| {
                let mut t = SequenceTransitioner::default();
                t.update(0, 0.0, 1.0, true, 0.0);
                t.change(rig, 1, true);
                t.update(1, 0.0, 1.0, true, 0.01);
                assert_eq!(t.fading(), 1);
                t.change(rig, 2, true);
                assert_eq!(t.fading(), 0, "STUDIO_SNAP");
                t.update(2, 0.0, 1.0, true, 0.02);
                t.change(rig, 0, true);
                t.update(0, 0.0, 1.0, true, 0.03);
                assert_eq!(t.fading(), 1);
                t.change(rig, 1, false);
                assert_eq!(t.fading(), 0, "no interpolation");
            },
        );
    }

    #[test]
    fn a_zero_fade_never_blends_and_the_queue_is_bounded() {
        with_model(
            |model| model.sequences[1].fade = (0.0, 0.2),
            |rig| {
                let mut t = SequenceTransitioner::default();
                t.update(0, 0.0, 1.0, true, 0.0);
                t.change(rig, 1, true);
                t.update(1, 0.0, 1.0, true, 0.0);
                assert_eq!(t.fading(), 0, "min(0.2, 0) = 0: no blend");
                for i in 0..3 * MAX_FADING {
                    let sequence = [0, 2][i % 2];
                    t.change(rig, sequence, true);
                    t.update(sequence, 0.0, 1.0, true, 0.0);
                }
                assert_eq!(t.fading(), MAX_FADING);
                // A clock that went back drops them all.
                t.update(0, 0.0, 1.0, true, -1.0);
                assert_eq!(t.fading(), 0);
            },
        );
    }
}
