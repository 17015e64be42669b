#!/usr/bin/env bash
# The Python artifacts into dist/: abi3 wheels (CPython >= 3.10) and the sdist.
#   manylinux2014 x86_64   every run (the host platform)
#   manylinux2014 aarch64  with DIST_CROSS=1, and in .github/workflows/release.yml
#   musllinux_1_2 x86_64   with DIST_CROSS=1, and in the release workflow
# Cross builds link with zig (`maturin --zig`, zig from the `ziglang` wheel), so no system
# cross toolchain is needed. Every wheel is checked by auditwheel: the platform tag it claims
# must be the one its symbols allow (no library outside the policy's list).
# The sdist is built, then built back into a wheel from source (dev profile), as `pip install`
# of the sdist would on a machine with Rust.
# Wheels are cached under $MCP_CACHE keyed on every input file, so a warm run copies them.
set -euo pipefail
cd "$(dirname "$0")/.."
export MCP_CACHE="${MCP_CACHE:-$HOME/.cache/mcp-context}"
DIST_PINS="maturin==1.16.0 ziglang==0.17.1 auditwheel==6.8.2 cargo-zigbuild==0.24.1"
TOOLS="$MCP_CACHE/dist-py-$(echo "$DIST_PINS" | tr ' =' '-_')"
(
  flock 9
  if [ ! -f "$TOOLS/.ready" ]; then
    rm -rf "$TOOLS"
    python3 -m venv "$TOOLS"
    "$TOOLS/bin/pip" install -q --disable-pip-version-check $DIST_PINS
    touch "$TOOLS/.ready"
  fi
) 9>"$TOOLS.lock"
# shellcheck disable=SC1091
. "$TOOLS/bin/activate"

targets=("x86_64-unknown-linux-gnu manylinux2014")
if [ "${DIST_CROSS:-0}" = 1 ]; then
  rustup target add aarch64-unknown-linux-gnu x86_64-unknown-linux-musl >/dev/null
  targets+=("aarch64-unknown-linux-gnu manylinux2014" "x86_64-unknown-linux-musl musllinux_1_2")
fi
inputs=$(find Cargo.toml Cargo.lock core/Cargo.toml core/src bindings-python/Cargo.toml \
  bindings-python/pyproject.toml bindings-python/README.md bindings-python/src bindings-python/python \
  -type f -not -name '*.pyc' | sort | xargs sha256sum | sha256sum | cut -c1-16)
CACHE="$MCP_CACHE/dist-wheels-$inputs"
mkdir -p dist "$CACHE"
rm -f dist/mcp_context_primitives-*
for t in "${targets[@]}"; do
  read -r target policy <<<"$t"
  if ! ls "$CACHE/$target/"*.whl >/dev/null 2>&1; then
    out=$(mktemp -d)
    maturin build -q --release --strip --zig --compatibility "$policy" --target "$target" \
      -m bindings-python/Cargo.toml -o "$out"
    whl=$(ls "$out"/*.whl)
    plat=${policy/manylinux2014/manylinux_2_17}_${target%%-*}
    # The tag: abi3 from CPython 3.10 on, the policy's platform.
    case "$(basename "$whl")" in
      *-cp310-abi3-*"$plat"*) ;;
      *) echo "dist-python: unexpected wheel tag: $(basename "$whl")" >&2; exit 1 ;;
    esac
    if [ "${policy#musllinux}" = "$policy" ]; then
      # auditwheel confirms the tag from the symbols and libraries the wheel needs.
      auditwheel show "$whl" > "$out/audit.txt"
      if ! grep -q "\"$plat\"" "$out/audit.txt"; then
        cat "$out/audit.txt" >&2
        echo "dist-python: auditwheel does not confirm $plat for $(basename "$whl")" >&2
        exit 1
      fi
    else
      # auditwheel on a glibc host cannot judge a musl wheel (it offers manylinux policies
      # only); maturin checked the policy's library list; here: the extension needs libc and
      # nothing else (musl's loader maps `libc.so` to itself). Alpine runs it in release.yml.
      (cd "$out" && python -m zipfile -e "$whl" x)
      needed=$(readelf -d "$out"/x/mcp_context/_core*.so | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u | tr '\n' ' ')
      [ "$needed" = "libc.so " ] || { echo "dist-python: $(basename "$whl") needs: $needed" >&2; exit 1; }
    fi
    mkdir -p "$CACHE/$target"
    cp "$whl" "$CACHE/$target/"
    rm -rf "$out"
  fi
  cp "$CACHE/$target/"*.whl dist/
done

if [ ! -f "$CACHE/sdist.ok" ]; then
  rm -f "$CACHE"/*.tar.gz
  maturin sdist -m bindings-python/Cargo.toml -o "$CACHE"
  sdist=$(ls "$CACHE"/mcp_context_primitives-*.tar.gz)
  # From source, as pip would: the sdist alone (no checkout), its own target directory.
  out=$(mktemp -d)
  MATURIN_PEP517_ARGS="--profile dev" CARGO_TARGET_DIR="$PWD/target/sdist-check" \
    pip wheel -q --disable-pip-version-check --no-deps --no-build-isolation -w "$out" "$sdist"
  ls "$out"/mcp_context_primitives-*.whl >/dev/null
  rm -rf "$out"
  touch "$CACHE/sdist.ok"
fi
cp "$CACHE"/mcp_context_primitives-*.tar.gz dist/
for f in dist/mcp_context_primitives-*; do
  printf '%-90s %9d B\n' "$f" "$(stat -c %s "$f")"
done
