/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/fnv-da149d9185e61003.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/fnv-1.0.7/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libfnv-da149d9185e61003.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/fnv-1.0.7/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libfnv-da149d9185e61003.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/fnv-1.0.7/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/fnv-1.0.7/lib.rs:
