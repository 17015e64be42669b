#!/usr/bin/env bash
# The one test command (README, .ci/run). Installs what it needs, then runs every check.
# Heavy, versioned tools are cached outside the clone under $MCP_CACHE and reused.
set -euo pipefail
cd "$(dirname "$0")"
export MCP_CACHE="${MCP_CACHE:-$HOME/.cache/mcp-context}"
mkdir -p "$MCP_CACHE"
export CARGO_TERM_COLOR=never
FUZZ_SECONDS="${FUZZ_SECONDS:-30}"

step() { printf '\n=== %s ===\n' "$*"; }
started=$(date +%s)

step "format"
cargo fmt --all --check
cargo fmt --manifest-path nostd-check/Cargo.toml --check
cargo fmt --manifest-path fuzz/Cargo.toml --check

step "clippy (warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy -p mcp-context --no-default-features -- -D warnings

step "core tests (default features, then no alloc)"
cargo test -p mcp-context
cargo test -p mcp-context --no-default-features --lib

step "doc tests and docs (missing docs are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc -p mcp-context --no-deps

step "no_std: bare-metal and wasm builds"
if rustup target add thumbv7em-none-eabihf wasm32-unknown-unknown >/dev/null 2>&1; then
  cargo build -p mcp-context --no-default-features --target thumbv7em-none-eabihf
  cargo build -p mcp-context --no-default-features --features alloc --target wasm32-unknown-unknown
else
  echo "rustup could not add the targets; using the host no_std proof only"
fi

# --- no_std host proof (BINDINGS §1) -------------------------------------------------------
step "no_std: host proof (own panic handler, no alloc) and its negative control"
nostd=(--manifest-path nostd-check/Cargo.toml --target-dir target/nostd-check)
cargo clippy "${nostd[@]}" -- -D warnings
cargo build "${nostd[@]}"
# Linked as a cdylib with panic=abort: the exported entry point pulls in parse + expand.
cargo rustc "${nostd[@]}" --profile nostd --crate-type cdylib
so=target/nostd-check/nostd/libmcp_context_nostd_check.so
if ! nm -D --defined-only "$so" | grep -qw mcp_context_nostd_check; then
  echo "FAIL: $so does not export mcp_context_nostd_check"; exit 1
fi
if nm -D --undefined-only "$so" | grep -E '_ZN3std|_RN[A-Za-z0-9_]*3std'; then
  echo "FAIL: the no_std cdylib needs symbols from std"; exit 1
fi
# Negative control: with `std` in the graph the proof must fail (duplicate `panic_impl`).
if cargo build "${nostd[@]}" --features pull-std >target/nostd-check/pull-std.log 2>&1; then
  echo "FAIL: the negative control built; the no_std proof cannot see std"; exit 1
elif grep -q 'E0152' target/nostd-check/pull-std.log; then
  echo "negative control failed as it must (E0152, duplicate lang item panic_impl)"
else
  cat target/nostd-check/pull-std.log
  echo "FAIL: the negative control failed, but not with E0152"; exit 1
fi
# --- end no_std host proof ------------------------------------------------------------------

step "benches compile"
cargo check -p mcp-context-benches --benches

step "examples build and run"
cargo run -q -p mcp-context-examples --bin templates

# --- fuzz (cargo-fuzz, libFuzzer, nightly) ---------------------------------------------------
# Every target `cargo fuzz list` reports runs for $FUZZ_SECONDS s, starting from a scratch copy
# of its committed seeds (fuzz/seeds/<target>/). Built once, without a sanitizer (the core
# forbids unsafe code) and with debug assertions (overflow checks).
step "fuzz: build every target, run each for ${FUZZ_SECONDS}s"
if ! rustup run nightly cargo --version >/dev/null 2>&1; then
  rustup toolchain install nightly --profile minimal
fi
if ! [ -x "$MCP_CACHE/cargo-fuzz/bin/cargo-fuzz" ]; then
  cargo install cargo-fuzz --locked --root "$MCP_CACHE/cargo-fuzz"
fi
export PATH="$MCP_CACHE/cargo-fuzz/bin:$PATH"
fuzz_flags=(--sanitizer none --debug-assertions)
cargo +nightly fuzz build "${fuzz_flags[@]}"
mapfile -t fuzz_targets < <(cargo +nightly fuzz list)
[ "${#fuzz_targets[@]}" -gt 0 ] || { echo "FAIL: cargo fuzz list found no targets"; exit 1; }
mkdir -p target/fuzz
fuzz_report=()
# FUZZ_SECONDS=0 builds only (libFuzzer reads -max_total_time=0 as "no limit").
[ "$FUZZ_SECONDS" -gt 0 ] || { echo "FUZZ_SECONDS=0: fuzz targets built, not run"; fuzz_targets=(); }
for t in "${fuzz_targets[@]}"; do
  corpus="target/fuzz/corpus/$t"
  log="target/fuzz/$t.log"
  rm -rf "$corpus" && mkdir -p "$corpus"
  if [ -d "fuzz/seeds/$t" ]; then cp -R "fuzz/seeds/$t/." "$corpus/"; fi
  if ! cargo +nightly fuzz run "${fuzz_flags[@]}" "$t" "$corpus" -- \
      -max_total_time="$FUZZ_SECONDS" -timeout=10 -print_final_stats=1 >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "FAIL: fuzz target $t failed (a crash leaves its reproducer under fuzz/artifacts/$t/)"
    exit 1
  fi
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  fuzz_report+=("$(printf '%-20s %10s execs in %ss, %s seeds' "$t" "$execs" "$FUZZ_SECONDS" \
    "$(find "fuzz/seeds/$t" -type f 2>/dev/null | wc -l)")")
done
[ "${#fuzz_report[@]}" -eq 0 ] || printf '%s\n' "${fuzz_report[@]}"
# --- end fuzz -------------------------------------------------------------------------------

echo
echo "all checks passed in $(( $(date +%s) - started )) s"
