/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/console_error_panic_hook-ca0915cac0243516.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/console_error_panic_hook-0.1.7/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libconsole_error_panic_hook-ca0915cac0243516.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/console_error_panic_hook-0.1.7/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libconsole_error_panic_hook-ca0915cac0243516.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/console_error_panic_hook-0.1.7/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/console_error_panic_hook-0.1.7/src/lib.rs:
