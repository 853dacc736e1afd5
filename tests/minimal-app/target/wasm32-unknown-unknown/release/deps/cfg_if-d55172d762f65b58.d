/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/cfg_if-d55172d762f65b58.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/cfg-if-1.0.5/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libcfg_if-d55172d762f65b58.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/cfg-if-1.0.5/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libcfg_if-d55172d762f65b58.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/cfg-if-1.0.5/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/cfg-if-1.0.5/src/lib.rs:
