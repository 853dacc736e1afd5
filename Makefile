# Idempotency Lab. Two commands matter: `make serve` and `make test`. Both install what is
# missing first (scripts/setup.sh), quickly when everything is there.

SHELL := /bin/bash
export PATH := $(CURDIR)/tests/browser/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)
# Trunk must never download a tool: it finds wasm-bindgen and wasm-opt on PATH.
export TRUNK_SKIP_VERSION_CHECK := true
WASM := --target wasm32-unknown-unknown
PUBLIC_URL ?= /

.PHONY: setup setup-build serve serve-dist build build-subpath subpath bench-site test check lint structure test-native test-browser lessons bench screenshot clean

setup:
	@scripts/setup.sh all

setup-build:
	@scripts/setup.sh build

## Serve the app with live reload on http://127.0.0.1:8080
serve: setup-build
	trunk serve

## Build dist/ for a static host; PUBLIC_URL=/sub/path/ for a sub-path. Then its
## Content-Security-Policy (hashes of the inline loader) and precompressed .gz/.br files.
build: setup-build
	trunk build --release --public-url $(PUBLIC_URL)
	node scripts/postbuild.mjs dist

## The same site built for a sub-path, in test-output/subpath/: the browser tests open it there
## (tests/browser/subpath.test.js). `subpath` builds it only when dist/ is newer.
SUBPATH := test-output/subpath
build-subpath: setup-build
	trunk build --release --public-url /sub/path/ --dist $(SUBPATH)
	node scripts/postbuild.mjs $(SUBPATH)

subpath:
	@if [ ! -f $(SUBPATH)/index.html ] || [ dist/index.html -nt $(SUBPATH)/index.html ]; then $(MAKE) --no-print-directory build-subpath; fi

## Serve the built dist/ as a static host would, compressed, on http://127.0.0.1:8081
serve-dist:
	@test -f dist/index.html || $(MAKE) build
	node scripts/serve-dist.mjs dist 8081

## Everything CI runs.
test: setup lint structure test-native build test-browser
	@echo "make test: all checks passed"

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy $(WASM) -p idempotency-lab -p lab-engine -p lab-course -p lab-worker -- -D warnings

## No import cycle between the files of a crate (scripts/structure.mjs, and its own tests).
structure:
	node --test --test-reporter=spec --test-reporter-destination=stdout scripts/structure.test.mjs
	node scripts/structure.mjs

test-native:
	cargo test --workspace
	cargo run --quiet -p lab -- check lessons
	cargo run --quiet -p lab -- coverage lessons/coverage.toml

test-browser: subpath
	cd tests/browser && node --test --test-concurrency=1 --test-reporter=spec --test-reporter-destination=stdout

## Check the lessons only.
lessons:
	cargo run --quiet -p lab -- check lessons

## Figures, natively and in Chromium (wasm): events/s at three sizes, seeks, the explorer; then
## the site's size, first paint and Lighthouse scores beside a minimal Yew app built the same way.
bench: setup build bench-site
	cargo bench -p lab-engine --bench engine
	cargo bench -p lab-engine --bench explore
	cd tests/browser && BENCH_NATIVE_CMD="cargo bench -q -p lab-engine --bench explore" node bench-wasm.js
	@cargo build --release -q -p lab
	@for records in 100 1000 10000; do \
	  target/release/lab generate --records $$records > target/batch-$$records.toml; \
	  if [ -x /usr/bin/time ]; then \
	    /usr/bin/time -f "lab run, $$records records: %e s, peak memory %M KB" target/release/lab run target/batch-$$records.toml > /dev/null; \
	  else echo "lab run, $$records records: install Debian's time package to measure its peak memory"; fi; \
	done

## The site's figures only (after make build): sizes (each module and its parts), first paint and
## the bytes before it, Lighthouse, the explorer in its worker, the sandbox at 10,000 records;
## a challenge link's length and the time from opening it to a working board.
bench-site: setup
	cd tests/minimal-app && trunk build --release
	node scripts/postbuild.mjs tests/minimal-app/dist
	cd tests/floor-app && trunk build --release
	node scripts/postbuild.mjs tests/floor-app/dist
	cd tests/floor-app && trunk build --release --features first-module --dist dist-first
	node scripts/postbuild.mjs tests/floor-app/dist-first
	cd tests/browser && node bench-site.js && node bench-challenge.js

## Regenerates docs/screenshot.png (the README's picture) from the built dist/.
screenshot: setup
	@test -f dist/index.html || $(MAKE) build
	node scripts/screenshot.mjs

clean:
	cargo clean
	rm -rf dist test-output tests/minimal-app/dist tests/floor-app/dist tests/floor-app/dist-first
