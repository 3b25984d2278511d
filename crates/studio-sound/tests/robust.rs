//! Sound files that do not trust their bytes: a WAV's chunks (every cut and 20,000 mutations,
//! each error naming its place, nothing panicking or allocating out of proportion), and the
//! wrapped decoder on the same cuts and mutations (an error naming the file, never a panic),
//! and sound scripts, KeyValues text cut anywhere.

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
