/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/wasm_bindgen_futures-3c15373af41b243d.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/wasm-bindgen-futures-0.4.80/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libwasm_bindgen_futures-3c15373af41b243d.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/wasm-bindgen-futures-0.4.80/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libwasm_bindgen_futures-3c15373af41b243d.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/wasm-bindgen-futures-0.4.80/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/wasm-bindgen-futures-0.4.80/src/lib.rs:
