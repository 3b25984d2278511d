//! The default output device, opened when a sound first plays. Where there is none (a machine
//! without sound, CI, a remote session), the player is silent and says why once; nothing fails.

use crate::decode::Decoded;

/// Plays decoded sounds on the default output, mixed.
#[derive(Default)]
pub struct Player {
    sink: Option<rodio::MixerDeviceSink>,
    /// Why there is no output, once tried and failed.
    silent: Option<String>,
}

impl std::fmt::Debug for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Player").field("open", &self.sink.is_some()).field("silent", &self.silent).finish()
    }
}

impl Player {
    /// Plays `sound` (once; a looped one too, as a viewer plays it: the game's loop lasts until
    /// the entity stops it). Returns why nothing is heard, the first time the output cannot be
    /// opened.
    pub fn play(&mut self, sound: &Decoded) -> Option<String> {
        let first_failure = self.open();
        if let Some(sink) = &self.sink {
            let buffer = rodio::buffer::SamplesBuffer::new(sound.channels, sound.rate, sound.samples.clone());
            sink.mixer().add(buffer);
        }
        first_failure
    }

    /// Opens the output if not tried yet; the reason it could not be, the first time.
    fn open(&mut self) -> Option<String> {
        if self.sink.is_some() || self.silent.is_some() {
            return None;
        }
        // cpal may panic on a broken audio setup: that too is no output.
        match std::panic::catch_unwind(rodio::DeviceSinkBuilder::open_default_sink) {
            Ok(Ok(mut sink)) => {
                sink.log_on_drop(false);
                self.sink = Some(sink);
                None
            }
            Ok(Err(e)) => {
                let why = format!("no audio output ({e}): sounds are silent");
                self.silent = Some(why.clone());
                Some(why)
            }
            Err(_) => {
                let why = "no audio output (the audio system failed): sounds are silent".to_owned();
                self.silent = Some(why.clone());
                Some(why)
            }
        }
    }

    /// Why there is no output, if it was tried and failed.
    pub fn silent(&self) -> Option<&str> {
        self.silent.as_deref()
    }
}
