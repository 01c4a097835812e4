#!/usr/bin/env bash
# Writes pgBackRest's backup figures for Prometheus (node_exporter's textfile collector):
#   pgbackrest_backup_last_completed_timestamp_seconds{stanza,type}  end of the newest backup of each type
#   pgbackrest_backup_count{stanza}                                  backups held in the repository
#   pgbackrest_archive_last_timestamp_seconds{stanza}                last WAL segment archived (pg_stat_archiver)
# Usage: ops/backup/pgbackrest-metrics.sh [--stanza journeys] [--config FILE] [--output FILE]
# Run it after every backup and from a timer every 5 minutes; ops/prometheus/database-alerts.yml
# alerts on the age (JourneysBackupStale, JourneysWALArchiveStale). The archiver's time comes from
# the local PostgreSQL (psql as the postgres user; PGHOST/PGPORT are honoured).
set -euo pipefail
stanza=journeys config=/etc/pgbackrest/pgbackrest.conf output=/var/lib/prometheus/node-exporter/pgbackrest.prom
while [ $# -gt 0 ]; do
  case "$1" in
    --stanza) stanza=$2; shift 2 ;;
    --config) config=$2; shift 2 ;;
    --output) output=$2; shift 2 ;;
    *) echo "usage: $0 [--stanza NAME] [--config FILE] [--output FILE]" >&2; exit 64 ;;
  esac
done
info=$(pgbackrest --config="$config" --stanza="$stanza" info --output=json)
archived=$(psql -XAtc "SELECT coalesce(extract(epoch FROM last_archived_time)::bigint, 0) FROM pg_stat_archiver" 2>/dev/null || echo 0)
tmp=$(mktemp "$(dirname "$output")/.pgbackrest.XXXXXX")
program=$(cat <<'PY'
import json, sys
stanza, archived = sys.argv[1], int(sys.argv[2] or 0)
info = json.load(sys.stdin)
print("# HELP pgbackrest_backup_last_completed_timestamp_seconds End of the newest backup of each type.")
print("# TYPE pgbackrest_backup_last_completed_timestamp_seconds gauge")
count = 0
for entry in info:
    if entry.get("name") != stanza:
        continue
    newest = {}
    for backup in entry.get("backup", []):
        count += 1
        stop = backup["timestamp"]["stop"]
        newest[backup["type"]] = max(newest.get(backup["type"], 0), stop)
    for kind, stop in sorted(newest.items()):
        print(f'pgbackrest_backup_last_completed_timestamp_seconds{{stanza="{stanza}",type="{kind}"}} {stop}')
print("# HELP pgbackrest_backup_count Backups held in the repository.")
print("# TYPE pgbackrest_backup_count gauge")
print(f'pgbackrest_backup_count{{stanza="{stanza}"}} {count}')
print("# HELP pgbackrest_archive_last_timestamp_seconds When PostgreSQL last archived a WAL segment.")
print("# TYPE pgbackrest_archive_last_timestamp_seconds gauge")
if archived:
    print(f'pgbackrest_archive_last_timestamp_seconds{{stanza="{stanza}"}} {archived}')
PY
)
python3 -c "$program" "$stanza" "$archived" <<<"$info" >"$tmp"
chmod 0644 "$tmp"
mv "$tmp" "$output"
