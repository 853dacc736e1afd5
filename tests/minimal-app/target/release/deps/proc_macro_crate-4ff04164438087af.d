/work/main/tests/minimal-app/target/release/deps/proc_macro_crate-4ff04164438087af.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/proc-macro-crate-1.3.1/src/lib.rs

/work/main/tests/minimal-app/target/release/deps/libproc_macro_crate-4ff04164438087af.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/proc-macro-crate-1.3.1/src/lib.rs

/work/main/tests/minimal-app/target/release/deps/libproc_macro_crate-4ff04164438087af.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/proc-macro-crate-1.3.1/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/proc-macro-crate-1.3.1/src/lib.rs:
