/work/main/tests/minimal-app/target/release/deps/equivalent-823afb38ac5753ed.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/equivalent-1.0.3/src/lib.rs

/work/main/tests/minimal-app/target/release/deps/libequivalent-823afb38ac5753ed.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/equivalent-1.0.3/src/lib.rs

/work/main/tests/minimal-app/target/release/deps/libequivalent-823afb38ac5753ed.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/equivalent-1.0.3/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/equivalent-1.0.3/src/lib.rs:
