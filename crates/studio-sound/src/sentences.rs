//! Half-Life's sentences: `sound/sentences.txt` read as the engine reads it
//! (`VOX_ReadSentenceFile`), a sentence's words as `VOX_GetDirectory`, `VOX_ParseString` and
//! `VOX_ParseWordParams` take them apart, the sentence groups of the game's `SENTENCEG_Init`,
//! and the words' sounds joined into one as the engine's mixer plays them one after another
//! (volume, pitch, start and end trims).
//!
//! - A line whose first character (after white space) is `/` is a comment. Otherwise its first
//!   word, up to a space or tab, is the sentence's name and the rest of the line the sentence.
//!   The engine keeps at most [`MAX_SENTENCES`].
//! - The words' folder is the sentence up to its last `/` (`hgrunt/`), else `vox/`; words are
//!   parted by spaces, commas and periods, and a comma or period inside the sentence adds the
//!   pause word `_comma` or `_period`. A word is played from `FOLDER/WORD.wav`.
//! - `word(v90p110s10e80t20)`: volume, pitch, start and end (percent of the word's length)
//!   and time compression for that word; a block alone sets them for the words after it. The
//!   first word starts from volume 100, pitch unchanged, start 0, end 100. Half-Life's engine
//!   parts words at spaces even inside a block, so `word(p90 s20)` is the word `word(p90` and
//!   a piece `s20)` that is neither word nor block; this is kept (Source's engine reads such a
//!   block whole).
//! - Event 1005 (and 1009, which the game plays only now and then; here always) names a
//!   sentence with `!` (`!HG_ALERT3`), or a group: the sentences whose names are the group's
//!   followed by digits (`HG_ALERT0`…), one chosen.
//!
//! Time compression (`t`) skips pieces of a word as the mixer plays it; it is read but not
//! applied here: such a word plays whole.

use std::num::NonZero;

use studio_archive::GameFolders;

use crate::decode::{Decoded, MAX_SAMPLES};

/// Where the game keeps its sentences.
pub const SENTENCES_FILE: &str = "sound/sentences.txt";
/// Largest `sentences.txt` read (Half-Life's is about 100 kB).
const MAX_FILE: usize = 4 << 20;

/// Sentences the engine reads from the file (`CVOXFILESENTENCEMAX`).
pub const MAX_SENTENCES: usize = 1536;
/// Words in a sentence (`CVOXWORDMAX`).
pub const MAX_WORDS: usize = 32;
/// Samples scanned for a quiet one where a word is trimmed (`CVOXZEROSCANMAX`).
const ZERO_SCAN: usize = 255;

/// The sentences of `sentences.txt`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sentences {
    /// Each sentence's name and text, in the file's order.
    pub entries: Vec<(String, String)>,
}

/// One word of a sentence and how it is played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// Its wave, below `sound/`.
    pub wave: String,
    /// Volume in percent (0 and 100 leave it as it is).
    pub volume: i32,
    /// Pitch in percent (−1, 0 and 100 leave it as it is).
    pub pitch: i32,
    /// Where it starts, in percent of its length.
    pub start: i32,
    /// Where it ends, in percent of its length.
    pub end: i32,
    /// Time compression in percent (read, not applied).
    pub time_compress: i32,
}

impl Sentences {
    /// The game's `sound/sentences.txt`, from the first place of `folders` that has it; why
    /// not, naming every place tried.
    pub fn load(folders: &GameFolders) -> Result<Self, String> {
        let mut tried = Vec::new();
        match folders.find(SENTENCES_FILE, &mut tried)? {
            Some(found) if found.bytes.len() > MAX_FILE => Err(format!(
                "{}: {} bytes is more than {MAX_FILE}",
                found.origin.display(),
                found.bytes.len()
            )),
            Some(found) => Ok(Self::parse(&String::from_utf8_lossy(&found.bytes))),
            None if tried.is_empty() => Err(format!("{SENTENCES_FILE}: no game folder to look in")),
            None => Err(format!("{SENTENCES_FILE} not found; looked in {}", tried.join(", "))),
        }
    }

    /// Reads `sentences.txt` as the engine does: comments, names and texts; at most
    /// [`MAX_SENTENCES`].
    pub fn parse(text: &str) -> Self {
        let mut entries = Vec::new();
        for line in text.lines() {
            if entries.len() >= MAX_SENTENCES {
                break;
            }
            let line = line.trim_start();
            if line.is_empty() || line.starts_with('/') {
                continue;
            }
            let (name, rest) = line.split_once([' ', '\t']).unwrap_or((line, ""));
            entries.push((name.to_owned(), rest.trim_start_matches([' ', '\t']).to_owned()));
        }
        Self { entries }
    }

    /// The text of sentence `name` (case ignored), as `VOX_LookupString` finds it.
    pub fn lookup(&self, name: &str) -> Option<&str> {
        self.entries.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, t)| t.as_str())
    }

    /// The names of group `group`'s sentences: the group's name followed by digits.
    pub fn group(&self, group: &str) -> Vec<&str> {
        self.entries
            .iter()
            .map(|(n, _)| n.as_str())
            .filter(|n| {
                let stem = n.trim_end_matches(|c: char| c.is_ascii_digit());
                stem.len() < n.len() && !stem.is_empty() && stem.eq_ignore_ascii_case(group)
            })
            .collect()
    }

    /// The sentence an event's options name: `!NAME` itself, or one of group `NAME`'s chosen
    /// by `choice`. Its name and text, or why there is none.
    pub fn choose(&self, options: &str, choice: u64) -> Result<(&str, &str), String> {
        let options = options.trim();
        let name = match options.strip_prefix('!') {
            Some(name) => name,
            None => {
                let group = self.group(options);
                if group.is_empty() {
                    return Err(format!("{options}: no sentence group of that name in sentences.txt"));
                }
                group[(choice % group.len() as u64) as usize]
            }
        };
        match self.entries.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some((name, text)) => Ok((name.as_str(), text.as_str())),
            None => Err(format!("{name}: no sentence of that name in sentences.txt")),
        }
    }
}

/// The words of sentence text `text`, each with its wave and how it plays; at most
/// [`MAX_WORDS`].
pub fn words(text: &str) -> Vec<Word> {
    // VOX_GetDirectory: the folder is everything up to the last '/'.
    let (folder, rest) = match text.rfind('/') {
        Some(at) => (&text[..=at], &text[at + 1..]),
        None => ("vox/", text),
    };
    // VOX_ParseString: parted by spaces, commas and periods; a comma or period with more after
    // it adds a pause word.
    let mut parsed: Vec<&str> = Vec::new();
    let bytes = rest.as_bytes();
    let (mut start, mut i) = (0, 0);
    while i <= bytes.len() && parsed.len() < MAX_WORDS {
        let at_end = i == bytes.len();
        let c = if at_end { 0 } else { bytes[i] };
        if at_end || matches!(c, b' ' | b',' | b'.') {
            if i > start {
                parsed.push(&rest[start..i]);
            }
            let more = bytes.get(i + 1).is_some_and(|&n| n != b'\n' && n != b'\r');
            if (c == b',' || c == b'.') && more && parsed.len() < MAX_WORDS {
                parsed.push(if c == b'.' { "_period" } else { "_comma" });
            }
            start = i + 1;
        }
        i += 1;
    }
    // VOX_ParseWordParams: a word's own block, or a block alone setting what follows.
    let mut default =
        Word { wave: String::new(), volume: 100, pitch: -1, start: 0, end: 100, time_compress: 0 };
    let mut out = Vec::new();
    for piece in parsed {
        let mut word = default.clone();
        let name = match piece.strip_suffix(')') {
            Some(inner) => match inner.find(['(', ')']) {
                Some(at) if inner.as_bytes()[at] == b'(' => {
                    read_params(&inner[at + 1..], &mut word);
                    &inner[..at]
                }
                // A ')' before any '(': "bogus formatting", neither a word nor a block.
                _ => continue,
            },
            None => piece,
        };
        if name.is_empty() {
            default = word;
            continue;
        }
        word.wave = format!("{folder}{name}.wav");
        out.push(word);
    }
    out
}

/// The letters and numbers of a parameter block (`v90 p110`) into `word`; reading stops at the
/// first letter without digits after it, as the engine's does.
fn read_params(params: &str, word: &mut Word) {
    let bytes = params.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if !matches!(c, b'v' | b'p' | b's' | b'e' | b't') {
            i += 1;
            continue;
        }
        let digits = bytes[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count().min(7);
        if digits == 0 {
            break;
        }
        let value: i32 = params[i + 1..i + 1 + digits].parse().unwrap_or(0);
        match c {
            b'v' => word.volume = value,
            b'p' => word.pitch = value,
            b's' => word.start = value,
            b'e' => word.end = value,
            _ => word.time_compress = value,
        }
        i += 1 + digits;
    }
}

/// The samples of a word between its start and end trims (`VOX_TrimStartEndTimes`): cut at
/// the percentages, each cut moved to a quiet sample (within ±2 of 128) among the next 255.
fn trimmed<'a>(samples: &'a [f32], word: &Word) -> &'a [f32] {
    let length = samples.len();
    if word.start > word.end {
        return samples;
    }
    let quiet = |s: f32| s.abs() <= 2.0 / 128.0;
    let mut from = 0;
    if word.start > 0 && word.start < 100 {
        from = length * word.start as usize / 100;
        if from < length
            && let Some(i) = samples.iter().take(ZERO_SCAN).position(|&s| quiet(s))
        {
            from += i;
        }
    }
    let mut to = length;
    if word.end > 0 && word.end < 100 {
        to = length - length * (100 - word.end as usize) / 100;
        if from < to
            && let Some(i) =
                (0..ZERO_SCAN.min(to - from)).position(|i| samples.get(to - i).is_some_and(|&s| quiet(s)))
        {
            to -= i;
        }
    }
    samples.get(from.min(to)..to.min(length)).unwrap_or(&[])
}

/// The sentence spoken: each word's sound (mixed to one channel) trimmed, at its volume and
/// pitch, played one after another at the first word's rate. `None` without words.
pub fn speak(words: &[(Word, Decoded)]) -> Option<Decoded> {
    let rate = words.first()?.1.rate;
    let mut out: Vec<f32> = Vec::new();
    for (word, sound) in words {
        let channels = usize::from(sound.channels.get());
        let mono: Vec<f32> = sound
            .samples
            .chunks_exact(channels)
            .map(|frame| frame.iter().sum::<f32>() / channels as f32)
            .collect();
        let samples = trimmed(&mono, word);
        let volume = if word.volume > 0 && word.volume != 100 { word.volume as f32 / 100.0 } else { 1.0 };
        let pitch = if word.pitch > 0 && word.pitch != 100 { word.pitch as f32 / 100.0 } else { 1.0 };
        // Each output sample steps this far through the word's.
        let step = f64::from(pitch) * f64::from(sound.rate.get()) / f64::from(rate.get());
        let count = (samples.len() as f64 / step).floor() as usize;
        if out.len().saturating_add(count) > MAX_SAMPLES {
            break;
        }
        out.extend((0..count).map(|i| {
            let at = i as f64 * step;
            let (k, f) = (at as usize, (at.fract()) as f32);
            let a = samples.get(k).copied().unwrap_or(0.0);
            let b = samples.get(k + 1).copied().unwrap_or(a);
            ((a + (b - a) * f) * volume).clamp(-1.0, 1.0)
        }));
    }
    Some(Decoded { channels: NonZero::<u16>::MIN, rate, samples: out, looped: false })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "// Half-Life sentences\n\
        \n\
        HG_ALERT0 hgrunt/alert! go(p110) ahead, move\n\
        HG_ALERT1 hgrunt/(v80) clik target.\n\
        \tHG_ALERT2\tvox/one (p90 s20) two three(e50 t30)\n\
        BARNEY_OK ok\n\
        / not a sentence\n";

    #[test]
    fn the_file_gives_names_texts_and_groups() {
        let s = Sentences::parse(FILE);
        let names: Vec<&str> = s.entries.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["HG_ALERT0", "HG_ALERT1", "HG_ALERT2", "BARNEY_OK"]);
        assert_eq!(s.lookup("hg_alert1"), Some("hgrunt/(v80) clik target."));
        assert_eq!(s.group("HG_ALERT"), ["HG_ALERT0", "HG_ALERT1", "HG_ALERT2"]);
        assert!(s.group("BARNEY_OK").is_empty(), "no digits: in no group");
        assert_eq!(s.choose("!BARNEY_OK", 7).unwrap().0, "BARNEY_OK");
        assert_eq!(s.choose("HG_ALERT", 4).unwrap().0, "HG_ALERT1");
        assert!(s.choose("HG_NOPE", 0).unwrap_err().contains("no sentence group"));
        assert!(s.choose("!HG_NOPE0", 0).unwrap_err().contains("no sentence of that name"));
    }

    #[test]
    fn words_take_the_folder_pauses_and_parameters() {
        let w = words("hgrunt/alert! go(p110) ahead, move");
        let waves: Vec<&str> = w.iter().map(|w| w.wave.as_str()).collect();
        assert_eq!(
            waves,
            [
                "hgrunt/alert!.wav",
                "hgrunt/go.wav",
                "hgrunt/ahead.wav",
                "hgrunt/_comma.wav",
                "hgrunt/move.wav"
            ]
        );
        assert_eq!((w[1].pitch, w[2].pitch), (110, -1), "a word's own block is for it alone");
        // A block alone sets what follows; the trailing period adds no pause.
        let w = words("hgrunt/(v80) clik target.");
        assert_eq!(w.len(), 2);
        assert_eq!((w[0].volume, w[1].volume), (80, 80));
        // Without a folder: vox/. A word's block over the default one.
        let w = words("one (p90s20) two three(e50t30)");
        assert_eq!(w[0].wave, "vox/one.wav");
        assert_eq!((w[0].pitch, w[1].pitch, w[1].start), (-1, 90, 20));
        assert_eq!((w[2].pitch, w[2].start, w[2].end, w[2].time_compress), (90, 20, 50, 30));
        // A block with a space is parted at it, as Half-Life's engine parts it.
        let waves: Vec<String> = words("one(p90 s20) two").into_iter().map(|w| w.wave).collect();
        assert_eq!(waves, ["vox/one(p90.wav", "vox/two.wav"]);
        // A folder in the middle: the folder is up to the last '/'.
        assert_eq!(words("a b/c")[0].wave, "a b/c.wav");
        assert!(words("").is_empty());
        assert_eq!(words(&"w ".repeat(100)).len(), MAX_WORDS);
    }

    fn tone(rate: u32, samples: Vec<f32>) -> Decoded {
        Decoded { channels: NonZero::<u16>::MIN, rate: NonZero::new(rate).unwrap(), samples, looped: false }
    }

    #[test]
    fn words_play_one_after_another_at_their_volume_and_pitch() {
        let plain = |wave: &str| Word {
            wave: wave.to_owned(),
            volume: 100,
            pitch: -1,
            start: 0,
            end: 100,
            time_compress: 0,
        };
        let a = tone(11025, vec![0.5; 100]);
        let b = tone(22050, vec![0.25; 100]);
        let quiet = Word { volume: 50, ..plain("a") };
        let high = Word { pitch: 200, ..plain("a") };
        let s = speak(&[(plain("a"), a.clone()), (quiet, a.clone()), (plain("b"), b), (high, a)]).unwrap();
        assert_eq!(s.rate.get(), 11025);
        // 100 + 100 + 50 (twice the rate, so half the samples) + 50 (an octave up).
        assert_eq!(s.samples.len(), 300);
        assert!((s.samples[0] - 0.5).abs() < 1e-6);
        assert!((s.samples[150] - 0.25).abs() < 1e-6, "half volume");
        assert!((s.samples[220] - 0.25).abs() < 1e-6);
        assert!(speak(&[]).is_none());
    }

    #[test]
    fn trims_cut_at_their_percentages() {
        let samples: Vec<f32> = (0..1000).map(|i| if i % 100 == 0 { 0.0 } else { 0.5 }).collect();
        let word = Word { wave: String::new(), volume: 100, pitch: -1, start: 25, end: 75, time_compress: 0 };
        let cut = trimmed(&samples, &word);
        // From 250 (moved by the first quiet sample of the word's start, at 0) to 750 less
        // the distance back to the quiet sample at 700.
        assert_eq!(cut.len(), 700 - 250);
        let backwards = Word { start: 80, end: 20, ..word };
        assert_eq!(trimmed(&samples, &backwards).len(), 1000);
    }
}
