#!/usr/bin/env bash
# Fuzzes the HTTP API from its own OpenAPI document with schemathesis (PyPI, pinned, in a venv
# under .build): the built `journeys` serves against a private PostgreSQL and the emulator in a
# temporary directory, with an API key holding every scope. Runs every schemathesis check
# (`--checks all`, settings in ops/fuzz-api.toml): no 5xx, only documented statuses, content types
# and headers, answers that match their schemas, requests the document calls valid accepted and
# invalid ones refused (`--mode all`: positive and negative data). Bounded: FUZZ_SECONDS (default
# 60) for the generated phases.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin="$(swift build --show-bin-path)/journeys"
[ -x "$bin" ] || { echo "error: $bin is not built; run swift build first" >&2; exit 1; }
venv="$root/.build/fuzz-venv"
if [ ! -x "$venv/bin/st" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'schemathesis==4.32.5'
fi
work=$(mktemp -d /tmp/journeys-fuzz.XXXXXX)
chmod 755 "$work"
cd "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  "$bin" db stop >/dev/null 2>&1 || true
}
trap cleanup EXIT
wait_for() { # file pattern
  for _ in $(seq 1 300); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "error: timed out waiting for '$2' in $1" >&2; cat "$1" >&2; return 1
}
"$bin" emulator --port 0 --rate-limit 0 >emulator.out 2>emulator.err & pids+=($!)
wait_for emulator.out UNICO_PROD_PRIVATE_KEY_FILE
set -a; eval "$(grep '^UNICO_' emulator.out)"; set +a
key=$("$bin" keys create --name fuzz --scope journeys:write --scope journeys:read --scope reports:read --scope admin \
  | awk '/^key:/ {print $2}')
# Unico's webhook takes the same bearer, so the fuzzer gets past its authentication too.
export UNICO_WEBHOOK_AUTH="bearer:$key"
"$bin" serve --port 0 >serve.out 2>serve.err & pids+=($!)
wait_for serve.out "listening on"
url=$(awk '/listening on/ {print $3}' serve.out)
status=0
"$venv/bin/st" --config-file "$root/ops/fuzz-api.toml" run "$url/openapi.json" -H "Authorization: Bearer $key" \
  --phases examples,coverage,fuzzing,stateful --mode all --checks all \
  --max-time "${FUZZ_SECONDS:-60}" --max-examples 100 --seed 1 --workers 1 >schemathesis.out 2>&1 || status=$?
tail -40 schemathesis.out
errors=$(grep -c '"status":5[0-9][0-9]' serve.err || true)
total=$(grep -c '"message":"http.access"' serve.err || true)
echo "fuzz: $total requests served, $errors answered 5xx"
if [ "$errors" != 0 ]; then
  grep '"status":5[0-9][0-9]' serve.err | head -20 >&2
  status=1
fi
if [ "$status" != 0 ]; then
  echo "error: the API fuzz failed (full output: $work/schemathesis.out)" >&2
  trap - EXIT; cleanup; exit 1
fi
