#!/usr/bin/env bash
# Regenerates Sources/JourneyDomain/Events/Generated/EventReaders.swift: the byte-level readers
# (`init(reading:)` over JSONBytes' `JSONReader`) of every event payload struct of
# Sources/JourneyDomain/Events/ and of the value structs they hold, written from their stored
# `let`/`var` properties with what their synthesized `Codable` does: the same keys, required
# properties required, optionals absent or null, properties set as decoded.
#
# Types whose `Codable` is written by hand keep hand-written readers
# (Sources/JourneyDomain/Events/EventValues+Reading.swift); they are named in HANDWRITTEN below,
# and the generator stops when it meets another one (or a property it cannot read: an initial
# value, a dictionary, a set, an optional array).
#
# The header names the input files and a fingerprint of their lines (FNV-1a 64, comments and blank
# lines left out); a JourneyDomainTests test recomputes it and fails while the output is stale.
# The output is formatted with the top-level .swift-format, as ops/check-format.sh wants it.
# Needs python3 and swift.
set -euo pipefail
cd "$(dirname "$0")/.."
out=Sources/JourneyDomain/Events/Generated/EventReaders.swift
mkdir -p "$(dirname "$out")"
python3 - "$out" <<'PY'
import os
import re
import sys

OUT = sys.argv[1]
DOMAIN = "Sources/JourneyDomain"
EVENTS = DOMAIN + "/Events"
PAYLOAD = "JourneyEventPayload"
# Types with a hand-written `Codable`, so a hand-written reader (EventValues+Reading.swift).
HANDWRITTEN = {"RetryPolicy", "CallbackOutcome"}
# The reads of the standard types.
STANDARD = {
    "String": "try r.string()",
    "Int": "try r.int()",
    "Double": "try r.double()",
    "TimeInterval": "try r.double()",
    "Bool": "try r.bool()",
    "Date": "try r.date()",
}
CLOSURE = "(r) throws(JSONReadError) in"


def fail(message):
    sys.exit(f"ops/gen-event-readers.sh: {message}")


def code_only(text):
    """`text` without comments, string literals emptied: braces and colons in them do not count."""
    return re.sub(r'"(?:\\.|[^"\\\n])*"|//[^\n]*', lambda m: '""' if m.group(0)[0] == '"' else "", text)


DECLARATION = re.compile(
    r"\b(struct|enum|extension|class|actor|protocol)\s+(\w+(?:\.\w+)*)\s*(?:<[^>{]*>)?"
    r"\s*(?::\s*([^{=]*?))?\s*(?:\bwhere\b[^{]*)?$")


class Declaration:
    def __init__(self, kind, name, inherits, path, parent):
        self.kind, self.name, self.path, self.parent = kind, name, path, parent
        self.inherits = [part.strip() for part in (inherits or "").replace("\n", " ").split(",") if part.strip()]
        self.body = ""  # the declaration's own level: nested blocks emptied to `{}`


def declarations(path):
    """Every type and extension declared in `path`, each with its body's own level."""
    text = code_only(open(path, encoding="utf-8").read())
    found, stack, last = [], [], 0  # stack: (declaration or None, start of its body)
    for index, char in enumerate(text):
        if char == "{":
            header = text[last:index]
            match = DECLARATION.search(header)
            parent = next((d for d, _ in reversed(stack) if d is not None), None)
            declaration = None
            if match and (not stack or stack[-1][0] is not None):
                declaration = Declaration(match.group(1), match.group(2), match.group(3), path, parent)
                found.append(declaration)
            stack.append((declaration, index + 1))
            last = index + 1
        elif char == "}":
            if not stack:
                fail(f"{path}: unbalanced braces")
            declaration, start = stack.pop()
            if declaration is not None:
                declaration.body = flatten(text[start:index])
            last = index + 1
        elif char == ";":
            last = index + 1
    return found


def flatten(body):
    """`body` with every nested block emptied to `{}`."""
    while True:
        emptied = re.sub(r"\{[^{}]*\}", "{}", body)
        if emptied == body:
            return body
        body = emptied


PROPERTY = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*((?:(?:public|package|internal|fileprivate|private)(?:\(set\))?\s+"
    r"|static\s+|class\s+|lazy\s+|nonisolated\s+|final\s+)*)(let|var)\s+(.*)$")


def stored_properties(declaration):
    """(name, type) of each stored instance property, in declaration order."""
    properties = []
    for line in declaration.body.split("\n"):
        match = PROPERTY.match(line)
        if not match or re.search(r"\bstatic\b|\bclass\b", match.group(1)):
            continue
        rest = match.group(3).strip()
        typed = re.match(r"^(\w+)\s*:\s*([^={]+?)\s*(=.*|\{.*)?$", rest)
        if not typed:
            fail(f"{declaration.path}: cannot read the property `{rest}` of {declaration.name}")
        name, type_text, tail = typed.groups()
        if tail and tail.startswith("{"):
            continue  # computed
        if tail:
            fail(f"{declaration.path}: {declaration.name}.{name} has an initial value, which the synthesized Codable "
                 f"treats apart; add {declaration.name} to HANDWRITTEN and write its reader by hand")
        properties.append((name, type_text.replace(" ", "")))
    return properties


files = sorted(
    os.path.join(folder, name)
    for folder, _, names in os.walk(DOMAIN)
    for name in names
    if name.endswith(".swift") and not folder.startswith(EVENTS + "/Generated"))
every = [d for path in files for d in declarations(path)]
types = [d for d in every if d.kind != "extension"]
custom = {d.name.split(".")[-1] for d in every if re.search(r"\binit\s*\(\s*from\b|\bCodingKeys\b", d.body)}


def resolve(name, within):
    """The declaration `name` means inside `within`: nested there, in its file, or the package's one."""
    name = name.split(".")[-1]
    nested = [d for d in types if d.name == name and d.parent is within]
    same_file = [d for d in types if d.name == name and d.path == within.path]
    anywhere = [d for d in types if d.name == name]
    for candidates in (nested, same_file, anywhere):
        kinds = {kind_of(d) for d in candidates}
        if len(kinds) == 1:
            return candidates[0]
        if len(kinds) > 1:
            fail(f"{within.path}: `{name}` means several types of different kinds; qualify it or write the reader by hand")
    fail(f"{within.path}: no declaration of `{name}` in {DOMAIN}")


def kind_of(declaration):
    first = declaration.inherits[0] if declaration.inherits else ""
    if declaration.kind == "enum" and first == "String":
        return "string enum"
    if declaration.kind == "struct" and "StringValue" in declaration.inherits:
        return "string value"
    if declaration.kind == "struct" and "RawRepresentable" in declaration.inherits:
        raw = dict(stored_properties(declaration)).get("rawValue")
        if raw in ("Int", "String"):
            return f"{raw.lower()} value"
    return declaration.kind


generate = []  # the structs to write readers for, payloads first


def read(type_text, within):
    """The expression reading `type_text` (no optional, no array) inside `within`'s reader."""
    if type_text in STANDARD:
        return STANDARD[type_text]
    if type_text == "[String]":
        return "try r.strings()"
    if type_text.endswith("?") or type_text.startswith("[") or "<" in type_text:
        fail(f"{within.path}: cannot read `{type_text}` in {within.name}; write its reader by hand")
    if type_text in HANDWRITTEN:
        return f"try {type_text}(reading: &r)"
    declaration = resolve(type_text, within)
    kind = kind_of(declaration)
    if kind == "string enum":
        return f"try r.raw({type_text}.self)"
    if kind == "string value":
        return f"{type_text}(rawValue: try r.string())"
    if kind == "int value":
        return f"{type_text}(rawValue: try r.int())"
    if kind == "struct":
        if declaration.name in custom:
            fail(f"{declaration.path}: {declaration.name} has a hand-written Codable; add it to HANDWRITTEN "
                 f"and write its reader in {EVENTS}/EventValues+Reading.swift")
        if declaration not in generate:
            generate.append(declaration)
        return f"try {type_text}(reading: &r)"
    fail(f"{declaration.path}: {declaration.name} is an {kind} without a String raw value; add it to HANDWRITTEN")


def case(slot, name, type_text, within):
    """The `case` of the object's switch that reads property `name`."""
    label = f"case {slot}:"
    if type_text.endswith("?"):
        inner = type_text[:-1]
        if inner.startswith("[") and inner != "[String]":
            fail(f"{within.path}: cannot read `{type_text}` in {within.name}; write its reader by hand")
        return [f"{label} {name} = try r.optional {{ {CLOSURE} {read(inner, within)} }}"]
    if type_text.startswith("[") and type_text != "[String]":
        element = type_text[1:-1]
        if ":" in element:
            fail(f"{within.path}: cannot read `{type_text}` in {within.name}; write its reader by hand")
        return [
            label,
            f"    var list: {type_text} = []",
            f"    try r.array {{ {CLOSURE} list.append({read(element, within)}) }}",
            f"    {name} = list",
        ]
    return [f"{label} {name} = {read(type_text, within)}"]


def reader(declaration):
    properties = stored_properties(declaration)
    if not properties:
        fail(f"{declaration.path}: {declaration.name} has no stored properties")
    keys = ", ".join(f'"{name}"' for name, _ in properties)
    lines = [
        f"extension {declaration.name} {{",
        f"    private static let keys = JSONKeys([{keys}])",
        "",
        "    init(reading r: inout JSONReader) throws(JSONReadError) {",
    ]
    lines += [f"        var {name}: {type_text.rstrip('?')}?" for name, type_text in properties]
    lines.append("        try r.object(keys: Self.keys) { (r, slot) throws(JSONReadError) in")
    lines.append("            switch slot {")
    for slot, (name, type_text) in enumerate(properties):
        lines += ["            " + line for line in case(slot, name, type_text, declaration)]
    lines += ["            default: break", "            }", "        }"]
    required = [name for name, type_text in properties if not type_text.endswith("?")]
    if required:
        bound = ", ".join(f"let {name}" for name in required)
        lines.append(f"        guard {bound} else {{ throw r.failure(.unexpectedValue) }}")
    lines += [f"        self.{name} = {name}" for name, _ in properties]
    lines += ["    }", "}"]
    return lines


payloads = sorted(
    (d for d in types
     if d.kind == "struct" and PAYLOAD in d.inherits and os.path.dirname(d.path) == EVENTS and d.name not in HANDWRITTEN),
    key=lambda d: d.name)
if not payloads:
    fail(f"no struct conforming to {PAYLOAD} in {EVENTS}")
generate += payloads
bodies, index = [], 0
while index < len(generate):  # reading a payload may add the value structs it holds
    bodies.append(reader(generate[index]))
    index += 1
order = sorted(range(len(generate)), key=lambda i: (generate[i] not in payloads, generate[i].name))

inputs = sorted({d.path for d in generate})
fingerprint = 0xCBF29CE484222325


def add(data):
    global fingerprint
    for byte in data:
        fingerprint = ((fingerprint ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF


for path in inputs:
    add(path.encode() + b"\n")
    for line in open(path, "rb").read().split(b"\n"):
        line = line.strip(b" \t\r")
        if line and not line.startswith(b"//"):
            add(line + b"\n")

header = [
    "// Generated by ops/gen-event-readers.sh from the stored properties declared in the input files. Do not edit.",
    "//",
    "// Each reader reads what the type's synthesized `Codable` reads: the same keys, required properties",
    "// required, optionals absent or null, properties set as decoded (see `JourneyEvent+Reading.swift`).",
    f"// fingerprint: {fingerprint:016x}",
] + [f"// input: {path}" for path in inputs]
text = header + ["", "import Foundation", "import JSONBytes"]
for i in order:
    text += [""] + bodies[i]
with open(OUT, "w", encoding="utf-8") as handle:
    handle.write("\n".join(text) + "\n")
PY
swift format --in-place --configuration .swift-format "$out"
echo "wrote $out"
