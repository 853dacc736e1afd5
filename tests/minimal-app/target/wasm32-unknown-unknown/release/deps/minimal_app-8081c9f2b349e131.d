/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/minimal_app-8081c9f2b349e131.d: src/main.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/minimal_app-8081c9f2b349e131.wasm: src/main.rs

src/main.rs:
