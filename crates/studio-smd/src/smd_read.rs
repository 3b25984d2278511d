//! Reading SMD files back ([`crate::smd`]): the check that what the decompiler
//! writes holds the model, and the first half of rebuilding a model from its sources.
//!
//! Any text is accepted without panicking: a line that does not fit its section gives an error
//! naming the line and the byte it starts at; every node index is checked against the `nodes`
//! section.

use crate::smd::{BoneKey, Corner, Frame, Node, ShapeFrame, ShapeVertex, Smd, Triangle};

/// Why an SMD file cannot be read: the line (from 1) and where it starts, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line} (at byte {byte}): {what}")]
pub struct SmdError {
    /// The line, counted from 1.
    pub line: usize,
    /// The byte offset of its start.
    pub byte: usize,
    /// What is wrong.
    pub what: String,
}

/// The most bones a `nodes` section may list (studiomdl's own limit is far lower).
const MAX_NODES: usize = 65_536;

/// The most weights a corner may list.
const MAX_LINKS: usize = 64;

struct Lines<'a> {
    lines: std::str::SplitInclusive<'a, char>,
    /// The current line (from 1) and the byte its start is at.
    at: usize,
    byte: usize,
    /// Where the next line starts.
    next_byte: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Self { lines: text.split_inclusive('\n'), at: 0, byte: 0, next_byte: 0 }
    }

    /// The next line that is not empty or a comment, trimmed.
    fn next(&mut self) -> Option<&'a str> {
        for line in self.lines.by_ref() {
            (self.at, self.byte) = (self.at + 1, self.next_byte);
            self.next_byte += line.len();
            let line = line.trim();
            if !line.is_empty() && !line.starts_with("//") && !line.starts_with('#') {
                return Some(line);
            }
        }
        None
    }

    fn error(&self, what: impl Into<String>) -> SmdError {
        SmdError { line: self.at, byte: self.byte, what: what.into() }
    }

    /// The next line, which must exist (`section` names what was being read).
    fn expect(&mut self, section: &str) -> Result<&'a str, SmdError> {
        self.next().ok_or_else(|| self.error(format!("the file ends inside {section}")))
    }
}

fn number<T: std::str::FromStr>(lines: &Lines<'_>, token: Option<&str>, what: &str) -> Result<T, SmdError> {
    let token = token.ok_or_else(|| lines.error(format!("{what} is missing")))?;
    token.parse().map_err(|_| lines.error(format!("{what} {token:?} is not a number")))
}

/// A number as [`crate::smd::number`] wrote it: a token that is an `f32`'s shortest form is that
/// `f32` (so a value taken from a model comes back exactly), any other the `f64` it spells.
fn finite(lines: &Lines<'_>, token: Option<&str>, what: &str) -> Result<f64, SmdError> {
    let value: f64 = number(lines, token, what)?;
    if !value.is_finite() {
        return Err(lines.error(format!("{what} is not finite")));
    }
    let single = value as f32;
    let token = token.unwrap_or("");
    Ok(if single.is_finite() && format!("{single}") == token { f64::from(single) } else { value })
}

fn node_index(lines: &Lines<'_>, token: Option<&str>, nodes: usize, what: &str) -> Result<usize, SmdError> {
    let index: i64 = number(lines, token, what)?;
    usize::try_from(index)
        .ok()
        .filter(|&i| i < nodes)
        .ok_or_else(|| lines.error(format!("{what} {index} is not one of the {nodes} nodes")))
}

fn vector<'t>(
    lines: &Lines<'_>,
    tokens: &mut impl Iterator<Item = &'t str>,
    what: &str,
) -> Result<[f64; 3], SmdError> {
    Ok([
        finite(lines, tokens.next(), what)?,
        finite(lines, tokens.next(), what)?,
        finite(lines, tokens.next(), what)?,
    ])
}

/// A `nodes` line: `INDEX "NAME" PARENT`.
fn node(lines: &Lines<'_>, line: &str, count: usize) -> Result<Node, SmdError> {
    let (index, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let index: i64 = number(lines, Some(index), "the node index")?;
    if usize::try_from(index).ok() != Some(count) {
        return Err(lines.error(format!("node {index} comes where node {count} should")));
    }
    let rest = rest.trim();
    let (name, rest) = match rest.strip_prefix('"') {
        Some(quoted) => {
            quoted.split_once('"').ok_or_else(|| lines.error("the node's name has no closing quote"))?
        }
        None => rest.split_once(char::is_whitespace).unwrap_or((rest, "")),
    };
    let parent: i64 = number(lines, rest.split_whitespace().next(), "the parent")?;
    let parent = match parent {
        -1 => None,
        p => Some(
            usize::try_from(p)
                .ok()
                .filter(|&p| p < count)
                .ok_or_else(|| lines.error(format!("parent {p} is not an earlier node")))?,
        ),
    };
    Ok(Node { name: name.to_owned(), parent })
}

/// A triangle corner line: `BONE X Y Z NX NY NZ U V [LINKS (BONE WEIGHT)…]`.
fn corner(lines: &Lines<'_>, line: &str, nodes: usize) -> Result<Corner, SmdError> {
    let mut tokens = line.split_whitespace();
    let bone = node_index(lines, tokens.next(), nodes, "the corner's bone")?;
    let position = vector(lines, &mut tokens, "a position")?;
    let normal = vector(lines, &mut tokens, "a normal")?;
    let uv = [finite(lines, tokens.next(), "u")?, finite(lines, tokens.next(), "v")?];
    let mut links = Vec::new();
    if let Some(count) = tokens.next() {
        let count: usize = number(lines, Some(count), "the weight count")?;
        if count > MAX_LINKS {
            return Err(lines.error(format!("{count} weights is more than {MAX_LINKS}")));
        }
        for _ in 0..count {
            let bone = node_index(lines, tokens.next(), nodes, "a weight's bone")?;
            links.push((bone, finite(lines, tokens.next(), "a weight")?));
        }
    }
    Ok(Corner { bone, position, normal, uv, links })
}

/// Reads an SMD file's text.
pub fn read(text: &str) -> Result<Smd, SmdError> {
    let mut lines = Lines::new(text);
    let mut smd = Smd::default();
    let mut seen_nodes = false;
    while let Some(line) = lines.next() {
        let keyword = line.split_whitespace().next().unwrap_or("");
        match keyword {
            "version" => {
                let version: i64 = number(&lines, line.split_whitespace().nth(1), "the version")?;
                if version != 1 {
                    return Err(lines.error(format!("version {version} is not 1")));
                }
            }
            "nodes" => {
                loop {
                    let line = lines.expect("the nodes")?;
                    if line == "end" {
                        break;
                    }
                    if smd.nodes.len() == MAX_NODES {
                        return Err(lines.error(format!("more than {MAX_NODES} nodes")));
                    }
                    let node = node(&lines, line, smd.nodes.len())?;
                    smd.nodes.push(node);
                }
                seen_nodes = true;
            }
            "skeleton" => {
                if !seen_nodes {
                    return Err(lines.error("the skeleton comes before the nodes"));
                }
                loop {
                    let line = lines.expect("the skeleton")?;
                    if line == "end" {
                        break;
                    }
                    let mut tokens = line.split_whitespace();
                    if tokens.next() == Some("time") {
                        let time = number(&lines, tokens.next(), "the time")?;
                        smd.frames.push(Frame { time, bones: Vec::new() });
                        continue;
                    }
                    let mut tokens = line.split_whitespace();
                    let bone = node_index(&lines, tokens.next(), smd.nodes.len(), "the bone")?;
                    let position = vector(&lines, &mut tokens, "a position")?;
                    let rotation = vector(&lines, &mut tokens, "a rotation")?;
                    let frame =
                        smd.frames.last_mut().ok_or_else(|| lines.error("a bone comes before any time"))?;
                    if frame.bones.len() == smd.nodes.len() {
                        return Err(lines.error("a frame gives more bones than there are nodes"));
                    }
                    frame.bones.push(BoneKey { bone, position, rotation });
                }
            }
            "triangles" => {
                if !seen_nodes {
                    return Err(lines.error("the triangles come before the nodes"));
                }
                loop {
                    let material = lines.expect("the triangles")?;
                    if material == "end" {
                        break;
                    }
                    let mut corners = Vec::with_capacity(3);
                    for _ in 0..3 {
                        let line = lines.expect("a triangle")?;
                        corners.push(corner(&lines, line, smd.nodes.len())?);
                    }
                    let corners: [Corner; 3] =
                        corners.try_into().map_err(|_| lines.error("a triangle is short"))?;
                    smd.triangles.push(Triangle { material: material.to_owned(), corners });
                }
            }
            "vertexanimation" => loop {
                let line = lines.expect("the vertex animation")?;
                if line == "end" {
                    break;
                }
                let mut tokens = line.split_whitespace();
                if tokens.next() == Some("time") {
                    let time = number(&lines, tokens.next(), "the time")?;
                    smd.shapes.push(ShapeFrame { time, vertices: Vec::new() });
                    continue;
                }
                let mut tokens = line.split_whitespace();
                let index: usize = number(&lines, tokens.next(), "the vertex number")?;
                let position = vector(&lines, &mut tokens, "a position")?;
                let normal = vector(&lines, &mut tokens, "a normal")?;
                let frame =
                    smd.shapes.last_mut().ok_or_else(|| lines.error("a vertex comes before any time"))?;
                frame.vertices.push(ShapeVertex { index, position, normal });
            },
            other => return Err(lines.error(format!("{other:?} is not a section of an SMD file"))),
        }
    }
    if !seen_nodes {
        return Err(lines.error("the file has no nodes section"));
    }
    Ok(smd)
}
