//! Event sounds while playing (studio-document's `event_sounds`, studio-sound's player): each
//! sound event playback passes plays its sound; a sound that cannot be found is said once,
//! with every place tried; no audio output is said once, and playback goes on in silence.

use studio_document::event_sounds::{self, EventSounds, Fired};
use studio_sound::Player;

use super::{AppState, Level};

/// The open model's sounds and the output they play on.
#[derive(Default)]
pub struct Sounds {
    /// The model's sounds, found and decoded once.
    pub sounds: EventSounds,
    /// The output (kept across models).
    pub player: Player,
    /// Names already said to be missing.
    said: Vec<String>,
    /// The sounds the last playback step fired, newest last (for the event log and tests).
    pub last_fired: Vec<Fired>,
}

impl AppState {
    /// Plays the sounds of the events the last playback step passed (Half-Life: from frame
    /// `from` to the current one; Source: the document's fired events).
    pub(super) fn play_event_sounds(&mut self, from: f32) {
        let fired = match self.source.as_deref() {
            Some(view) => event_sounds::source_fired(&view.doc.fired),
            None => match self.loaded.model.sequences.get(self.sequence) {
                // Played backwards (a step of a route), no event fires, as in the game.
                Some(sequence) if !self.reverse => event_sounds::goldsrc_fired(sequence, from, self.frame),
                Some(_) => Vec::new(),
                None => Vec::new(),
            },
        };
        if fired.is_empty() {
            return;
        }
        // Muted: nothing is looked for or played; what fired is still kept.
        let heard = if self.settings.event_sounds { fired.as_slice() } else { &[] };
        for event in heard {
            match self.audio.sounds.sound(&event.name) {
                Ok(sound) => {
                    if let Some(why) = self.audio.player.play(&sound) {
                        self.say(Level::Info, why);
                    }
                }
                Err(e) => {
                    let name = event.name.text().to_owned();
                    if !self.audio.said.contains(&name) {
                        self.audio.said.push(name);
                        self.say(Level::Warning, format!("event sound not played: {e}"));
                    }
                }
            }
        }
        self.audio.last_fired = fired;
    }

    /// Forgets the sounds of the model left (another model, other game folders).
    pub(super) fn reset_sounds(&mut self) {
        let source = self.source.is_some();
        self.audio.sounds = EventSounds::new(self.path(), &self.settings.game_folders, source);
        self.audio.said.clear();
        self.audio.last_fired.clear();
    }
}
