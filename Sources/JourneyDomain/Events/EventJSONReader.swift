import Foundation
import Timestamps

/// A strict reader of one event's JSON bytes (UTF-8), for ``JourneyEvent/init(type:utf8:decoder:)``.
///
/// Accepts only what it can read exactly as `JSONDecoder` would; anything else (syntax errors,
/// escaped keys, repeated keys, numbers that are not plain integers where an `Int` is expected,
/// lone surrogates, invalid UTF-8, nesting deeper than 64) throws ``Unsupported``, and the caller
/// falls back to the Codable decoder, which then decides (so results and errors stay identical).
struct EventJSONReader {
    /// The reader cannot vouch for the input; the Codable decoder must decide.
    struct Unsupported: Error {}

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    // MARK: - Structure

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func peek() throws(Unsupported) -> UInt8 {
        skipSpace()
        guard index < bytes.count else { throw Unsupported() }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws(Unsupported) {
        guard try peek() == byte else { throw Unsupported() }
        index += 1
    }

    /// Only whitespace is left.
    mutating func end() throws(Unsupported) {
        skipSpace()
        guard index == bytes.count else { throw Unsupported() }
    }

    /// Reads an object, calling `field` with each key (raw bytes, unescaped keys only) and the
    /// key's index in `keys` (nil for keys it does not know, whose values are skipped). A key
    /// given twice is unsupported.
    mutating func object(
        keys: StaticKeys, _ field: (inout EventJSONReader, Int) throws(Unsupported) -> Void
    ) throws(Unsupported) {
        try expect(UInt8(ascii: "{"))
        var seen: UInt64 = 0
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            let key = try rawKey()
            try expect(UInt8(ascii: ":"))
            if let slot = keys.slot(of: key) {
                let bit: UInt64 = 1 << UInt64(slot)
                guard seen & bit == 0 else { throw Unsupported() }
                seen |= bit
                try field(&self, slot)
            } else {
                try skipValue(depth: 0)
            }
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return
            default: throw Unsupported()
            }
        }
    }

    /// A key's bytes; keys with escapes are unsupported.
    private mutating func rawKey() throws(Unsupported) -> UnsafeBufferPointer<UInt8> {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return UnsafeBufferPointer(rebasing: bytes[start..<index])
            }
            guard byte != UInt8(ascii: "\\"), byte >= 0x20, byte < 0x80 else { throw Unsupported() }
            index += 1
        }
        throw Unsupported()
    }

    /// Reads an array, calling `element` once per element.
    mutating func array(_ element: (inout EventJSONReader) throws(Unsupported) -> Void) throws(Unsupported) {
        try expect(UInt8(ascii: "["))
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try element(&self)
            switch try peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return
            default: throw Unsupported()
            }
        }
    }

    /// True (and consumed) when the next value is `null`.
    mutating func null() throws(Unsupported) -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ word: StaticString) throws(Unsupported) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Unsupported() }
        let base = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != base[offset] { throw Unsupported() }
        index += count
    }

    /// Skips any valid value, checking it as strictly as the typed reads do.
    private mutating func skipValue(depth: Int) throws(Unsupported) {
        guard depth < 64 else { throw Unsupported() }
        switch try peek() {
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "{"):
            try object(keys: .none) { (reader, _) throws(Unsupported) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["): try array { (reader) throws(Unsupported) in try reader.skipValue(depth: depth + 1) }
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try numberText()
        }
    }

    // MARK: - Values

    mutating func bool() throws(Unsupported) -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw Unsupported()
        }
    }

    /// A plain integer (`-?(0|[1-9][0-9]*)`) that fits an `Int`; `-0`, fractions and exponents are unsupported.
    mutating func int() throws(Unsupported) -> Int {
        var negative = false
        if try peek() == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
            let digit = Int(bytes[index] &- UInt8(ascii: "0"))
            let (times, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !o1, !o2 else { throw Unsupported() }
            value = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, !(digits > 1 && bytes[start] == UInt8(ascii: "0")), !(negative && value == 0) else {
            throw Unsupported()
        }
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): throw Unsupported()
            default: break
            }
        }
        return value
    }

    /// A JSON number as a finite `Double` (correctly rounded, as the Codable decoder reads it).
    mutating func double() throws(Unsupported) -> Double {
        let text = try numberText()
        guard let value = Double(text), value.isFinite else { throw Unsupported() }
        return value
    }

    /// The text of a number in JSON's grammar.
    private mutating func numberText() throws(Unsupported) -> Substring {
        skipSpace()
        let start = index
        func digits(_ reader: inout EventJSONReader) -> Int {
            let from = reader.index
            while reader.index < reader.bytes.count, reader.bytes[reader.index] &- UInt8(ascii: "0") < 10 { reader.index += 1 }
            return reader.index - from
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        let intDigits = digits(&self)
        guard intDigits > 0, !(intDigits > 1 && bytes[intStart] == UInt8(ascii: "0")) else { throw Unsupported() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw Unsupported() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw Unsupported() }
        }
        guard index - start <= 64 else { throw Unsupported() }
        return Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// A string, escapes resolved; invalid UTF-8, raw control characters and lone surrogates are unsupported.
    mutating func string() throws(Unsupported) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        var high: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            high |= byte
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                return high < 0x80 ? String(decoding: slice, as: UTF8.self) : try Self.validated(slice)
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw Unsupported() }
            index += 1
        }
        throw Unsupported()
    }

    /// The slice as a `String`; invalid UTF-8 is unsupported. (`String(validating:as:)` runs
    /// unspecialized here, a generic-metadata lookup per string.) Decoding repairs invalid
    /// sequences with U+FFFD, so the bytes come back unchanged exactly when they were valid.
    private static func validated(_ slice: UnsafeBufferPointer<UInt8>) throws(Unsupported) -> String {
        let text = String(decoding: slice, as: UTF8.self)
        guard text.utf8.elementsEqual(slice) else { throw Unsupported() }
        return text
    }

    private mutating func escapedString(from start: Int) throws(Unsupported) -> String {
        var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try out.withUnsafeBufferPointer { (buffer) throws(Unsupported) in try Self.validated(buffer) }
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw Unsupported() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw Unsupported() }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw Unsupported() }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw Unsupported()
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw Unsupported() }
                    out.append(contentsOf: UTF8.encode(unicode)!)
                default: throw Unsupported()
                }
            default:
                guard byte >= 0x20 else { throw Unsupported() }
                out.append(byte)
            }
        }
        throw Unsupported()
    }

    private mutating func hex4() throws(Unsupported) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Unsupported() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Unsupported()
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// An RFC 3339 date, parsed by the one parser ``EventJSON`` uses.
    mutating func date() throws(Unsupported) -> Date {
        guard let date = RFC3339.date(from: try string()) else { throw Unsupported() }
        return date
    }

    /// `nil` for `null`, else `read`'s value (an absent key stays nil at the caller).
    mutating func optional<T>(_ read: (inout EventJSONReader) throws(Unsupported) -> T) throws(Unsupported) -> T? {
        if try null() { return nil }
        return try read(&self)
    }

    /// An array of strings.
    mutating func strings() throws(Unsupported) -> [String] {
        var values: [String] = []
        try array { (reader) throws(Unsupported) in values.append(try reader.string()) }
        return values
    }

    /// A string-backed enumeration; unknown raw values are unsupported.
    mutating func raw<T: RawRepresentable>(_ type: T.Type) throws(Unsupported) -> T where T.RawValue == String {
        guard let value = T(rawValue: try string()) else { throw Unsupported() }
        return value
    }
}

/// An object's known keys, matched by their bytes; at most 64.
struct StaticKeys: Sendable {
    /// All keys' bytes, one after the other.
    private let bytes: [UInt8]
    /// Per key: its offset in `bytes` and its length.
    private let spans: [(offset: Int, count: Int)]

    init(_ keys: [String]) {
        precondition(keys.count <= 64)
        var bytes: [UInt8] = [], spans: [(offset: Int, count: Int)] = []
        for key in keys {
            spans.append((bytes.count, key.utf8.count))
            bytes += key.utf8
        }
        self.bytes = bytes
        self.spans = spans
    }

    static let none = StaticKeys([])

    func slot(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = key.first else { return nil }
        return bytes.withUnsafeBufferPointer { all in
            for (slot, span) in spans.enumerated() where span.count == key.count && all[span.offset] == first {
                if memcmp(all.baseAddress! + span.offset, key.baseAddress!, span.count) == 0 { return slot }
            }
            return nil
        }
    }
}
