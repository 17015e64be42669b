#!/usr/bin/env bash
# Prints a pkg-config file for the Rust library in DIR (default target/release), so the Swift
# package's system-library target finds it as `mcp-context-ffi`:
#   bindings-swift/write-pc.sh target/release > "$PKG_CONFIG_DIR/mcp-context-ffi.pc"
set -euo pipefail
dir="$(cd "${1:-target/release}" && pwd)"
cat <<PC
libdir=$dir

Name: mcp-context-ffi
Description: mcp-context core for Swift (uniffi C ABI)
Version: 0.1.0
Libs: -L\${libdir} -lmcp_context_ffi
Cflags:
PC
