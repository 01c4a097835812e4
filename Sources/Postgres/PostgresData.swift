import Foundation

/// A JSON document bound or decoded as `jsonb`, kept as its UTF-8 text.
public struct JSONB: Sendable, Hashable, CustomStringConvertible {
    public let text: String
    public init(text: String) { self.text = text }
    public init<T: Encodable>(encoding value: T, encoder: JSONEncoder = JSONEncoder()) throws {
        self.text = String(decoding: try encoder.encode(value), as: UTF8.self)
    }
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: Data(text.utf8))
    }
    public var description: String { text }
}

/// A value bound to a `$n` parameter, in PostgreSQL's text format.
public protocol PostgresEncodable: Sendable {
    /// The text representation, or nil for SQL NULL.
    var postgresText: String? { get }
}

extension String: PostgresEncodable { public var postgresText: String? { self } }
extension Substring: PostgresEncodable { public var postgresText: String? { String(self) } }
extension Int: PostgresEncodable { public var postgresText: String? { String(self) } }
extension Int32: PostgresEncodable { public var postgresText: String? { String(self) } }
extension Int64: PostgresEncodable { public var postgresText: String? { String(self) } }
extension UInt64: PostgresEncodable { public var postgresText: String? { String(self) } }
extension Double: PostgresEncodable { public var postgresText: String? { String(self) } }
extension Bool: PostgresEncodable { public var postgresText: String? { self ? "t" : "f" } }
extension UUID: PostgresEncodable { public var postgresText: String? { PostgresText.uuid(self) } }
extension JSONB: PostgresEncodable { public var postgresText: String? { text } }
extension Data: PostgresEncodable {
    public var postgresText: String? { "\\x" + PostgresHex.encode(self) }
}
extension Date: PostgresEncodable {
    public var postgresText: String? { PostgresTimestamp.format(self) }
}
extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public var postgresText: String? { self?.postgresText }
}
extension Array: PostgresEncodable where Element: PostgresEncodable {
    /// A one-dimensional array literal; elements are quoted and escaped.
    public var postgresText: String? { PostgresText.arrayLiteral(map(\.postgresText)) }
}

/// Text forms built byte by byte: on the append path these ran through Foundation's
/// NSString bridging and cost more than the statement itself.
enum PostgresText {
    /// `{"a","b\"c",NULL}`: every element quoted, `"` and `\` escaped with a backslash.
    static func arrayLiteral(_ elements: [String?]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(2 + elements.reduce(0) { $0 + ($1?.utf8.count ?? 4) + 3 })
        out.append(UInt8(ascii: "{"))
        for (index, element) in elements.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            guard let element else {
                out.append(contentsOf: "NULL".utf8)
                continue
            }
            out.append(UInt8(ascii: "\""))
            for byte in element.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { out.append(UInt8(ascii: "\\")) }
                out.append(byte)
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Parses the canonical form in either case (what PostgreSQL prints); nil for anything else.
    /// Foundation's `UUID(uuidString:)` went through sscanf and was a tenth of a rebuild's time.
    static func parseUUID(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { parseUUID(bytes: $0) }
    }

    /// ``parseUUID(_:)`` over text bytes, without allocating.
    static func parseUUID(bytes chars: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard chars.count == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &uuid) { bytes -> Bool in
            var at = 0
            for index in 0..<16 {
                if at == 8 || at == 13 || at == 18 || at == 23 {
                    guard chars[at] == UInt8(ascii: "-") else { return false }
                    at += 1
                }
                guard let high = PostgresHex.nibble(chars[at]), let low = PostgresHex.nibble(chars[at + 1]) else { return false }
                bytes[index] = high << 4 | low
                at += 2
            }
            return true
        }
        return valid ? UUID(uuid: uuid) : nil
    }

    /// A decimal integer with an optional sign; nil when malformed or out of range.
    static func parseInteger<T: FixedWidthInteger>(_ bytes: UnsafeBufferPointer<UInt8>, as type: T.Type) -> T? {
        guard !bytes.isEmpty else { return nil }
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative || bytes[0] == UInt8(ascii: "+") { index = 1 }
        guard index < bytes.count else { return nil }
        var value: T = 0
        while index < bytes.count {
            let digit = bytes[index] &- 48
            guard digit < 10 else { return nil }
            let (shifted, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowB) =
                negative ? shifted.subtractingReportingOverflow(T(digit)) : shifted.addingReportingOverflow(T(digit))
            guard !overflowA, !overflowB else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// The canonical lower-case form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
    static func uuid(_ value: UUID) -> String {
        withUnsafeBytes(of: value.uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { buffer in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        buffer[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    buffer[at] = PostgresHex.digits[Int(byte >> 4)]
                    buffer[at + 1] = PostgresHex.digits[Int(byte & 0x0f)]
                    at += 2
                }
                return at
            }
        }
    }
}

/// Hex helpers for `bytea`.
enum PostgresHex {
    /// Lower-case hex digits, by value.
    static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ data: Data) -> String {
        var out = [UInt8]()
        out.reserveCapacity(data.count * 2)
        for byte in data {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: Substring) -> Data? {
        let bytes = Array(text.utf8)
        guard bytes.count % 2 == 0 else { return nil }
        // Into an array first: appending byte by byte to Data costs a call per byte.
        var out = [UInt8](repeating: 0, count: bytes.count / 2)
        for index in out.indices {
            guard let high = nibble(bytes[2 * index]), let low = nibble(bytes[2 * index + 1]) else { return nil }
            out[index] = high << 4 | low
        }
        return Data(out)
    }

    /// Hex digits to bytes straight into the `Data`'s storage.
    static func decode(bytes: UnsafeBufferPointer<UInt8>) -> Data? {
        guard bytes.count % 2 == 0 else { return nil }
        var out = Data(count: bytes.count / 2)
        let valid = out.withUnsafeMutableBytes { target -> Bool in
            for index in 0..<target.count {
                guard let high = nibble(bytes[2 * index]), let low = nibble(bytes[2 * index + 1]) else { return false }
                target[index] = high << 4 | low
            }
            return true
        }
        return valid ? out : nil
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 97...102: return c - 87
        case 65...70: return c - 55
        default: return nil
        }
    }
}
