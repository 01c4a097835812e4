#!/usr/bin/env bash
# Installs the Debian packages the project builds and tests with; skips what is present.
set -euo pipefail
# pgbouncer: the PgBouncer tests; prometheus provides promtool and systemd provides systemd-analyze (ops/check-ops.sh checks the ops/ folder with them).
packages=(libpq-dev libmicrohttpd-dev libssl-dev libcurl4-openssl-dev postgresql pgbouncer pkg-config wrk python3-venv chromium prometheus systemd)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}"
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "PostgreSQL server binaries (initdb) not found after install" >&2
  exit 1
fi
