#!/usr/bin/env bash
# Builds the WebAssembly engine into bindings-node/wasm/pkg (committed: installs need no
# compiler): bindings-node/wasm for wasm32-unknown-unknown (profile `wasm`: small), then the
# JS glue with wasm-bindgen-cli, which must match the crate's wasm-bindgen version.
# Paths are remapped so the module does not depend on where the sources sit.
# Usage: bindings-node/wasm/build.sh WASM_BINDGEN   (the wasm-bindgen binary)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
wasm_bindgen="$1"
cd "$root"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--remap-path-prefix=$root=/mcp-context --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo" \
  cargo build -p mcp-context-wasm --target wasm32-unknown-unknown --profile wasm
"$wasm_bindgen" --target web --no-typescript --out-dir bindings-node/wasm/pkg \
  target/wasm32-unknown-unknown/wasm/mcp_context_wasm.wasm
