#!/usr/bin/env bash
# Runs the whole test suite against private PostgreSQL clusters that the tests start
# themselves (in JOURNEYS_TEST_PG_DIR), and fails when a test was skipped that may not be
# (database tests are never optional).
set -uo pipefail
cd "$(dirname "$0")/.."
# The clusters go on tmpfs (/dev/shm) when it has room: each test copies a template database,
# and creating a database's files costs ~0.25 s of CPU on this machine's ext4 against ~0.08 s
# on tmpfs (the tests' clusters run without fsync and are thrown away anyway). Else /tmp.
default_dir=/tmp
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] \
  && [ "$(df -Pk /dev/shm | awk 'NR==2 {print $4}')" -ge $((8 * 1024 * 1024)) ]; then
  default_dir=/dev/shm
fi
export JOURNEYS_TEST_PG_DIR="${JOURNEYS_TEST_PG_DIR:-$default_dir/journeys-test-pg-$(id -u)}"
log=$(mktemp)
# Stop the test clusters afterwards (slot 0 in the folder, one per parallel slot in slot-N) so
# repeated runs do not leave servers behind.
stop_cluster() {
  local data bin
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  for data in "$JOURNEYS_TEST_PG_DIR/data" "$JOURNEYS_TEST_PG_DIR"/slot-*/data; do
    [ -f "$data/postmaster.pid" ] || continue
    if [ "$(id -u)" = 0 ]; then
      runuser -u postgres -- "$bin/pg_ctl" -D "$data" -m fast stop >/dev/null 2>&1 || true
    else
      "$bin/pg_ctl" -D "$data" -m fast stop >/dev/null 2>&1 || true
    fi
  done
  # PgBouncers the tests started (`pgbouncer -d` daemons, LocalPgBouncer) outlive a killed test
  # process: stop those whose test process (the pid in the folder's name) is gone, if that pid
  # is still a pgbouncer. Other runs' live tests keep theirs.
  local pidfile pid owner
  for pidfile in "${TMPDIR:-/tmp}"/journeys-pgbouncer-*/pgbouncer.pid; do
    [ -f "$pidfile" ] || continue
    owner=$(basename "$(dirname "$pidfile")" | grep -oE -- '-[0-9]+-' | head -1 | tr -d -)
    [ -n "$owner" ] && [ -d "/proc/$owner" ] && continue
    pid=$(cat "$pidfile" 2>/dev/null)
    if [ -n "$pid" ] && { tr '\0' ' ' < "/proc/$pid/cmdline"; } 2>/dev/null | grep -q pgbouncer; then
      kill "$pid" 2>/dev/null || true
    fi
  done
}
trap stop_cluster EXIT
# Every target declares the modules of this package it imports (Package.swift matches the code).
if ! ops/check-imports.sh; then
  echo "error: Package.swift does not declare what the sources import (see above)" >&2
  rm -f "$log"
  exit 1
fi
# The README's architecture picture lists every module, and every dependency points down it.
if ! ops/check-layers.sh; then
  echo "error: the module layers do not hold (see above)" >&2
  rm -f "$log"
  exit 1
fi
# Each module keeps its SQL in its statements file (no SQL literals elsewhere in Sources/).
if ! ops/check-sql.sh; then
  echo "error: SQL literals outside the modules' statements files (see above)" >&2
  rm -f "$log"
  exit 1
fi
# The code's layout is the one .swift-format describes (ops/check-format.sh --fix applies it).
if ! ops/check-format.sh; then
  echo "error: files not formatted as .swift-format says (see above)" >&2
  rm -f "$log"
  exit 1
fi
# The iOS app's library builds alone and depends on nothing of the server (the iOS guide's promise).
if ! grep -qE '^ *\.target\(name: "JourneyClient"\),$' Package.swift || ! swift build --target JourneyClient; then
  echo "error: JourneyClient must be a target without dependencies that builds alone" >&2
  rm -f "$log"
  exit 1
fi
# In parallel (Swift Testing's default). Foundation's select()-based socket thread stops working
# for descriptors above 1024, which once hung URLSession-based tests and kept this run serial; now
# API tests call the router in-process (JourneyTesting's TestClient, no socket), and
# TestDatabase.create waits for one of JOURNEYS_TEST_PERMITS (default 8) permits, so a run never
# holds more than a few stacks (pools, emulators, servers) at once. Each permit is a cluster of
# its own: readers of the log wait for the cluster-wide MVCC horizon, which one test's open
# transaction would otherwise hold back for all. At most 10 tests run at once: the cooperative
# pool has one thread per core, and a start of every test at once starved timing-bound ones.
swift test --experimental-maximum-parallelization-width 10 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# No compiler warning in our code, in what this run compiled (CI's clean build is checked in .ci/run).
if ! ops/check-warnings.sh "$log"; then
  status=1
fi
# No test may skip: benchmarks live in `journeys bench` (journeys-bench), not in the suite.
skipped=$(grep -E '^.{0,4}Test .* skipped' "$log" || true)
if [ -n "$skipped" ]; then
  echo "error: tests were skipped that must run:" >&2
  echo "$skipped" >&2
  status=1
fi
if ! grep -qE 'Test run with [0-9]+ tests? in [0-9]+ suites? passed' "$log"; then
  echo "error: the Swift Testing run did not report a pass" >&2
  status=1
fi
rm -f "$log"
# The deployment material: systemd units (systemd-analyze verify, their variable checks), alert rules
# (promtool), the example environment file and the runbook's commands against the built binary.
if ! ops/check-ops.sh; then
  echo "error: the ops/ folder does not hold (see above)" >&2
  status=1
fi
# The fuzz and the fault suite each run when everything above passed, whatever the other's outcome.
tests_passed=$status
# The API, fuzzed from its own OpenAPI document (no 5xx, only documented statuses and types).
if [ "$tests_passed" = 0 ] && [ "${JOURNEYS_SKIP_FUZZ:-0}" != 1 ]; then
  ops/fuzz-api.sh || status=1
fi
# The fault suite: a load while serve is killed and PostgreSQL restarted and stopped (nothing
# acknowledged lost, no double journeys or processes, no 500, recovery within the aim).
if [ "$tests_passed" = 0 ] && [ "${JOURNEYS_SKIP_FAULTS:-0}" != 1 ]; then
  ops/fault-suite.sh || status=1
fi
# The balancer suite: 2 serve + 2 work behind HAProxy (ops/haproxy/journeys.cfg), kill -9 of one of
# each and a drained SIGTERM under load and due work (1.5-5 min).
if [ "$tests_passed" = 0 ] && [ "${JOURNEYS_SKIP_BALANCER:-0}" != 1 ]; then
  ops/balancer-suite.sh || status=1
fi
# The restore drill: pgBackRest backup, erasures, a point-in-time restore before them, the erasure
# ledger replayed, audit checkpoints re-signed (about 30 s).
if [ "$tests_passed" = 0 ] && [ "${JOURNEYS_SKIP_RESTORE_DRILL:-0}" != 1 ]; then
  ops/restore-drill.sh || status=1
fi
# The HA suite: etcd and two Patroni nodes (synchronous mode), kill -9 of the leader's postmaster and a
# planned switchover under load (about 1 min).
if [ "$tests_passed" = 0 ] && [ "${JOURNEYS_SKIP_HA:-0}" != 1 ]; then
  ops/ha-suite.sh || status=1
fi
exit "$status"
