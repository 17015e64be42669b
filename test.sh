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
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p mcp-context --no-default-features -- -D warnings

step "core tests (default features, then no alloc)"
cargo test -p mcp-context
cargo test -p mcp-context --no-default-features --lib

# ---- message layer: every message the core tests emitted is valid against the schema ----
step "emitted messages validate against schema 2026-07-28 (jsonschema, Draft 2020-12)"
SCHEMA_VENV="$MCP_CACHE/venv-schema-$(sha256sum tests/schema/requirements.txt | cut -c1-12)"
if [ ! -f "$SCHEMA_VENV/.complete" ]; then
  rm -rf "$SCHEMA_VENV"
  python3 -m venv "$SCHEMA_VENV"
  "$SCHEMA_VENV/bin/pip" install -q --disable-pip-version-check -r tests/schema/requirements.txt
  touch "$SCHEMA_VENV/.complete"
fi
"$SCHEMA_VENV/bin/python" tests/schema/validate_emitted.py \
  tests/vectors/mcp/2026-07-28/schema.json target/emitted
# ---- end of message layer step ----

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

echo
echo "all checks passed in $(( $(date +%s) - started )) s"
