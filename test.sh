#!/usr/bin/env bash
# The one test command (README, .ci/run). Installs what it needs, then runs every check.
# Heavy, versioned tools are cached outside the clone under $MCP_CACHE and reused.
set -euo pipefail
cd "$(dirname "$0")"
export MCP_CACHE="${MCP_CACHE:-$HOME/.cache/mcp-context}"
mkdir -p "$MCP_CACHE"
export CARGO_TERM_COLOR=never
FUZZ_SECONDS="${FUZZ_SECONDS:-30}"

step() { printf '\n=== %s ===\n' "$*"; }
started=$(date +%s)

step "format"
cargo fmt --all --check

step "clippy (warnings are errors)"
cargo clippy --workspace --exclude uniffi-bindgen --all-targets -- -D warnings  # the bindgen CLI: minutes to check; built once by scripts/uniffi-gen.sh
cargo clippy -p mcp-context --no-default-features -- -D warnings

step "core tests (default features, then no alloc)"
cargo test -p mcp-context
cargo test -p mcp-context --no-default-features --lib

step "doc tests and docs (missing docs are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc -p mcp-context --no-deps

step "no_std: bare-metal and wasm builds"
if rustup target add thumbv7em-none-eabihf wasm32-unknown-unknown >/dev/null 2>&1; then
  cargo build -p mcp-context --no-default-features --target thumbv7em-none-eabihf
  cargo build -p mcp-context --no-default-features --features alloc --target wasm32-unknown-unknown
else
  echo "rustup could not add the targets; using the host no_std proof only"
fi

step "benches compile"
cargo check -p mcp-context-benches --benches

step "examples build and run"
cargo run -q -p mcp-context-examples --bin templates

# --- Swift binding (bindings-swift/): one step, see scripts/swift-test.sh ---------------
step "swift binding: regenerated sources, Python FFI, C smoke, swift test (XCTest, chroot)"
swift_started=$(date +%s)
scripts/swift-test.sh
echo "swift binding step: $(( $(date +%s) - swift_started )) s"
# --- end Swift binding -------------------------------------------------------------------

echo
echo "all checks passed in $(( $(date +%s) - started )) s"
