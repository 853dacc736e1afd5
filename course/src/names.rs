//! The engine's enums by the names their serde form gives them (`"lose_reply"`,
//! `"journal.get"`, `"one_effect"`): the one lookup that the lesson checker, `lab`'s options and
//! the app's forms share, so each name is written once, in the engine's declaration.

use serde::de::DeserializeOwned;
use serde::Serialize;

/// The value of `T` called `name`; else a message that names `what` was asked for and every
/// name there is: `no fault is called "lose"; known: lose_request, lose_reply, ..`.
pub fn by_name<T: DeserializeOwned>(what: &str, name: &str) -> Result<T, String> {
    serde_json::from_value(serde_json::Value::String(name.to_string())).map_err(|error| {
        // serde says "unknown variant `x`, expected one of `a`, `b`" (or "expected `a`").
        let error = error.to_string();
        let known = error
            .split_once("expected ")
            .map(|(_, known)| known.trim_start_matches("one of ").replace('`', ""))
            .map(|known| {
                known
                    .split(" at line")
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .unwrap_or(error);
        format!("no {what} is called \"{name}\"; known: {known}")
    })
}

/// The name of `value`, as a lesson file, a link and `lab` write it.
pub fn name_of<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(name)) => name,
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use lab_engine::{Action, FaultKind, Invariant, WorkflowKind};

    use super::*;

    #[test]
    fn every_name_reads_back() {
        for invariant in Invariant::ALL {
            assert_eq!(
                by_name::<Invariant>("invariant", invariant.id()),
                Ok(invariant)
            );
            assert_eq!(name_of(&invariant), invariant.id());
        }
        for action in Action::ALL {
            assert_eq!(by_name::<Action>("action", action.name()), Ok(action));
        }
        for workflow in WorkflowKind::ALL {
            assert_eq!(
                by_name::<WorkflowKind>("workflow", workflow.name()),
                Ok(workflow)
            );
        }
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let message = by_name::<FaultKind>("fault", "lose").unwrap_err();
        assert!(
            message.starts_with("no fault is called \"lose\"; known: "),
            "{message}"
        );
        assert!(message.contains("lose_reply, "), "{message}");
        assert!(!message.contains('`'), "{message}");
        assert!(!message.contains("line"), "{message}");
    }
}
