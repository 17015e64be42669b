#!/usr/bin/env bash
# The Swift package's Linux artifact into dist/: the Rust library (static, release) with its
# pkg-config file and bindings-swift/install-linux.sh, as
#   dist/mcp-context-primitives-swift-<version>-linux-<arch>.tar.gz
# A Swift user unpacks it, runs ./install.sh [PREFIX], sets PKG_CONFIG_PATH, and builds the
# package (bindings-swift/swift) with no Rust toolchain and no LD_LIBRARY_PATH (static link).
# The Apple XCFramework is built by bindings-swift/build-apple.sh in the release workflow.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(scripts/version.sh)
arch=$(uname -m)
cargo build -q --release -p mcp-context-swift --lib
name="mcp-context-primitives-swift-$version-linux-$arch"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/lib/pkgconfig"
cp target/release/libmcp_context_ffi.a "$stage/$name/lib/"
strip --strip-debug "$stage/$name/lib/libmcp_context_ffi.a" 2>/dev/null || true
cp bindings-swift/install-linux.sh "$stage/$name/install.sh"
# The native libraries a Rust static library needs on glibc (rustc --print native-static-libs).
cat > "$stage/$name/lib/pkgconfig/mcp-context-ffi.pc" <<PC
prefix=/usr/local
libdir=\${prefix}/lib

Name: mcp-context-ffi
Description: mcp-context core for Swift (uniffi C ABI), static
Version: $version
Libs: -L\${libdir} -lmcp_context_ffi -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
Cflags:
PC
mkdir -p dist
rm -f dist/mcp-context-primitives-swift-*-linux-"$arch".tar.gz
tar -C "$stage" -czf "dist/$name.tar.gz" "$name"
printf '%-90s %9d B\n' "dist/$name.tar.gz" "$(stat -c %s "dist/$name.tar.gz")"
# The artifact as a user gets it: unpacked, installed into a fresh prefix by its script, then
# linked through pkg-config alone (static: no LD_LIBRARY_PATH) by the C smoke test of the
# generated header (the calls the Swift package makes). `swift build` against it runs in
# the release workflow and in scripts/swift-test.sh's chroot.
check=$(mktemp -d)
tar -C "$check" -xzf "dist/$name.tar.gz"
"$check/$name/install.sh" "$check/prefix" >/dev/null
PKG_CONFIG_PATH="$check/prefix/lib/pkgconfig" pkg-config --exists mcp-context-ffi
# shellcheck disable=SC2046
gcc -std=c11 -Wall -Wextra -Werror -D_Nonnull= -D_Nullable= \
  -I bindings-swift/swift/Sources/MCPContextFFI bindings-swift/tests/c/smoke.c \
  $(PKG_CONFIG_PATH="$check/prefix/lib/pkgconfig" pkg-config --libs mcp-context-ffi) -o "$check/smoke"
if readelf -d "$check/smoke" | grep -q 'NEEDED.*mcp_context'; then
  echo "dist-swift: the smoke test linked the library dynamically" >&2; exit 1
fi
"$check/smoke"
rm -rf "$check"
