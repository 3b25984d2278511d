//! The sounds of a model's events as playback passes them (studio-sound): which events fire a
//! sound between two frames (Half-Life) or cycles (Source), the sound found in the model's game
//! (Source script entries through the game's sound scripts) and decoded once, and what could
//! not be found, with every place tried.
//!
//! Nothing here needs an audio device: [`EventSounds::fire`] says which sounds play, looped or
//! not, and a viewer hands them to its [`studio_sound::Player`].

use std::path::{Path, PathBuf};
use std::sync::Arc;

use studio_archive::GameFolders;
use studio_sound::sentences::Sentences;
use studio_sound::{Decoded, SoundName, SoundScripts};

/// A sound an event fires.
#[derive(Clone, Debug, PartialEq)]
pub struct Fired {
    /// Where the event is: its frame (Half-Life) or cycle (Source).
    pub at: f32,
    /// What it names.
    pub name: SoundName,
}

/// The sound events of Half-Life sequence `sequence` passed moving from frame `from` to `to`
/// (`studio_pose::playback::events_between`).
pub fn goldsrc_fired(sequence: &studio_model::Sequence, from: f32, to: f32) -> Vec<Fired> {
    studio_pose::playback::events_between(sequence, from, to)
        .filter_map(|e| {
            Some(Fired { at: e.frame as f32, name: studio_sound::goldsrc_sound(e.event, &e.options)? })
        })
        .collect()
}

/// The sound events among Source events `events` (those a playback step passed).
pub fn source_fired<'a>(events: impl IntoIterator<Item = &'a studio_source::Event>) -> Vec<Fired> {
    events
        .into_iter()
        .filter_map(|e| {
            Some(Fired { at: e.cycle, name: studio_sound::source_sound(e.event, &e.name, &e.options)? })
        })
        .collect()
}

/// The sounds of one model: its game's places and (Source) sound scripts, read when a sound
/// first plays, and each sound found and decoded once.
#[derive(Debug, Default)]
pub struct EventSounds {
    model: Option<PathBuf>,
    extra: Vec<PathBuf>,
    source: bool,
    folders: Option<GameFolders>,
    scripts: Option<SoundScripts>,
    /// Half-Life's sentences, read when first spoken (or why they cannot be).
    sentences: Option<Result<Sentences, String>>,
    /// Each name looked for: the sound, or why there is none.
    cache: Vec<(SoundName, Result<Arc<Decoded>, String>)>,
    /// Counts sounds fired, choosing among a script entry's random waves.
    fired: u64,
}

/// Most sounds kept decoded.
const MAX_CACHED: usize = 256;

impl EventSounds {
    /// The sounds of the model at `model` (`None`: the demo model, found in `extra` only), a
    /// Source model when `source`, found in its game and then `extra`.
    pub fn new(model: Option<&Path>, extra: &[PathBuf], source: bool) -> Self {
        Self { model: model.map(Path::to_path_buf), extra: extra.to_vec(), source, ..Self::default() }
    }

    /// The sound `name` names, found and decoded on first use; why not, naming every place
    /// tried, when it cannot be.
    pub fn sound(&mut self, name: &SoundName) -> Result<Arc<Decoded>, String> {
        if let Some((_, found)) = self.cache.iter().find(|(n, _)| n == name) {
            return found.clone();
        }
        let folders = self.folders.get_or_insert_with(|| match &self.model {
            Some(model) => crate::installs::search(model, &self.extra).folders,
            None => {
                let mut folders = GameFolders::default();
                for game in &self.extra {
                    folders = folders.then(crate::installs::search_game(game).folders);
                }
                folders
            }
        });
        let scripts = if self.source {
            Some(&*self.scripts.get_or_insert_with(|| SoundScripts::load(folders)))
        } else {
            None
        };
        self.fired = self.fired.wrapping_add(1);
        let found = match name {
            SoundName::Sentence(options) => {
                match self.sentences.get_or_insert_with(|| Sentences::load(folders)) {
                    Ok(sentences) => studio_sound::speak_sentence(options, folders, sentences, self.fired),
                    Err(e) => Err(format!("{options}: a sentence, and {e}")),
                }
            }
            _ => studio_sound::find_sound(name, folders, scripts, self.fired)
                .and_then(|f| studio_sound::decode(&f.bytes, &f.origin)),
        }
        .map(Arc::new);
        // A script entry with random waves, or a sentence group, is looked up afresh each time.
        let random = matches!(name, SoundName::Script(_))
            || matches!(name, SoundName::Sentence(s) if !s.trim_start().starts_with('!'));
        if !random && self.cache.len() < MAX_CACHED {
            self.cache.push((name.clone(), found.clone()));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reload_plays_its_two_sounds_on_their_frames_and_one_loops() {
        let Some(shared) = studio_testing::shared() else { return };
        let model =
            studio_model::Model::parse(&std::fs::read(shared.join("models/ns/v_mg.mdl")).unwrap()).unwrap();
        let reload = model.sequences.iter().find(|s| s.label == "reload").unwrap();
        // Played from before its first frame to its last: both 5004 events, in order.
        let last = reload.frames() as f32 - 1.0;
        let fired = goldsrc_fired(reload, -1.0, last);
        let names: Vec<(f32, &str)> = fired.iter().map(|f| (f.at, f.name.text())).collect();
        assert_eq!(names, [(13.0, "weapons/lmg_clipout.wav"), (38.0, "weapons/lmg_clipin.wav")]);
        // Between frames 10 and 20 only the first; wrapping round from 40 to 15, both.
        assert_eq!(goldsrc_fired(reload, 10.0, 20.0).len(), 1);
        assert_eq!(goldsrc_fired(reload, 40.0, 15.0).len(), 1, "38 is not after 40");
        assert_eq!(goldsrc_fired(reload, 37.0, 15.0).len(), 2);

        // A game holding one of them, with a cue point: found, decoded, looped.
        let dir = std::env::temp_dir().join(format!("studioview-event-sounds-{}", std::process::id()));
        let game = dir.join("ns");
        std::fs::create_dir_all(game.join("models")).unwrap();
        std::fs::create_dir_all(game.join("sound/weapons")).unwrap();
        std::fs::write(game.join("liblist.gam"), "game \"NS\"\n").unwrap();
        let wave = studio_sound::wave::pcm16(22050, &[0, 1000, -1000, 0], true);
        std::fs::write(game.join("sound/weapons/lmg_clipout.wav"), wave).unwrap();
        let mut sounds = EventSounds::new(Some(&game.join("models/v_mg.mdl")), &[], false);
        let clipout = sounds.sound(&fired[0].name);
        let clipin = sounds.sound(&fired[1].name);
        std::fs::remove_dir_all(&dir).ok();
        let clipout = clipout.unwrap();
        assert!(clipout.looped);
        assert_eq!(clipout.samples.len(), 4);
        let e = clipin.unwrap_err();
        assert!(e.contains("sound/weapons/lmg_clipin.wav not found; looked in"), "{e}");
        assert!(e.contains("ns"), "{e}");
    }

    #[test]
    fn source_script_entries_are_played_through_the_games_sound_scripts() {
        let dir = std::env::temp_dir().join(format!("studioview-script-sounds-{}", std::process::id()));
        let game = dir.join("hl2");
        std::fs::create_dir_all(game.join("scripts")).unwrap();
        std::fs::create_dir_all(game.join("sound/weapons/pistol")).unwrap();
        std::fs::write(
            game.join("gameinfo.txt"),
            "\"GameInfo\" { game \"HL2\" FileSystem { SearchPaths { game |gameinfo_path|. } } }",
        )
        .unwrap();
        std::fs::write(
            game.join("scripts/game_sounds_manifest.txt"),
            "game_sounds_manifest { \"precache_file\" \"scripts/game_sounds_weapons.txt\" }",
        )
        .unwrap();
        std::fs::write(
            game.join("scripts/game_sounds_weapons.txt"),
            "\"Weapon_Pistol.Reload\" { \"channel\" \"CHAN_ITEM\" \"wave\" \")weapons/pistol/reload1.wav\" }",
        )
        .unwrap();
        std::fs::write(
            game.join("sound/weapons/pistol/reload1.wav"),
            studio_sound::wave::pcm16(44100, &[7; 9], false),
        )
        .unwrap();
        let events = [
            studio_source::Event {
                cycle: 0.25,
                event: 0,
                kind: 1 << 10,
                options: "Weapon_Pistol.Reload".into(),
                name: "AE_CL_PLAYSOUND".into(),
            },
            studio_source::Event {
                cycle: 0.5,
                event: 3001,
                kind: 0,
                options: "x".into(),
                name: String::new(),
            },
            studio_source::Event {
                cycle: 0.75,
                event: 5004,
                kind: 0,
                options: "Missing.Entry".into(),
                name: String::new(),
            },
        ];
        let fired = source_fired(&events);
        assert_eq!(fired.len(), 2);
        assert_eq!(fired[0].at, 0.25);
        let mut sounds = EventSounds::new(Some(&game.join("models/weapons/v_pistol.mdl")), &[], true);
        let reload = sounds.sound(&fired[0].name);
        let missing = sounds.sound(&fired[1].name);
        std::fs::remove_dir_all(&dir).ok();
        let reload = reload.unwrap();
        assert_eq!((reload.rate.get(), reload.samples.len(), reload.looped), (44100, 9, false));
        let e = missing.unwrap_err();
        assert!(e.contains("Missing.Entry: not in the game's 1 sound script files"), "{e}");
    }

    #[test]
    fn a_sentence_event_speaks_its_words_from_the_games_vox_folder() {
        let dir = std::env::temp_dir().join(format!("studioview-sentences-{}", std::process::id()));
        let game = dir.join("valve");
        std::fs::create_dir_all(game.join("models")).unwrap();
        std::fs::create_dir_all(game.join("sound/hgrunt")).unwrap();
        std::fs::write(game.join("liblist.gam"), "game \"Half-Life\"\n").unwrap();
        std::fs::write(
            game.join("sound/sentences.txt"),
            "// test\nHG_GO0 hgrunt/go(p200) move\nHG_GO1 hgrunt/move\nHG_LOST0 hgrunt/lost\n",
        )
        .unwrap();
        for (word, value) in [("go", 1000i16), ("move", -2000)] {
            let wave = studio_sound::wave::pcm16(11025, &[value; 100], false);
            std::fs::write(game.join(format!("sound/hgrunt/{word}.wav")), wave).unwrap();
        }
        // Event 1005 naming a sentence, and one naming a group.
        let name = studio_sound::goldsrc_sound(1005, "!HG_GO0").unwrap();
        let group = studio_sound::goldsrc_sound(1009, "HG_GO").unwrap();
        let lost = studio_sound::goldsrc_sound(1005, "!HG_LOST0").unwrap();
        let mut sounds = EventSounds::new(Some(&game.join("models/hgrunt.mdl")), &[], false);
        let spoken = sounds.sound(&name);
        let chosen = sounds.sound(&group);
        let missing = sounds.sound(&lost);
        std::fs::remove_dir_all(&dir).ok();
        // "go" an octave up (50 samples), then "move" (100).
        let spoken = spoken.unwrap();
        assert_eq!((spoken.rate.get(), spoken.samples.len()), (11025, 150));
        assert!((spoken.samples[10] - 1000.0 / 32768.0).abs() < 1e-3);
        assert!((spoken.samples[120] + 2000.0 / 32768.0).abs() < 1e-3);
        // One of HG_GO0 and HG_GO1.
        assert!([150, 100].contains(&chosen.unwrap().samples.len()));
        let e = missing.unwrap_err();
        assert!(e.contains("HG_LOST0: word sound/hgrunt/lost.wav not found; looked in"), "{e}");
    }
}
