#!/usr/bin/env bash
# Rewrites the old citations of the private spec digest ("DIGEST §x.y") into citations of
# docs/rules.md, which keeps the same section numbers ("docs/rules.md §x.y", "§16.x rule N",
# "§17.2 item N", "§19.N"), then checks that every cited section exists in docs/rules.md.
# Usage: scripts/cite-rules.sh           rewrite tracked files in place, then check
#        scripts/cite-rules.sh --check   only check (exit 1 on a "DIGEST" citation left or a
#                                        section docs/rules.md lacks)
# Covers every tracked text file except docs/rules.md itself and the digest-derived test
# vectors (tests/vectors/mcp/digest/, whose extractor names its input file). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
rules=docs/rules.md
[ -f "$rules" ] || { echo "cite-rules: $rules is missing" >&2; exit 1; }

files() {
  git grep -lI "DIGEST" -- . ":(exclude)$rules" ":(exclude)tests/vectors/mcp/digest" \
    ":(exclude)scripts/cite-rules.sh" || true
}

if [ "${1:-}" != "--check" ]; then
  mapfile -t targets < <(files)
  if [ "${#targets[@]}" -gt 0 ]; then
    # "DIGEST §x" on one line; "DIGEST" at a line's end with "§x" after the next line's
    # comment prefix (//, //!, ///, *, #); "(DIGEST drain rule:" is the drain rule of
    # docs/server-machine.md, which the same comment already names.
    perl -0pi -e '
      s/DIGEST(\s*(?:(?:\/\/[\/!]?|\*|#)[ \t]*)?)(?=§)/docs\/rules.md$1/g;
      s/\(DIGEST drain rule:/(the drain rule:/g;
    ' "${targets[@]}"
    echo "cite-rules: rewrote ${#targets[@]} files"
  fi
fi

status=0
left="$(files)"
if [ -n "$left" ]; then
  echo "cite-rules: DIGEST citations left in:" >&2
  git grep -nI "DIGEST" -- $left >&2 || true
  status=1
fi
# Every "docs/rules.md §x.y" (a line break may sit between the two parts) names a heading.
mapfile -t cited < <(git grep -hIz -e "docs/rules.md" -- . ":(exclude)$rules" |
  tr '\0\n' '  ' | perl -ne 'while (/docs\/rules\.md\s*(?:(?:\/\/[\/!]?|\*|#)\s*)?§([0-9]+(?:\.[0-9]+)?)/g) { print "$1\n" }' |
  sort -u)
for sec in "${cited[@]}"; do
  if ! grep -qE "^#+ §${sec//./\\.}( |$)" "$rules"; then
    echo "cite-rules: $rules has no section §$sec" >&2
    status=1
  fi
done
# Every test docs/rules.md names (`tests/x.rs::f`, `src/x.rs::f` under core/, or
# `examples/….rs::[tests::]f`) exists.
tests=0
while IFS= read -r ref; do
  file="${ref%%::*}"
  fn="${ref##*::}"
  case "$file" in examples/*) path="$file" ;; *) path="core/$file" ;; esac
  tests=$((tests + 1))
  if ! grep -qE "fn $fn\b" "$path" 2>/dev/null; then
    echo "cite-rules: $rules names $ref, which does not exist" >&2
    status=1
  fi
done < <(grep -oE '`(tests|src|examples)/[A-Za-z0-9_/.-]+\.rs::([a-z_]+::)?[a-z0-9_]+`' "$rules" | tr -d '`' | sort -u)
[ "$status" -eq 0 ] && echo "cite-rules: ${#cited[@]} cited sections and $tests named tests, all present"
exit "$status"
