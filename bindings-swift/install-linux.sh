#!/bin/sh
# Installs the prebuilt Rust library of the Swift package MCPContext on Linux, from the
# artifact this script ships in (mcp-context-primitives-swift-<version>-linux-<arch>.tar.gz):
# a static library and its pkg-config file; no Rust toolchain needed.
#   ./install.sh [PREFIX]       (default ~/.local)
# Then build the package with PKG_CONFIG_PATH=PREFIX/lib/pkgconfig (printed at the end).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${1:-$HOME/.local}
mkdir -p "$prefix/lib/pkgconfig"
cp "$here/lib/libmcp_context_ffi.a" "$prefix/lib/"
sed "s|^prefix=.*|prefix=$prefix|" "$here/lib/pkgconfig/mcp-context-ffi.pc" > "$prefix/lib/pkgconfig/mcp-context-ffi.pc"
echo "installed libmcp_context_ffi.a into $prefix/lib"
echo "export PKG_CONFIG_PATH=$prefix/lib/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}"
