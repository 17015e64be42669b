#!/usr/bin/env bash
# Regenerates the uniffi bindings of bindings-swift from the built library and compares them
# with the checked-in Swift package sources (or rewrites those).
#
# Usage: scripts/uniffi-gen.sh [--check | --write]      (default: --check)
#   --check  exit 1 if the generated Swift, header or module map differ from what is checked in
#   --write  copy the generated files into bindings-swift/swift/ (after an API change)
# Always leaves the fresh output in $TARGET/uniffi/{swift,python}; the Python folder also gets
# the cdylib, so `import mcp_context_ffi` works from there.
#
# The uniffi-bindgen CLI takes minutes to compile, so it is built once per machine and cached
# outside the clone, keyed on its version: $MCP_CACHE/uniffi-bindgen-<version>.
set -euo pipefail
cd "$(dirname "$0")/.."
MODE="${1:---check}"
case "$MODE" in --check | --write) ;; *) echo "usage: $0 [--check|--write]" >&2; exit 2 ;; esac
MCP_CACHE="${MCP_CACHE:-$HOME/.cache/mcp-context}"
TARGET="${CARGO_TARGET_DIR:-target}"

# The library and the generator must use the same uniffi (contract version + checksums).
UNIFFI_VERSION=0.32.2
for manifest in bindings-swift/Cargo.toml uniffi-bindgen/Cargo.toml; do
  grep -q "^uniffi = { version = \"=$UNIFFI_VERSION\"" "$manifest" \
    || { echo "uniffi-gen: $manifest does not pin uniffi =$UNIFFI_VERSION" >&2; exit 1; }
done
BINDGEN_ROOT="$MCP_CACHE/uniffi-bindgen-$UNIFFI_VERSION"
BINDGEN="$BINDGEN_ROOT/bin/uniffi-bindgen"
if ! "$BINDGEN" --version 2>/dev/null | grep -qx "uniffi-bindgen $UNIFFI_VERSION"; then
  echo "uniffi-gen: building uniffi-bindgen $UNIFFI_VERSION once into $BINDGEN_ROOT (a few minutes)"
  cargo install --locked --debug --path uniffi-bindgen --root "$BINDGEN_ROOT"
fi

cargo build -p mcp-context-swift
case "$(uname -s)" in Darwin) LIB="$TARGET/debug/libmcp_context_ffi.dylib" ;; *) LIB="$TARGET/debug/libmcp_context_ffi.so" ;; esac
OUT="$TARGET/uniffi"
rm -rf "$OUT"
"$BINDGEN" generate -n -l swift -o "$OUT/swift" "$LIB" >/dev/null
"$BINDGEN" generate -n -l python -o "$OUT/python" "$LIB" >/dev/null
# Swift error enums' cases in lowerCamelCase, like every other enum (see the script).
python3 scripts/swift-error-cases.py "$OUT/swift/MCPContext.swift"
cp "$LIB" "$OUT/python/"

# generated file -> checked-in path (SwiftPM wants the module map named module.modulemap)
PKG=bindings-swift/swift/Sources
pairs=(
  "$OUT/swift/MCPContext.swift" "$PKG/MCPContext/MCPContext.swift"
  "$OUT/swift/MCPContextFFI.h" "$PKG/MCPContextFFI/MCPContextFFI.h"
  "$OUT/swift/MCPContextFFI.modulemap" "$PKG/MCPContextFFI/module.modulemap"
)
status=0
for ((i = 0; i < ${#pairs[@]}; i += 2)); do
  generated="${pairs[i]}" checked_in="${pairs[i + 1]}"
  if [ "$MODE" = --write ]; then
    cp "$generated" "$checked_in"
  elif ! diff -u "$checked_in" "$generated" >&2; then
    status=1
  fi
done
if [ "$status" != 0 ]; then
  echo "uniffi-gen: the checked-in bindings are stale; run scripts/uniffi-gen.sh --write and commit" >&2
  exit 1
fi
echo "uniffi-gen: bindings $([ "$MODE" = --write ] && echo written || echo up to date) ($OUT)"
