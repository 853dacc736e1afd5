/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/futures_sink-57983105cf7d05f8.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-sink-0.3.34/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libfutures_sink-57983105cf7d05f8.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-sink-0.3.34/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libfutures_sink-57983105cf7d05f8.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-sink-0.3.34/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/futures-sink-0.3.34/src/lib.rs:
