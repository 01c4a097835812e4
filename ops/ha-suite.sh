#!/usr/bin/env bash
# The HA suite (issue 22 item 2): failover and switchover of a two-node Patroni cluster under load, on
# loopback. etcd (one member), two Patroni nodes configured by ops/ha/patroni-node.yml.in (synchronous
# mode, primary_start_timeout 0), the database set up as ops/RUNBOOK.md says (roles, a database owned by
# journeys_owner, `journeys migrate` as the owner), every DATABASE_* URL a libpq multi-host URL with
# target_session_attrs=read-write, the emulator, `journeys serve --with-workers` and `journeys load`
# (8 clients). Faults: kill -9 of the leader's postmaster, then (once the old leader is back as a
# replica) a planned `patronictl switchover` back. ops/fault-check.py then fails the run on a lost
# acknowledged journey, a key with two journeys, an attempt with two Unico processes, audit verify, a
# 500, a key without a final answer, or a recovery over HA_RECOVERY_MAX_S (default 15): from the new
# leader answering Patroni's GET /primary to the success of every client that waited (the log also
# prints the promotion time since the kill). Bounded waits throughout.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
missing=()
command -v patroni >/dev/null || missing+=(patroni python3-etcd python3-psycopg2)
command -v etcd >/dev/null || missing+=(etcd-server)
command -v etcdctl >/dev/null || missing+=(etcd-client)
[ ${#missing[@]} = 0 ] || {
  echo "ha-suite: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
bin="${JOURNEYS_BIN:-$(swift build --show-bin-path)/journeys}"
[ -x "$bin" ] || [ -n "${JOURNEYS_BIN:-}" ] || bin="$PWD/.build/release/journeys"
[ -x "$bin" ] || { echo "error: $bin is not built; run swift build first" >&2; exit 1; }
pgbin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
recovery_max=${HA_RECOVERY_MAX_S:-15}
work=$(mktemp -d /tmp/journeys-ha.XXXXXX)
chmod 755 "$work"
cd "$work"
declare -A pids=() pg_port=() rest_port=()
log() { printf '%s ha-suite: %s\n' "$(date +%T)" "$*"; }
now() { date +%s.%N; }
cleanup() {
  [ -n "${pids[load]:-}" ] && kill -9 "${pids[load]}" 2>/dev/null
  for name in serve emulator node1 node2 etcd; do
    [ -n "${pids[$name]:-}" ] && kill "${pids[$name]}" 2>/dev/null
    [ -n "${pids[$name]:-}" ] && for _ in $(seq 1 100); do kill -0 "${pids[$name]}" 2>/dev/null || break; sleep 0.1; done
  done
  for name in node1 node2; do  # a postmaster Patroni left behind
    [ -f "$work/$name/data/postmaster.pid" ] && runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/$name/data" -m immediate stop >/dev/null 2>&1
  done
  wait 2>/dev/null || true
}
trap cleanup EXIT
fail() { echo "error: ha suite: $* (files in $work)" >&2; exit 1; }
wait_for() { local tries=$(( ${3:-30} * 10 )); for _ in $(seq 1 "$tries"); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "error: timed out waiting for '$2' in $1" >&2; tail -5 "$1" >&2 || true; return 1; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
secret() { openssl rand -base64 32 | tr '+/' '-_' | tr -d '='; }
role_of() { curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${rest_port[$1]}/primary" 2>/dev/null || true; }
leader() { for n in node1 node2; do [ "$(role_of $n)" = 200 ] && { echo $n; return 0; }; done; return 0; }
wait_leader() { # [seconds] -> name
  for _ in $(seq 1 $(( ${1:-60} * 5 ))); do l=$(leader); [ -n "$l" ] && { echo "$l"; return 0; }; sleep 0.2; done; return 1; }
wait_sync() { # [node] until it (or either node) answers Patroni's GET /sync (the synchronous standby), bounded
  for _ in $(seq 1 300); do
    for n in ${1:-node1 node2}; do
      [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${rest_port[$n]}/sync" 2>/dev/null)" = 200 ] && return 0
    done; sleep 0.2
  done; return 1; }
record() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>faults.tsv; }
settle() {
  local deadline=$(( $(date +%s) + 45 )) quiet=0
  while [ "$(date +%s)" -lt "$deadline" ] && [ "$quiet" -lt 15 ]; do
    if grep -q '^waiting=0 ' load.status 2>/dev/null; then quiet=$((quiet + 1)); else quiet=0; fi; sleep 0.2
  done
  [ "$quiet" -ge 15 ] || log "clients still waiting after 45 s: $(cat load.status)"
  sleep 1
}
started=$(date +%s)
log "work folder $work"

etcd_client=$(free_port) etcd_peer=$(free_port)
etcd --name ha --data-dir "$work/etcd" --listen-client-urls "http://127.0.0.1:$etcd_client" \
  --advertise-client-urls "http://127.0.0.1:$etcd_client" --listen-peer-urls "http://127.0.0.1:$etcd_peer" \
  --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" --initial-cluster "ha=http://127.0.0.1:$etcd_peer" \
  >etcd.log 2>&1 & pids[etcd]=$!
for _ in $(seq 1 50); do ETCDCTL_API=3 etcdctl --endpoints "127.0.0.1:$etcd_client" endpoint health >/dev/null 2>&1 && break; sleep 0.2; done
superuser_pw=$(secret) replication_pw=$(secret)
for n in node1 node2; do
  pg_port[$n]=$(free_port) rest_port[$n]=$(free_port)
  install -d -o postgres -g postgres -m 0700 "$work/$n" "$work/$n/run"
  sed -e "s|@NAME@|$n|; s|@HOST@|127.0.0.1|g; s|@REST_PORT@|${rest_port[$n]}|g; s|@PG_PORT@|${pg_port[$n]}|g" \
      -e "s|@ETCD_HOSTS@|127.0.0.1:$etcd_client|; s|@NETWORK@|127.0.0.1/32|g; s|@DATA_DIR@|$work/$n/data|" \
      -e "s|@PGPASS@|$work/$n/pgpass|; s|@SUPERUSER_PASSWORD@|$superuser_pw|g; s|@REPLICATION_PASSWORD@|$replication_pw|g" \
      -e "s|@SOCKET_DIR@|$work/$n/run|; s|/usr/lib/postgresql/15/bin|$pgbin|" "$root/ops/ha/patroni-node.yml.in" >"$n.yml"
  chown postgres "$n.yml"; chmod 600 "$n.yml"
done
runuser -u postgres -- patroni "$work/node1.yml" >node1.log 2>&1 & pids[node1]=$!
first=$(wait_leader 90) || fail "no leader after 90 s (node1.log)"
runuser -u postgres -- patroni "$work/node2.yml" >node2.log 2>&1 & pids[node2]=$!
wait_sync || fail "node2 did not become a streaming sync standby (node2.log)"
log "Patroni: leader $first; node2 sync standby"

# The database as the runbook says: roles, a database owned by journeys_owner, migrate as the owner.
psql_leader() { PGPASSWORD=$superuser_pw "$pgbin/psql" -XAtq -h 127.0.0.1 -p "${pg_port[$first]}" -U postgres "$@"; }
declare -A pw=()
for role in journeys_owner journeys_app journeys_projector journeys_analyst; do
  pw[$role]=$(openssl rand -hex 16)
  psql_leader -d postgres -c "CREATE ROLE $role LOGIN PASSWORD '${pw[$role]}'" || fail "CREATE ROLE $role"
done
psql_leader -d postgres -c "CREATE DATABASE journeys OWNER journeys_owner" || fail "CREATE DATABASE"
url() { echo "postgresql://$1:${pw[$1]}@127.0.0.1:${pg_port[node1]},127.0.0.1:${pg_port[node2]}/journeys?target_session_attrs=read-write&connect_timeout=2"; }
export DATABASE_URL=$(url journeys_app) DATABASE_PROJECTOR_URL=$(url journeys_projector) DATABASE_LISTEN_URL=$(url journeys_app)
export JOURNEYS_KEK=$(secret) JOURNEYS_KEK_ID=kek-ha JOURNEYS_SUBJECT_REF_KEY=$(secret) JOURNEYS_CLIENT_TOKEN_KEY=$(secret) JOURNEYS_SESSION_KEY=$(secret)
"$bin" audit keygen --output "$work/audit.pem" >keygen.out 2>&1 || fail "audit keygen: $(cat keygen.out)"
export JOURNEYS_AUDIT_SIGNING_KEY="$work/audit.pem"
DATABASE_ADMIN_URL=$(url journeys_owner) "$bin" migrate >migrate.out 2>&1 || fail "journeys migrate: $(tail -3 migrate.out)"

printf '{"routes": {"createProcess": {"latencyMs": {"min": 200, "max": 600}}}}\n' >unico-faults.json
"$bin" emulator --port 0 --faults unico-faults.json --processes-file "$work/processes.jsonl" >emulator.out 2>emulator.err & pids[emulator]=$!
wait_for emulator.out UNICO_PROD_PRIVATE_KEY_FILE
set -a; eval "$(grep '^UNICO_' emulator.out)"; set +a
DATABASE_ADMIN_URL=$(url journeys_owner) "$bin" keys create --name ha --scope journeys:write --scope journeys:read >key.out 2>&1 || fail "keys create: $(cat key.out)"
key=$(awk '/^key:/ {print $2}' key.out)
"$bin" serve --port 0 --with-workers >serve.out 2>serve.err & pids[serve]=$!
wait_for serve.out "listening on" 60 || fail "serve did not start (serve.err)"
port=$(awk '/listening on/ {n = split($3, a, ":"); print a[n]}' serve.out)
: >faults.tsv
"$bin" load --base-url "http://127.0.0.1:$port" --api-key "$key" --clients 8 --duration 600 --drain 90 \
  --stop-file "$work/stop" --status-file "$work/load.status" --report "$work/report.json" >load.out 2>load.err & pids[load]=$!
sleep 8

old=$(leader); [ -n "$old" ] || fail "no leader before the failover"
postmaster=$(head -1 "$work/$old/data/postmaster.pid")
down=$(now); kill -9 "$postmaster"
new=""
for _ in $(seq 1 150); do new=$(leader); [ -n "$new" ] && [ "$new" != "$old" ] && break; new=""; sleep 0.2; done
[ -n "$new" ] || fail "no new leader 30 s after kill -9 of $old's postmaster"
promoted=$(now)
record "kill -9 leader ($old)" "$down" "$promoted"
log "kill -9 of $old's postmaster: $new leads after $(awk -v a="$down" -v b="$promoted" 'BEGIN {printf "%.1f", b - a}') s"
settle
wait_sync "$old" || fail "$old did not come back as a streaming sync standby (its log: $old.log)"
log "$old is back as sync standby"
down=$(now)
runuser -u postgres -- patronictl -c "$work/node1.yml" switchover --leader "$new" --candidate "$old" --force >switchover.out 2>&1 \
  || runuser -u postgres -- patronictl -c "$work/node1.yml" switchover --master "$new" --candidate "$old" --force >switchover.out 2>&1 \
  || fail "patronictl switchover: $(tail -3 switchover.out)"
for _ in $(seq 1 150); do [ "$(leader)" = "$old" ] && break; sleep 0.2; done
[ "$(leader)" = "$old" ] || fail "switchover to $old did not happen"
record "switchover to $old" "$down" "$(now)"
log "planned switchover back to $old in $(awk -v a="$down" -v b="$(now)" 'BEGIN {printf "%.1f", b - a}') s"
settle
touch "$work/stop"
wait "${pids[load]}" || fail "journeys load failed: $(cat load.err)"; unset 'pids[load]'
cat load.out
kill -TERM "${pids[serve]}"; wait "${pids[serve]}" 2>/dev/null || true; unset 'pids[serve]'
kill -TERM "${pids[emulator]}"; wait "${pids[emulator]}" 2>/dev/null || true; unset 'pids[emulator]'
"$bin" events tail >events.jsonl 2>events.err || fail "events tail: $(cat events.err)"
audit_status=0
"$bin" audit verify >audit.out 2>&1 || audit_status=$?
python3 "$root/ops/fault-check.py" --report report.json --faults faults.tsv --events events.jsonl \
  --processes processes.jsonl --audit-status "$audit_status" --audit-output audit.out \
  --recovery-max "$recovery_max" --pending-max "${HA_PENDING_MAX_S:-75}" || fail "checks failed (see above)"
log "run took $(( $(date +%s) - started )) s"
trap - EXIT
cleanup
rm -rf "$work"
