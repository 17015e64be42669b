# Sourced by test.sh and bench.sh: the OpenTelemetry JS SDK of tests/otel-node (API, trace and
# metric SDKs, OTLP/HTTP exporters), pinned by its package-lock.json, installed once under
# $MCP_CACHE and linked into tests/otel-node. Sets OTEL_NODE.
OTEL_NODE="$MCP_CACHE/node-otel-$(cat tests/otel-node/package.json tests/otel-node/package-lock.json | sha256sum | cut -c1-12)"
if [ ! -f "$OTEL_NODE/.complete" ]; then
  rm -rf "$OTEL_NODE"
  mkdir -p "$OTEL_NODE"
  cp tests/otel-node/package.json tests/otel-node/package-lock.json "$OTEL_NODE/"
  (cd "$OTEL_NODE" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  touch "$OTEL_NODE/.complete"
fi
ln -sfn "$OTEL_NODE/node_modules" tests/otel-node/node_modules
