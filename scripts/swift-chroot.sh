#!/usr/bin/env bash
# Builds (once) a Debian 13 chroot with Debian's swiftlang, cached outside the clone.
# Usage: scripts/swift-chroot.sh            -> prints the chroot path on success
# Env:   SWIFT_CHROOT (default $MCP_CACHE/swift-trixie-6.0.3)
set -euo pipefail
MCP_CACHE="${MCP_CACHE:-$HOME/.cache/mcp-context}"
CH="${SWIFT_CHROOT:-$MCP_CACHE/swift-trixie-6.0.3}"
if [ -x "$CH/usr/bin/swift" ] && [ -f "$CH/.ready" ]; then echo "$CH"; exit 0; fi
if [ "$(id -u)" != 0 ]; then echo "swift-chroot: needs root for debootstrap/chroot" >&2; exit 3; fi
command -v debootstrap >/dev/null || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2; }
# The Debian mirror apt is already configured with.
MIRROR=$(grep -rhoE 'https?://[^ ]*debian/?' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null | grep -v security | head -n1)
MIRROR="${MIRROR%/}"
mkdir -p "$(dirname "$CH")"
rm -rf "$CH.tmp"
debootstrap --variant=minbase trixie "$CH.tmp" "$MIRROR" >&2
cp /etc/resolv.conf "$CH.tmp/etc/"
chroot "$CH.tmp" /bin/sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends swiftlang libc6-dev' >&2
rm -rf "$CH"
mv "$CH.tmp" "$CH"
touch "$CH/.ready"
echo "$CH"
