//! A payload as the sandbox's forms show it: TOML's inline-table fields on one line,
//! `amount = 5, user = "ann"`. Read and written by hand, so the page's first module needs no
//! TOML crate; the property test in this file holds the reading to the `toml` crate's own.

use lab_engine::{Payload, Scalar};

/// A payload written as TOML's inline-table fields, `amount = 5, user = "ann"`, in key order.
pub fn write_payload(payload: &Payload) -> String {
    let fields: Vec<String> = payload
        .iter()
        .map(|(name, value)| format!("{} = {}", key_text(name), value_text(value)))
        .collect();
    fields.join(", ")
}

/// The payload of `amount = 5, user = "ann"`; Err says what is wrong in words.
pub fn parse_payload(text: &str) -> Result<Payload, String> {
    if text.contains('\n') {
        return Err("a payload is written on one line".into());
    }
    let mut reader = Reader {
        rest: text.chars().collect(),
        at: 0,
    };
    let mut payload = Payload::new();
    reader.blank();
    while !reader.done() {
        let name = reader.key()?;
        reader.blank();
        if reader.peek() == Some('.') {
            return Err(format!(
                "\"{name}\" is a dotted key; a payload's values are single numbers, strings or booleans"
            ));
        }
        reader.expect('=')?;
        reader.blank();
        let value = reader.value()?;
        if payload.insert(name.clone(), value).is_some() {
            return Err(format!("\"{name}\" is given twice"));
        }
        reader.blank();
        if reader.done() {
            break;
        }
        reader.expect(',')?;
        reader.blank();
    }
    Ok(payload)
}

fn key_text(name: &str) -> String {
    let bare = !name.is_empty() && name.chars().all(is_bare);
    match bare {
        true => name.to_string(),
        false => basic_string(name),
    }
}

fn value_text(value: &Scalar) -> String {
    match value {
        Scalar::Bool(flag) => flag.to_string(),
        Scalar::Int(number) => number.to_string(),
        Scalar::Text(text) => basic_string(text),
    }
}

/// A TOML basic string: `"..."` with escapes for what may not appear as itself.
fn basic_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for character in text.chars() {
        match character {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04X}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn is_bare(character: char) -> bool {
    character.is_ascii_alphanumeric() || character == '_' || character == '-'
}

/// A character TOML allows in a string as itself (not a control character, tab allowed).
fn is_plain(character: char) -> bool {
    character == '\t' || !((character as u32) < 0x20 || character == '\u{7f}')
}

struct Reader {
    rest: Vec<char>,
    at: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.rest.get(self.at).copied()
    }

    fn starts(&self, word: &str) -> bool {
        word.chars()
            .enumerate()
            .all(|(index, character)| self.rest.get(self.at + index) == Some(&character))
    }

    fn done(&self) -> bool {
        self.at >= self.rest.len()
    }

    fn blank(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, wanted: char) -> Result<(), String> {
        match self.peek() {
            Some(found) if found == wanted => {
                self.at += 1;
                Ok(())
            }
            Some('#') => Err("a comment cannot be written inside a payload".into()),
            Some(found) => Err(format!(
                "expected `{wanted}` at character {}, found `{found}`",
                self.at + 1
            )),
            None => Err(format!("expected `{wanted}` at the end")),
        }
    }

    fn key(&mut self) -> Result<String, String> {
        match self.peek() {
            Some('"') => self.string(),
            Some('\'') => self.string(),
            Some(character) if is_bare(character) => {
                let start = self.at;
                while self.peek().is_some_and(is_bare) {
                    self.at += 1;
                }
                Ok(self.rest[start..self.at].iter().collect())
            }
            Some(found) => Err(format!(
                "expected a key at character {}, found `{found}`",
                self.at + 1
            )),
            None => Err("expected a key at the end".into()),
        }
    }

    fn value(&mut self) -> Result<Scalar, String> {
        match self.peek() {
            Some('"' | '\'') => self.string().map(Scalar::Text),
            Some(_) => {
                // A bare value runs to the next separator.
                let start = self.at;
                while self
                    .peek()
                    .is_some_and(|character| !matches!(character, ' ' | '\t' | ','))
                {
                    self.at += 1;
                }
                let word: String = self.rest[start..self.at].iter().collect();
                bare_value(&word)
            }
            None => Err("a value is missing at the end".into()),
        }
    }

    /// A basic, literal or one-line multi-line string, quotes and all.
    fn string(&mut self) -> Result<String, String> {
        let quote = self.peek().expect("at a quote");
        let triple: String = [quote; 3].iter().collect();
        if self.starts(&triple) {
            self.at += 3;
            let mut text = String::new();
            loop {
                if self.starts(&triple) {
                    // Up to two more quotes end the string as part of it.
                    let mut extra = 0;
                    while extra < 2 && self.rest.get(self.at + 3 + extra) == Some(&quote) {
                        extra += 1;
                    }
                    text.extend(std::iter::repeat_n(quote, extra));
                    self.at += 3 + extra;
                    return Ok(text);
                }
                text.push(self.string_char(quote)?);
            }
        }
        self.at += 1;
        let mut text = String::new();
        loop {
            if self.peek() == Some(quote) {
                self.at += 1;
                return Ok(text);
            }
            text.push(self.string_char(quote)?);
        }
    }

    fn string_char(&mut self, quote: char) -> Result<char, String> {
        let Some(character) = self.peek() else {
            return Err("a string is not closed".into());
        };
        self.at += 1;
        if !is_plain(character) {
            return Err("a string holds a control character".into());
        }
        if character != '\\' || quote == '\'' {
            return Ok(character);
        }
        let Some(escape) = self.peek() else {
            return Err("a string is not closed".into());
        };
        self.at += 1;
        match escape {
            'b' => Ok('\u{8}'),
            't' => Ok('\t'),
            'n' => Ok('\n'),
            'f' => Ok('\u{c}'),
            'r' => Ok('\r'),
            'e' => Ok('\u{1b}'),
            '"' => Ok('"'),
            '\\' => Ok('\\'),
            'x' => self.hex(2),
            'u' => self.hex(4),
            'U' => self.hex(8),
            other => Err(format!("`\\{other}` is not an escape TOML knows")),
        }
    }

    fn hex(&mut self, digits: usize) -> Result<char, String> {
        let end = self.at + digits;
        let code: String = self
            .rest
            .get(self.at..end)
            .unwrap_or_default()
            .iter()
            .collect();
        if code.chars().count() != digits || !code.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(format!("an escape needs {digits} hexadecimal digits"));
        }
        self.at = end;
        u32::from_str_radix(&code, 16)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| format!("`{code}` is not a Unicode character"))
    }
}

/// A value written without quotes: a boolean or an integer.
fn bare_value(word: &str) -> Result<Scalar, String> {
    match word {
        "true" => return Ok(Scalar::Bool(true)),
        "false" => return Ok(Scalar::Bool(false)),
        _ => {}
    }
    integer(word)
        .map(Scalar::Int)
        .ok_or_else(|| format!("`{word}` is not a number, a quoted string, true or false"))
}

/// A TOML integer: decimal with an optional sign, or 0x, 0o, 0b; `_` only between digits.
fn integer(word: &str) -> Option<i64> {
    let (radix, digits, negative) = match word.get(..2) {
        Some("0x") => (16, &word[2..], false),
        Some("0o") => (8, &word[2..], false),
        Some("0b") => (2, &word[2..], false),
        _ => {
            let (negative, digits) = match word.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, word.strip_prefix('+').unwrap_or(word)),
            };
            // No leading zero in a decimal, but 0 itself.
            if digits.len() > 1 && digits.starts_with('0') {
                return None;
            }
            (10, digits, negative)
        }
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
        || !digits.chars().all(|c| c == '_' || c.is_digit(radix))
    {
        return None;
    }
    let digits: String = digits.chars().filter(|&c| c != '_').collect();
    let signed = match negative {
        true => format!("-{digits}"),
        false => digits,
    };
    i64::from_str_radix(&signed, radix).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What the `toml` crate reads of the same line as the fields of an inline table: the table
    /// must end at the closing brace put after the line (`}#` would end it early, and its
    /// comment hide that brace).
    fn toml_reading(text: &str) -> Result<Payload, String> {
        #[derive(serde::Deserialize)]
        struct Wrapped {
            payload: toml::Spanned<Payload>,
        }
        if text.contains('\n') {
            return Err("a payload is written on one line".into());
        }
        let whole = format!("payload = {{ {text} }}");
        let wrapped =
            toml::from_str::<Wrapped>(&whole).map_err(|error| error.message().to_string())?;
        match wrapped.payload.span().end == whole.len() {
            true => Ok(wrapped.payload.into_inner()),
            false => Err("the table ends before the line does".into()),
        }
    }

    #[test]
    fn a_payload_reads_back_and_refuses_what_is_not_one() {
        let payload = parse_payload(r#"amount = 5, user = "ann", paid = true"#).expect("valid");
        assert_eq!(payload.len(), 3);
        assert_eq!(
            write_payload(&payload),
            r#"amount = 5, paid = true, user = "ann""#
        );
        assert_eq!(parse_payload(&write_payload(&payload)), Ok(payload));
        assert_eq!(parse_payload(""), Ok(Payload::new()));
        assert!(parse_payload("amount = ").is_err());
        assert!(parse_payload("nested = { a = 1 }").is_err());
        assert!(parse_payload("a = 1 }, b = { c = 2").is_err());
        assert!(parse_payload("a = 1.5").is_err());
        assert!(parse_payload("a = 1, a = 2").is_err());
    }

    fn scalar() -> impl Strategy<Value = Scalar> {
        prop_oneof![
            any::<bool>().prop_map(Scalar::Bool),
            any::<i64>().prop_map(Scalar::Int),
            any::<String>().prop_map(Scalar::Text),
        ]
    }

    /// Pieces of TOML, legal and not, that a learner could type into a payload field.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "a",
            "b",
            "é",
            "A-1",
            "_",
            " ",
            "\t",
            "=",
            " = ",
            ",",
            ", ",
            ".",
            "\"",
            "'",
            "\"\"\"",
            "'''",
            "\\",
            "\\n",
            "\\u00e9",
            "\\x41",
            "\\e",
            "\\q",
            "\\U0001F600",
            "\\uD800",
            "0",
            "1",
            "12",
            "-",
            "+",
            "_",
            "0x1f",
            "0o17",
            "0b101",
            "1_000",
            "1__0",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "1.5",
            "1e3",
            "inf",
            "nan",
            "true",
            "false",
            "tru",
            "1979-05-27",
            "07:32:00",
            "{",
            "}",
            "[",
            "]",
            "#",
            "\u{1}",
            "\u{7f}",
        ])
    }

    /// This reader and toml's read `text` alike: the same payload, or both refuse it.
    fn same_reading(text: &str) -> Result<(), TestCaseError> {
        let ours = parse_payload(text);
        let theirs = toml_reading(text);
        match (&ours, &theirs) {
            (Ok(ours), Ok(theirs)) => prop_assert_eq!(ours, theirs, "{:?}", text),
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "{:?}: ours {:?}, toml's {:?}", text, ours, theirs),
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Every payload written reads back, by this reader and by toml's.
        #[test]
        fn a_written_payload_reads_back(payload in prop::collection::btree_map(any::<String>(), scalar(), 0..5)) {
            let text = write_payload(&payload);
            prop_assert_eq!(parse_payload(&text), Ok(payload.clone()));
            prop_assert_eq!(toml_reading(&text), Ok(payload));
        }

        /// Any line of TOML pieces is read as toml reads it: the same payload, or refused by both.
        #[test]
        fn a_typed_line_is_read_as_toml_reads_it(pieces in prop::collection::vec(piece(), 0..12)) {
            let text: String = pieces.concat();
            same_reading(&text)?;
        }

        /// Typical fields, well formed or nearly: read as toml reads them.
        #[test]
        fn a_nearly_right_line_is_read_as_toml_reads_it(
            fields in prop::collection::vec((piece(), piece(), piece(), piece()), 0..4),
            trailing in prop::sample::select(vec!["", ",", " ,", ", ", " #", "}"]),
        ) {
            let text = fields
                .iter()
                .map(|(key, gap, value, more)| format!("{key}{gap}={gap}{value}{more}"))
                .collect::<Vec<_>>()
                .join(", ")
                + trailing;
            same_reading(&text)?;
        }
    }
}
