/work/main/tests/minimal-app/target/release/deps/gloo_worker_macros-b22bbb275c414144.d: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/oneshot.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/reactor.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/worker_fn.rs

/work/main/tests/minimal-app/target/release/deps/libgloo_worker_macros-b22bbb275c414144.so: /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/lib.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/oneshot.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/reactor.rs /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/worker_fn.rs

/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/lib.rs:
/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/oneshot.rs:
/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/reactor.rs:
/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/gloo-worker-macros-0.1.0/src/worker_fn.rs:
