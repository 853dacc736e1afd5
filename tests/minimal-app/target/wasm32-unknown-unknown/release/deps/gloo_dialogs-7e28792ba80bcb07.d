/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/gloo_dialogs-7e28792ba80bcb07.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-dialogs-0.2.0/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libgloo_dialogs-7e28792ba80bcb07.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-dialogs-0.2.0/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libgloo_dialogs-7e28792ba80bcb07.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-dialogs-0.2.0/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-dialogs-0.2.0/src/lib.rs:
