/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/gloo-81a59251bac5b52e.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-0.11.0/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libgloo-81a59251bac5b52e.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-0.11.0/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libgloo-81a59251bac5b52e.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-0.11.0/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-0.11.0/src/lib.rs:
