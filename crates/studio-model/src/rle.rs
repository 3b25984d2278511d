//! Run-length encoding of one animation channel the way Valve's studiomdl does it
//! (goldsrc-sequences.md, "Animation data"): runs of at most 255 frames; a value equal to the
//! one before extends the run's `total` (a repeat), except that a lone value between two
//! different ones is stored rather than repeated; a channel that is one run of the value 0
//! is left out (offset 0).

/// One run: its stored values and the frames it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodedRun {
    /// Frames covered, 1 to 255.
    pub total: u8,
    /// The stored values, 1 to `total` of them.
    pub values: Vec<i16>,
}

/// The runs for `values` (one raw value per frame), as studiomdl makes them.
pub fn encode_runs(values: &[i16]) -> Vec<EncodedRun> {
    let Some((&first, _)) = values.split_first() else { return Vec::new() };
    let mut runs = vec![EncodedRun { total: 1, values: vec![first] }];
    let n = values.len();
    for m in 1..n {
        let run = runs.last_mut().expect("at least one run");
        if run.total == 255 {
            // Too many frames: a new run starts with this value.
            runs.push(EncodedRun { total: 1, values: vec![values[m]] });
            continue;
        }
        let repeating = usize::from(run.total) != run.values.len();
        let changed = values[m] != values[m - 1];
        let lone = !repeating && m + 1 < n && values[m] != values[m + 1];
        if changed || lone {
            if repeating {
                runs.push(EncodedRun { total: 1, values: vec![values[m]] });
            } else {
                run.values.push(values[m]);
                run.total += 1;
            }
        } else {
            run.total += 1;
        }
    }
    runs
}

/// The bytes of a channel for `values`: each run's `valid` and `total` bytes and its values,
/// little-endian. `None` when studiomdl leaves the channel out: a single run of the value 0.
pub fn encode_channel(values: &[i16]) -> Option<Vec<u8>> {
    let runs = encode_runs(values);
    if runs.is_empty() || (runs.len() == 1 && runs[0].values == [0]) {
        return None;
    }
    let mut bytes = Vec::new();
    for run in runs {
        bytes.push(run.values.len() as u8);
        bytes.push(run.total);
        for value in run.values {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
    }
    Some(bytes)
}

/// The raw value of every frame of a channel, `frames` of them, as the spec reads runs: a run's
/// first `valid` frames take its values in order, the rest repeat the last one. Frames the
/// runs do not reach repeat the last value seen (0 before any).
pub fn decode_channel(runs: crate::Runs<'_>, frames: usize) -> Vec<i16> {
    let mut out = Vec::with_capacity(frames);
    let mut last = 0i16;
    for run in runs {
        for i in 0..usize::from(run.total) {
            if out.len() == frames {
                return out;
            }
            if let Some(v) =
                run.value(i.min(usize::from(run.valid).saturating_sub(1))).filter(|_| run.valid > 0)
            {
                last = v;
            }
            out.push(last);
        }
        if out.len() == frames {
            return out;
        }
    }
    out.resize(frames, last);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(values: &[i16]) -> Vec<(usize, u8, Vec<i16>)> {
        encode_runs(values).into_iter().map(|r| (r.values.len(), r.total, r.values)).collect()
    }

    #[test]
    fn the_specs_worked_example_is_one_run() {
        assert_eq!(runs(&[10, 20, 30, 30, 30]), [(3, 5, vec![10, 20, 30])]);
        assert_eq!(encode_channel(&[10, 20, 30, 30, 30]).unwrap(), [3, 5, 10, 0, 20, 0, 30, 0]);
    }

    #[test]
    fn repeats_extend_a_run_and_a_change_after_them_starts_another() {
        assert_eq!(runs(&[1, 1, 1, 2, 3]), [(1, 3, vec![1]), (2, 2, vec![2, 3])]);
        // Outside a repeat, a value equal to the one before is stored when the next differs.
        assert_eq!(runs(&[5, 5, 7, 5]), [(4, 4, vec![5, 5, 7, 5])]);
        assert_eq!(runs(&[5, 5, 5, 7]), [(1, 3, vec![5]), (1, 1, vec![7])]);
        assert_eq!(runs(&[4, 4, 4, 4]), [(1, 4, vec![4])]);
    }

    #[test]
    fn runs_stop_at_255_frames() {
        let values = vec![9i16; 300];
        assert_eq!(runs(&values), [(1, 255, vec![9]), (1, 45, vec![9])]);
        let ramp: Vec<i16> = (0..300).collect();
        let r = encode_runs(&ramp);
        assert_eq!((r[0].total, r[0].values.len(), r[1].total), (255, 255, 45));
    }

    #[test]
    fn a_channel_that_never_leaves_zero_is_left_out() {
        assert_eq!(encode_channel(&[0, 0, 0]), None);
        assert_eq!(encode_channel(&[]), None);
        assert!(encode_channel(&[0, 0, 1]).is_some());
        assert!(encode_channel(&[3, 3]).is_some());
    }

    #[test]
    fn decoding_gives_back_every_frame() {
        for values in
            [vec![10, 20, 30, 30, 30], vec![1, 1, 1, 2, 3], (0..300).map(|v| (v / 7) as i16).collect()]
        {
            let bytes = encode_channel(&values).unwrap();
            let decoded =
                decode_channel(crate::Runs::new(&bytes, crate::Channel { offset: 0 }), values.len());
            assert_eq!(decoded, values);
        }
    }
}
