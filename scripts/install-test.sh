#!/usr/bin/env bash
# The install test: the artifacts in dist/ installed where there is no Rust and no compiler.
# In a Debian 12 chroot (scripts/install-chroot.sh: no cc, cargo or rustc; this script checks
# again), with Node and npm copied in from the host:
#   Python  a venv; `pip install --only-binary :all:` the manylinux2014 x86_64 wheel from dist/
#           and mcp==2.3.0; examples/python/kb_server.py driven over stdio by the official SDK
#           client (tests/install/py_client.py)
#   Node    `npm install` of the main tarball and the linux-x64-gnu platform tarball from dist/,
#           with zod and @modelcontextprotocol/client 2.4.0; examples/node/kb.mjs driven over
#           stdio by the official client (tests/install/node_client.mjs), on the native addon;
#           then the same with the platform package removed: the WebAssembly fallback serves
#           the same checks and warns once
#   README  its Python and Node quickstarts (examples/quickstart/, each README block equal to
#           its file) run in the same environments, each server read by its official client
# Needs root (chroot, mount). SKIP_INSTALL_TEST=1 skips it (and says so).
set -euo pipefail
cd "$(dirname "$0")/.."
export MCP_CACHE="${MCP_CACHE:-$HOME/.cache/mcp-context}"
if [ "${SKIP_INSTALL_TEST:-0}" = 1 ]; then echo "SKIPPED: SKIP_INSTALL_TEST=1"; exit 0; fi
if [ "$(id -u)" != 0 ]; then echo "SKIPPED: not root, so no chroot: the install test did not run"; exit 0; fi
CH="$(scripts/install-chroot.sh)"
exec 9>"$CH/.install-test.lock"
flock 9
version=$(node -p 'require("./bindings-node/package.json").version')
wheel=$(ls dist/mcp_context_primitives-"$version"-cp310-abi3-manylinux2014_x86_64*.whl)
main_tgz="dist/mcp-context-primitives-$version.tgz"
native_tgz="dist/mcp-context-primitives-linux-x64-gnu-$version.tgz"
ls "$wheel" "$main_tgz" "$native_tgz" >/dev/null

W="$CH/work"
rm -rf "$W" "$CH/opt/node"
mkdir -p "$W/dist" "$W/python" "$W/node" "$CH/opt/node/bin" "$CH/opt/node/lib/node_modules"
cp "$wheel" "$main_tgz" "$native_tgz" "$W/dist/"
cp examples/python/kb_server.py examples/python/kb_data.py tests/install/py_client.py "$W/python/"
cp examples/node/kb.mjs tests/install/node_client.mjs "$W/node/"
# The README's quickstart blocks are the files of examples/quickstart/, verbatim.
for f in examples/quickstart/*; do
  block=$(awk -v tag="<!-- quickstart: $f -->" '$0 == tag {m=1; next} m==1 && /^```/ {m=2; next}
    m==2 && /^```$/ {exit} m==2 {print}' README.md)
  if [ "$block" != "$(cat "$f")" ]; then
    echo "install-test: README.md's block for $f differs from the file (or is missing)" >&2
    exit 1
  fi
done
mkdir -p "$W/quick-py" "$W/quick-node"
cp examples/quickstart/*.py "$W/quick-py/"
cp examples/quickstart/*.mjs "$W/quick-node/"
# Node and npm (pure JavaScript) from the host: the chroot gets no compiler from them.
cp "$(readlink -f "$(command -v node)")" "$CH/opt/node/bin/node"
cp -r "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$CH/opt/node/lib/node_modules/npm"
printf '#!/bin/sh\nexec /opt/node/bin/node /opt/node/lib/node_modules/npm/bin/npm-cli.js "$@"\n' > "$CH/opt/node/bin/npm"
chmod +x "$CH/opt/node/bin/npm"
cp /etc/resolv.conf "$CH/etc/"
# The machine's network setup, where it has one: extra CAs (a proxy's) join the chroot's bundle,
# and the registries' configuration files are the host's.
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  cp /usr/local/share/ca-certificates/*.crt "$CH/usr/local/share/ca-certificates/"
  chroot "$CH" /usr/sbin/update-ca-certificates >/dev/null 2>&1
fi
for f in /etc/pip.conf /etc/npmrc "$HOME/.npmrc"; do
  if [ -f "$f" ]; then mkdir -p "$CH$(dirname "$f")"; cp "$f" "$CH$f"; fi
done

mounted=()
for m in proc dev; do
  if ! mountpoint -q "$CH/$m"; then
    if [ "$m" = proc ]; then mount -t proc proc "$CH/proc"; else mount --bind /dev "$CH/dev"; fi
    mounted+=("$CH/$m")
  fi
done
cleanup() { for m in "${mounted[@]}"; do umount "$m" 2>/dev/null || true; done; }
trap cleanup EXIT

in_chroot() {
  local ca=/etc/ssl/certs/ca-certificates.crt
  chroot "$CH" /usr/bin/env -i HOME=/root PATH=/opt/node/bin:/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 \
    SSL_CERT_FILE=$ca PIP_CERT=$ca REQUESTS_CA_BUNDLE=$ca NODE_EXTRA_CA_CERTS=$ca \
    /bin/sh -ec "$1"
}
in_chroot 'for t in cc gcc c++ clang ld cargo rustc rustup; do if command -v $t; then echo "install-test: $t is on PATH" >&2; exit 1; fi; done'

echo "--- install 1/3: Python wheel $(basename "$wheel") + mcp==2.3.0 in a venv (binary only)"
in_chroot "cd /work/python && python3 -m venv venv && venv/bin/pip install -q --disable-pip-version-check \
  --only-binary :all: /work/dist/$(basename "$wheel") mcp==2.3.0 \
  && venv/bin/python -c 'import mcp_context, sys; print(\"mcp_context from\", mcp_context.__file__)' \
  && venv/bin/python py_client.py kb_server.py"

in_chroot "cd /work/quick-py && /work/python/venv/bin/python client.py > out.txt && cat out.txt && grep -qx 'Hello, ada' out.txt"

echo "--- install 2/3: npm tarballs (main + linux-x64-gnu), the official client, the knowledge base on the addon"
in_chroot "cd /work/node && printf '{\"name\":\"install-test\",\"private\":true,\"type\":\"module\"}\n' > package.json \
  && npm install --no-audit --no-fund --loglevel=error /work/dist/$(basename "$main_tgz") /work/dist/$(basename "$native_tgz") \
     zod@4.6.7 @modelcontextprotocol/client@2.4.0"
# No install script ran or exists: npm records one as `hasInstallScript` in the lockfile.
if grep -q '"hasInstallScript"' "$W/node/package-lock.json"; then
  echo "install-test: a package installed with an install script:" >&2
  grep -B8 '"hasInstallScript"' "$W/node/package-lock.json" >&2
  exit 1
fi
ls "$W/node/node_modules/mcp-context-primitives-linux-x64-gnu/"*.node >/dev/null
in_chroot "cd /work/node && node node_client.mjs kb.mjs 2> native.err; cat native.err >&2; \
  if grep -q MCP_CONTEXT_WASM_FALLBACK native.err; then echo 'install-test: fell back with the addon installed' >&2; exit 1; fi"

in_chroot "cp -r /work/node/node_modules /work/node/package.json /work/quick-node/ && cd /work/quick-node \
  && node client.mjs > out.txt && cat out.txt && grep -qx 'Hello, ada' out.txt"

echo "--- install 3/3: the platform package removed: the WebAssembly fallback serves the same"
rm -rf "$W/node/node_modules/mcp-context-primitives-linux-x64-gnu"
in_chroot "cd /work/node && node node_client.mjs kb.mjs 2> wasm.err; cat wasm.err >&2; \
  test \"\$(grep -c MCP_CONTEXT_WASM_FALLBACK wasm.err)\" = 1 || { echo 'install-test: no single fallback warning' >&2; exit 1; }"
echo "install-test: Python and Node artifacts from dist/ served the official clients without Rust"
