//! Programs: blocks in order, nested by indentation, as plain data.
//!
//! A program travels in a scenario, a lesson file, a link and saved progress. Its text form is
//! one block id a line, indented two spaces per level:
//!
//! ```text
//! journal_get
//! if_no_row
//!   journal_insert
//! submit
//! ```
//!
//! [`Program::structure`] holds a program to the rules a Python reader would (a header has an
//! indented body, `else` follows an `if`, `except` follows a `try`, a name is set before it is
//! read, ...) and returns what the interpreter needs: each line's body, its `else`, its handlers,
//! its loop. Its errors name the line (1-based) and say what would be right.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::block::{Block, Name, Raised, Shape};

/// The most lines a program may have.
pub const PROGRAM_LINES_MAX: usize = 64;

/// The deepest a line may be indented.
pub const PROGRAM_DEPTH_MAX: u8 = 8;

/// One line: a block at an indentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    pub block: Block,
    /// 0 for the function's body, one more under each header.
    pub depth: u8,
}

/// Blocks in order, nested by indentation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Program {
    pub lines: Vec<Line>,
}

/// A program that breaks a rule, at a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ProgramError {
    /// 1-based; 0 for the program as a whole.
    pub line: u32,
    pub message: String,
}

fn at(line: usize, message: String) -> ProgramError {
    ProgramError {
        line: line as u32 + 1,
        message,
    }
}

impl Program {
    /// A program from `(block, depth)` pairs.
    pub fn of(lines: &[(Block, u8)]) -> Program {
        Program {
            lines: lines
                .iter()
                .map(|&(block, depth)| Line { block, depth })
                .collect(),
        }
    }

    /// Reads the text form: a block id a line, two spaces per level; blank lines and `#`
    /// comments are skipped.
    pub fn parse(text: &str) -> Result<Program, ProgramError> {
        let mut lines = Vec::new();
        for (number, raw) in text.lines().enumerate() {
            let content = raw.split('#').next().unwrap_or("").trim_end();
            if content.trim().is_empty() {
                continue;
            }
            let indent = content.len() - content.trim_start().len();
            let place = |message: String| ProgramError {
                line: number as u32 + 1,
                message,
            };
            if content[..indent].contains('\t') {
                return Err(place("indent with spaces, two per level, not tabs".into()));
            }
            if indent % 2 != 0 {
                return Err(place(format!(
                    "indented {indent} spaces; indent two spaces per level"
                )));
            }
            let name = content.trim();
            let block = Block::named(name).ok_or_else(|| {
                place(format!(
                    "no block is called \"{name}\" (ids are snake_case, like journal_get)"
                ))
            })?;
            let depth = u8::try_from(indent / 2).unwrap_or(u8::MAX);
            lines.push(Line { block, depth });
            if lines.len() > PROGRAM_LINES_MAX {
                return Err(place(format!(
                    "a program has at most {PROGRAM_LINES_MAX} lines"
                )));
            }
        }
        Ok(Program { lines })
    }

    /// The text form [`Program::parse`] reads back.
    pub fn text(&self) -> String {
        let mut text = String::new();
        for line in &self.lines {
            for _ in 0..line.depth {
                text.push_str("  ");
            }
            text.push_str(line.block.name());
            text.push('\n');
        }
        text
    }

    /// Whether a line of the program sets the key (see `sets_key`).
    pub(crate) fn keyed(&self) -> bool {
        sets_key(self.lines.iter().map(|line| line.block))
    }

    /// Whether the program holds `block` anywhere.
    pub fn has(&self, block: Block) -> bool {
        self.lines.iter().any(|line| line.block == block)
    }

    /// The program's structure, checked: every block among `offered`, every body indented under
    /// a header, every `else` after an `if` or a loop, every `except` after a `try`, every
    /// `sleep` in a loop, only database statements in a transaction, every name set before it
    /// is read.
    pub fn structure(&self, offered: &[Block]) -> Result<Structure, ProgramError> {
        let lines = &self.lines;
        if lines.is_empty() {
            return Err(ProgramError {
                line: 0,
                message: "the program is empty: place at least one block".into(),
            });
        }
        if lines.len() > PROGRAM_LINES_MAX {
            return Err(at(
                PROGRAM_LINES_MAX,
                format!("a program has at most {PROGRAM_LINES_MAX} lines"),
            ));
        }
        for (index, line) in lines.iter().enumerate() {
            if !offered.contains(&line.block) {
                return Err(at(
                    index,
                    format!("`{}` is not a block of this workflow", line.block.name()),
                ));
            }
            if line.depth > PROGRAM_DEPTH_MAX {
                return Err(at(
                    index,
                    format!("indented deeper than {PROGRAM_DEPTH_MAX} levels"),
                ));
            }
        }
        check_indentation(lines)?;
        let mut structure = Structure::new(lines);
        structure.pair_else_and_handlers(lines)?;
        structure.check_bodies(lines)?;
        check_names(lines)?;
        Ok(structure)
    }
}

/// The first line at depth 0; a header's next line one deeper; no other line deeper than the
/// one before it.
fn check_indentation(lines: &[Line]) -> Result<(), ProgramError> {
    if lines[0].depth != 0 {
        return Err(at(0, "the first line is not indented".into()));
    }
    for index in 1..lines.len() {
        let (before, line) = (lines[index - 1], lines[index]);
        let opens = before.block.spec().shape.opens_body();
        if opens && line.depth != before.depth + 1 {
            return Err(at(
                index - 1,
                format!(
                    "`{}` ends with a colon: indent the next line one level under it",
                    before.block.name()
                ),
            ));
        }
        if !opens && line.depth > before.depth {
            return Err(at(
                index,
                format!(
                    "indented under `{}`, which takes no body",
                    before.block.name()
                ),
            ));
        }
    }
    let last = lines[lines.len() - 1];
    if last.block.spec().shape.opens_body() {
        return Err(at(
            lines.len() - 1,
            format!(
                "`{}` ends with a colon but has no body under it",
                last.block.name()
            ),
        ));
    }
    Ok(())
}

/// A line index that stands for "none".
pub(crate) const NONE: u16 = u16::MAX;

/// What the interpreter reads of a checked program, by line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Structure {
    /// The first line after the line's body (for a line without a body, the next line).
    pub(crate) end: Vec<u16>,
    /// The nearest header whose body holds the line.
    pub(crate) parent: Vec<u16>,
    /// For an `if` or a loop, its `else`.
    pub(crate) else_at: Vec<u16>,
    /// For a `try`, its handlers (consecutive lines at its depth).
    pub(crate) handlers: Vec<(u16, u16)>,
    /// For a handler, the first line after the last handler of its `try` (and that one's body).
    pub(crate) past_handlers: Vec<u16>,
}

impl Structure {
    fn new(lines: &[Line]) -> Structure {
        let count = lines.len();
        let mut end = vec![count as u16; count];
        let mut parent = vec![NONE; count];
        let mut open: Vec<usize> = Vec::new();
        for (index, line) in lines.iter().enumerate() {
            while let Some(&header) = open.last() {
                if lines[header].depth >= line.depth {
                    end[header] = index as u16;
                    open.pop();
                } else {
                    break;
                }
            }
            parent[index] = open.last().map_or(NONE, |&header| header as u16);
            if line.block.spec().shape.opens_body() {
                open.push(index);
            } else {
                end[index] = index as u16 + 1;
            }
        }
        Structure {
            end,
            parent,
            else_at: vec![NONE; count],
            handlers: vec![(NONE, NONE); count],
            past_handlers: vec![NONE; count],
        }
    }

    /// The sibling after the line's body, if it is at the same depth.
    fn next_sibling(&self, lines: &[Line], index: usize) -> Option<usize> {
        let next = self.end[index] as usize;
        (next < lines.len() && lines[next].depth == lines[index].depth).then_some(next)
    }

    fn pair_else_and_handlers(&mut self, lines: &[Line]) -> Result<(), ProgramError> {
        let mut paired = vec![false; lines.len()];
        for (index, line) in lines.iter().enumerate() {
            let shape = line.block.spec().shape;
            let next = self.next_sibling(lines, index);
            match shape {
                Shape::If | Shape::Loop => {
                    if let Some(next) = next.filter(|&next| lines[next].block == Block::Else) {
                        self.else_at[index] = next as u16;
                        paired[next] = true;
                    }
                }
                Shape::Try => {
                    let first =
                        next.filter(|&next| lines[next].block.spec().shape == Shape::Handler);
                    let Some(first) = first else {
                        return Err(at(
                            index,
                            "`try:` needs an `except ...:` after its body, at its own indentation"
                                .into(),
                        ));
                    };
                    let mut last = first;
                    paired[first] = true;
                    while let Some(next) = self
                        .next_sibling(lines, last)
                        .filter(|&next| lines[next].block.spec().shape == Shape::Handler)
                    {
                        paired[next] = true;
                        last = next;
                    }
                    self.handlers[index] = (first as u16, last as u16 + 1);
                    let past = self.end[last];
                    let mut handler = Some(first);
                    while let Some(at) = handler {
                        self.past_handlers[at] = past;
                        handler = self.next_sibling(lines, at).filter(|&next| next <= last);
                    }
                }
                _ => {}
            }
        }
        for (index, line) in lines.iter().enumerate() {
            match line.block.spec().shape {
                Shape::Else if !paired[index] => {
                    return Err(at(
                        index,
                        "`else:` must come right after the body of an `if` or of a retry loop, at the same indentation".into(),
                    ))
                }
                Shape::Handler if !paired[index] => {
                    return Err(at(
                        index,
                        format!(
                            "`{}` must come right after the body of a `try:` (or another `except`), at the same indentation",
                            line.block.name()
                        ),
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Sleeps sit in a loop; transactions hold database statements only.
    fn check_bodies(&self, lines: &[Line]) -> Result<(), ProgramError> {
        for (index, line) in lines.iter().enumerate() {
            if line.block == Block::Sleep && self.enclosing(lines, index, Shape::Loop).is_none() {
                return Err(at(
                    index,
                    "`sleep(...); continue` starts the next attempt: put it inside a retry loop"
                        .into(),
                ));
            }
            if line.block.spec().shape == Shape::Transaction {
                let body = index + 1..self.end[index] as usize;
                for inner in body {
                    if !TRANSACTIONAL.contains(&lines[inner].block) {
                        return Err(at(
                            inner,
                            format!(
                                "only database writes go inside `with db.transaction():`; `{}` is not one",
                                lines[inner].block.name()
                            ),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The nearest header of `shape` whose body holds line `index`.
    pub(crate) fn enclosing(&self, lines: &[Line], index: usize, shape: Shape) -> Option<usize> {
        let mut at = self.parent[index];
        while at != NONE {
            if lines[at as usize].block.spec().shape == shape {
                return Some(at as usize);
            }
            at = self.parent[at as usize];
        }
        None
    }

    /// The handler that catches `error` raised at line `index`: the innermost `try` around the
    /// line with a handler for it.
    pub(crate) fn handler_for(&self, lines: &[Line], index: usize, error: Raised) -> Option<usize> {
        let mut at = self.parent[index];
        while at != NONE {
            let header = at as usize;
            if lines[header].block.spec().shape == Shape::Try {
                let (first, last) = self.handlers[header];
                let found = (first as usize..last as usize).find(|&handler| {
                    lines[handler].depth == lines[header].depth
                        && lines[handler].block.spec().catches.contains(error)
                });
                if found.is_some() {
                    return found;
                }
            }
            at = self.parent[header];
        }
        None
    }
}

/// The blocks a transaction may hold.
pub(crate) const TRANSACTIONAL: &[Block] = &[
    Block::SaveInsert,
    Block::SaveInsertOrIgnore,
    Block::SaveUpsert,
    Block::InsertFilterOnRead,
    Block::TrackingInsert,
];

/// Whether a line of `blocks` sets the key (a key line): then the program, not the design's
/// switch, says where the key comes from.
pub(crate) fn sets_key(mut blocks: impl Iterator<Item = Block>) -> bool {
    blocks.any(|block| block.spec().sets.contains(&Name::Key))
}

/// The names set before a program's first line: the key, written above the program from the
/// design's key source, unless a line of the program sets it (`keys.rs`).
pub(crate) fn set_above(blocks: impl Iterator<Item = Block>) -> &'static [Name] {
    match sets_key(blocks) {
        true => &[],
        false => &[Name::Key],
    }
}

/// Every name a line reads is set by a line above it (or above the program: `set_above`).
fn check_names(lines: &[Line]) -> Result<(), ProgramError> {
    let mut set: Vec<Name> = set_above(lines.iter().map(|line| line.block)).to_vec();
    for (index, line) in lines.iter().enumerate() {
        let spec = line.block.spec();
        if let Some(missing) = spec.uses.iter().find(|name| !set.contains(name)) {
            return Err(at(
                index,
                format!(
                    "`{}` reads `{}`, but no line above it sets `{}`",
                    line.block.name(),
                    missing.as_str(),
                    missing.as_str()
                ),
            ));
        }
        set.extend(spec.sets);
    }
    Ok(())
}

impl Serialize for Program {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text())
    }
}

/// Read from the text form, or (in a human-readable format: TOML, JSON) from a list of lines in
/// it. A binary format (postcard: share links, the worker's messages) cannot tell the two apart,
/// so there it is the text form only.
impl<'de> Deserialize<'de> for Program {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Program, D::Error> {
        if !deserializer.is_human_readable() {
            let text = String::deserialize(deserializer)?;
            return Program::parse(&text).map_err(serde::de::Error::custom);
        }
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Form {
            Text(String),
            Lines(Vec<String>),
        }
        let text = match Form::deserialize(deserializer)? {
            Form::Text(text) => text,
            Form::Lines(lines) => lines.join("\n"),
        };
        Program::parse(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Block as B;

    fn structure(text: &str) -> Result<Structure, ProgramError> {
        Program::parse(text).unwrap().structure(&Block::ALL)
    }

    #[test]
    fn text_round_trips() {
        let program = Program::of(&[
            (B::JournalGet, 0),
            (B::IfNoRow, 0),
            (B::JournalInsert, 1),
            (B::Submit, 0),
        ]);
        assert_eq!(Program::parse(&program.text()), Ok(program));
    }

    #[test]
    fn each_rule_is_named_at_its_line() {
        let cases = [
            ("if_no_row\njournal_insert\n", 1, "indent the next line"),
            ("journal_get\n  submit\n", 2, "takes no body"),
            ("journal_get\nelse\n  submit\n", 2, "`else:` must come"),
            ("try\n  submit\nsubmit\n", 1, "needs an `except"),
            (
                "except_busy\n  return_failed\n",
                1,
                "must come right after the body of a `try:`",
            ),
            ("sleep\n", 1, "inside a retry loop"),
            ("if_found\n  submit\n", 1, "no line above it sets `found`"),
            ("transaction\n  submit\n", 2, "only database writes"),
            ("journal_get\nif_no_row\n", 2, "has no body"),
        ];
        for (text, line, words) in cases {
            let error = structure(text).unwrap_err();
            assert_eq!(error.line, line, "{text}: {error}");
            assert!(error.message.contains(words), "{text}: {error}");
        }
    }

    #[test]
    fn parse_refuses_unknown_blocks_and_odd_indents() {
        assert_eq!(Program::parse("frobnicate").unwrap_err().line, 1);
        assert!(Program::parse("try\n   submit")
            .unwrap_err()
            .message
            .contains("two spaces"));
    }

    #[test]
    fn a_handler_is_found_through_nested_headers() {
        let program = Program::parse(
            "try\n  retry_loop\n    try\n      submit\n    except_timeout\n      return_unknown\nexcept_busy\n  return_failed\n",
        )
        .unwrap();
        let structure = program.structure(&Block::ALL).unwrap();
        let lines = &program.lines;
        assert_eq!(structure.handler_for(lines, 3, Raised::Timeout), Some(4));
        assert_eq!(structure.handler_for(lines, 3, Raised::Busy), Some(6));
        assert_eq!(structure.handler_for(lines, 3, Raised::Conflict), None);
    }
}
