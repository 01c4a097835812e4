#!/usr/bin/env bash
# Installs the Debian packages the project needs; skips what is present.
#   ops/install-deps.sh          what the build and the demo need, nothing else
#   ops/install-deps.sh --test   also the tools the test suite uses
# Recommended packages are never installed (--no-install-recommends).
set -euo pipefail
# Build and run: the three C libraries the systemLibrary targets wrap, pkg-config to find them,
# PostgreSQL's server binaries (initdb, pg_ctl) for the embedded cluster, and libcurl4, which
# the toolchain's FoundationNetworking (the demo's and the tools' URLSession) loads; its headers
# (libcurl4-openssl-dev) are not needed.
packages=(libpq-dev libmicrohttpd-dev libssl-dev pkg-config postgresql libcurl4)
case "${1:-}" in
  "") ;;
  --test)
    # pgbouncer: the PgBouncer tests; wrk: the HTTP benchmark test; python3-venv: the API fuzz
    # (schemathesis from PyPI); chromium: the dashboard's browser test; prometheus and systemd:
    # promtool and systemd-analyze, with which ops/check-ops.sh checks the ops/ folder; openssl:
    # the command that makes OutboundHTTPTests' CA and server certificate.
    packages+=(pgbouncer wrk python3-venv chromium prometheus systemd openssl)
    ;;
  *)
    echo "usage: ops/install-deps.sh [--test]" >&2
    exit 64
    ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  echo "PostgreSQL server binaries (initdb) not found after install" >&2
  exit 1
fi
