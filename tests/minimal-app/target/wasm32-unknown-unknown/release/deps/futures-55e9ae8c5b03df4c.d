/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/futures-55e9ae8c5b03df4c.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-0.3.34/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libfutures-55e9ae8c5b03df4c.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-0.3.34/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libfutures-55e9ae8c5b03df4c.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-0.3.34/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-0.3.34/src/lib.rs:
