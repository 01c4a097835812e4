#!/usr/bin/env bash
# The restore drill (issue 22 item 4): a restore that keeps erased people erased. On loopback, with the
# built binary and pgBackRest configured by ops/backup/pgbackrest.conf (paths rewritten to a temporary
# folder):
#   1. a private cluster (`journeys db start`) with WAL archiving to a pgBackRest repository, a full backup;
#   2. journeys (`journeys load` through `serve --with-workers` and the emulator), and two marked subjects;
#   3. the restore point T; then `journeys subjects erase` of both subjects, with JOURNEYS_ERASURE_LEDGER
#      pointing at a file outside the cluster and the repository; an audit checkpoint; more journeys;
#   4. `pgbackrest restore --type=time --target=T`: the subjects' data opens again (checked);
#   5. ops/backup/replay-erasures.sh replays the ledger since T; `journeys audit checkpoint` re-signs;
# then fails unless both subjects are erased again (`journeys subjects export` says so), pg_dumpall of
# the whole cluster holds neither subject's document number nor name, the ledger holds no personal
# data, and `journeys audit verify` passes. Bounded: each wait has its own limit.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
missing=()
command -v pgbackrest >/dev/null || missing+=(pgbackrest)
[ ${#missing[@]} = 0 ] || {
  echo "restore-drill: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
# The debug build ops/test.sh makes, else a release build (JOURNEYS_BIN overrides both).
bin="${JOURNEYS_BIN:-$(swift build --show-bin-path)/journeys}"
[ -x "$bin" ] || [ -n "${JOURNEYS_BIN:-}" ] || bin="$PWD/.build/release/journeys"
[ -x "$bin" ] || { echo "error: $bin is not built; run swift build first" >&2; exit 1; }
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
work=$(mktemp -d /tmp/journeys-restore.XXXXXX)
chmod 755 "$work"
cd "$work"
export JOURNEYS_PG_DIR="$work/pg"
serve_pid="" emulator_pid=""
log() { printf '%s restore-drill: %s\n' "$(date +%T)" "$*"; }
cleanup() {
  for pid in $serve_pid $emulator_pid; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  "$bin" db stop >/dev/null 2>&1 || true
}
trap cleanup EXIT
fail() { echo "error: restore drill: $* (files in $work)" >&2; exit 1; }
wait_for() { # file pattern [seconds]
  local tries=$(( ${3:-30} * 10 ))
  for _ in $(seq 1 "$tries"); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "error: timed out waiting for '$2' in $1" >&2; cat "$1" >&2 || true; return 1
}
started=$(date +%s)

log "work folder $work"
"$bin" db start >db.out 2>&1 || fail "journeys db start failed: $(cat db.out)"
pgdata="$work/pg/data" socket="$work/pg/run" port=$(cat "$work/pg/port")
password=$(cat "$(ls "$work"/pg/*postgres* 2>/dev/null | head -1)") || fail "no superuser password file in $work/pg"
as_pg() { runuser -u postgres -- env PGPASSWORD="$password" PGHOST="$socket" PGPORT="$port" PGUSER=postgres "$@"; }
sql() { as_pg "$pgbin/psql" -XAtq -d journeys -c "$1"; }

# pgBackRest: the reference configuration with this drill's paths; the repository and the ledger live
# outside the cluster's folder, as they would on other disks or hosts.
mkdir -p repo ledger pgbackrest-log pgbackrest-lock
chown postgres:postgres repo pgbackrest-log pgbackrest-lock
sed -e "s|^repo1-path=.*|repo1-path=$work/repo|" -e "s|^pg1-path=.*|pg1-path=$pgdata|" \
    -e "s|^pg1-port=.*|pg1-port=$port|" -e "s|^pg1-socket-path=.*|pg1-socket-path=$socket|" \
    -e "s|^repo1-cipher-pass=.*|repo1-cipher-pass=$(openssl rand -hex 24)|" \
    -e "s|^\[global\]|[global]\nlog-path=$work/pgbackrest-log\nlock-path=$work/pgbackrest-lock|" \
    "$root/ops/backup/pgbackrest.conf" >pgbackrest.conf
chmod 644 pgbackrest.conf
pgbr() { as_pg pgbackrest --config="$work/pgbackrest.conf" --stanza=journeys "$@"; }
cat >>"$pgdata/postgresql.auto.conf" <<CONF
archive_mode = on
archive_command = 'pgbackrest --config=$work/pgbackrest.conf --stanza=journeys archive-push %p'
archive_timeout = 60
CONF
"$bin" db restart >/dev/null 2>db.err || fail "journeys db restart failed: $(cat db.err)"
pgbr stanza-create >backup.log 2>&1 || fail "stanza-create failed: $(tail -5 backup.log)"
pgbr check >>backup.log 2>&1 || fail "pgbackrest check failed: $(tail -5 backup.log)"
pgbr --type=full backup >>backup.log 2>&1 || fail "full backup failed: $(tail -5 backup.log)"
log "full backup done ($(grep -c . backup.log) log lines)"

# Journeys, and two subjects the drill erases.
"$bin" emulator --port 0 --processes-file "$work/processes.jsonl" >emulator.out 2>emulator.err & emulator_pid=$!
wait_for emulator.out UNICO_PROD_PRIVATE_KEY_FILE
set -a; eval "$(grep '^UNICO_' emulator.out)"; set +a
"$bin" audit keygen --output "$work/audit.pem" >keygen.out 2>&1 || fail "audit keygen failed: $(cat keygen.out)"
export JOURNEYS_AUDIT_SIGNING_KEY="$work/audit.pem"
export JOURNEYS_ERASURE_LEDGER="$work/ledger/erasures.tsv"
"$bin" serve --port 0 --with-workers >serve.out 2>serve.err & serve_pid=$!
wait_for serve.out "listening on" 60 || fail "serve did not start"
base="http://127.0.0.1:$(awk '/listening on/ {n = split($3, a, ":"); print a[n]}' serve.out)"
key=$("$bin" keys create --name drill --scope journeys:write --scope journeys:read | awk '/^key:/ {print $2}')
[ -n "$key" ] || fail "could not create an API key"
load() { "$bin" load --base-url "$base" --api-key "$key" --clients 4 --duration "$1" --drain 30 --report "load-$2.json" >"load-$2.out" 2>&1 \
  || fail "journeys load failed: $(cat "load-$2.out")"; }
load 5 1
marker=$(openssl rand -hex 4)
declare -a cpfs=() refs=()
for n in 1 2; do
  cpf=$(python3 -c 'import random
d=[random.randint(0,9) for _ in range(9)]
for l in (9,10): d.append(sum(x*(l+1-i) for i,x in enumerate(d[:l]))*10%11%10)
print("".join(map(str,d)))')
  cpfs+=("$cpf")
  status=$(curl -sS -o "start-$n.json" -w '%{http_code}' -X POST "$base/v1/journeys" -H "Authorization: Bearer $key" \
    -H 'Content-Type: application/json' -H "Idempotency-Key: drill-$marker-$n" \
    -d "{\"subject\": {\"documentType\": \"DUI_TYPE_BR_CPF\", \"documentNumber\": \"$cpf\", \"name\": \"Drill Erased $marker $n\"}, \"environment\": \"UAT\", \"flow\": \"humantoken\", \"purpose\": \"creditprocess\", \"clientReference\": \"drill-$marker-$n\"}")
  [ "$status" = 201 ] || fail "start of subject $n answered $status: $(cat "start-$n.json")"
  refs+=("$("$bin" subjects find --document "$cpf" | awk '/^subject / {print $2}')")
done
"$bin" audit checkpoint >checkpoint-1.out 2>&1 || fail "audit checkpoint failed: $(cat checkpoint-1.out)"
sql "SELECT pg_switch_wal()" >/dev/null; sleep 1
target=$(sql "SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') || '+00'")
sleep 1
log "restore point $target; erasing subjects ${refs[0]:0:12}… and ${refs[1]:0:12}…"
"$bin" subjects erase "${refs[0]}" --reason "drill: data subject request" >erase-1.out 2>&1 || fail "erase 1 failed: $(cat erase-1.out)"
load 3 2
"$bin" subjects erase "${refs[1]}" --reason "drill: data subject request" >erase-2.out 2>&1 || fail "erase 2 failed: $(cat erase-2.out)"
"$bin" audit checkpoint >checkpoint-2.out 2>&1 || fail "audit checkpoint failed: $(cat checkpoint-2.out)"
load 2 3
sql "SELECT pg_switch_wal()" >/dev/null
pgbr check >>backup.log 2>&1 || fail "pgbackrest check (WAL archived) failed: $(tail -5 backup.log)"
kill -TERM "$serve_pid" "$emulator_pid"; wait "$serve_pid" "$emulator_pid" 2>/dev/null || true; serve_pid="" emulator_pid=""
"$bin" db stop >/dev/null 2>&1 || fail "journeys db stop failed"

log "restore to $target"
restore_started=$(date +%s)
pgbr --delta --type=time "--target=$target" --target-action=promote restore >restore.log 2>&1 || fail "restore failed: $(tail -5 restore.log)"
"$bin" db start >db-restored.out 2>&1 || fail "journeys db start after the restore failed: $(cat db-restored.out)"
for _ in $(seq 1 60); do [ "$(sql 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ] && break; sleep 0.5; done
[ "$(sql 'SELECT pg_is_in_recovery()')" = f ] || fail "the restored cluster did not leave recovery"
log "restored in $(( $(date +%s) - restore_started )) s"
unset JOURNEYS_ERASURE_LEDGER
# The restore brought the subjects back: their data opens again (the drill's point).
for n in 0 1; do
  "$bin" subjects export "${refs[$n]}" --purpose "restore drill check" >"export-restored-$n.json" 2>&1 \
    || fail "subject $n does not open after the restore: $(head -3 "export-restored-$n.json")"
  grep -q "Drill Erased $marker" "export-restored-$n.json" || fail "subject $n's name is not in its export after the restore"
done
log "after the restore both subjects are readable again (expected): replaying the erasure ledger"
grep -qE "${cpfs[0]}|${cpfs[1]}|Drill Erased" ledger/erasures.tsv && fail "the erasure ledger holds personal data"
[ "$(grep -c . ledger/erasures.tsv)" = 2 ] || fail "the ledger should hold 2 erasures: $(cat ledger/erasures.tsv)"
JOURNEYS_BIN="$bin" "$root/ops/backup/replay-erasures.sh" ledger/erasures.tsv --since "$target" >replay.out 2>&1 \
  || fail "replaying the ledger failed: $(cat replay.out)"
cat replay.out
"$bin" audit checkpoint >checkpoint-3.out 2>&1 || fail "audit checkpoint (re-sign) failed: $(cat checkpoint-3.out)"
audit_status=0
"$bin" audit verify >audit.out 2>&1 || audit_status=$?
as_pg "$pgbin/pg_dumpall" >dumpall.sql 2>dumpall.err || fail "pg_dumpall failed: $(cat dumpall.err)"
problems=()
[ "$audit_status" = 0 ] || problems+=("journeys audit verify exited $audit_status: $(tail -3 audit.out)")
for n in 0 1; do
  out=$("$bin" subjects export "${refs[$n]}" --purpose "restore drill check" 2>&1 || true)
  grep -q "Drill Erased $marker" <<<"$out" && problems+=("subject $n still opens after the ledger replay")
  for needle in "${cpfs[$n]}" "Drill Erased $marker $((n + 1))"; do
    grep -qF "$needle" dumpall.sql && problems+=("pg_dumpall holds '$needle' of erased subject $n")
  done
done
log "pg_dumpall: $(wc -c <dumpall.sql) bytes searched; audit verify exit $audit_status; drill took $(( $(date +%s) - started )) s"
if [ ${#problems[@]} -gt 0 ]; then
  printf '  - %s\n' "${problems[@]}" >&2
  fail "checks failed"
fi
log "restore drill passed: both erasures re-applied after the restore, audit verify passes"
trap - EXIT
cleanup
rm -rf "$work"
