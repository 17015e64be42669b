#!/usr/bin/env bash
# Builds target/apple/MCPContextFFI.xcframework: the Rust library as one static library per
# Apple platform (macOS universal, iOS device, iOS simulator universal), with the checked-in
# uniffi header and module map. Run on macOS with Xcode and rustup; CI does not run it (no
# Apple toolchain there).
#
# To use it, copy the .xcframework next to bindings-swift/swift/Package.swift: the package
# then uses it as a `binaryTarget` (instead of the pkg-config system library) by itself.
#
# Env: MACOSX_DEPLOYMENT_TARGET (default 11.0), IPHONEOS_DEPLOYMENT_TARGET (default 14.0).
set -euo pipefail
cd "$(dirname "$0")/.."
export MACOSX_DEPLOYMENT_TARGET="${MACOSX_DEPLOYMENT_TARGET:-11.0}"
export IPHONEOS_DEPLOYMENT_TARGET="${IPHONEOS_DEPLOYMENT_TARGET:-14.0}"
TARGET="${CARGO_TARGET_DIR:-target}"
OUT="$TARGET/apple"
LIB=libmcp_context_ffi.a
TRIPLES=(aarch64-apple-darwin x86_64-apple-darwin aarch64-apple-ios aarch64-apple-ios-sim x86_64-apple-ios)

rustup target add "${TRIPLES[@]}"
for triple in "${TRIPLES[@]}"; do
  cargo build --release -p mcp-context-swift --lib --target "$triple"
done

rm -rf "$OUT"
mkdir -p "$OUT/macos" "$OUT/ios" "$OUT/ios-simulator" "$OUT/include"
lipo -create "$TARGET/aarch64-apple-darwin/release/$LIB" "$TARGET/x86_64-apple-darwin/release/$LIB" \
  -output "$OUT/macos/$LIB"
cp "$TARGET/aarch64-apple-ios/release/$LIB" "$OUT/ios/$LIB"
lipo -create "$TARGET/aarch64-apple-ios-sim/release/$LIB" "$TARGET/x86_64-apple-ios/release/$LIB" \
  -output "$OUT/ios-simulator/$LIB"
# The same header and module map the SwiftPM package checks in (scripts/uniffi-gen.sh keeps
# them equal to the generator's output).
cp bindings-swift/swift/Sources/MCPContextFFI/MCPContextFFI.h \
  bindings-swift/swift/Sources/MCPContextFFI/module.modulemap "$OUT/include/"

xcodebuild -create-xcframework \
  -library "$OUT/macos/$LIB" -headers "$OUT/include" \
  -library "$OUT/ios/$LIB" -headers "$OUT/include" \
  -library "$OUT/ios-simulator/$LIB" -headers "$OUT/include" \
  -output "$OUT/MCPContextFFI.xcframework"
echo "built $OUT/MCPContextFFI.xcframework"
