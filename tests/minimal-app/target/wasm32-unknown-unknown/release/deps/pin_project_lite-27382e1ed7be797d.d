/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/pin_project_lite-27382e1ed7be797d.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/pin-project-lite-0.2.18/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libpin_project_lite-27382e1ed7be797d.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/pin-project-lite-0.2.18/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libpin_project_lite-27382e1ed7be797d.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/pin-project-lite-0.2.18/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/pin-project-lite-0.2.18/src/lib.rs:
