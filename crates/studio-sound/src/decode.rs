//! A sound file decoded to samples, without trusting it: symphonia (through rodio) decodes
//! WAV (PCM of 8 to 32 bits, Microsoft and IMA ADPCM) and MP3. The decoder is another crate
//! parsing the file, so it runs wrapped: the file's size and the samples decoded are bounded,
//! a WAV's chunks are checked first ([`crate::wave`]), and a panic in the decoder is an error
//! naming the file, never the end of the program. The whole sound is decoded before it plays,
//! so nothing can fail on the audio thread.

use std::io::Cursor;
use std::num::NonZero;

use rodio::Source;

/// Largest sound file decoded (Half-Life's are at most a few MB; Source's music tens).
pub const MAX_FILE: usize = 64 << 20;
/// Most samples (all channels) decoded: ten minutes of 48 kHz stereo.
pub const MAX_SAMPLES: usize = 48_000 * 2 * 600;

/// Decoded samples, interleaved.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    /// Channels.
    pub channels: NonZero<u16>,
    /// Samples a second.
    pub rate: NonZero<u32>,
    /// The samples, −1 to 1, channels interleaved.
    pub samples: Vec<f32>,
    /// Whether the game loops it (a WAV with a cue point).
    pub looped: bool,
}

impl Decoded {
    /// How long it plays once, in seconds.
    pub fn seconds(&self) -> f32 {
        self.samples.len() as f32 / f32::from(self.channels.get()) / self.rate.get() as f32
    }
}

/// Decodes the sound file `bytes`, named `name` in errors.
pub fn decode(bytes: &[u8], name: &str) -> Result<Decoded, String> {
    if bytes.len() > MAX_FILE {
        return Err(format!("{name}: {} bytes is more than {MAX_FILE}", bytes.len()));
    }
    let looped = if bytes.starts_with(b"RIFF") {
        crate::wave::read(bytes).map_err(|e| format!("{name}: {e}"))?.looped
    } else {
        false
    };
    let owned = bytes.to_vec();
    let decoded = std::panic::catch_unwind(move || -> Result<Decoded, String> {
        let decoder = rodio::Decoder::new(Cursor::new(owned)).map_err(|e| e.to_string())?;
        let (channels, rate) = (decoder.channels(), decoder.sample_rate());
        let samples: Vec<f32> = decoder.take(MAX_SAMPLES + 1).collect();
        if samples.len() > MAX_SAMPLES {
            return Err(format!("more than {MAX_SAMPLES} samples"));
        }
        Ok(Decoded {
            channels,
            rate,
            samples: samples.into_iter().map(|s| s.clamp(-1.0, 1.0)).collect(),
            looped,
        })
    });
    match decoded {
        Ok(result) => result.map_err(|e| format!("{name}: {e}")),
        Err(_) => Err(format!("{name}: the decoder failed on this file")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pcm_wave_decodes_to_its_samples() {
        let bytes = crate::wave::pcm16(22050, &[0, 16384, -16384, 32767], true);
        let d = decode(&bytes, "test.wav").unwrap();
        assert_eq!((d.channels.get(), d.rate.get(), d.looped), (1, 22050, true));
        assert_eq!(d.samples.len(), 4);
        assert!((d.samples[1] - 0.5).abs() < 1e-3, "{:?}", d.samples);
        assert!((d.samples[2] + 0.5).abs() < 1e-3);
    }

    #[test]
    fn bad_files_are_errors_naming_them() {
        let e = decode(b"not a sound at all", "x.wav").unwrap_err();
        assert!(e.starts_with("x.wav: "), "{e}");
        let bytes = crate::wave::pcm16(8000, &[1, 2, 3, 4, 5, 6], false);
        for n in 0..bytes.len() {
            if let Err(e) = decode(&bytes[..n], "cut.wav") {
                assert!(e.starts_with("cut.wav: "), "{e}");
            }
        }
    }
}
