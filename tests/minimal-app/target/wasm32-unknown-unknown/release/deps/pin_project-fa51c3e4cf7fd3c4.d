/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/pin_project-fa51c3e4cf7fd3c4.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/pin-project-1.2.0/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libpin_project-fa51c3e4cf7fd3c4.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/pin-project-1.2.0/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libpin_project-fa51c3e4cf7fd3c4.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/pin-project-1.2.0/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/pin-project-1.2.0/src/lib.rs:
