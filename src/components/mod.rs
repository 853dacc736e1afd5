//! The panels and form fields of the lab, one component a file: each a view of a trace, of a
//! part of the lesson, or of a form the sandbox edits.

pub mod board;
pub mod code_panel;
pub mod compare;
pub mod completion;
pub mod design_bar;
pub mod event_card;
pub mod fields;
pub mod hunt;
pub mod invariants;
pub mod narrative;
pub mod progress_io;
pub mod question;
pub mod record_table;
pub mod rich;
pub mod scenario_form;
pub mod scenario_text;
pub mod sequence_diagram;
pub mod settings;
pub mod share;
pub mod stepper;
pub mod switches;
pub mod task;
pub mod waiting;
