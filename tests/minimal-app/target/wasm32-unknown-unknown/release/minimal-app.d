/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/minimal-app.wasm: /work/main/tests/minimal-app/src/main.rs
