#!/usr/bin/env bash
# Installs what the build and the tests need, and nothing that is already there.
# Idempotent: a second run only checks versions (a few seconds).
#   scripts/setup.sh          everything (build + browser tests)
#   scripts/setup.sh build    only what building and serving the app needs (Chromium included:
#                             the build prerenders the course map with it)
set -euo pipefail
cd "$(dirname "$0")/.."

want="${1:-all}"
TRUNK_VERSION="0.21.14"
# wasm-bindgen-cli must match the wasm-bindgen crate in Cargo.lock exactly.
WASM_BINDGEN_VERSION="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"

say() { printf '\033[1msetup:\033[0m %s\n' "$*"; }

cargo_install() { # crate version binary
  local crate="$1" version="$2" binary="$3"
  if command -v "$binary" >/dev/null 2>&1 && "$binary" --version 2>/dev/null | grep -q "$version"; then
    return
  fi
  say "installing $crate $version with cargo (several minutes, once)"
  # --locked first; the registry here can lack a pinned dependency, then resolve afresh.
  cargo install "$crate" --version "$version" --locked \
    || cargo install "$crate" --version "$version"
}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy rustfmt

cargo fetch --quiet  # Trunk builds with --offline (Trunk.toml), so every crate must be here first
cargo_install trunk "$TRUNK_VERSION" trunk
cargo_install wasm-bindgen-cli "$WASM_BINDGEN_VERSION" wasm-bindgen

# npm packages (binaryen's wasm-opt for Trunk, playwright-core for the browser tests), from the
# committed lock file. Reinstalled only when the lock file changes.
stamp=tests/browser/node_modules/.installed-lock
if [ ! -f "$stamp" ] || ! cmp -s tests/browser/package-lock.json "$stamp"; then
  say "installing npm packages from tests/browser/package-lock.json"
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
  cp tests/browser/package-lock.json "$stamp"
fi

# The build needs Chromium too: scripts/postbuild.mjs prerenders the course map with it.
if ! command -v chromium >/dev/null 2>&1 || { [ "$want" = "all" ] && ! command -v chromedriver >/dev/null 2>&1; }; then
  say "installing Debian's chromium and chromium-driver"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

say "ready: $(trunk --version), wasm-bindgen $(wasm-bindgen --version | awk '{print $2}'), wasm-opt $(tests/browser/node_modules/.bin/wasm-opt --version | awk '{print $3}')$( [ "$want" = all ] && printf ', %s' "$(chromium --version 2>/dev/null)")"
