/work/main/tests/minimal-app/target/release/deps/wasm_bindgen_macro-e8f469cbd36533d8.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/wasm-bindgen-macro-0.2.130/src/lib.rs

/work/main/tests/minimal-app/target/release/deps/libwasm_bindgen_macro-e8f469cbd36533d8.so: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/wasm-bindgen-macro-0.2.130/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/wasm-bindgen-macro-0.2.130/src/lib.rs:
