#!/usr/bin/env bash
# Import hygiene: every module of this package that a target's Swift files import must be a
# dependency that target declares itself in Package.swift (not one it only reaches through
# another target). Fails, listing each `target: file imports X, not declared`; also prints,
# without failing, declared dependencies on this package's targets that no file imports.
# System modules (Foundation, Testing, Glibc, ...) are not targets of the package and are
# ignored. Also fails when the `journeys` product reaches JourneyBenchmarks through any target it
# depends on: the benchmarks are the journeys-bench product's, which `journeys bench` runs; and when
# a target outside URLSESSION_ALLOWED imports FoundationNetworking (outbound HTTP goes through
# OutboundHTTP).
# Needs only swift and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
manifest=$(mktemp)
trap 'rm -f "$manifest"' EXIT
swift package dump-package >"$manifest"
python3 - "$manifest" <<'PY'
import json
import os
import re
import sys

with open(sys.argv[1]) as handle:
    package = json.load(handle)
targets = package["targets"]
names = {target["name"] for target in targets}

# `import X`, `@testable import X`, `@preconcurrency public import X`, `import struct X.Y`, `import X.Sub`.
IMPORT = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?"
    r"([A-Za-z_][A-Za-z0-9_]*)")


def declared(target):
    """Names of this package's targets that `target` lists as dependencies."""
    result = set()
    for dependency in target.get("dependencies", []):
        for kind in ("byName", "target"):
            if kind in dependency and dependency[kind][0] in names:
                result.add(dependency[kind][0])
    return result


def folder(target):
    if target.get("path"):
        return target["path"]
    return os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])


def swift_files(target):
    root = folder(target)
    excluded = [os.path.normpath(os.path.join(root, path)) for path in target.get("exclude", [])]
    sources = target.get("sources")
    included = [os.path.normpath(os.path.join(root, path)) for path in sources] if sources else [root]
    for base, directories, files in os.walk(root):
        directories.sort()
        for name in sorted(files):
            path = os.path.normpath(os.path.join(base, name))
            if not name.endswith(".swift"):
                continue
            if any(path == e or path.startswith(e + os.sep) for e in excluded):
                continue
            if not any(path == i or path.startswith(i + os.sep) for i in included):
                continue
            yield path


def imports(path):
    """Modules imported by the file, skipping comments and multi-line string literals."""
    found = []
    comment_depth = 0
    in_string = False
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if in_string:
                if line.count('"""') % 2 == 1:
                    in_string = False
                continue
            if comment_depth:
                comment_depth += line.count("/*") - line.count("*/")
                continue
            code = line.split("//", 1)[0]
            match = IMPORT.match(code)
            if match:
                found.append(match.group(1))
            comment_depth = max(0, code.count("/*") - code.count("*/"))
            if code.count('"""') % 2 == 1:
                in_string = True
    return found


# Calls out of the service go through OutboundHTTP (it connects only to the addresses its caller
# checked and reads a bounded answer), the Unico client included; URLSession (FoundationNetworking)
# only in these targets: the iOS client, and the tools that call this service or the emulator.
URLSESSION_ALLOWED = {"JourneyClient", "SDKLiteSimulator", "UnicoEmulator", "JourneyApp",
                      "JourneyBenchmarks", "JourneyCommands", "JourneyTesting"}

failures = []
unused = []
for target in targets:
    if target["type"] in ("system", "binary", "plugin", "macro"):
        continue
    own = declared(target)
    used = set()
    for path in swift_files(target):
        for module in imports(path):
            if module == "FoundationNetworking" and target["type"] != "test" and target["name"] not in URLSESSION_ALLOWED:
                failures.append(f"{target['name']}: {path} imports FoundationNetworking; outbound HTTP goes through OutboundHTTP")
            if module not in names or module == target["name"]:
                continue
            used.add(module)
            if module not in own:
                failures.append(f"{target['name']}: {path} imports {module}, not declared")
    for module in sorted(own - used):
        unused.append(f"{target['name']}: declares {module}, never imported")

# Products that must not link a target, directly or through another target.
APART = {"journeys": {"JourneyBenchmarks"}}
by_name = {target["name"]: target for target in targets}
linked = []


def closure(name):
    """Every target of this package that `name` depends on, directly or not."""
    seen, stack = set(), [name]
    while stack:
        for dependency in declared(by_name[stack.pop()]):
            if dependency not in seen:
                seen.add(dependency)
                stack.append(dependency)
    return seen


for name in sorted(set(APART) - {product["name"] for product in package["products"]}):
    linked.append(f"product {name}: not in Package.swift (ops/check-imports.sh checks what it must not link)")
for product in package["products"]:
    for excluded in sorted(APART.get(product["name"], set())):
        for target in product["targets"]:
            if excluded == target or excluded in closure(target):
                linked.append(f"product {product['name']}: target {target} reaches {excluded}, which it must not link")

for line in unused:
    print(f"note: {line}")
sys.stdout.flush()
for line in sorted(set(failures)):
    print(line, file=sys.stderr)
for line in linked:
    print(line, file=sys.stderr)
if failures:
    undeclared = len({line.split(":", 1)[0] for line in failures})
    print(f"error: {undeclared} target(s) import modules they do not declare in Package.swift, or URLSession", file=sys.stderr)
if linked:
    print("error: a product links a target it must not (Package.swift: see above)", file=sys.stderr)
if failures or linked:
    sys.exit(1)
print(f"imports: {sum(1 for t in targets if t['type'] not in ('system', 'binary', 'plugin', 'macro'))} targets "
      "declare every module of this package they import; "
      + "; ".join(f"{name} does not link {', '.join(sorted(apart))}" for name, apart in APART.items()))
PY
