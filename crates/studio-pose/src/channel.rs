//! Valve's lookups of one animation channel's run-length data at a keyframe, from
//! `StudioCalcBoneQuaterion` and `StudioCalcBonePosition` (goldsrc-sequences.md, "Animation
//! data"; the exact rules at run boundaries are those of `../shared/reference/README.md`).
//!
//! A channel is a chain of runs: a header slot (`valid`, `total`), then `valid` values. Slots
//! are read relative to a run's header, as Valve's `panimvalue[i]`: slot 0 is the header itself.
//! At the last frame of a run Valve reads the first value of the next run, which for the last
//! run lies past the channel; that is read from the file as the game does, and where even the
//! file has ended, the keyframe is held.

/// Where Valve's walk for a keyframe ends: the run's byte position, the keyframe's index inside
/// it, and the run's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunAt {
    run: usize,
    k: i32,
    valid: i32,
    total: i32,
}

fn header(data: &[u8], pos: usize) -> Option<(i32, i32)> {
    let bytes = data.get(pos..pos.checked_add(2)?)?;
    Some((i32::from(bytes[0]), i32::from(bytes[1])))
}

fn next_run(pos: usize, valid: i32) -> Option<usize> {
    pos.checked_add(2 * (valid as usize + 1))
}

/// The run that holds keyframe `frame`, by Valve's walk, including its guard that reads a run
/// whose `total` is below `valid` from its start (the frame count restarts at 0). `None` if the
/// data ends first (the parser rules that out for frames of the sequence).
fn find_run(data: &[u8], start: usize, frame: i32) -> Option<RunAt> {
    let mut pos = start;
    let mut k = frame;
    let (mut valid, mut total) = header(data, pos)?;
    if total < valid {
        k = 0;
    }
    while total <= k {
        k -= total;
        pos = next_run(pos, valid)?;
        (valid, total) = header(data, pos)?;
        if total < valid {
            k = 0;
        }
    }
    Some(RunAt { run: pos, k, valid, total })
}

/// Valve's walk for keyframes 0, 1, 2… in turn, in time linear in the frames and runs rather
/// than quadratic: it resumes where the previous keyframe's walk ended. Once a walk meets
/// Valve's restart guard, every later keyframe ends in the same place.
#[derive(Clone, Debug)]
pub struct ChannelCursor<'a> {
    data: &'a [u8],
    /// The run the last walk ended in and the frames before it.
    run: usize,
    before: i32,
    /// Where every walk ends once the guard has been met.
    settled: Option<RunAt>,
    ended: bool,
}

impl<'a> ChannelCursor<'a> {
    /// A cursor on the channel starting at byte `start` of `data`.
    pub fn new(data: &'a [u8], start: usize) -> Self {
        let mut cursor = Self { data, run: start, before: 0, settled: None, ended: false };
        match header(data, start) {
            Some((valid, total)) if total < valid => cursor.settled = find_run(data, start, 0),
            Some(_) => {}
            None => cursor.ended = true,
        }
        cursor
    }

    /// Valve's walk for `frame`, which must not be less than the previous call's.
    pub fn seek(&mut self, frame: i32) -> Option<RunAt> {
        if let Some(at) = self.settled {
            return Some(at);
        }
        if self.ended {
            return None;
        }
        loop {
            let Some((valid, total)) = header(self.data, self.run) else {
                self.ended = true;
                return None;
            };
            let k = frame - self.before;
            if total > k {
                return Some(RunAt { run: self.run, k, valid, total });
            }
            self.before += total;
            let Some(next) = next_run(self.run, valid) else {
                self.ended = true;
                return None;
            };
            self.run = next;
            match header(self.data, next) {
                Some((v, t)) if t < v => {
                    self.settled = find_run(self.data, next, 0);
                    return self.settled;
                }
                Some(_) => {}
                None => {
                    self.ended = true;
                    return None;
                }
            }
        }
    }
}

/// Slot `index` of the run at `run`, as a signed value.
fn slot(data: &[u8], run: usize, index: i32) -> Option<i16> {
    let at = run.checked_add(2 * usize::try_from(index).ok()?)?;
    let bytes = data.get(at..at.checked_add(2)?)?;
    Some(i16::from_le_bytes([bytes[0], bytes[1]]))
}

/// Raw values of a rotation channel at keyframes `k` and `k + 1`, as `StudioCalcBoneQuaterion`
/// picks them from the run its walk ended in.
pub fn rotation_pair_at(data: &[u8], at: Option<RunAt>) -> (i16, i16) {
    let Some(RunAt { run, k, valid, total }) = at else { return (0, 0) };
    let (first, second) = if valid > k {
        let first = slot(data, run, k + 1);
        let second = if valid > k + 1 {
            slot(data, run, k + 2)
        } else if total > k + 1 {
            first
        } else {
            slot(data, run, valid + 2)
        };
        (first, second)
    } else {
        let first = slot(data, run, valid);
        let second = if total > k + 1 { first } else { slot(data, run, valid + 2) };
        (first, second)
    };
    let first = first.unwrap_or(0);
    (first, second.unwrap_or(first))
}

/// Raw values of a rotation channel at keyframes `frame` and `frame + 1`.
pub fn rotation_pair(data: &[u8], start: usize, frame: i32) -> (i16, i16) {
    rotation_pair_at(data, find_run(data, start, frame))
}

/// How a position channel moves between keyframes `frame` and `frame + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionKey {
    /// Interpolate linearly from the first raw value to the second.
    Lerp(i16, i16),
    /// Hold the raw value over the whole interval.
    Hold(i16),
}

/// Raw values of a position channel, as `StudioCalcBonePosition` picks them from the run its
/// walk ended in: held when the keyframe is the last stored value of its run (or inside the
/// run's repeats, short of its last frame), interpolated otherwise.
pub fn position_key_at(data: &[u8], at: Option<RunAt>) -> PositionKey {
    let Some(RunAt { run, k, valid, total }) = at else { return PositionKey::Hold(0) };
    let lerp = |a: Option<i16>, b: Option<i16>| match (a, b) {
        (Some(a), Some(b)) => PositionKey::Lerp(a, b),
        (a, _) => PositionKey::Hold(a.unwrap_or(0)),
    };
    if valid > k {
        if valid > k + 1 {
            lerp(slot(data, run, k + 1), slot(data, run, k + 2))
        } else {
            PositionKey::Hold(slot(data, run, k + 1).unwrap_or(0))
        }
    } else if total <= k + 1 {
        lerp(slot(data, run, valid), slot(data, run, valid + 2))
    } else {
        PositionKey::Hold(slot(data, run, valid).unwrap_or(0))
    }
}

/// Raw values of a position channel at keyframe `frame`.
pub fn position_key(data: &[u8], start: usize, frame: i32) -> PositionKey {
    position_key_at(data, find_run(data, start, frame))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's worked example: one run, valid 3, total 5, values 10 20 30.
    const EXAMPLE: [u8; 8] = [3, 5, 10, 0, 20, 0, 30, 0];

    #[test]
    fn worked_example_frames() {
        let values: Vec<i16> = (0..5).map(|k| rotation_pair(&EXAMPLE, 0, k).0).collect();
        assert_eq!(values, [10, 20, 30, 30, 30]);
        assert_eq!(rotation_pair(&EXAMPLE, 0, 0), (10, 20));
        assert_eq!(rotation_pair(&EXAMPLE, 0, 2), (30, 30));
        assert_eq!(position_key(&EXAMPLE, 0, 0), PositionKey::Lerp(10, 20));
        assert_eq!(position_key(&EXAMPLE, 0, 1), PositionKey::Lerp(20, 30));
        // Frame 2 is the last stored value: positions hold it.
        assert_eq!(position_key(&EXAMPLE, 0, 2), PositionKey::Hold(30));
        assert_eq!(position_key(&EXAMPLE, 0, 3), PositionKey::Hold(30));
    }

    #[test]
    fn next_keyframe_comes_from_the_next_run() {
        // Run A: valid 2, total 2 (10, 20); run B: valid 1, total 3 (50).
        let data = [2, 2, 10, 0, 20, 0, 1, 3, 50, 0];
        // Frame 1 is the last of run A and valid == total: rotations look ahead into run B,
        // positions hold.
        assert_eq!(rotation_pair(&data, 0, 1), (20, 50));
        assert_eq!(position_key(&data, 0, 1), PositionKey::Hold(20));
        assert_eq!(rotation_pair(&data, 0, 2), (50, 50));
        // Run A: valid 1, total 3 (10); run B: valid 1, total 1 (40). Frame 2 is a repeat at the
        // end of run A: both look ahead to run B.
        let data = [1, 3, 10, 0, 1, 1, 40, 0];
        assert_eq!(rotation_pair(&data, 0, 1), (10, 10));
        assert_eq!(position_key(&data, 0, 1), PositionKey::Hold(10));
        assert_eq!(rotation_pair(&data, 0, 2), (10, 40));
        assert_eq!(position_key(&data, 0, 2), PositionKey::Lerp(10, 40));
        assert_eq!(rotation_pair(&data, 0, 3), (40, 40));
    }

    #[test]
    fn runs_of_total_zero_are_stepped_over() {
        let data = [0, 0, 0, 0, 2, 2, 5, 0, 6, 0];
        assert_eq!(rotation_pair(&data, 0, 0), (5, 6));
        assert_eq!(rotation_pair(&data, 0, 1), (6, 6));
        // Nothing but empty runs: the walk ends with the data.
        assert_eq!(rotation_pair(&[0u8; 64], 0, 3), (0, 0));
    }

    #[test]
    fn a_run_with_total_below_valid_restarts_the_frame_count() {
        // Valve's guard: stepping onto a run whose total (0) is below its valid (1) resets the
        // frame to 0, so every later frame reads the next run from its start.
        let data = [1, 0, 9, 9, 2, 2, 5, 0, 6, 0];
        assert_eq!(rotation_pair(&data, 0, 0), (5, 6));
        assert_eq!(rotation_pair(&data, 0, 1), (5, 6));
    }

    #[test]
    fn the_cursor_walks_as_valve_does_for_every_frame() {
        // Random channels (xorshift), with empty runs, restarts and short data among them.
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..2000 {
            let len = (next() % 40) as usize;
            let data: Vec<u8> = (0..len).map(|_| (next() % 6) as u8).collect();
            let mut cursor = ChannelCursor::new(&data, 0);
            for frame in 0..30 {
                assert_eq!(cursor.seek(frame), find_run(&data, 0, frame), "{data:?} frame {frame}");
            }
        }
    }

    #[test]
    fn reading_past_the_data_holds_the_keyframe() {
        assert_eq!(rotation_pair(&EXAMPLE, 0, 4), (30, 30));
        assert_eq!(position_key(&EXAMPLE, 0, 4), PositionKey::Hold(30));
        assert_eq!(rotation_pair(&EXAMPLE, 0, 9), (0, 0));
        let ends = [1, 1, 7, 0];
        assert_eq!(rotation_pair(&ends, 0, 0), (7, 7));
        assert_eq!(position_key(&ends, 0, 0), PositionKey::Hold(7));
    }
}
