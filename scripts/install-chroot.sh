#!/usr/bin/env bash
# Builds (once) the clean environment of the install test (scripts/install-test.sh): a Debian 12
# minbase chroot with Python 3.11 (python3-venv) and the C++ runtime Node needs, and no compiler,
# cargo or rustc; Node and npm are copied in from the host by the test. Cached under $MCP_CACHE.
# Usage: scripts/install-chroot.sh   -> prints the chroot path
set -euo pipefail
cd "$(dirname "$0")/.."
MCP_CACHE="${MCP_CACHE:-$HOME/.cache/mcp-context}"
CH="${INSTALL_CHROOT:-$MCP_CACHE/install-bookworm-1}"
if [ -f "$CH/.ready" ]; then echo "$CH"; exit 0; fi
if [ "$(id -u)" != 0 ]; then echo "install-chroot: needs root for debootstrap/chroot" >&2; exit 3; fi
mkdir -p "$(dirname "$CH")"
exec 8>"$CH.lock"
flock 8
if [ -f "$CH/.ready" ]; then echo "$CH"; exit 0; fi
command -v debootstrap >/dev/null || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2; }
MIRROR=$(scripts/swift-chroot.sh --print-mirror)
[ -n "$MIRROR" ] || { echo "install-chroot: no Debian mirror in the apt sources" >&2; exit 4; }
echo "install-chroot: building $CH from $MIRROR (once)" >&2
rm -rf "$CH.tmp"
debootstrap --variant=minbase --include=python3,python3-venv,libstdc++6,ca-certificates \
  bookworm "$CH.tmp" "$MIRROR" >&2
cp /etc/resolv.conf "$CH.tmp/etc/"
for tool in cc gcc c++ clang ld cargo rustc; do
  if chroot "$CH.tmp" /bin/sh -c "command -v $tool" >/dev/null; then
    echo "install-chroot: $tool is in the chroot" >&2; exit 1
  fi
done
rm -rf "$CH"
mv "$CH.tmp" "$CH"
touch "$CH/.ready"
echo "$CH"
