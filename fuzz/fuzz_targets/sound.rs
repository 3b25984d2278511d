//! A sound file on arbitrary bytes: the WAV chunk reader and the wrapped decoder give a
//! reading or an error, never a panic, hang or runaway allocation; sound script text and
//! Half-Life's sentences likewise.
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
    let sentences = studio_sound::sentences::Sentences::parse(&String::from_utf8_lossy(data));
    for (_, text) in sentences.entries.iter().take(64) {
        let _ = studio_sound::sentences::words(text);
    }
    let _ = sentences.choose("HG_ALERT", 1);
});
