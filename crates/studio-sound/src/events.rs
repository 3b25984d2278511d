//! Which events play a sound, and what they name.
//!
//! Half-Life (HL SDK): the client's `HUD_StudioEvent` plays event **5004**'s options as a wave
//! (`pfnPlaySoundByNameAtLocation`, a path below `sound/`); the server's
//! `CBaseMonster::HandleAnimEvent` plays **1004** (`SCRIPT_EVENT_SOUND`, on `CHAN_BODY`) and
//! **1008** (`SCRIPT_EVENT_SOUND_VOICE`, on `CHAN_VOICE`) the same way, and **1005**/**1009**
//! speak a sentence (`sentences.txt`: a sentence as `!NAME`, else a group; [`crate::sentences`]).
//!
//! Source (Source SDK `eventlist.h`, `c_baseanimating.cpp`): **5004** (`CL_EVENT_SOUND`,
//! named `AE_CL_PLAYSOUND` in new-style events) and the script events 1004 and 1008 call
//! `EmitSound(options)`: an entry of the sound scripts, or a wave when the name has a file
//! extension. `AE_SV_PLAYSOUND` does the same on the server.

/// What a sound event names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SoundName {
    /// A sound file below `sound/`.
    Wave(String),
    /// An entry of Source's sound scripts (`Weapon_Pistol.Single`).
    Script(String),
    /// A Half-Life sentence (`!HG_ALERT0`), spoken from `sentences.txt`.
    Sentence(String),
}

impl SoundName {
    /// The name as written.
    pub fn text(&self) -> &str {
        match self {
            SoundName::Wave(t) | SoundName::Script(t) | SoundName::Sentence(t) => t,
        }
    }
}

/// The sound Half-Life event `event` with options `options` plays, if any.
pub fn goldsrc_sound(event: i32, options: &str) -> Option<SoundName> {
    let name = options.trim();
    if name.is_empty() {
        return None;
    }
    match event {
        5004 | 1004 | 1008 => Some(SoundName::Wave(name.to_owned())),
        1005 | 1009 => Some(SoundName::Sentence(name.to_owned())),
        _ => None,
    }
}

/// Whether Source's `EmitSound` takes `name` as a file rather than a script entry: it has a
/// file extension.
fn is_file_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".wav") || lower.ends_with(".mp3")
}

/// The sound Source event `event` (old style), or named `name` (new style), with options
/// `options` plays, if any.
pub fn source_sound(event: i32, name: &str, options: &str) -> Option<SoundName> {
    let plays = if name.is_empty() {
        matches!(event, 5004 | 1004 | 1008)
    } else {
        [
            "AE_CL_PLAYSOUND",
            "AE_SV_PLAYSOUND",
            "CL_EVENT_SOUND",
            "SCRIPT_EVENT_SOUND",
            "SCRIPT_EVENT_SOUND_VOICE",
        ]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(name))
    };
    let sound = options.trim();
    if !plays || sound.is_empty() {
        return None;
    }
    Some(if is_file_name(sound) {
        SoundName::Wave(sound.to_owned())
    } else {
        SoundName::Script(sound.to_owned())
    })
}

/// A wave name without Source's leading sound characters (`*` stream, `#` dry mix, `@` omni,
/// `>` doppler, `<` directional, `^` distance variant, `)` spatial stereo, `}` fast pitch,
/// `$` and `!` special, `?` user voice, `&`, `~`, `` ` ``, `+`, `%`), slashes made forward.
pub fn bare_wave(name: &str) -> String {
    let trimmed = name
        .trim()
        .trim_start_matches(['*', '#', '@', '>', '<', '^', ')', '}', '$', '!', '?', '&', '~', '`', '+', '%']);
    trimmed.replace('\\', "/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_life_sound_events() {
        assert_eq!(
            goldsrc_sound(5004, "weapons/lmg_clipout.wav"),
            Some(SoundName::Wave("weapons/lmg_clipout.wav".into()))
        );
        assert_eq!(
            goldsrc_sound(1008, " hgrunt/gr_die1.wav "),
            Some(SoundName::Wave("hgrunt/gr_die1.wav".into()))
        );
        assert_eq!(goldsrc_sound(1005, "!HG_ALERT0"), Some(SoundName::Sentence("!HG_ALERT0".into())));
        assert_eq!(goldsrc_sound(5001, "20"), None);
        assert_eq!(goldsrc_sound(5004, ""), None);
    }

    #[test]
    fn source_sound_events_name_a_script_entry_or_a_file() {
        assert_eq!(
            source_sound(5004, "", "Weapon_Pistol.Reload"),
            Some(SoundName::Script("Weapon_Pistol.Reload".into()))
        );
        assert_eq!(
            source_sound(0, "AE_CL_PLAYSOUND", "NPC_Combine.Die"),
            Some(SoundName::Script("NPC_Combine.Die".into()))
        );
        assert_eq!(
            source_sound(0, "ae_sv_playsound", "npc/x.WAV"),
            Some(SoundName::Wave("npc/x.WAV".into()))
        );
        assert_eq!(source_sound(0, "AE_CL_CREATE_PARTICLE_EFFECT", "x"), None);
        assert_eq!(source_sound(3001, "", "x"), None);
    }

    #[test]
    fn sound_characters_are_not_part_of_the_file() {
        assert_eq!(bare_wave(")weapons\\pistol\\fire.wav"), "weapons/pistol/fire.wav");
        assert_eq!(bare_wave("*#^music/a.mp3"), "music/a.mp3");
    }
}
