/work/main/tests/minimal-app/target/release/deps/implicit_clone_derive-dc7b62f23c5cfd40.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/implicit-clone-derive-0.1.2/src/lib.rs

/work/main/tests/minimal-app/target/release/deps/libimplicit_clone_derive-dc7b62f23c5cfd40.so: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/implicit-clone-derive-0.1.2/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/implicit-clone-derive-0.1.2/src/lib.rs:
