#!/usr/bin/env bash
# Open listens: server memory per open `subscriptions/listen` (HTTP, one connection each,
# resident memory of the server process) and the delay of one update fanned out to all of
# them, for each runner and the official TypeScript SDK, in one run.
#
#   benches/listens/run.sh [--n 10000] [--servers rust,node,python,sdk] [--table]
#
# One JSON line per server (or, with --table, one Markdown row). The load client is
# `listen-load` (Rust, raw tokio sockets); see benches/listens/src/bin/listen-load.rs.
# Servers that cannot start here are skipped with a note on stderr:
#   node    bindings-node (the napi addon when built, else the wasm engine), $MCP_NODE or node
#   python  the mcp_context package importable by $MCP_PYTHON (default python3)
#   sdk     @modelcontextprotocol/server 2.4.0 under $MCP_TS_SDK (a directory holding
#           node_modules), default examples/node (test.sh links its pinned tools there)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
N=10000
SERVERS=rust,node,python,sdk
FORMAT=json
while [ $# -gt 0 ]; do
  case "$1" in
    --n) N="$2"; shift 2 ;;
    --servers) SERVERS="$2"; shift 2 ;;
    --table) FORMAT=table; shift ;;
    *) echo "usage: $0 [--n N] [--servers rust,node,python,sdk] [--table]" >&2; exit 2 ;;
  esac
done
# Every listen is a socket on both sides: raise the descriptor limit for this run only.
want=$(( N + 4096 ))
if [ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt "$want" ]; then
  ulimit -Hn "$want" 2>/dev/null || true
fi
ulimit -Sn "$(( want < $(ulimit -Hn) ? want : $(ulimit -Hn) ))" 2>/dev/null || true
# About 28,000 ephemeral ports per source address: spread over 127.0.0.1..K.
SOURCES=$(( N / 20000 + 1 ))
NODE="${MCP_NODE:-node}"
PY="${MCP_PYTHON:-python3}"
SDK="${MCP_TS_SDK:-$root/examples/node}"

cargo build --release -q --manifest-path "$here/Cargo.toml"
bin="$here/target/release"
log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT

# Starts a server (its command line), waits for "listening host:port"; sets PID and ADDR.
start() {
  "$@" >"$log/out" 2>"$log/err" &
  PID=$!
  ADDR=""
  for _ in $(seq 1 300); do
    ADDR="$(sed -n 's/^listening \(.*\)$/\1/p' "$log/out" | head -1)"
    [ -n "$ADDR" ] && return 0
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.1
  done
  kill "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
  return 1
}

[ "$FORMAT" = table ] && {
  echo "| server | listens | KB/listen | fan-out p50 ms | p99 ms | max ms | delivered | open s |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
}
IFS=, read -r -a list <<<"$SERVERS"
for s in "${list[@]}"; do
  case "$s" in
    rust) cmd=("$bin/listen-server" --max-listens "$(( N + 100 ))") ;;
    node) cmd=("$NODE" "$here/node-server.mjs" --max-listens "$(( N + 100 ))") ;;
    wasm) cmd=("$NODE" "$here/node-server.mjs" --wasm --max-listens "$(( N + 100 ))") ;;
    python) cmd=("$PY" "$here/python-server.py" --max-listens "$(( N + 100 ))") ;;
    sdk) cmd=("$NODE" "$here/sdk-server.mjs" --sdk "$SDK") ;;
    *) echo "unknown server $s" >&2; continue ;;
  esac
  if ! start "${cmd[@]}"; then
    echo "$s: did not start (skipped): $(tail -3 "$log/err")" >&2
    continue
  fi
  "$bin/listen-load" --addr "$ADDR" --pid "$PID" --n "$N" --label "$s" \
    --sources "$SOURCES" --format "$FORMAT" || echo "$s: the load client failed" >&2
  kill "$PID" 2>/dev/null || true
  wait "$PID" 2>/dev/null || true
done
