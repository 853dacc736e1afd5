/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/equivalent-5e62f0248c879964.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/equivalent-1.0.3/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libequivalent-5e62f0248c879964.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/equivalent-1.0.3/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libequivalent-5e62f0248c879964.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/equivalent-1.0.3/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/equivalent-1.0.3/src/lib.rs:
