/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/gloo_render-55cdf40034b6ee12.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-render-0.2.0/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libgloo_render-55cdf40034b6ee12.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-render-0.2.0/src/lib.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libgloo_render-55cdf40034b6ee12.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-render-0.2.0/src/lib.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-render-0.2.0/src/lib.rs:
