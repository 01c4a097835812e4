import Foundation

/// Reads a JSON document into a `JSONValue` in one pass over its bytes (Unico's answers, the emulator's
/// request bodies, JWT headers and claims).
///
/// `JSONDecoder` builds a `JSONValue` by trying Bool, Int, Double, String and array in turn for
/// every value (a thrown error each), which made decoding the Create Process answer a visible
/// share of a start's CPU. This reader vouches only for the plain shapes (objects, arrays,
/// strings with simple escapes, `true`/`false`/`null`, integers that fit `Int`) in a top-level object or
/// array; on anything
/// else (fractions, exponents, `\u` escapes, duplicate keys, deep nesting, malformed input) it
/// answers what `JSONDecoder` answers, so both paths give the same value or the same refusal.
public enum JSONValueReader {
    /// The value `JSONDecoder().decode(JSONValue.self, from: data)` gives, nil where it throws.
    public static func value(_ data: Data) -> JSONValue? {
        let fast = data.withUnsafeBytes { raw -> JSONValue? in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self))
            return scanner.document()
        }
        if let fast { return fast }
        return try? JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// A cursor over the bytes; every method returns nil for "not vouched for".
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func document() -> JSONValue? {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "["),
                let value = value()
            else { return nil }
            skipSpace()
            // Not `index == bytes.count ? value : nil`: that `nil` would be `JSONValue.null`.
            guard index == bytes.count else { return nil }
            return value
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value() -> JSONValue? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return integer()
            }
        }

        mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
            let count = word.utf8CodeUnitCount
            guard bytes.count - index >= count else { return nil }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
            index += count
            return value
        }

        mutating func object() -> JSONValue? {
            depth += 1
            guard depth <= 32 else { return nil }
            index += 1
            var members: [String: JSONValue] = [:]
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; depth -= 1; return .object(members) }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value(), members.updateValue(member, forKey: key) == nil else { return nil }
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "}") else { return nil }
                index += 1
                depth -= 1
                return .object(members)
            }
        }

        mutating func array() -> JSONValue? {
            depth += 1
            guard depth <= 32 else { return nil }
            index += 1
            var elements: [JSONValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; depth -= 1; return .array(elements) }
            while true {
                guard let element = value() else { return nil }
                elements.append(element)
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                guard bytes[index] == UInt8(ascii: "]") else { return nil }
                index += 1
                depth -= 1
                return .array(elements)
            }
        }

        /// A string with the escapes `\" \\ \/ \b \f \n \r \t`; nil on `\u`, control bytes or invalid UTF-8.
        mutating func string() -> String? {
            index += 1
            let start = index
            var escaped: [UInt8]?
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = escaped ?? Array(bytes[start..<index])
                    index += 1
                    return String(validating: text, as: UTF8.self)
                }
                guard byte >= 0x20 else { return nil }
                if byte == UInt8(ascii: "\\") {
                    if escaped == nil { escaped = Array(bytes[start..<index]) }
                    guard index + 1 < bytes.count else { return nil }
                    let replacement: UInt8
                    switch bytes[index + 1] {
                    case UInt8(ascii: "\""): replacement = UInt8(ascii: "\"")
                    case UInt8(ascii: "\\"): replacement = UInt8(ascii: "\\")
                    case UInt8(ascii: "/"): replacement = UInt8(ascii: "/")
                    case UInt8(ascii: "b"): replacement = 0x08
                    case UInt8(ascii: "f"): replacement = 0x0C
                    case UInt8(ascii: "n"): replacement = 0x0A
                    case UInt8(ascii: "r"): replacement = 0x0D
                    case UInt8(ascii: "t"): replacement = 0x09
                    default: return nil
                    }
                    escaped?.append(replacement)
                    index += 2
                    continue
                }
                escaped?.append(byte)
                index += 1
            }
            return nil
        }

        /// `-?(0|[1-9][0-9]*)` that fits `Int`, not followed by a fraction or exponent.
        mutating func integer() -> JSONValue? {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            let count = index - digits
            // No leading zero, and no "-0" (left to JSONDecoder).
            guard count > 0, count <= 18, bytes[digits] != UInt8(ascii: "0") || (count == 1 && digits == start) else {
                return nil
            }
            if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
                return nil
            }
            guard let text = String(validating: bytes[start..<index], as: UTF8.self), let value = Int(text) else { return nil }
            return .integer(value)
        }
    }
}
