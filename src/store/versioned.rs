//! Reading and writing a saved value that carries a format version: one parser for local storage
//! and for imported files, so both reject the same things with the same words.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// The largest text the parser reads, in bytes: a progress file for every lesson is a few
/// kilobytes, so anything near this is not one of ours.
pub const TEXT_BYTES_MAX: u64 = 1024 * 1024;

/// How much of a value from the outside an error message quotes, in characters.
const QUOTE_CHARS_MAX: usize = 40;

/// A value saved with a format version.
pub trait Versioned: Serialize + DeserializeOwned {
    /// The only format version this build reads and writes.
    const VERSION: u32;

    /// The longest text read as this value, in bytes.
    const BYTES_MAX: u64 = TEXT_BYTES_MAX;

    /// Checks what serde cannot: ranges, caps and references between fields. The message
    /// completes "could not be read (…)".
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// Why a saved or imported value could not be used. Each message completes the sentence
/// "… could not be read (…)".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Longer than the value's `BYTES_MAX` ([`TEXT_BYTES_MAX`] unless it says otherwise).
    TooLarge { bytes: u64, max: u64 },
    /// Nothing but white space.
    Empty,
    /// Not JSON at all.
    NotJson { detail: String },
    /// JSON, but not an object with fields.
    NotAnObject,
    /// An object without a `version` field.
    NoVersion,
    /// A format version this build does not read, older or newer.
    Version { found: String, expected: u32 },
    /// The right version with the wrong fields.
    Shape { detail: String },
    /// The right fields with values that cannot be true.
    Invalid { detail: String },
}

impl fmt::Display for ReadError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::TooLarge { bytes, max } => write!(
                formatter,
                "it is {bytes} bytes long, more than the {max} bytes the lab accepts"
            ),
            ReadError::Empty => write!(formatter, "it is empty"),
            ReadError::NotJson { detail } => write!(formatter, "it is not valid JSON: {detail}"),
            ReadError::NotAnObject => write!(formatter, "it is not a JSON object"),
            ReadError::NoVersion => write!(formatter, "it has no format version"),
            ReadError::Version { found, expected } => {
                let newer = found
                    .parse::<u64>()
                    .is_ok_and(|found| found > u64::from(*expected));
                let origin = if newer {
                    ", written by a newer version of the lab"
                } else {
                    ""
                };
                write!(
                    formatter,
                    "it has format version {found}{origin}, and this version of the lab reads only version {expected}"
                )
            }
            ReadError::Shape { detail } => {
                write!(formatter, "it does not have the expected fields: {detail}")
            }
            ReadError::Invalid { detail } => write!(formatter, "{detail}"),
        }
    }
}

/// Reads a value from JSON text, checking its size, version, fields and values in that order, so
/// an older format is reported as a version mismatch rather than as missing fields.
pub fn parse<T: Versioned>(text: &str) -> Result<T, ReadError> {
    let bytes = text.len() as u64;
    if bytes > T::BYTES_MAX {
        return Err(ReadError::TooLarge {
            bytes,
            max: T::BYTES_MAX,
        });
    }
    if text.trim().is_empty() {
        return Err(ReadError::Empty);
    }
    let value: Value = serde_json::from_str(text).map_err(|error| ReadError::NotJson {
        detail: error.to_string(),
    })?;
    let Value::Object(fields) = &value else {
        return Err(ReadError::NotAnObject);
    };
    let version = fields.get("version").ok_or(ReadError::NoVersion)?;
    if version.as_u64() != Some(u64::from(T::VERSION)) {
        return Err(ReadError::Version {
            found: quote(&version.to_string()),
            expected: T::VERSION,
        });
    }
    let parsed: T = serde_json::from_value(value).map_err(|error| ReadError::Shape {
        detail: error.to_string(),
    })?;
    parsed
        .check()
        .map_err(|detail| ReadError::Invalid { detail })?;
    Ok(parsed)
}

/// The value saved as `text`, or the default with the reason when `text` is there and cannot be
/// used. A missing value is not an error: it is a first visit.
pub fn restore<T: Versioned + Default>(text: Option<&str>) -> (T, Option<ReadError>) {
    match text.map(parse::<T>) {
        None => (T::default(), None),
        Some(Ok(value)) => (value, None),
        Some(Err(error)) => (T::default(), Some(error)),
    }
}

/// The JSON text of a value, indented so an exported file can be read by a person.
pub fn to_json<T: Versioned>(value: &T) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(value)
}

/// Text from outside, cut short for an error message.
pub fn quote(text: &str) -> String {
    if text.chars().count() <= QUOTE_CHARS_MAX {
        return text.to_string();
    }
    let cut: String = text.chars().take(QUOTE_CHARS_MAX - 1).collect();
    format!("{cut}…")
}
