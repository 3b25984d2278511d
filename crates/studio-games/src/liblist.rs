//! A Half-Life mod's `liblist.gam`: one `key "value"` a line, `//` comments. The engine reads
//! `game` (the name shown) and `fallback_dir` (a second game whose files the mod falls back to,
//! before `valve`); the rest is the mod's own business.

use std::path::Path;

/// Longest `liblist.gam` read (real ones are under a kilobyte).
pub const MAX_TEXT: usize = 64 << 10;

/// What a `liblist.gam` says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Liblist {
    /// The game's name (`game`).
    pub name: String,
    /// `fallback_dir`: the game folder searched after the mod's own.
    pub fallback_dir: Option<String>,
}

/// Reads a `liblist.gam` from `bytes`; `file` names it in errors.
pub fn parse(bytes: &[u8], file: &Path) -> Result<Liblist, String> {
    if bytes.len() > MAX_TEXT {
        return Err(format!("{}: {} bytes is more than {MAX_TEXT}", file.display(), bytes.len()));
    }
    let text = String::from_utf8_lossy(bytes);
    let mut liblist = Liblist::default();
    let mut offset = 0;
    for (n, line) in text.split('\n').enumerate() {
        let at = offset;
        offset += line.len() + 1;
        let line = line.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (key, rest) = line.split_once(|c: char| c.is_ascii_whitespace()).unwrap_or((line, ""));
        let rest = rest.trim();
        let value = match rest.strip_prefix('"') {
            Some(quoted) => match quoted.split_once('"') {
                Some((value, _)) => value.to_owned(),
                None => {
                    return Err(format!(
                        "{}: line {} at byte {at}: the value of {key} has no closing quote",
                        file.display(),
                        n + 1
                    ));
                }
            },
            None => rest.to_owned(),
        };
        match key.to_ascii_lowercase().as_str() {
            "game" => liblist.name = value,
            "fallback_dir" if !value.trim().is_empty() => {
                liblist.fallback_dir = Some(value.trim().to_owned())
            }
            _ => {}
        }
    }
    Ok(liblist)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_name_and_the_fallback() {
        let text = b"// Valve Game Info file\r\ngame \"Counter-Strike: Condition Zero\"\r\nfallback_dir \"cstrike\"\r\ngamedll \"dlls\\mp.dll\"\r\n";
        let liblist = parse(text, Path::new("czero/liblist.gam")).unwrap();
        assert_eq!(liblist.name, "Counter-Strike: Condition Zero");
        assert_eq!(liblist.fallback_dir.as_deref(), Some("cstrike"));
        assert_eq!(parse(b"game Unquoted\n", Path::new("x")).unwrap().name, "Unquoted");
        let error =
            parse(b"game \"Half-Life\"\nfallback_dir \"valve\n", Path::new("m/liblist.gam")).unwrap_err();
        assert!(error.contains("line 2 at byte 17") && error.contains("no closing quote"), "{error}");
    }
}
