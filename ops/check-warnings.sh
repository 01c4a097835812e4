#!/usr/bin/env bash
# Fails when a build log (the file given, or standard input) holds a compiler warning in this
# package's own code (Sources/ or Tests/), listing each once as path:line:column: message.
# A warning is reported only by the build that compiles its file: check the log of a build that
# compiled everything (a clean one, as in CI), or of the build you just ran.
# Usage: swift build --build-tests 2>&1 | tee build.log; ops/check-warnings.sh build.log
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
log="${1:-/dev/stdin}"
warnings=$(grep -aoE '(^|[[:space:]])[^[:space:]]*(Sources|Tests)/[^:[:space:]]+\.swift:[0-9]+:[0-9]+: warning: .*' "$log" \
  | sed -E "s|^[[:space:]]*||; s|^$root/||" | sort -u || true)
if [ -n "$warnings" ]; then
  echo "error: the build has compiler warnings in Sources/ or Tests/ (fix each; CI treats them as errors):" >&2
  echo "$warnings" >&2
  exit 1
fi
