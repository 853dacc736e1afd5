pub mod engine;
pub mod home;
pub mod lesson;
pub mod not_found;
pub mod retries;
pub mod sandbox;
pub mod scenario;
