#!/usr/bin/env bash
# Re-applies the erasures recorded in the erasure ledger (JOURNEYS_ERASURE_LEDGER) since a restore
# point, after a restore brought erased subjects' keys back (ops/RUNBOOK.md, "Back up and restore").
# Usage: ops/backup/replay-erasures.sh LEDGER... --since 2026-03-01T10:00:00Z [--margin 300]
#   LEDGER: one file per host that erases (serve, work, operators' hosts); lines are
#           <RFC 3339 time> TAB <subject reference> TAB <actor>, written before each erasure started.
#   --since: the restore point (UTC). Lines from (since - margin) on are replayed (default margin
#            300 s: clocks of the hosts and the database differ a little; replaying an erasure that
#            the restored database already holds changes nothing).
# Runs `journeys subjects erase <ref>` for each distinct reference, in ledger order, with the same
# environment as the services (DATABASE_URL or DATABASE_ADMIN_URL, JOURNEYS_KEK, ...). A reference
# the restored database does not know (its first journey came after the restore point) is counted
# and skipped. Exits 1 when an erasure failed otherwise.
set -euo pipefail
journeys=${JOURNEYS_BIN:-journeys}
since="" margin=300 ledgers=()
while [ $# -gt 0 ]; do
  case "$1" in
    --since) since=$2; shift 2 ;;
    --margin) margin=$2; shift 2 ;;
    -*) echo "usage: $0 LEDGER... --since TIME [--margin S]" >&2; exit 64 ;;
    *) ledgers+=("$1"); shift ;;
  esac
done
[ -n "$since" ] && [ ${#ledgers[@]} -gt 0 ] || { echo "usage: $0 LEDGER... --since TIME [--margin S]" >&2; exit 64; }
from=$(( $(date -u -d "$since" +%s) - margin ))
refs=$(cat "${ledgers[@]}" | awk -F'\t' 'NF >= 2' | sort -t$'\t' -k1,1 | while IFS=$'\t' read -r at ref _; do
  [ "$(date -u -d "$at" +%s)" -ge "$from" ] && echo "$ref"
done | awk '!seen[$0]++')
erased=0 unknown=0 failed=0
for ref in $refs; do
  if out=$("$journeys" subjects erase "$ref" --reason "re-applied from the erasure ledger after a restore" 2>&1); then
    erased=$((erased + 1)); echo "$out"
  elif grep -q "no data is held" <<<"$out"; then
    unknown=$((unknown + 1)); echo "subject $ref: not in the restored database (nothing to erase)"
  else
    failed=$((failed + 1)); echo "subject $ref: erasure FAILED: $out" >&2
  fi
done
echo "replayed erasures since $since (margin ${margin} s): erased $erased, unknown $unknown, failed $failed"
[ "$failed" = 0 ]
