#!/usr/bin/env bash
# The npm artifacts into dist/ (`npm pack` tarballs), in napi-rs's layout:
#   mcp-context-primitives-<v>.tgz                 the package: JS layer, types, the WebAssembly
#                                                  engine; its platform packages as
#                                                  optionalDependencies; no install script
#   mcp-context-primitives-linux-x64-gnu-<v>.tgz   every run (the host platform)
#   mcp-context-primitives-linux-x64-musl-<v>.tgz  with DIST_CROSS=1, and in release.yml
#   mcp-context-primitives-linux-arm64-gnu-<v>.tgz with DIST_CROSS=1, and in release.yml
#   darwin-x64, darwin-arm64, win32-x64-msvc       only in .github/workflows/release.yml
# Linux addons link with zig (cargo-zigbuild, both from PyPI, cached by scripts/dist-python.sh's
# tool venv), the glibc ones against glibc 2.17. A platform binary must be built and packed
# beside the main package (DIST_TARGETS overrides the list; DIST_NODE_PREBUILT=DIR packs the
# `.node` files a release job downloaded into DIR instead of building).
set -euo pipefail
cd "$(dirname "$0")/.."
export MCP_CACHE="${MCP_CACHE:-$HOME/.cache/mcp-context}"
DIST_PINS="maturin==1.16.0 ziglang==0.17.1 auditwheel==6.8.2 cargo-zigbuild==0.24.1"
TOOLS="$MCP_CACHE/dist-py-$(echo "$DIST_PINS" | tr ' =' '-_')"
if [ -z "${DIST_NODE_PREBUILT:-}" ]; then
  [ -f "$TOOLS/.ready" ] || { echo "dist-node: run scripts/dist-python.sh first (it installs $TOOLS)" >&2; exit 1; }
  ZIG_DIR=$("$TOOLS/bin/python" -c 'import ziglang, os; print(os.path.dirname(ziglang.__file__))')
  export PATH="$TOOLS/bin:$ZIG_DIR:$PATH"
fi

version=$(node -p 'require("./bindings-node/package.json").version')
targets=(${DIST_TARGETS:-x86_64-unknown-linux-gnu})
if [ "${DIST_CROSS:-0}" = 1 ] && [ -z "${DIST_TARGETS:-}" ]; then
  rustup target add aarch64-unknown-linux-gnu x86_64-unknown-linux-musl >/dev/null
  targets+=(x86_64-unknown-linux-musl aarch64-unknown-linux-gnu)
fi
mkdir -p dist
rm -f dist/mcp-context-primitives-*.tgz
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
napi=(bindings-node/node_modules/.bin/napi)
[ -x "${napi[0]}" ] || (cd bindings-node && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)

for target in "${targets[@]}"; do
  # The platform folder napi names for the triple (npm/<platform>/package.json).
  plat=$(node -e '
    const [arch, , os, abi] = process.argv[1].split("-")
    const a = { x86_64: "x64", aarch64: "arm64" }[arch]
    const o = { linux: "linux", darwin: "darwin", windows: "win32" }[os] ?? os
    console.log([o, a, abi && abi !== "darwin" ? abi : null].filter(Boolean).join("-"))' "$target")
  [ "$target" = x86_64-apple-darwin ] && plat=darwin-x64
  [ "$target" = aarch64-apple-darwin ] && plat=darwin-arm64
  [ -f "bindings-node/npm/$plat/package.json" ] || { echo "dist-node: no bindings-node/npm/$plat" >&2; exit 1; }
  file="mcp-context-primitives.$plat.node"
  mkdir -p "$stage/$plat"
  cp "bindings-node/npm/$plat/package.json" "bindings-node/npm/$plat/README.md" "$stage/$plat/"
  if [ -n "${DIST_NODE_PREBUILT:-}" ]; then
    cp "$DIST_NODE_PREBUILT/$file" "$stage/$plat/"
  else
    case "$target" in
      *-linux-*)
        # The addon is the crate's cdylib: cargo-zigbuild links it (its `.2.17` suffix: against
        # glibc 2.17); on musl it links libc dynamically (-crt-static) as Node's own does.
        zt=$target
        case "$target" in *-gnu) zt="$target.2.17" ;; esac
        CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS="-C target-feature=-crt-static" CARGO_PROFILE_RELEASE_STRIP=symbols \
          cargo zigbuild -q --release -p mcp-context-node --target "$zt"
        cp "target/$target/release/libmcp_context_node.so" "$stage/$plat/$file"
        ;;
      *)
        # macOS and Windows: built natively on their release runners.
        (cd bindings-node && ./node_modules/.bin/napi build --platform --release --strip --target "$target" \
          --no-js --dts "$stage/index.d.ts" --output-dir "$stage/$plat")
        ;;
    esac
  fi
  case "$target" in
    *-linux-gnu)
      newest=$(objdump -T "$stage/$plat/$file" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n1)
      echo "dist-node: $file needs $newest at most"
      [ "$(printf '%s\n' "$newest" GLIBC_2.17 | sort -V | tail -n1)" = GLIBC_2.17 ] ||
        { echo "dist-node: $file needs $newest (> 2.17)" >&2; exit 1; } ;;
  esac
  (cd "$stage/$plat" && npm pack -q --pack-destination "$OLDPWD/dist" >/dev/null)
done

# The main package: the files package.json lists, with its platform packages added as
# optionalDependencies at the same version (as `napi pre-publish` does), and no install script.
mkdir -p "$stage/main"
(cd bindings-node && npm pack --dry-run --json 2>/dev/null) |
  node -e 'for (const f of JSON.parse(require("fs").readFileSync(0))[0].files) console.log(f.path)' |
  while read -r f; do mkdir -p "$stage/main/$(dirname "$f")"; cp "bindings-node/$f" "$stage/main/$f"; done
node -e '
  const fs = require("fs"), path = require("path")
  const [dir, npmDir] = process.argv.slice(1)
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json")))
  pkg.optionalDependencies = {}
  for (const p of fs.readdirSync(npmDir).sort())
    pkg.optionalDependencies[JSON.parse(fs.readFileSync(path.join(npmDir, p, "package.json"))).name] = pkg.version
  delete pkg.devDependencies
  for (const s of ["preinstall", "install", "postinstall", "prepare"])
    if (pkg.scripts?.[s]) { console.error(`dist-node: package.json has a ${s} script`); process.exit(1) }
  delete pkg.scripts
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n")
' "$stage/main" bindings-node/npm
if find "$stage/main" -name '*.node' | grep -q .; then echo "dist-node: a .node file in the main package" >&2; exit 1; fi
(cd "$stage/main" && npm pack -q --pack-destination "$OLDPWD/dist" >/dev/null)
for f in dist/mcp-context-primitives-*.tgz; do
  printf '%-90s %9d B\n' "$f" "$(stat -c %s "$f")"
done
echo "dist-node: version $version"
