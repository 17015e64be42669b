# Sourced by ./bench.sh (`--only offcost`): what telemetry and middleware cost when they are
# off (issue 32: "reads/s with telemetry off stay within the noise of today's"). The same
# knowledge base of each runner, built from the commit before observations existed and from
# this tree, driven in the same run by the same clients (stdio and HTTP), rounds interleaved.
#
# BEFORE (default: db3c6d2, the last commit before `core/src/observe`) is exported with
# `git archive` (the clone needs that history) into $MCP_CACHE/bench-before-<sha>, built once in
# release (kb-server, the napi addon, a wheel in a venv of its own) and kept.
# Then the cost when on, over HTTP (stdio: docs/operations.md "Cost"): each runner off against
# on (OpenTelemetry spans and metrics on the SDK, exporting to memory), same run.
# Uses bench.sh's BENCH, NODE, PY, PY_PINS, KB_RUST, KB_LINE, KB_URI, KB_EXPECT, http_table, log.

BEFORE="${BEFORE:-db3c6d21e9298dab115fb09da9b33cfe5bd55cad}"
BEFORE_SHA=$(git rev-parse --verify "$BEFORE^{commit}")
OLD="$MCP_CACHE/bench-before-${BEFORE_SHA:0:12}"
if [ ! -f "$OLD/.built" ]; then
  log "offcost: building ${BEFORE_SHA:0:12} (release) into $OLD…"
  if [ ! -d "$OLD/src" ]; then
    mkdir -p "$OLD/src.part"
    git archive "$BEFORE_SHA" | tar -x -C "$OLD/src.part"
    mv "$OLD/src.part" "$OLD/src"
  fi
  (cd "$OLD/src" && cargo build -q --release -p mcp-context-examples --bin kb-server)
  (
    cd "$OLD/src/bindings-node"
    [ -d node_modules ] || npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
    npm run --silent build >/dev/null
  )
  [ -x "$OLD/venv/bin/maturin" ] || {
    python3 -m venv "$OLD/venv"
    "$OLD/venv/bin/pip" install -q --disable-pip-version-check $PY_PINS
  }
  # --no-build-isolation: the venv's maturin builds the wheel (on PATH for pip's backend)
  PATH="$OLD/venv/bin:$PATH" "$OLD/venv/bin/pip" install -q --disable-pip-version-check \
    --no-build-isolation --no-deps "$OLD/src/bindings-python"
  touch "$OLD/.built"
fi
# Today's HTTP harness on the old packages (its imports are relative: the old tree's).
mkdir -p "$OLD/src/benches/run"
cp benches/run/node-http.mjs "$OLD/src/benches/run/node-http.mjs"
ln -sfn "$NODE_TOOLS/node_modules" "$OLD/src/examples/node/node_modules"
mkdir -p "$OLD/src/examples/node_modules"
ln -sfn ../../bindings-node "$OLD/src/examples/node_modules/mcp-context-primitives"

echo "## Telemetry and middleware off: this tree against ${BEFORE_SHA:0:12} (before observations)"
echo
"$BENCH" stdio --seconds "$SECS" --rounds "$ROUNDS" --tsv "$RESULTS" \
  --line "$KB_LINE" --expect "$KB_EXPECT" \
  "Rust kb-server, before=$OLD/src/target/release/kb-server" \
  "Rust kb-server, now=$KB_RUST" \
  "Node McpServer (napi), before=$NODE $OLD/src/examples/node/kb.mjs" \
  "Node McpServer (napi), now=$NODE examples/node/kb.mjs" \
  "Python App, before=$OLD/venv/bin/python $OLD/src/examples/python/kb_server.py" \
  "Python App, now=$PY examples/python/kb_server.py"
echo
http_table "Knowledge base over HTTP, off" "$KB_URI" "$KB_EXPECT" \
  "Rust kb-server (axum), before" "$OLD/src/target/release/kb-server --http {port}" \
  "Rust kb-server (axum), now" "$KB_RUST --http {port}" \
  "Node serveHttp (napi), before" "$NODE $OLD/src/benches/run/node-http.mjs napi {port}" \
  "Node serveHttp (napi), now" "$NODE benches/run/node-http.mjs napi {port}" \
  "Python App ASGI (uvicorn), before" "$OLD/venv/bin/python $OLD/src/examples/python/kb_server.py --http {port}" \
  "Python App ASGI (uvicorn), now" "$PY examples/python/kb_server.py --http {port}"
echo "| runner | transport | now / before |"
echo "| --- | --- | ---: |"
for pair in "Rust kb-server|stdio" "Node McpServer (napi)|stdio" "Python App|stdio" \
  "Rust kb-server (axum)|HTTP" "Node serveHttp (napi)|HTTP" "Python App ASGI (uvicorn)|HTTP"; do
  name=${pair%|*}
  a=$(rate_of "$name, now"); b=$(rate_of "$name, before")
  printf '| %s | %s | %s |\n' "$name" "${pair#*|}" "$(python3 -c "print(f'{$a / $b:.2f}')")"
done
echo

# ---- on against off, over HTTP ----------------------------------------------------------------
cargo build -q --release -p mcp-context-primitives-host --example telemetry_cost
. scripts/otel-node.sh
OTEL_PY_PIN="opentelemetry-sdk==1.45.2" # test.sh's pin
"$PY" -c 'import opentelemetry.sdk' 2>/dev/null \
  || "$PY" -m pip install -q --disable-pip-version-check "$OTEL_PY_PIN"
http_table "Telemetry on over HTTP (Rust: a template read, host/examples/telemetry_cost.rs)" "note://1" "hello" \
  "Rust host (axum), telemetry off" "$PWD/target/release/examples/telemetry_cost serve-http {port} off" \
  "Rust host (axum), telemetry on" "$PWD/target/release/examples/telemetry_cost serve-http {port} on"
http_table "Telemetry on over HTTP (the knowledge base)" "$KB_URI" "$KB_EXPECT" \
  "Node serveHttp (napi), telemetry off" "$NODE benches/run/node-otel-http.mjs off {port}" \
  "Node serveHttp (napi), telemetry on" "$NODE benches/run/node-otel-http.mjs on {port}" \
  "Python App ASGI (uvicorn), telemetry off" "$PY examples/python/kb_server.py --http {port}" \
  "Python App ASGI (uvicorn), telemetry on" "$PY benches/run/py-otel-http.py {port}"
echo "| runner | on / off (HTTP) |"
echo "| --- | ---: |"
for name in "Rust host (axum)" "Node serveHttp (napi)" "Python App ASGI (uvicorn)"; do
  a=$(rate_of "$name, telemetry on"); b=$(rate_of "$name, telemetry off")
  printf '| %s | %s |\n' "$name" "$(python3 -c "print(f'{$a / $b:.2f}')")"
done
echo
