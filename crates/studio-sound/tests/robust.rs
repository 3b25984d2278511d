//! Sound files that do not trust their bytes: a WAV's chunks (every cut and 20,000 mutations,
//! each error naming its place, nothing panicking or allocating out of proportion), and the
//! wrapped decoder on the same cuts and mutations (an error naming the file, never a panic),
//! sound scripts, KeyValues text cut anywhere, and Half-Life sentences cut, mutated and spoken.

use studio_sound::wave;

fn sound() -> Vec<u8> {
    let samples: Vec<i16> = (0..64).map(|i| ((i * 997) % 2000 - 1000) as i16).collect();
    wave::pcm16(22050, &samples, true)
}

#[test]
fn wave_chunks_are_read_without_trusting_the_file() {
    studio_testing::robust("wave", &sound(), |bytes| wave::read(bytes).map(|_| ()));
}

#[test]
fn the_decoder_fails_on_bad_files_with_an_error_never_a_panic() {
    let file = sound();
    let check = |bytes: &[u8], what: &str| {
        let result = std::panic::catch_unwind(|| studio_sound::decode(bytes, "test.wav"));
        match result {
            Ok(Ok(d)) => assert!(d.samples.len() <= bytes.len(), "{what}: more samples than bytes"),
            Ok(Err(e)) => assert!(e.starts_with("test.wav: "), "{what}: {e}"),
            Err(_) => panic!("{what}: panicked"),
        }
    };
    for n in 0..file.len() {
        check(&file[..n], &format!("cut to {n}"));
    }
    let mut rng = studio_testing::Rng::new(7);
    for case in 0..2_000 {
        let mut bytes = file.clone();
        studio_testing::mutate(&mut rng, &mut bytes, (0, 44));
        check(&bytes, &format!("mutation {case}"));
    }
}

#[test]
fn sound_scripts_cut_anywhere_are_read_or_reported() {
    let text = br#""Weapon_Pistol.Reload" { "channel" "CHAN_ITEM" "wave" "weapons/pistol/reload1.wav" }
"Weapon_Pistol.Single" { "rndwave" { "wave" ")weapons/pistol/fire2.wav" "wave" ")weapons/pistol/fire3.wav" } }"#;
    for n in 0..text.len() {
        let mut scripts = studio_sound::SoundScripts::default();
        scripts.add_file(&text[..n], "scripts/cut.txt");
        scripts.finish();
        assert!(scripts.len() <= 2);
        assert!(scripts.problems.iter().all(|p| p.starts_with("scripts/cut.txt")), "{:?}", scripts.problems);
    }
}

#[test]
fn sentences_cut_and_mutated_are_read_and_spoken_without_panicking() {
    use studio_sound::sentences::{self, Sentences, Word};
    let text = b"// sentences\nHG_ALERT0 hgrunt/alert! go(p110) ahead, move.\nHG_ALERT1 (v80s10e90) clik(p250e5s99) target\n\
        BA_OK barney/ok(t30) (p) x() ((p90)) )( ,, .. /\n";
    let mut rng = studio_testing::Rng::new(11);
    let mut cases: Vec<Vec<u8>> = (0..text.len()).map(|n| text[..n].to_vec()).collect();
    for _ in 0..2_000 {
        let mut bytes = text.to_vec();
        studio_testing::mutate(&mut rng, &mut bytes, (0, 0));
        cases.push(bytes);
    }
    let tone = studio_sound::Decoded {
        channels: std::num::NonZero::new(2).unwrap(),
        rate: std::num::NonZero::new(8000).unwrap(),
        samples: (0..400).map(|i| ((i % 7) as f32 - 3.0) / 3.0).collect(),
        looped: false,
    };
    for bytes in cases {
        let parsed = Sentences::parse(&String::from_utf8_lossy(&bytes));
        assert!(parsed.entries.len() <= sentences::MAX_SENTENCES);
        for (name, text) in &parsed.entries {
            let words = sentences::words(text);
            assert!(words.len() <= sentences::MAX_WORDS, "{name}");
            let spoken: Vec<(Word, studio_sound::Decoded)> =
                words.into_iter().map(|w| (w, tone.clone())).collect();
            if let Some(s) = sentences::speak(&spoken) {
                assert!(s.samples.len() <= studio_sound::decode::MAX_SAMPLES);
                assert!(s.samples.iter().all(|v| v.is_finite() && v.abs() <= 1.0));
            }
        }
        let _ = parsed.choose("HG_ALERT", 3);
        let _ = parsed.choose("!BA_OK", 0);
    }
}
