#!/usr/bin/env bash
# The one version of every artifact: `[workspace.package] version` in Cargo.toml. The crates
# and the Python distribution (maturin reads the binding crate's version) take it from there;
# the npm manifests and the workspace's path dependencies (keys `mcp-context`, `mcp-context-host`,
# renamed to the packages `mcp-context-primitives`, `-primitives-host`) repeat it, and must agree.
#   scripts/version.sh           prints the version; fails when a manifest disagrees
#   scripts/version.sh --set V   writes V everywhere it appears
set -euo pipefail
cd "$(dirname "$0")/.."
current=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)
if [ "${1:-}" = --set ]; then
  new=$2
  sed -i "/^\[workspace.package\]/,/^\[/s/^version = \".*\"/version = \"$new\"/" Cargo.toml
  sed -i -E "s/^(mcp-context(-host)? = \{ (package = \"[a-z-]+\", )?path = \"[a-z]+\", version = \")[^\"]*\"/\1=$new\"/" Cargo.toml
  for f in bindings-node/package.json bindings-node/npm/*/package.json; do
    node -e 'const fs = require("fs"); const [f, v] = process.argv.slice(1); const p = JSON.parse(fs.readFileSync(f)); p.version = v; fs.writeFileSync(f, JSON.stringify(p, null, 2) + "\n")' "$f" "$new"
  done
  (cd bindings-node && npm install --package-lock-only --ignore-scripts --no-audit --no-fund --loglevel=error)
  current=$new
fi
bad=0
for f in bindings-node/package.json bindings-node/npm/*/package.json; do
  v=$(node -p "require('./$f').version")
  [ "$v" = "$current" ] || { echo "version: $f has $v, Cargo.toml $current" >&2; bad=1; }
done
v=$(node -p "require('./bindings-node/package-lock.json').version")
[ "$v" = "$current" ] || { echo "version: bindings-node/package-lock.json has $v" >&2; bad=1; }
for dep in mcp-context mcp-context-host; do
  v=$(sed -n -E "s/^$dep = \{ (package = \"[a-z-]+\", )?path = \"[a-z]+\", version = \"=?([^\"]*)\".*/\2/p" Cargo.toml)
  [ "$v" = "$current" ] || { echo "version: the workspace dependency $dep has '$v'" >&2; bad=1; }
done
[ "$bad" = 0 ]
echo "$current"
