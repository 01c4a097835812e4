#!/usr/bin/env bash
# The fault suite (issue 11): a bounded load on loopback while the service and PostgreSQL fail.
# The built `journeys` runs a private PostgreSQL (`journeys db`), the Unico emulator and
# `journeys serve --with-workers` in a temporary directory; `journeys load` drives 8 clients,
# each retrying its Idempotency-Key every second until a final answer. Meanwhile: `kill -9` of
# serve and a restart (twice), `journeys db restart` (pg_ctl restart -m fast), and PostgreSQL
# stopped for 10 s. Then ops/fault-check.py fails the run when an acknowledged journey is missing
# from the log, a key made two journeys, an attempt got two Unico processes, `audit verify`
# fails, a client saw a 500, a key never got a final answer, or a fault's recovery (from the
# service or database being back to the success of every client waiting on it) exceeded
# FAULTS_RECOVERY_MAX_S (default 5); a client whose request died inside Unico's Create Process
# waits for the workers' reconciliation (60 s), held to FAULTS_PENDING_MAX_S (default 75).
# Prints the status histogram and the recovery times.
# Unico's Create Process takes 200-600 ms (FAULTS_UNICO_LATENCY_MIN_MS/_MAX_MS), so faults catch
# starts in flight. Bounded: each fault waits at most FAULTS_SETTLE_MAX_S (default 30) for the clients to recover;
# pending keys retry at most FAULTS_DRAIN_S (default 90) after the load ends.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin="$(swift build --show-bin-path)/journeys"
[ -x "$bin" ] || { echo "error: $bin is not built; run swift build first" >&2; exit 1; }
recovery_max=${FAULTS_RECOVERY_MAX_S:-5}
pending_max=${FAULTS_PENDING_MAX_S:-75}
settle_max=${FAULTS_SETTLE_MAX_S:-30}
drain=${FAULTS_DRAIN_S:-90}
work=$(mktemp -d /tmp/journeys-faults.XXXXXX)
chmod 755 "$work"
cd "$work"
export JOURNEYS_PG_DIR="$work/pg"
serve_pid="" emulator_pid="" load_pid="" serve_runs=0 port=0
log() { printf '%s fault-suite: %s\n' "$(date +%T)" "$*"; }
now() { date +%s.%N; }
cleanup() {
  for pid in $load_pid $serve_pid $emulator_pid; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  "$bin" db stop >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() { echo "error: fault suite: $* (files in $work)" >&2; exit 1; }
wait_for() { # file pattern [seconds]
  local tries=$(( ${3:-30} * 10 ))
  for _ in $(seq 1 "$tries"); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "error: timed out waiting for '$2' in $1" >&2; cat "$1" >&2 || true; return 1
}
start_serve() {
  serve_runs=$((serve_runs + 1))
  "$bin" serve --port "$port" --with-workers >"serve-$serve_runs.out" 2>"serve-$serve_runs.err" & serve_pid=$!
  wait_for "serve-$serve_runs.out" "listening on" 60 || fail "serve did not start (serve-$serve_runs.err)"
  port=$(awk '/listening on/ {n = split($3, a, ":"); print a[n]}' "serve-$serve_runs.out")
}
# Waits (bounded) until no client has been retrying for 3 s in a row, then a short pause before the
# next fault. "In a row": a request in flight when the fault ended is answered (503) only after
# Create Process returns (<= 0.6 s) and its retry may wait out the key's lease (2 s): a single
# look at waiting=0 right after the fault would start the next fault on top of it.
settle() {
  local deadline=$(( $(date +%s) + settle_max )) quiet=0
  while [ "$(date +%s)" -lt "$deadline" ] && [ "$quiet" -lt 15 ]; do
    if grep -q '^waiting=0 ' load.status 2>/dev/null; then quiet=$((quiet + 1)); else quiet=0; fi
    sleep 0.2
  done
  [ "$quiet" -ge 15 ] || log "clients still waiting after ${settle_max} s: $(cat load.status)"
  sleep 1
}
record() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>faults.tsv; log "$1: back after $(awk -v a="$2" -v b="$3" 'BEGIN {printf "%.1f", b - a}') s"; }
kill_serve() {
  local down
  down=$(now)
  kill -9 "$serve_pid" || true; wait "$serve_pid" 2>/dev/null || true
  start_serve
  record "$1" "$down" "$(now)"
}

log "work folder $work"
"$bin" db start >db.out 2>&1 || fail "journeys db start failed: $(cat db.out)"
# Create Process takes Unico a few hundred milliseconds, so that every fault catches starts in flight
# (with a few milliseconds, a fault would catch one only now and then and the suite would be flaky).
printf '{"routes": {"createProcess": {"latencyMs": {"min": %d, "max": %d}}}}\n' \
  "${FAULTS_UNICO_LATENCY_MIN_MS:-200}" "${FAULTS_UNICO_LATENCY_MAX_MS:-600}" >unico-faults.json
"$bin" emulator --port 0 --faults unico-faults.json --processes-file "$work/processes.jsonl" \
  >emulator.out 2>emulator.err & emulator_pid=$!
wait_for emulator.out UNICO_PROD_PRIVATE_KEY_FILE
set -a; eval "$(grep '^UNICO_' emulator.out)"; set +a
key=$("$bin" keys create --name faults --scope journeys:write --scope journeys:read | awk '/^key:/ {print $2}')
[ -n "$key" ] || fail "could not create an API key"
start_serve
log "serve on port $port; load: 8 clients, each key retried every second"
: >faults.tsv
"$bin" load --base-url "http://127.0.0.1:$port" --api-key "$key" --clients 8 --duration 600 --drain "$drain" \
  --stop-file "$work/stop" --status-file "$work/load.status" --report "$work/report.json" >load.out 2>load.err & load_pid=$!
sleep 5

kill_serve "kill -9 serve (1)"
settle
kill_serve "kill -9 serve (2)"
settle
down=$(now)
"$bin" db restart >/dev/null 2>db.err || fail "journeys db restart failed: $(cat db.err)"
record "PostgreSQL restart" "$down" "$(now)"
settle
down=$(now)
"$bin" db stop >/dev/null 2>db.err || fail "journeys db stop failed: $(cat db.err)"
sleep 10
"$bin" db start >/dev/null 2>db.err || fail "journeys db start failed: $(cat db.err)"
record "PostgreSQL stopped 10 s" "$down" "$(now)"
settle

touch "$work/stop"
log "load ends; pending keys retry for up to $drain s"
wait "$load_pid" || fail "journeys load failed: $(cat load.err)"
load_pid=""
cat load.out
kill -TERM "$serve_pid"; wait "$serve_pid" 2>/dev/null || true
serve_pid=""
"$bin" events tail >events.jsonl 2>events.err || fail "journeys events tail failed: $(cat events.err)"
audit_status=0
"$bin" audit verify >audit.out 2>&1 || audit_status=$?
kill -TERM "$emulator_pid"; wait "$emulator_pid" 2>/dev/null || true
emulator_pid=""
python3 "$root/ops/fault-check.py" --report report.json --faults faults.tsv --events events.jsonl \
  --processes processes.jsonl --audit-status "$audit_status" --audit-output audit.out \
  --recovery-max "$recovery_max" --pending-max "$pending_max" || {
  echo "serve warnings and errors (count, message) per run:" >&2
  for f in serve-*.err; do
    echo "  $f:" >&2
    grep -v '"level":"info"' "$f" | sed -E 's/"(ts|journey_id|worker_id|request_id)":"[^"]*"//g' | sort | uniq -c | sort -rn | head -15 >&2 || true
  done
  fail "checks failed (see above)"
}
trap - EXIT
cleanup
rm -rf "$work"
