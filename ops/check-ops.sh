#!/usr/bin/env bash
# Validates the deployment material in ops/ (called by ops/test.sh):
#  1. the systemd units pass `systemd-analyze verify` with no warning (the binary path points at
#     the built binary, or a stub when none is built, since verify needs it to exist);
#  2. each unit's ExecStartPre refuses a missing required variable with a message naming it;
#  3. the Prometheus rules pass `promtool check rules`, and every metric they use is one the code
#     exposes;
#  4. the example environment file lists every variable the code reads;
#  5. every `journeys …` (and `journeys-bench …`) command in the guides (ops/*.md and the DocC
#     articles under Sources/*/*.docc/) names a real subcommand and only options its --help lists
#     (needs the built binary: .build/debug or .build/release; `journeys bench …` commands against
#     the journeys-bench beside it, which `journeys bench` runs);
#  6. `journeys bench …` runs journeys-bench beside journeys (same output and exit code), and
#     without it fails naming the command that builds it.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
fail() { echo "check-ops: $*" >&2; status=1; }

for tool in systemd-analyze promtool; do
  command -v "$tool" >/dev/null || { echo "check-ops: $tool not found (ops/install-deps.sh installs it)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The folder holding both journeys and journeys-bench with the newer journeys (a release folder left
# from before a change must not stand in for the debug build ops/test.sh just made), else the first
# holding journeys.
binary=""
for candidate in .build/debug/journeys .build/release/journeys; do
  [ -x "$candidate" ] && [ -x "$candidate-bench" ] || continue
  if [ -z "$binary" ] || [ "$candidate" -nt "$binary" ]; then binary="$PWD/$candidate"; fi
done
for candidate in .build/release/journeys .build/debug/journeys; do
  [ -z "$binary" ] && [ -x "$candidate" ] && binary="$PWD/$candidate"
done

# 1. systemd-analyze verify, against a copy whose ExecStart points at an existing binary.
stub="$binary"
if [ -z "$stub" ]; then
  stub="$work/journeys"
  printf '#!/bin/sh\nexit 0\n' >"$stub"
  chmod +x "$stub"
fi
mkdir "$work/units"
for unit in ops/systemd/*.service ops/systemd/*.timer; do
  sed "s|/usr/local/bin/journeys|$stub|g" "$unit" >"$work/units/$(basename "$unit")"
done
if ! out=$(systemd-analyze verify --man=no "$work"/units/* 2>&1) || [ -n "$out" ]; then
  fail "systemd-analyze verify:"
  echo "$out" >&2
fi

# 2. ExecStartPre names each missing required variable (exit 78, EX_CONFIG).
for unit in ops/systemd/*.service; do
  line=$(sed -n 's/^ExecStartPre=//p' "$unit")
  [ -n "$line" ] || { fail "$unit has no ExecStartPre check of its variables"; continue; }
  command=${line//\$\$/\$}
  required=$(echo "$command" | sed -n 's/.*for v in \([A-Z_ ]*\); do.*/\1/p')
  [ -n "$required" ] || { fail "$unit: cannot read the required variables of ExecStartPre"; continue; }
  all=()
  for v in $required; do all+=("$v=set"); done
  env -i PATH=/usr/bin:/bin "${all[@]}" sh -c "$command" || fail "$unit: ExecStartPre refuses a complete environment"
  for missing in $required; do
    some=()
    for v in $required; do [ "$v" = "$missing" ] || some+=("$v=set"); done
    set +e
    message=$(env -i PATH=/usr/bin:/bin "${some[@]}" sh -c "$command" 2>&1)
    code=$?
    set -e
    if [ "$code" != 78 ] || [[ "$message" != *"$missing is not set"* ]]; then
      fail "$unit: without $missing, ExecStartPre exited $code saying: $message"
    fi
  done
done

# 3. promtool, and metric names that exist in Sources/.
for rules in ops/prometheus/*.yml; do
  promtool check rules "$rules" >/dev/null || { fail "promtool check rules $rules"; promtool check rules "$rules" >&2 || true; }
  for metric in $(grep -oE '\b(journeys|http|worker|webhook|result)_[a-z_]+' "$rules" | sort -u); do
    base=$(echo "$metric" | sed -E 's/_(bucket|sum|count)$//')
    grep -rqF "\"$base\"" Sources || fail "$rules uses $metric, which no code exposes"
  done
done

# 4. Every variable the code reads is in the example environment file.
example=ops/journeys.env.example
code_vars=$(grep -rhoE '"(DATABASE|JOURNEYS|UNICO|REPORTS|PG)_[A-Z0-9_]+"' Sources --include=*.swift | tr -d '"' \
  | grep -vE '^(JOURNEYS_TEST_|UNICO_UAT_$|UNICO_PROD_$)' | sort -u)
# The Unico per-environment variables are built from a prefix and suffixes in HumanTokenAPI.
suffixes=$(grep -oE '"(TOKEN_HOST|API_HOST|SERVICE_ACCOUNT|TENANT|PRIVATE_KEY_FILE|PRIVATE_KEY|REQUEST_TIMEOUT|TOKEN_REFRESH_MARGIN|RATE_LIMIT|CREATE_PROCESS_PATH|GET_PROCESS_PATH|FIND_PROCESSES_PATH|LOOKUP)"' \
  Sources/HumanTokenAPI/HumanTokenAPIConfiguration+Loading.swift | tr -d '"' | sort -u)
for environment in UAT PROD; do
  for suffix in $suffixes; do code_vars+=$'\n'"UNICO_${environment}_${suffix}"; done
done
for v in $code_vars; do
  grep -qE "^#?$v=" "$example" || fail "$example does not list $v, which the code reads"
done

# 5. The guides' commands against the binary's own help.
guides=(ops/*.md Sources/*/*.docc/*.md)
if [ -z "$binary" ]; then
  fail "no built journeys binary to check the guides' commands against (run swift build first)"
else
  for guide in "${guides[@]}"; do
  # After `$ ` or a backtick it must be a command; at the start of a line (prose, or a report's
  # output such as "journeys retried  1") only when its first word is a command of the binary.
  # `journeys-bench X` is checked as `journeys bench X`, which runs it.
  commands=$( { grep -oE '[$`] ?journeys(-bench)? [a-z][^`#|]*' "$guide" || true; } | sed -E 's/^[$`] ?//'
    { grep -oE '^journeys(-bench)? [a-z][^`#|]*' "$guide" || true; } | sed -E 's/^/?/')
  commands=$(sed -E 's/^(\??)journeys-bench /\1journeys bench /' <<<"$commands")
  commands=$(sort -u <<<"$commands")
  while IFS= read -r command; do
    [ -n "$command" ] || continue
    if [[ "$command" == \?* ]]; then
      command=${command#\?}
      read -ra words <<<"$command"
      "$binary" --help 2>/dev/null | grep -qE "^  ${words[1]}( |$)" || continue
    fi
    read -ra words <<<"$command"
    path=()
    for word in "${words[@]:1}"; do
      [[ "$word" =~ ^[a-z][a-z0-9-]*$ ]] || break
      if "$binary" "${path[@]}" "$word" --help >/dev/null 2>&1 && \
         "$binary" "${path[@]}" --help 2>/dev/null | grep -qE "^  $word( |$)"; then
        path+=("$word")
      else
        break
      fi
    done
    [ ${#path[@]} -gt 0 ] || { fail "$guide: '$command' names no journeys command"; continue; }
    help=$("$binary" "${path[@]}" --help 2>&1)
    for option in $(echo "$command" | grep -oE -- '--[a-z][a-z-]*' || true); do
      grep -qE -- "$option( |$|,)" <<<"$help" || fail "$guide: '$command': journeys ${path[*]} has no $option"
    done
  done <<<"$commands"
  done
fi

# 6. The bench dispatch: journeys-bench's help and exit code through `journeys bench`; a copy of
# journeys alone in a folder names the command that builds journeys-bench.
if [ -n "$binary" ]; then
  if [ ! -x "$binary-bench" ]; then
    fail "no journeys-bench beside $binary for 'journeys bench' (swift build builds both)"
  else
    [ "$("$binary" bench --help 2>&1)" = "$("$binary-bench" --help 2>&1)" ] \
      || fail "'journeys bench --help' is not journeys-bench's help"
    set +e
    "$binary" bench e2e --seconds 0 >/dev/null 2>&1
    code=$?
    set -e
    [ "$code" = 64 ] || fail "'journeys bench e2e --seconds 0' exited $code, not journeys-bench's 64"
    mkdir "$work/alone"
    ln "$binary" "$work/alone/journeys" 2>/dev/null || cp "$binary" "$work/alone/journeys"
    set +e
    message=$("$work/alone/journeys" bench e2e --json 2>&1)
    code=$?
    set -e
    if [ "$code" = 0 ] || [[ "$message" != *"swift build -c release --product journeys-bench"* ]]; then
      fail "without journeys-bench, 'journeys bench e2e' exited $code saying: $message"
    fi
    "$work/alone/journeys" bench --help 2>/dev/null | grep -q "Its commands: append" \
      || fail "without journeys-bench, 'journeys bench --help' does not list its commands"
  fi
fi

[ "$status" = 0 ] && echo "check-ops: units, alert rules, environment example, the guides' commands and the bench dispatch hold"
exit "$status"
