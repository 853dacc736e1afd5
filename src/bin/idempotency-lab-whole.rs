//! The whole app, every page: loaded when an address needs a page the first module does not hold
//! (see the library's documentation).

fn main() {
    idempotency_lab::run(idempotency_lab::Pages::Whole);
}
