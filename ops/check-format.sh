#!/usr/bin/env bash
# The code's layout is the one `.swift-format` describes (swift format, shipped with the
# toolchain): fails naming each file that `swift format` would change, with its first differences.
# `ops/check-format.sh --fix` rewrites those files in place. The files ops/embed-schema.sh
# generates (Sources/Migrations/Generated/) stay exactly as it writes them and are not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <({ find Sources Tests -name '*.swift' -not -path 'Sources/Migrations/Generated/*'; echo Package.swift; } | sort)
if [ "${1:-}" = --fix ]; then
  swift format --in-place --parallel --configuration .swift-format "${files[@]}"
  exit 0
fi
bad=()
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# One `swift format` run over every file (about half a minute), its output split by file.
for f in "${files[@]}"; do
  mkdir -p "$out/$(dirname "$f")"
  cp "$f" "$out/$f"
done
(cd "$out" && swift format --in-place --parallel --configuration "$OLDPWD/.swift-format" "${files[@]}")
for f in "${files[@]}"; do
  cmp -s "$f" "$out/$f" || bad+=("$f")
done
if [ "${#bad[@]}" -gt 0 ]; then
  echo "error: ${#bad[@]} file(s) not formatted as .swift-format says (run ops/check-format.sh --fix):" >&2
  for f in "${bad[@]}"; do
    echo "  $f" >&2
  done
  for f in "${bad[@]:0:3}"; do
    diff -u "$f" "$out/$f" | head -20 >&2 || true
  done
  exit 1
fi
