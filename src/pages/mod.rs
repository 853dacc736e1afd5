//! The pages, one a route (`app::switch` says which renders where; the first module holds the map's and the lessons', and
//! `whole` in place of the others): each page composes the
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
pub mod whole;
