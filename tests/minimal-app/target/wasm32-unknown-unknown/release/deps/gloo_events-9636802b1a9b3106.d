/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/gloo_events-9636802b1a9b3106.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-events-0.2.0/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libgloo_events-9636802b1a9b3106.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-events-0.2.0/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libgloo_events-9636802b1a9b3106.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-events-0.2.0/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-events-0.2.0/src/lib.rs:
