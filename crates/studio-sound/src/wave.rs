//! A WAV file's chunks, read without trusting it: the `fmt ` chunk's format, and whether the
//! sound loops. Both engines' `S_LoadSound` (through `GetWavinfo`) loop a wave that has a
//! `cue ` chunk with a cue point, from that point, until the sound is stopped.
//!
//! Every chunk's size is checked against the bytes left, and the walk stops at the file's
//! end, so a damaged file is an error naming the chunk and its byte offset.

/// What the chunks say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveInfo {
    /// `wFormatTag`: 1 PCM, 2 Microsoft ADPCM, 85 MP3.
    pub format: u16,
    /// Channels.
    pub channels: u16,
    /// Samples a second.
    pub rate: u32,
    /// Bits a sample.
    pub bits: u16,
    /// Whether it has a cue point: the game loops it.
    pub looped: bool,
    /// Bytes of sound data.
    pub data_bytes: u32,
}

/// Reads a little-endian `u32` at `at`.
fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at.checked_add(4)?)?.try_into().ok()?))
}

/// Reads a little-endian `u16` at `at`.
fn u16_at(bytes: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(bytes.get(at..at.checked_add(2)?)?.try_into().ok()?))
}

/// The chunks of a WAV file; an error names what is wrong and where.
pub fn read(bytes: &[u8]) -> Result<WaveInfo, String> {
    if bytes.get(..4) != Some(b"RIFF") || bytes.get(8..12) != Some(b"WAVE") {
        return Err("not a WAV file: no RIFF … WAVE header at byte 0".to_owned());
    }
    let len = bytes.len();
    let mut info = WaveInfo { format: 0, channels: 0, rate: 0, bits: 0, looped: false, data_bytes: 0 };
    let (mut fmt, mut data) = (false, false);
    let mut at = 12usize;
    // Each step moves past at least the 8 bytes of a chunk header.
    while at.checked_add(8).is_some_and(|end| end <= bytes.len()) {
        let id = &bytes[at..at + 4];
        let size = u32_at(bytes, at + 4).unwrap_or(0) as usize;
        let body = at + 8;
        let name = String::from_utf8_lossy(id).into_owned();
        let end = body.checked_add(size).filter(|&e| e <= bytes.len());
        let end = match (end, id) {
            (Some(end), _) => end,
            // A data chunk cut short is played as far as it goes, as the engine reads it.
            (None, b"data") => bytes.len(),
            (None, _) => {
                return Err(format!(
                    "chunk {name:?} at byte {at}: {size} bytes, past the file's end ({} bytes)",
                    bytes.len()
                ));
            }
        };
        match id {
            b"fmt " => {
                if end - body < 16 {
                    return Err(format!("chunk \"fmt \" at byte {at}: {} bytes, fewer than 16", end - body));
                }
                if info.channels != 0 {
                    return Err(format!("chunk \"fmt \" at byte {at}: a second one"));
                }
                info.format = u16_at(bytes, body).unwrap_or(0);
                info.channels = u16_at(bytes, body + 2).unwrap_or(0);
                info.rate = u32_at(bytes, body + 4).unwrap_or(0);
                info.bits = u16_at(bytes, body + 14).unwrap_or(0);
                fmt = true;
            }
            b"data" => {
                info.data_bytes = (end - body) as u32;
                data = true;
            }
            b"cue " => info.looped = u32_at(bytes, body).is_some_and(|points| points > 0),
            _ => {}
        }
        // Chunks are padded to an even size.
        at = end.saturating_add(end % 2);
    }
    if !fmt {
        return Err(format!("no \"fmt \" chunk before the end at byte {len}"));
    }
    if !data {
        return Err(format!("no \"data\" chunk before the end at byte {len}"));
    }
    if info.channels == 0 || info.rate == 0 {
        return Err(format!(
            "chunk \"fmt \" (at byte 12 or after): {} channels at {} Hz",
            info.channels, info.rate
        ));
    }
    Ok(info)
}

/// A PCM WAV file of `samples` (16-bit, mono, at `rate` Hz), with a cue point when `looped`:
/// for tests and examples.
pub fn pcm16(rate: u32, samples: &[i16], looped: bool) -> Vec<u8> {
    let data_bytes = (samples.len() * 2) as u32;
    let cue: Vec<u8> = if looped {
        let mut cue = b"cue ".to_vec();
        cue.extend_from_slice(&28u32.to_le_bytes());
        cue.extend_from_slice(&1u32.to_le_bytes());
        cue.extend_from_slice(&[0; 24]);
        cue
    } else {
        Vec::new()
    };
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(4 + 24 + 8 + data_bytes + cue.len() as u32).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(&cue);
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_bytes.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cue_point_makes_a_wave_loop() {
        let plain = read(&pcm16(22050, &[0, 100, -100], false)).unwrap();
        assert_eq!((plain.format, plain.channels, plain.rate, plain.bits), (1, 1, 22050, 16));
        assert_eq!((plain.looped, plain.data_bytes), (false, 6));
        assert!(read(&pcm16(11025, &[1; 10], true)).unwrap().looped);
    }

    #[test]
    fn damage_is_named_with_its_place() {
        let mut bytes = pcm16(22050, &[0; 4], false);
        assert!(read(&bytes[..20]).unwrap_err().contains("fmt "));
        bytes[16] = 200; // the fmt chunk's size, now past the end
        let e = read(&bytes).unwrap_err();
        assert!(e.contains("\"fmt \" at byte 12"), "{e}");
        assert!(read(b"RIFX").unwrap_err().contains("not a WAV"));
        // Every cut: an error or a reading, never a panic.
        let bytes = pcm16(8000, &[5; 8], true);
        for n in 0..bytes.len() {
            let _ = read(&bytes[..n]);
        }
    }
}
