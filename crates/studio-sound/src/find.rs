//! A sound found where the game finds it: a wave below `sound/` in the game's search path
//! (Half-Life's `S_LoadSound`, Source's `CAudioSourceCache`), a Source script entry through the
//! sound scripts first. A sound that is not there is an error naming every place tried.

use studio_archive::GameFolders;

use crate::events::{SoundName, bare_wave};
use crate::scripts::SoundScripts;

/// A sound file found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoundSound {
    /// The path below `sound/`.
    pub wave: String,
    /// Where it was read: a file, or `archive:path`.
    pub origin: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// Finds the sound `name` names in `folders`; a script entry through `scripts`, choosing
/// among its random waves by `choice`.
pub fn find_sound(
    name: &SoundName,
    folders: &GameFolders,
    scripts: Option<&SoundScripts>,
    choice: u64,
) -> Result<FoundSound, String> {
    let wave = match name {
        SoundName::Wave(wave) => bare_wave(wave),
        SoundName::Sentence(sentence) => {
            return Err(format!("{sentence}: a sentence, spoken by speak_sentence"));
        }
        SoundName::Script(entry) => {
            let Some(scripts) = scripts else {
                return Err(format!(
                    "{entry}: a sound script entry, and the game's sound scripts were not read"
                ));
            };
            let Some(found) = scripts.entry(entry) else {
                let read = if scripts.files.is_empty() {
                    format!("no sound scripts could be read ({})", scripts.problems.join("; "))
                } else {
                    format!("not in the game's {} sound script files", scripts.files.len())
                };
                return Err(format!("{entry}: {read}"));
            };
            let count = found.waves.len() as u64;
            let Some(wave) = (count > 0).then(|| &found.waves[(choice % count) as usize]) else {
                return Err(format!("{entry} ({}): no wave", found.file));
            };
            bare_wave(wave)
        }
    };
    let relative = format!("sound/{wave}");
    let mut tried = Vec::new();
    match folders.find(&relative, &mut tried)? {
        Some(found) => {
            Ok(FoundSound { wave, origin: found.origin.display().to_string(), bytes: found.bytes })
        }
        None if tried.is_empty() => Err(format!("{relative}: no game folder to look in")),
        None => Err(format!("{relative} not found; looked in {}", tried.join(", "))),
    }
}

/// Sentence (or sentence group) `options` of `sentences` spoken: each word's wave found in
/// `folders` and decoded, joined as the engine plays them; a group's sentence chosen by
/// `choice`. A word that cannot be found or decoded ends it with an error naming it (and every
/// place tried), as the engine's sentence stops at a word it cannot load.
pub fn speak_sentence(
    options: &str,
    folders: &GameFolders,
    sentences: &crate::sentences::Sentences,
    choice: u64,
) -> Result<crate::decode::Decoded, String> {
    let (name, text) = sentences.choose(options, choice)?;
    let mut spoken = Vec::new();
    for word in crate::sentences::words(text) {
        let relative = format!("sound/{}", word.wave);
        let mut tried = Vec::new();
        let found = match folders.find(&relative, &mut tried)? {
            Some(found) => found,
            None => {
                return Err(format!("{name}: word {relative} not found; looked in {}", tried.join(", ")));
            }
        };
        let decoded = crate::decode::decode(&found.bytes, &found.origin.display().to_string())
            .map_err(|e| format!("{name}: {e}"))?;
        spoken.push((word, decoded));
    }
    crate::sentences::speak(&spoken).ok_or_else(|| format!("{name}: a sentence without words"))
}
