//! studio-sound: the sounds a model's events play, as the games play them.
//!
//! - [`events`]: which events play a sound. Half-Life: the client's 5004 (a wave under
//!   `sound/`) and the monsters' script events 1004 and 1008; Source: `AE_CL_PLAYSOUND` (5004)
//!   and the script sound events, naming an entry of the game's sound scripts.
//! - [`scripts`]: Source's sound scripts, from `scripts/game_sounds_manifest.txt` and the files
//!   it names, in the game's search path.
//! - [`sentences`]: Half-Life's sentences (`sound/sentences.txt`): a sentence or group named
//!   by events 1005 and 1009, its words and their parameters, spoken one word after another.
//! - [`wave`]: a WAV file's chunks, read without trusting it: whether it loops (a `cue `
//!   chunk, as the engines' `S_LoadSound` decides).
//! - [`decode`]: a sound file decoded to samples, bounded and wrapped.
//! - [`find`]: a sound found where the game finds it, naming every place tried when it is not.
//! - [`player`]: the default output device, opened when first needed; none (as in CI) is
//!   silence and a message, never a failure.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod decode;
pub mod events;
pub mod find;
pub mod player;
pub mod scripts;
pub mod sentences;
pub mod wave;

pub use decode::{Decoded, decode};
pub use events::{SoundName, goldsrc_sound, source_sound};
pub use find::{FoundSound, find_sound, speak_sentence};
pub use player::Player;
pub use scripts::SoundScripts;
