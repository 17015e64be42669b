#!/usr/bin/env bash
# Every check of the Swift binding (bindings-swift/), cheapest first:
#   1. Rust unit tests of the binding crate
#   2. regenerate the uniffi sources and fail if they differ from the checked-in package
#   3. pytest over uniffi's Python backend: the same C ABI, including the RFC 6570 suite
#   4. a C smoke test: the generated header compiled by gcc, calls into the library; then the
#      Linux artifact into dist/ (scripts/dist-swift.sh: static library, pkg-config, install.sh)
#   5. `swift test` (XCTest) of bindings-swift/swift in a Debian 13 chroot with swiftlang 6.0.3
#   6. the package's examples in the same chroot: the Swift stdio client host drives the Rust
#      demo server (built here on the host) and the Swift stdio server, over pipes
#   7. the knowledge-base example (MCPServerHost, in the chroot) driven over stdio by the
#      official Python SDK client (mcp==2.3.0, on the host)
#   8. the kb-script (tests/kb-script/script.py): the same lines to the Rust knowledge base
#      (examples/kb) and the Swift one, identical answers required; test.sh's kb-script step
#      compares the Rust one with Python, Node and wasm, so all five answer alike. Here, under
#      the chroot's lock, so the Swift binary is the one this run built.
# Steps 5-8 need root (chroot, mount); the chroot is built once by scripts/swift-chroot.sh and
# cached under $MCP_CACHE. It has no cargo, rustc or rustup (checked): the package is built
# against the artifact from dist/, unpacked and installed by README.md's Swift install block
# (its install.sh), found through PKG_CONFIG_PATH and linked statically (no LD_LIBRARY_PATH),
# as a Swift user without Rust does. SKIP_SWIFT_CHROOT=1 skips steps 5-8 (and says so).
set -euo pipefail
cd "$(dirname "$0")/.."
export MCP_CACHE="${MCP_CACHE:-$HOME/.cache/mcp-context}"
TARGET="$(cd "${CARGO_TARGET_DIR:-target}" 2>/dev/null && pwd || echo "$PWD/target")"
LIB="$TARGET/debug/libmcp_context_ffi.so"
PYTEST_VERSION=9.2.0

echo "--- swift 1/6: binding crate unit tests"
cargo test -q -p mcp-context-swift --lib

echo "--- swift 2/6: regenerated bindings equal the checked-in ones"
scripts/uniffi-gen.sh --check

# Swift nests block comments: a `/*` inside a generated doc comment (from a Rust doc such as
# "`tools/*`") opens a comment that never closes, and the package stops compiling.
if grep -n '[^[:space:]]/\*' bindings-swift/swift/Sources/MCPContext/MCPContext.swift; then
  echo "swift-test: a '/*' inside a generated doc comment (reword the Rust doc comment)" >&2
  exit 1
fi

echo "--- swift 3/6: Python FFI tests (uniffi Python backend, pytest $PYTEST_VERSION)"
VENV="$MCP_CACHE/pyvenv-pytest-$PYTEST_VERSION"
if ! "$VENV/bin/python" -c "import pytest, sys; sys.exit(pytest.__version__ != '$PYTEST_VERSION')" 2>/dev/null; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q "pytest==$PYTEST_VERSION"
fi
UNIFFI_PY_DIR="$TARGET/uniffi/python" "$VENV/bin/python" -m pytest -q -p no:cacheprovider bindings-swift/tests/python

echo "--- swift 4/6: C smoke test of the generated header"
gcc -std=c11 -Wall -Wextra -Werror -D_Nonnull= -D_Nullable= \
  -I bindings-swift/swift/Sources/MCPContextFFI bindings-swift/tests/c/smoke.c \
  -L "$TARGET/debug" -lmcp_context_ffi -Wl,-rpath,"$TARGET/debug" -o "$TARGET/uniffi/c-smoke"
# Every function the header declares is exported by the library (a Swift link would fail).
declared=$(grep -o '\b\(uniffi\|ffi\)_mcp_context_ffi_[a-z0-9_]*' bindings-swift/swift/Sources/MCPContextFFI/MCPContextFFI.h | sort -u)
missing=$(comm -23 <(echo "$declared") <(nm -D --defined-only "$LIB" | awk '{print $3}' | sort -u))
if [ -n "$missing" ]; then
  echo "swift-test: header functions missing from $LIB:" $missing >&2
  exit 1
fi
echo "c-smoke: all $(echo "$declared" | wc -l) header functions are exported"
"$TARGET/uniffi/c-smoke"

echo "--- swift 4/6 (continued): the Linux artifact into dist/ (steps 5-7 build the package against it)"
scripts/dist-swift.sh
ARTIFACT=$(ls dist/mcp-context-primitives-swift-"$(scripts/version.sh)"-linux-"$(uname -m)".tar.gz)

echo "--- swift 5/6: swift test (XCTest) in the Debian 13 swiftlang chroot"
if [ "${SKIP_SWIFT_CHROOT:-0}" = 1 ]; then
  echo "SKIPPED: SKIP_SWIFT_CHROOT=1 (no Swift compiler ran; the Swift kb-script comparison was skipped)"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  # chroot and mount need root; steps 1-4 above still drove the same FFI symbols.
  echo "SKIPPED: not root, so no chroot: no Swift compiler ran (steps 1-4 passed; the Swift kb-script comparison was skipped)"
  exit 0
fi
# The Rust demo server for step 6 and the Rust knowledge base for step 8 (host binaries: the
# chroot's glibc is newer, so the demo server runs there too).
cargo build -q -p mcp-context-examples --bin demo-server --bin kb-server
CH="$(scripts/swift-chroot.sh)"
# One run at a time per chroot (other clones on this machine share it).
exec 9>"$CH/.swift-test.lock"
flock 9
# Sources are copied with their mtimes (-p) into the chroot at the repo's own layout, so the
# tests find tests/vectors/ by #filePath; SwiftPM's scratch folder persists between runs.
B="$CH/build"
rm -rf "$B/bindings-swift" "$B/tests" "$B/lib" "$B/bin" "$B/target" "$B/dist"
mkdir -p "$B/bindings-swift" "$B/tests/vectors" "$B/dist" "$B/bin"
cp -rp bindings-swift/swift "$B/bindings-swift/"
cp -rp tests/vectors/rfc6570 tests/vectors/mcp "$B/tests/vectors/"
cp -p "$ARTIFACT" "$B/dist/"
cp -p "$TARGET/debug/demo-server" "$B/bin/"
# The README quickstart starts `target/release/demo-server` from the current folder.
mkdir -p "$B/target/release"
cp -p "$TARGET/debug/demo-server" "$B/target/release/"
# The README's Swift quickstart is Examples/Quickstart/main.swift, verbatim.
readme_block=$(awk '/^<!-- swift-quickstart: bindings-swift\/swift\/Examples\/Quickstart\/main.swift -->$/ {m=1; next}
  m==1 && /^```swift$/ {m=2; next} m==2 && /^```$/ {exit} m==2 {print}' README.md)
if [ "$readme_block" != "$(cat bindings-swift/swift/Examples/Quickstart/main.swift)" ]; then
  echo "swift-test: README's Swift quickstart differs from bindings-swift/swift/Examples/Quickstart/main.swift" >&2
  exit 1
fi
# SwiftPM does not relink when a system library changes: a new artifact drops the linked
# products (the compiled modules stay).
sum=$(sha256sum "$ARTIFACT" | cut -c1-64)
if [ "$(cat "$B/.build/.ffi-artifact" 2>/dev/null)" != "$sum" ]; then
  rm -rf "$B/.build/debug/MCPContextPackageTests.xctest"
  find "$B/.build/debug" -maxdepth 1 -type f -perm -u+x -name 'mcp-*' -delete 2>/dev/null || true
fi
mounted=0
node_pid=
legacy_pid=
auth_pid=
protected_pid=
ours_pid=
if ! mountpoint -q "$CH/proc"; then
  mount -t proc proc "$CH/proc"
  mounted=1
fi
cleanup() {
  [ -n "$node_pid" ] && kill "$node_pid" 2>/dev/null
  [ -n "$legacy_pid" ] && kill "$legacy_pid" 2>/dev/null
  [ -n "$auth_pid" ] && kill "$auth_pid" 2>/dev/null
  [ -n "$protected_pid" ] && kill "$protected_pid" 2>/dev/null
  [ -n "$ours_pid" ] && kill "$ours_pid" 2>/dev/null
  [ "$mounted" = 1 ] && umount "$CH/proc"
  return 0
}
trap cleanup EXIT
# The Node example server over Streamable HTTP (its documented command line), for
# MCPClient's HTTP test; it needs the Node binding, built by test.sh's Node step.
NODE_URL=
if [ -f bindings-node/index.js ] && ls bindings-node/*.node >/dev/null 2>&1; then
  node examples/node/server.mjs --kb --http 0 > "$TARGET/uniffi/node-http.log" 2>&1 &
  node_pid=$!
  for _ in $(seq 100); do
    NODE_URL=$(sed -n 's/^listening \(http:[^ ]*\)$/\1/p' "$TARGET/uniffi/node-http.log")
    [ -n "$NODE_URL" ] && break
    sleep 0.1
  done
  if [ -z "$NODE_URL" ]; then
    cat "$TARGET/uniffi/node-http.log" >&2
    echo "swift-test: the Node example server did not start (test.sh's Node step links examples/node_modules/mcp-context-primitives)" >&2
    exit 1
  fi
  echo "swift-test: Node example server at $NODE_URL"
else
  echo "swift-test: no Node binding built (bindings-node/*.node): the HTTP test is skipped"
fi
# The TypeScript SDK 1.x server over Streamable HTTP with sessions, for MCPClient's
# 2025-11-25 session test; its packages are the legacy clients' (test.sh's legacy step).
LEGACY_URL=
LEGACY_TOOLS="$MCP_CACHE/interop-legacy-$(cat tests/interop/legacy/package.json tests/interop/legacy/package-lock.json | sha256sum | cut -c1-12)"
if [ -f "$LEGACY_TOOLS/.complete" ]; then
  cp tests/interop/ts/legacy-server.mjs "$LEGACY_TOOLS/legacy-server-swift.mjs"
  (cd "$LEGACY_TOOLS" && exec node legacy-server-swift.mjs --http) > "$TARGET/uniffi/legacy-http.log" 2>&1 &
  legacy_pid=$!
  for _ in $(seq 100); do
    port=$(sed -n 's/^listening \([0-9]*\)$/\1/p' "$TARGET/uniffi/legacy-http.log")
    [ -n "$port" ] && LEGACY_URL="http://127.0.0.1:$port/mcp" && break
    sleep 0.1
  done
  echo "swift-test: TypeScript SDK 1.x server at ${LEGACY_URL:-(did not start)}"
else
  echo "swift-test: no legacy tools in $LEGACY_TOOLS: the 2025-11-25 session test is skipped"
fi
# The OAuth test's servers: tests/auth-server's authorization server ($MCP_AUTH_PYTHON: a
# Python with starlette, uvicorn and PyJWT, e.g. test.sh's venv) and protected-ts.mjs (the
# TypeScript SDK's bearer middleware; tests/auth-server/node_modules linked by test.sh).
OAUTH_URL=
OAUTH_OURS_URL=
if [ -n "${MCP_AUTH_PYTHON:-}" ] && [ -e tests/auth-server/node_modules ]; then
  "$MCP_AUTH_PYTHON" tests/auth-server/server.py > "$TARGET/uniffi/auth-server.log" 2>&1 &
  auth_pid=$!
  for _ in $(seq 100); do
    issuer=$(sed -n 's/^READY \(http:[^ ]*\)$/\1/p' "$TARGET/uniffi/auth-server.log")
    [ -n "$issuer" ] && break
    sleep 0.1
  done
  node tests/auth-server/protected-ts.mjs "$issuer" > "$TARGET/uniffi/protected-ts.log" 2>&1 &
  protected_pid=$!
  for _ in $(seq 100); do
    OAUTH_URL=$(sed -n 's/^READY \(http:[^ ]*\)$/\1/p' "$TARGET/uniffi/protected-ts.log")
    [ -n "$OAUTH_URL" ] && break
    sleep 0.1
  done
  echo "swift-test: protected server at ${OAUTH_URL:-(did not start)} (authorization server ${issuer:-none})"
  # Our own protected runner (examples/protected-server, axum; built by test.sh's authorization step).
  if [ -x "$TARGET/debug/protected-server" ]; then
    "$TARGET/debug/protected-server" "$issuer" > "$TARGET/uniffi/protected-axum.log" 2>&1 &
    ours_pid=$!
    for _ in $(seq 100); do
      OAUTH_OURS_URL=$(sed -n 's/^READY \(http:[^ ]*\)$/\1/p' "$TARGET/uniffi/protected-axum.log")
      [ -n "$OAUTH_OURS_URL" ] && break
      sleep 0.1
    done
    echo "swift-test: our protected axum runner at ${OAUTH_OURS_URL:-(did not start)}"
  else
    echo "swift-test: no target/debug/protected-server: the Swift client's read from our protected runner is skipped"
  fi
else
  echo "swift-test: MCP_AUTH_PYTHON not set or tests/auth-server/node_modules missing: the OAuth test is skipped"
fi
# No Rust in the chroot. The artifact is installed by README.md's Swift install block, as
# written (in /build/dist, HOME=/root), and the package found through the PKG_CONFIG_PATH it sets.
install_block=$(awk '/^<!-- swift-install -->$/ {m=1; next} m==1 && /^```sh$/ {m=2; next}
  m==2 && /^```$/ {exit} m==2 {print}' README.md)
[ -n "$install_block" ] || { echo "swift-test: README.md has no swift-install block" >&2; exit 1; }
rm -f "$CH/root/.local/lib/libmcp_context_ffi.a" "$CH/root/.local/lib/pkgconfig/mcp-context-ffi.pc"
PCPATH=$(chroot "$CH" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 /bin/sh -ec '
  for t in cargo rustc rustup; do
    if command -v $t; then echo "swift-test: $t is on the chroot PATH" >&2; exit 1; fi
  done
  if ls -d /root/.cargo /root/.rustup 2>/dev/null; then echo "swift-test: a Rust toolchain in the chroot" >&2; exit 1; fi
  cd /build/dist
  '"$install_block"'
  echo "PKG_CONFIG_PATH=$PKG_CONFIG_PATH"' | sed -n 's/^PKG_CONFIG_PATH=//p') || {
  echo "swift-test: README.md's Swift install block failed in the chroot (it names the archive of version $(scripts/version.sh), $(uname -m))" >&2
  exit 1
}
[ -f "$CH${PCPATH%%:*}/mcp-context-ffi.pc" ] || { echo "swift-test: README's install block left no mcp-context-ffi.pc on PKG_CONFIG_PATH ($PCPATH)" >&2; exit 1; }
echo "swift-test: no cargo, rustc or rustup in the chroot; $(basename "$ARTIFACT") installed by README.md's block (PKG_CONFIG_PATH=$PCPATH)"
LOG="$TARGET/uniffi/swift-test.log"
set +e
chroot "$CH" /usr/bin/env -i HOME=/root PATH=/usr/bin:/bin LANG=C.UTF-8 \
  PKG_CONFIG_PATH="$PCPATH" \
  MCP_DEMO_SERVER=/build/bin/demo-server MCP_NODE_HTTP_URL="$NODE_URL" MCP_LEGACY_HTTP_URL="$LEGACY_URL" MCP_OAUTH_URL="$OAUTH_URL" MCP_OAUTH_OURS_URL="$OAUTH_OURS_URL" \
  /bin/sh -c 'cd /build/bindings-swift/swift && timeout 600 swift test --disable-swift-testing --scratch-path /build/.build 2>&1' \
  | tee "$LOG"
rc=${PIPESTATUS[0]}
set -e
# XCTest's closing line is what CI logs are read for; demand it (and no failures).
summary=$(grep -E 'Executed [0-9]+ tests?, with ([0-9]+ tests? skipped and )?[0-9]+ failures?' "$LOG" | tail -n1 || true)
echo "swift-test: ${summary:-no XCTest summary line}"
if [ "$rc" != 0 ] || [ -z "$summary" ] || ! grep -Eq '(with|and) 0 failures' <<<"$summary"; then
  echo "swift-test: FAILED (swift test exit $rc)" >&2
  exit 1
fi
echo "$sum" > "$B/.build/.ffi-artifact"

echo "--- swift 6/6: examples in the chroot: Swift stdio client vs the Rust demo server and the Swift server"
EXLOG="$TARGET/uniffi/swift-examples.log"
set +e
chroot "$CH" /usr/bin/env -i HOME=/root PATH=/usr/bin:/bin LANG=C.UTF-8 \
  PKG_CONFIG_PATH="$PCPATH" \
  /bin/sh -c 'set -e; cd /build/bindings-swift/swift
    swift build --scratch-path /build/.build --product mcp-stdio-client 2>&1 | tail -n 1
    swift build --scratch-path /build/.build --product mcp-stdio-server 2>&1 | tail -n 1
    swift build --scratch-path /build/.build --product mcp-kb-server 2>&1 | tail -n 1
    bin=/build/.build/debug
    echo "> mcp-stdio-client --listen notes://acme/1 --prompt review_note project=acme id=1 -- demo-server --tick-ms 100"
    timeout 120 $bin/mcp-stdio-client --listen notes://acme/1 --prompt review_note project=acme id=1 \
      -- /build/bin/demo-server --tick-ms 100
    echo "> mcp-stdio-client --prompt greet name=swift -- mcp-stdio-server"
    timeout 120 $bin/mcp-stdio-client --prompt greet name=swift -- $bin/mcp-stdio-server
    swift build --scratch-path /build/.build --product mcp-quickstart 2>&1 | tail -n 1
    echo "> (cd /build && mcp-quickstart)   # the README quickstart, as written"
    cd /build && timeout 60 $bin/mcp-quickstart' 2>&1 | tee "$EXLOG"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" != 0 ] || [ "$(grep -c 'mcp-stdio-client: ok' "$EXLOG")" != 2 ] \
  || ! grep -qx 'updated notes://acme/1' "$EXLOG"; then
  echo "swift-test: examples FAILED (exit $rc)" >&2
  exit 1
fi
# Linked statically: no built product needs the Rust library at run time.
for exe in "$B"/.build/debug/mcp-*; do
  [ -f "$exe" ] && [ -x "$exe" ] || continue
  if readelf -d "$exe" | grep -q 'NEEDED.*mcp_context'; then
    echo "swift-test: $(basename "$exe") links the Rust library dynamically" >&2; exit 1
  fi
done
echo "--- swift 7/7: the Swift knowledge-base server (MCPServerHost) driven by the official Python SDK"
INTEROP_VENV="$MCP_CACHE/venv-interop-mcp-2.3.0-pytest-9.2.0"
if [ ! -f "$INTEROP_VENV/.ready" ]; then
  rm -rf "$INTEROP_VENV"
  python3 -m venv "$INTEROP_VENV"
  "$INTEROP_VENV/bin/pip" install -q --disable-pip-version-check mcp==2.3.0 pytest==9.2.0
  touch "$INTEROP_VENV/.ready"
fi
KB_SERVER="chroot $CH /usr/bin/env -i PATH=/usr/bin:/bin LANG=C.UTF-8 /build/.build/debug/mcp-kb-server" \
  "$INTEROP_VENV/bin/python" -m pytest -q -p no:cacheprovider bindings-swift/tests/interop
echo "--- swift 8/8: kb-script: the Swift knowledge base answers as the Rust one"
python3 tests/kb-script/script.py "rust=$TARGET/debug/kb-server" \
  "swift=chroot $CH /usr/bin/env -i PATH=/usr/bin:/bin LANG=C.UTF-8 /build/.build/debug/mcp-kb-server"
# The XCTest count is the run's closing line.
echo "swift-test: $summary"
