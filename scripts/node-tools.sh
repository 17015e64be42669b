# Sourced by test.sh and bench.sh: the pinned tools of examples/node (the official TypeScript
# SDK, Node 22, the conformance suite, workerd, Deno, TypeScript, the benchmark's peers),
# installed once under $MCP_CACHE (keyed by the lock file) and linked into examples/node.
# Sets NODE_TOOLS.
NODE_TOOLS="$MCP_CACHE/node-tools-$(cat examples/node/package.json examples/node/package-lock.json | sha256sum | cut -c1-12)"
if [ ! -f "$NODE_TOOLS/.complete" ]; then
  rm -rf "$NODE_TOOLS"
  mkdir -p "$NODE_TOOLS"
  cp examples/node/package.json examples/node/package-lock.json "$NODE_TOOLS/"
  (cd "$NODE_TOOLS" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  touch "$NODE_TOOLS/.complete"
fi
ln -sfn "$NODE_TOOLS/node_modules" examples/node/node_modules
