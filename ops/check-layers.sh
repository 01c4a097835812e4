#!/usr/bin/env bash
# The module layers: the README's architecture picture is the order, `swift package dump-package`
# the truth, and they must agree.
#  1. every target of Package.swift (tests aside) is in the picture, and nothing else is;
#  2. every dependency points down the picture (a module uses only modules below it);
#  3. the edge rules the order alone cannot say: the server's edges (HTTP, CLI, the emulator) are
#     used only by the modules that face them, never by the engine and what it stands on;
#  4. each table is written by its one owner (the table map below) and read elsewhere;
#  5. Package.swift declares its targets bottom up, each after every target it depends on, so its
#     section comments are the layers.
# ops/check-imports.sh checks that the declared dependencies are the imported ones.
set -euo pipefail
cd "$(dirname "$0")/.."
swift package dump-package 2>/dev/null | python3 -c '
import glob, json, re, sys

package = json.load(sys.stdin)
targets = {t["name"]: [v[0] for d in t.get("dependencies", []) for v in d.values()]
           for t in package["targets"] if t["type"] != "test"}

readme = open("README.md", encoding="utf-8").read()
section = readme.split("## Architecture", 1)[1]
picture = section.split("```", 2)[1]
# A module is a target name in a name column: at the start of a line (after the tree glyphs), after
# a run of three spaces (a second column) or after a "·", and followed by two spaces, a "·" or the
# end of the line (its description comes after a gap; a name inside a description does not count).
names = "|".join(sorted(map(re.escape, targets), key=len, reverse=True))
entry = re.compile(r"(?:^[\s\u2502\u251c\u2514\u2500\u2518]*|\s{3,}|\u00b7\s)(" + names + r")(?=\s{2,}|\s\u00b7|$)", re.M)
order = []
for match in entry.finditer(re.sub(r"`[^`]*`", "", picture)):
    if match.group(1) not in order:
        order.append(match.group(1))
rank = {name: index for index, name in enumerate(order)}

problems = []
for name in sorted(set(targets) - set(rank)):
    problems.append(f"{name} is a target of Package.swift but not in the README architecture picture")
for name, dependencies in targets.items():
    for dependency in dependencies:
        if name in rank and dependency in rank and rank[dependency] <= rank[name]:
            problems.append(f"{name} depends on {dependency}, which the picture places above it")

# Package.swift lists the targets bottom up (dump-package keeps their order).
declared = []
for name, dependencies in targets.items():
    for dependency in dependencies:
        if dependency in targets and dependency not in declared:
            problems.append(f"Package.swift declares {name} before {dependency}, which it depends on (declare targets bottom up)")
    declared.append(name)

# Edges the order alone allows but the layers forbid.
facing = {
    "HTTPServer": {"JourneyAPI", "UnicoEmulator", "JourneyApp", "JourneyCommands", "JourneyBenchmarks", "JourneyTesting"},
    "CMicroHTTPD": {"HTTPServer"},
    "CLI": {"JourneyApp", "JourneyCommands", "JourneyBenchmarks", "journeys", "journeys-bench"},
    "UnicoEmulator": {"JourneyApp", "JourneyCommands", "JourneyTesting"},
    "EmbeddedPostgres": {"JourneyApp", "JourneyCommands", "JourneyBenchmarks", "JourneyTesting"},
    "JourneyBenchmarks": {"journeys-bench"},
}
for name, dependencies in targets.items():
    for dependency in dependencies:
        allowed = facing.get(dependency)
        if allowed is not None and name not in allowed:
            users = ", ".join(sorted(allowed))
            problems.append(f"{name} depends on {dependency}, which only {users} may use")

# Each table has one owner: the only module whose statements (its *Statements.swift files, where
# ops/check-sql.sh keeps all SQL) write it, directly or through a definer function. The other
# modules read it, or ask the owner. JourneyBenchmarks, which fills its own benchmark databases,
# is exempt; Migrations creates the tables and is not checked.
owners = {
    "api_keys": "AccessControl", "tenants": "AccessControl",
    "audit_checkpoints": "Audit",
    "events": "EventStore", "projection_checkpoints": "EventStore",
    "idempotency_keys": "JourneyEngine", "process_journeys": "JourneyEngine",
    "schema_migrations": "Migrations",
    "webhook_deliveries": "OutboundWebhooks", "webhook_endpoints": "OutboundWebhooks",
    "subject_keys": "Privacy",
    "journey_state": "Projections",
    "work_leases": "Workers",
}
writers = {  # definer functions that write a table
    "append_events": "events", "append_events_group": "events",
    "purge_idempotency_keys": "idempotency_keys", "purge_webhook_deliveries": "webhook_deliveries",
}
write = re.compile(r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE|COPY)\s+([a-z_][a-z_0-9]*)")
call = re.compile(r"\b(" + "|".join(writers) + r")\s*\(")
tables = set()
for path in sorted(glob.glob("Sources/*/**/*Statements.swift", recursive=True)):
    module = path.split("/")[1]
    if module in ("JourneyBenchmarks", "Migrations") or "/Generated/" in path:
        continue
    text = open(path, encoding="utf-8").read()
    written = {m.group(1) for m in write.finditer(text)} | {writers[m.group(1)] for m in call.finditer(text)}
    for table in sorted(written):
        tables.add(table)
        owner = owners.get(table)
        if owner is None:
            problems.append(f"{path} writes {table}, which has no owner in the table map of ops/check-layers.sh")
        elif owner != module:
            problems.append(f"{path} writes {table}, which {owner} owns: ask {owner} (or make it an event)")

for problem in problems:
    print(f"check-layers: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-layers: {len(order)} modules in the README picture and Package.swift bottom up, every dependency points down; "
      f"{len(tables)} tables written, each by its owner only")
'
