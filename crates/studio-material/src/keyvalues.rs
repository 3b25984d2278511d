//! Valve's KeyValues text, the syntax of `.vmt` files: `key value` pairs, where a value is a
//! string or a `{ … }` block of pairs; strings quoted or bare; `//` comments; `[$PLATFORM]`
//! conditions after a key or value (kept, not evaluated).
//!
//! Materials and `gameinfo.txt` are read as the engine reads them, without escape sequences (a
//! `\` is a plain character: Windows paths); Steam's `.vdf` and `.acf` files are written with
//! them (`\\` for `\`, `\"` for `"`), and [`parse_escaped`] reads those.
//!
//! Bounded: nesting deeper than [`MAX_DEPTH`] and text longer than [`MAX_TEXT`] are errors, and
//! every step consumes input, so no text makes the parser loop or recurse without end.

use crate::error::{Error, Result};

/// Deepest nesting of blocks accepted (real materials nest 2 or 3 deep).
pub const MAX_DEPTH: usize = 32;
/// Longest text accepted, in bytes (real `.vmt` files are a few kilobytes).
pub const MAX_TEXT: usize = 1 << 20;

/// A value: a string, or a block of pairs in file order.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A string value.
    Text(String),
    /// A block.
    Block(Vec<Pair>),
}

/// One `key value` pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    /// The key as written.
    pub key: String,
    /// Its value.
    pub value: Value,
    /// A condition written after it (`[$WIN32]`), if any.
    pub condition: Option<String>,
    /// The byte offset of its key in the text.
    pub offset: u64,
}

impl Pair {
    /// The value's text, if it is a string.
    pub fn text(&self) -> Option<&str> {
        match &self.value {
            Value::Text(t) => Some(t),
            Value::Block(_) => None,
        }
    }

    /// The first pair of `pairs` whose key is `key` (any case), as KeyValues' `FindKey` finds it.
    pub fn find<'p>(pairs: &'p [Pair], key: &str) -> Option<&'p Pair> {
        pairs.iter().find(|p| p.key.eq_ignore_ascii_case(key))
    }

    /// The value's pairs, if it is a block.
    pub fn block(&self) -> Option<&[Pair]> {
        match &self.value {
            Value::Block(b) => Some(b),
            Value::Text(_) => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    /// A quoted or bare string.
    Text(String),
    /// `{`.
    Open,
    /// `}`.
    Close,
    /// `[condition]`.
    Condition(String),
}

struct Lexer<'a> {
    text: &'a [u8],
    at: usize,
    /// Whether a `\` in a quoted string starts an escape sequence.
    escapes: bool,
}

impl Lexer<'_> {
    fn error(&self, at: usize, problem: impl Into<String>) -> Error {
        Error::new("KeyValues", at as u64, problem)
    }

    /// The next token and the byte offset it starts at, or `None` at the end.
    fn next(&mut self) -> Result<Option<(usize, Token)>> {
        loop {
            while self.text.get(self.at).is_some_and(|c| c.is_ascii_whitespace()) {
                self.at += 1;
            }
            if self.text[self.at.min(self.text.len())..].starts_with(b"//") {
                while self.text.get(self.at).is_some_and(|&c| c != b'\n') {
                    self.at += 1;
                }
                continue;
            }
            break;
        }
        let start = self.at;
        let Some(&c) = self.text.get(start) else { return Ok(None) };
        let token = match c {
            b'{' => {
                self.at += 1;
                Token::Open
            }
            b'}' => {
                self.at += 1;
                Token::Close
            }
            b'"' if self.escapes => {
                let mut bytes = Vec::new();
                let mut at = start + 1;
                loop {
                    match self.text.get(at) {
                        None => return Err(self.error(start, "a quoted string has no closing quote")),
                        Some(b'"') => break,
                        Some(b'\\') => {
                            let escaped = match self.text.get(at + 1) {
                                Some(b'n') => Some(b'\n'),
                                Some(b't') => Some(b'\t'),
                                Some(&c @ (b'\\' | b'"' | b'\'' | b'?')) => Some(c),
                                _ => None,
                            };
                            match escaped {
                                Some(c) => {
                                    bytes.push(c);
                                    at += 2;
                                }
                                None => {
                                    bytes.push(b'\\');
                                    at += 1;
                                }
                            }
                        }
                        Some(&c) => {
                            bytes.push(c);
                            at += 1;
                        }
                    }
                }
                self.at = at + 1;
                Token::Text(String::from_utf8_lossy(&bytes).into_owned())
            }
            b'"' => {
                let end = self.text[start + 1..]
                    .iter()
                    .position(|&c| c == b'"')
                    .ok_or_else(|| self.error(start, "a quoted string has no closing quote"))?;
                self.at = start + 1 + end + 1;
                Token::Text(String::from_utf8_lossy(&self.text[start + 1..start + 1 + end]).into_owned())
            }
            b'[' => {
                let end = self.text[start..]
                    .iter()
                    .position(|&c| c == b']' || c == b'\n')
                    .filter(|&e| self.text[start + e] == b']')
                    .ok_or_else(|| self.error(start, "a condition has no closing ]"))?;
                self.at = start + end + 1;
                Token::Condition(String::from_utf8_lossy(&self.text[start + 1..start + end]).into_owned())
            }
            _ => {
                let end = self.text[start..]
                    .iter()
                    .position(|&c| c.is_ascii_whitespace() || matches!(c, b'{' | b'}' | b'"'))
                    .unwrap_or(self.text.len() - start);
                self.at = start + end;
                Token::Text(String::from_utf8_lossy(&self.text[start..start + end]).into_owned())
            }
        };
        Ok(Some((start, token)))
    }
}

/// Parses KeyValues text into its top-level pairs, a `\\` being a plain character (materials,
/// `gameinfo.txt`).
pub fn parse(text: &[u8]) -> Result<Vec<Pair>> {
    parse_with(text, false)
}

/// Parses KeyValues text with escape sequences in quoted strings (`\\`, `\"`, `\n`, `\t`), as
/// Steam writes `libraryfolders.vdf` and `appmanifest_*.acf`.
pub fn parse_escaped(text: &[u8]) -> Result<Vec<Pair>> {
    parse_with(text, true)
}

fn parse_with(text: &[u8], escapes: bool) -> Result<Vec<Pair>> {
    if text.len() > MAX_TEXT {
        return Err(Error::new("KeyValues", 0, format!("{} bytes is more than {MAX_TEXT}", text.len())));
    }
    // A UTF-8 byte order mark is skipped.
    let start = if text.starts_with(&[0xEF, 0xBB, 0xBF]) { 3 } else { 0 };
    let mut lexer = Lexer { text, at: start, escapes };
    let (pairs, end) = block(&mut lexer, 0)?;
    match end {
        None => Ok(pairs),
        Some(at) => Err(lexer.error(at, "a } closes no block")),
    }
}

/// The pairs up to a `}` (whose offset is returned) or the end of the text (`None`).
fn block(lexer: &mut Lexer<'_>, depth: usize) -> Result<(Vec<Pair>, Option<usize>)> {
    let mut pairs = Vec::new();
    let mut pending: Option<(usize, Token)> = None;
    loop {
        let Some((at, token)) = pending.take().map_or_else(|| lexer.next(), |t| Ok(Some(t)))? else {
            return Ok((pairs, None));
        };
        let key = match token {
            Token::Close => return Ok((pairs, Some(at))),
            Token::Text(key) => key,
            Token::Open => return Err(lexer.error(at, "a block has no key")),
            Token::Condition(_) => return Err(lexer.error(at, "a condition has no key before it")),
        };
        let Some((value_at, mut value_token)) = lexer.next()? else {
            return Err(lexer.error(at, format!("key {key:?} has no value")));
        };
        let mut condition = None;
        if let Token::Condition(c) = value_token {
            // `"key" [$X360] { … }`: a condition between a key and its block.
            condition = Some(c);
            value_token = match lexer.next()? {
                Some((_, t)) => t,
                None => return Err(lexer.error(value_at, format!("key {key:?} has no value"))),
            };
        }
        let value = match value_token {
            Token::Text(text) => Value::Text(text),
            Token::Open => {
                if depth + 1 >= MAX_DEPTH {
                    return Err(lexer.error(value_at, format!("blocks nest deeper than {MAX_DEPTH}")));
                }
                let (inner, end) = block(lexer, depth + 1)?;
                if end.is_none() {
                    return Err(lexer.error(value_at, format!("the block of {key:?} is not closed")));
                }
                Value::Block(inner)
            }
            Token::Close => return Err(lexer.error(value_at, format!("key {key:?} has no value"))),
            Token::Condition(_) => return Err(lexer.error(value_at, "two conditions in a row")),
        };
        // A condition after the value.
        match lexer.next()? {
            Some((_, Token::Condition(c))) => condition = Some(c),
            other => pending = other,
        }
        pairs.push(Pair { key, value, condition, offset: at as u64 });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_material() {
        let text = br#"// a comment
"VertexLitGeneric"
{
    "$basetexture" "models/fixture/skin_a"   // trailing comment
    $alphatest 1
    "$color" "[1 0.5 0.25]"
    "$envmap" "env_cubemap" [$WIN32]
    "Proxies"
    {
        "Sine" { "resultVar" "$alpha" }
    }
}"#;
        let pairs = parse(text).unwrap();
        assert_eq!(pairs.len(), 1);
        assert_eq!(pairs[0].key, "VertexLitGeneric");
        let body = pairs[0].block().unwrap();
        assert_eq!(body[0].text(), Some("models/fixture/skin_a"));
        assert_eq!((body[1].key.as_str(), body[1].text()), ("$alphatest", Some("1")));
        assert_eq!(body[2].text(), Some("[1 0.5 0.25]"));
        assert_eq!(body[3].condition.as_deref(), Some("$WIN32"));
        assert_eq!(body[4].block().unwrap()[0].block().unwrap()[0].text(), Some("$alpha"));
    }

    #[test]
    fn errors_name_their_offset() {
        for (text, offset, says) in [
            (&b"\"a\" { \"b\" \"c\""[..], 4, "not closed"),
            (b"\"a\" \"b\" }", 8, "closes no block"),
            (b"\"a\"", 0, "no value"),
            (b"\"a\" \"b", 4, "no closing quote"),
            (b"{ }", 0, "no key"),
        ] {
            let error = parse(text).unwrap_err();
            assert_eq!(error.offset, offset, "{:?}: {error}", String::from_utf8_lossy(text));
            assert!(error.to_string().contains(says), "{error}");
        }
        let deep = "a {".repeat(MAX_DEPTH + 1) + &"}".repeat(MAX_DEPTH + 1);
        assert!(parse(deep.as_bytes()).unwrap_err().to_string().contains("nest deeper"));
    }

    #[test]
    fn steam_files_escape_their_backslashes_and_quotes() {
        let text =
            br#""libraryfolders" { "0" { "path" "C:\\Program Files (x86)\\Steam" "label" "say \"hi\"" } }"#;
        let pairs = parse_escaped(text).unwrap();
        let library = pairs[0].block().unwrap()[0].block().unwrap();
        assert_eq!(Pair::find(library, "PATH").unwrap().text(), Some(r"C:\Program Files (x86)\Steam"));
        assert_eq!(library[1].text(), Some(r#"say "hi""#));
        // Without escapes (materials, gameinfo.txt) a backslash is kept as it is.
        let plain = parse(br#""a" "C:\\x\y""#).unwrap();
        assert_eq!(plain[0].text(), Some(r"C:\\x\y"));
        // An escaped quote does not close the string; a lone one at the end leaves it open.
        assert!(parse_escaped(br#""a" "b\""#).unwrap_err().to_string().contains("no closing quote"));
    }

    #[test]
    fn any_bytes_parse_or_fail_without_panicking() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let alphabet = b"{}\"[]/ \n\tab$1\\";
        for len in 0..200 {
            for _ in 0..50 {
                let text: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        alphabet[(seed % alphabet.len() as u64) as usize]
                    })
                    .collect();
                let _ = parse(&text);
                let _ = parse_escaped(&text);
            }
        }
    }
}
