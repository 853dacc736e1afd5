//! The pages, one a route (`app::switch` says which renders where): each page composes the
//! player and the components.

pub mod challenge;
pub mod engine;
pub mod home;
pub mod lesson;
pub mod make_challenge;
pub mod not_found;
pub mod retries;
pub mod sandbox;
pub mod scenario;
