//! A bare scenario as TOML text: read with every error at its line and column, written back in
//! the same form. `lab run FILE.toml` and the app's sandbox (in the lab's second module) read
//! scenarios through [`parse`], so both accept and reject the same texts with the same words.
//! Reading and writing need the `toml` crate (feature `scenario-text`); [`TextError`] and
//! [`line_column`] do not, so the page's first module shows errors without it.

use std::fmt;

#[cfg(feature = "scenario-text")]
use lab_engine::{Scenario, ScenarioError};
use serde::{Deserialize, Serialize};

/// The longest scenario text read, in bytes: a generated batch of 10,000 records is about
/// 1.3 MB, so this leaves room for the engine's 100,000-run cap without reading anything huge.
pub const TEXT_BYTES_MAX: usize = 16 * 1024 * 1024;

/// Why a scenario text cannot be used, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextError {
    /// 1-based line and column (in characters).
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl fmt::Display for TextError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for TextError {}

#[cfg(feature = "scenario-text")]
/// The scenario a TOML text describes, checked by the engine's own rules
/// ([`Scenario::validate`]). A rule the engine rejects is placed at the text it names, when the
/// text names it once.
pub fn parse(text: &str) -> Result<Scenario, TextError> {
    if text.len() > TEXT_BYTES_MAX {
        return Err(TextError {
            line: 1,
            column: 1,
            message: format!(
                "the text is {} bytes long; a scenario may be at most {TEXT_BYTES_MAX} bytes",
                text.len()
            ),
        });
    }
    let scenario: Scenario = toml::from_str(text).map_err(|error| toml_error(text, &error))?;
    scenario
        .validate()
        .map_err(|error| rule_error(text, &error))?;
    Ok(scenario)
}

#[cfg(feature = "scenario-text")]
/// The TOML text of a scenario; [`parse`] reads it back to the same scenario.
pub fn write(scenario: &Scenario) -> String {
    // Every field of a scenario is a string, number, boolean, table or array of them, so TOML
    // can always write it; a failure would be a bug in the engine's types.
    toml::to_string(scenario).expect("a scenario is always representable in TOML")
}

#[cfg(feature = "scenario-text")]
/// A TOML parse error at its position.
pub fn toml_error(text: &str, error: &toml::de::Error) -> TextError {
    let offset = error.span().map(|span| span.start).unwrap_or(0);
    let (line, column) = line_column(text, offset);
    // At the very end of the text (a `key =` on the last line) toml gives no words, or words about
    // a value that is not there: say what is missing instead.
    let at_end = text.get(offset..).is_none_or(|rest| rest.trim().is_empty());
    let message = match error.message().trim() {
        message if !message.is_empty() && !at_end => message.to_string(),
        _ => {
            "the TOML breaks off here: a value, a closing quote or a bracket is missing".to_string()
        }
    };
    TextError {
        line,
        column,
        message,
    }
}

/// The 1-based line and column (in characters) of a byte offset of `text`.
pub fn line_column(text: &str, offset: usize) -> (u32, u32) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32 + 1;
    let column = before
        .rsplit('\n')
        .next()
        .map(|rest| rest.chars().count())
        .unwrap_or(0) as u32
        + 1;
    (line, column)
}

#[cfg(feature = "scenario-text")]
/// A broken engine rule, placed where the text says what the rule names.
fn rule_error(text: &str, error: &ScenarioError) -> TextError {
    let offset = match error {
        ScenarioError::NoWorkers => None,
        // The second definition is the one to rename.
        ScenarioError::Duplicate { name, .. } => quoted(text, name).nth(1),
        ScenarioError::UnknownOperation { op, .. } => quoted(text, op).next(),
        ScenarioError::UnknownWorker { worker, .. } => quoted(text, worker).next(),
        ScenarioError::ReservedName { name } => quoted(text, name).next(),
        ScenarioError::FaultDoesNotApply { at, .. } => quoted(text, at).next(),
        ScenarioError::OutOfRange { field, .. } => key(text, field),
        ScenarioError::NoKeyOutsideReserve { .. } => quoted(text, "none").next(),
        ScenarioError::Program { line, .. } => program_line(text, *line),
        // The first body written after the worker's name.
        ScenarioError::BadBody { worker, .. } => quoted(text, worker)
            .next()
            .and_then(|start| text[start..].find("body").map(|at| start + at)),
    };
    let (line, column) = line_column(text, offset.unwrap_or(0));
    TextError {
        line,
        column,
        message: error.to_string(),
    }
}

#[cfg(feature = "scenario-text")]
/// The offset of line `line` (1-based) of the program written as `program = """..."""`: the
/// program's first line is the one after the key's.
fn program_line(text: &str, line: u32) -> Option<usize> {
    let start = key(text, "program")?;
    let mut offset = start;
    for _ in 0..line {
        offset += text[offset..].find('\n')? + 1;
    }
    Some(offset)
}

#[cfg(feature = "scenario-text")]
/// The byte offsets of `"value"` (TOML's basic string) in `text`.
fn quoted<'a>(text: &'a str, value: &str) -> impl Iterator<Item = usize> + 'a {
    let needle = format!("\"{value}\"");
    text.match_indices(&needle)
        .map(|(offset, _)| offset)
        .collect::<Vec<_>>()
        .into_iter()
}

#[cfg(feature = "scenario-text")]
/// The offset of the line that sets the last part of a dotted field name (`attempts_max` of
/// `design.retry.attempts_max`), if a line starts with it.
fn key(text: &str, field: &str) -> Option<usize> {
    let name = field.rsplit('.').next()?;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let rest = trimmed.strip_prefix(name);
        if rest.is_some_and(|rest| rest.trim_start().starts_with('=')) {
            return Some(offset + line.len() - trimmed.len());
        }
        offset += line.len();
    }
    None
}

#[cfg(all(test, feature = "scenario-text"))]
mod tests {
    use super::*;

    const SMALL: &str = r#"workflow = "reserve"

[[operations]]
id = "OP-1"

[[workers]]
name = "worker-1"
runs = [{ op = "OP-1" }]
"#;

    #[test]
    fn a_written_scenario_reads_back_the_same() {
        let scenario = parse(SMALL).expect("valid");
        let text = write(&scenario);
        assert_eq!(parse(&text), Ok(scenario));
        let batch = lab_engine::BatchSpec::reference(25).scenario();
        assert_eq!(parse(&write(&batch)), Ok(batch));
    }

    #[test]
    fn a_syntax_error_names_its_line_and_column() {
        let text = SMALL.replace("id = \"OP-1\"", "id = OP-1");
        let error = parse(&text).expect_err("a bare word is not a value");
        assert_eq!((error.line, error.column), (4, 6), "{error}");
    }

    #[test]
    fn an_unknown_field_names_its_line() {
        let text = SMALL.replace("id = \"OP-1\"", "id = \"OP-1\"\ncolour = 3");
        let error = parse(&text).expect_err("unknown field");
        assert_eq!(error.line, 5, "{error}");
        assert!(error.message.contains("colour"), "{error}");
    }

    #[test]
    fn a_broken_rule_is_placed_at_what_it_names() {
        let text = SMALL.replace("runs = [{ op = \"OP-1\" }]", "runs = [{ op = \"OP-2\" }]");
        let error = parse(&text).expect_err("unknown operation");
        assert_eq!((error.line, error.column), (8, 16), "{error}");
        assert!(error.message.contains("\"OP-2\""), "{error}");

        let text = format!("{SMALL}\n[design.retry]\nattempts_max = 0\n");
        let error = parse(&text).expect_err("out of range");
        assert_eq!((error.line, error.column), (11, 1), "{error}");

        let text =
            format!("{SMALL}\n[[faults]]\nfault = \"crash\"\nat = \"table.write\"\nnth = 1\n");
        let error = parse(&text).expect_err("reserve never writes a table");
        assert_eq!((error.line, error.column), (12, 6), "{error}");
    }

    #[test]
    fn a_character_offset_is_counted_in_characters() {
        assert_eq!(line_column("é = 1\nab", 7), (2, 1));
        assert_eq!(line_column("éa", 2), (1, 2));
        assert_eq!(line_column("ab", 99), (1, 3));
    }
}
