/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/futures_io-1b1463b77e73bc38.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-io-0.3.34/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libfutures_io-1b1463b77e73bc38.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-io-0.3.34/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libfutures_io-1b1463b77e73bc38.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-io-0.3.34/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-io-0.3.34/src/lib.rs:
