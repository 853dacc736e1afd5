/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/gloo_timers-5d1a834f2806953b.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-timers-0.3.0/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-timers-0.3.0/src/callback.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libgloo_timers-5d1a834f2806953b.rlib: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-timers-0.3.0/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-timers-0.3.0/src/callback.rs

/work/main/tests/minimal-app/target/wasm32-unknown-unknown/release/deps/libgloo_timers-5d1a834f2806953b.rmeta: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-timers-0.3.0/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-timers-0.3.0/src/callback.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-timers-0.3.0/src/lib.rs:
/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-timers-0.3.0/src/callback.rs:
