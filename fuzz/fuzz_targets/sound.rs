//! A sound file on arbitrary bytes: the WAV chunk reader and the wrapped decoder give a
//! reading or an error, never a panic, hang or runaway allocation; sound script text likewise.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = studio_sound::wave::read(data);
    if let Ok(decoded) = studio_sound::decode(data, "fuzz.wav") {
        assert!(decoded.samples.len() <= studio_sound::decode::MAX_SAMPLES);
    }
    let mut scripts = studio_sound::SoundScripts::default();
    scripts.add_file(data, "scripts/fuzz.txt");
    scripts.finish();
});
