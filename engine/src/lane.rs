//! The lanes of the sequence diagram: one per worker, and one per place a workflow calls.

use serde::{Deserialize, Serialize};

/// One column of the sequence diagram.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lane {
    /// Stable id used by messages: "worker-1", "journal", "provider", "database", "tracker",
    /// "email", "model".
    pub id: String,
    /// What the diagram writes at the top.
    pub label: String,
    pub kind: LaneKind,
}

/// What a lane stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LaneKind {
    Worker,
    Journal,
    Provider,
    Database,
    Tracker,
    Sink,
    Model,
    /// A single number kept outside the database (an external progress counter).
    Counter,
}
