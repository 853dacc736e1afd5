//! The first module: the course map and the lessons (see the library's documentation).

fn main() {
    idempotency_lab::run(idempotency_lab::Pages::Lessons);
}
