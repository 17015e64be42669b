#!/usr/bin/env bash
# Builds (once) a Debian 13 chroot with Debian's swiftlang, cached outside the clone.
# Usage: scripts/swift-chroot.sh            -> prints the chroot path on success
#        scripts/swift-chroot.sh --print-mirror -> prints the Debian mirror it would use
# Env:   SWIFT_CHROOT (default $MCP_CACHE/swift-trixie-6.0.3)
# (usr/bin/swift is an absolute symlink, dangling seen from the host: test the real driver.
# Inside, swift needs /proc mounted: its $ORIGIN rpath is resolved through /proc/self/exe.)
set -euo pipefail
# The Debian mirror this machine's apt is already configured with: the first `URIs:` entry
# (deb822 .sources) or `deb` line (one-line .list: its first URL, past any [options]) whose path ends in
# /debian, without a trailing slash. Disabled files (other suffixes) and comments are ignored;
# `|| true` because a missing file or an early `head` must not trip pipefail.
apt_mirror() {
  cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null \
    | awk '$1 == "URIs:" { for (i = 2; i <= NF; i++) print $i } $1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; break } }' \
    | sed 's:/*$::' | grep -E '/debian$' | head -n1 || true
}
if [ "${1:-}" = "--print-mirror" ]; then apt_mirror; exit 0; fi
MCP_CACHE="${MCP_CACHE:-$HOME/.cache/mcp-context}"
CH="${SWIFT_CHROOT:-$MCP_CACHE/swift-trixie-6.0.3}"
if [ -x "$CH/usr/libexec/swift/bin/swift-driver" ] && [ -f "$CH/.ready" ]; then echo "$CH"; exit 0; fi
if [ "$(id -u)" != 0 ]; then echo "swift-chroot: needs root for debootstrap/chroot" >&2; exit 3; fi
# One builder at a time (several clones share the cache); a waiter finds the chroot ready.
mkdir -p "$(dirname "$CH")"
exec 8>"$CH.lock"
flock 8
if [ -x "$CH/usr/libexec/swift/bin/swift-driver" ] && [ -f "$CH/.ready" ]; then echo "$CH"; exit 0; fi
command -v debootstrap >/dev/null || { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2; }
MIRROR=$(apt_mirror)
[ -n "$MIRROR" ] || { echo "swift-chroot: no Debian mirror in the apt sources (/etc/apt/sources.list, /etc/apt/sources.list.d/); add one" >&2; exit 4; }
echo "swift-chroot: building $CH from $MIRROR (once; about 3.3 GB)" >&2
mkdir -p "$(dirname "$CH")"
rm -rf "$CH.tmp"
debootstrap --variant=minbase trixie "$CH.tmp" "$MIRROR" >&2
cp /etc/resolv.conf "$CH.tmp/etc/"
chroot "$CH.tmp" /bin/sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends swiftlang libc6-dev' >&2
rm -rf "$CH"
mv "$CH.tmp" "$CH"
touch "$CH/.ready"
echo "$CH"
