pub mod event_card;
pub mod invariants;
pub mod narrative;
pub mod question;
pub mod record_table;
pub mod stepper;
pub mod variant_bar;
