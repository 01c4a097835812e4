import Foundation

/// A type decoded from a cell in PostgreSQL's text format.
public protocol PostgresDecodable: Sendable {
    /// Decodes a cell; `text` is nil for SQL NULL.
    static func decode(postgresText text: String?, column: String) throws -> Self
    /// Decodes a cell from its text bytes (nil for SQL NULL), valid only during the call.
    static func decode(postgresBytes bytes: UnsafeBufferPointer<UInt8>?, column: String) throws -> Self
}

extension PostgresDecodable {
    /// Through a `String`; types that can read the bytes directly override this.
    public static func decode(postgresBytes bytes: UnsafeBufferPointer<UInt8>?, column: String) throws -> Self {
        try decode(postgresText: bytes.map { String(decoding: $0, as: UTF8.self) }, column: column)
    }
}

/// A non-optional type decoded from non-NULL text.
public protocol PostgresTextDecodable: PostgresDecodable {
    init?(postgresText text: String)
    /// Parses non-NULL text bytes; by default through a `String`.
    init?(postgresBytes bytes: UnsafeBufferPointer<UInt8>)
}

extension PostgresTextDecodable {
    public static func decode(postgresText text: String?, column: String) throws -> Self {
        guard let text else {
            throw PostgresError(.decodingFailed, "column \(column) is NULL, expected \(Self.self)")
        }
        guard let value = Self(postgresText: text) else {
            throw PostgresError(.decodingFailed, "column \(column) is not a valid \(Self.self)")
        }
        return value
    }

    public init?(postgresBytes bytes: UnsafeBufferPointer<UInt8>) {
        self.init(postgresText: String(decoding: bytes, as: UTF8.self))
    }

    public static func decode(postgresBytes bytes: UnsafeBufferPointer<UInt8>?, column: String) throws -> Self {
        guard let bytes else {
            throw PostgresError(.decodingFailed, "column \(column) is NULL, expected \(Self.self)")
        }
        guard let value = Self(postgresBytes: bytes) else {
            throw PostgresError(.decodingFailed, "column \(column) is not a valid \(Self.self)")
        }
        return value
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public static func decode(postgresText text: String?, column: String) throws -> Self {
        guard let text else { return nil }
        return try Wrapped.decode(postgresText: text, column: column)
    }

    public static func decode(postgresBytes bytes: UnsafeBufferPointer<UInt8>?, column: String) throws -> Self {
        guard let bytes else { return nil }
        return try Wrapped.decode(postgresBytes: bytes, column: column)
    }
}

extension String: PostgresTextDecodable {
    public init?(postgresText text: String) { self = text }
}
extension Int: PostgresTextDecodable {
    public init?(postgresText text: String) { self.init(text) }
    public init?(postgresBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let value = PostgresText.parseInteger(bytes, as: Self.self) else { return nil }
        self = value
    }
}
extension Int32: PostgresTextDecodable {
    public init?(postgresText text: String) { self.init(text) }
    public init?(postgresBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let value = PostgresText.parseInteger(bytes, as: Self.self) else { return nil }
        self = value
    }
}
extension Int64: PostgresTextDecodable {
    public init?(postgresText text: String) { self.init(text) }
    public init?(postgresBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let value = PostgresText.parseInteger(bytes, as: Self.self) else { return nil }
        self = value
    }
}
extension UInt64: PostgresTextDecodable {
    public init?(postgresText text: String) { self.init(text) }
    public init?(postgresBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let value = PostgresText.parseInteger(bytes, as: Self.self) else { return nil }
        self = value
    }
}
extension Double: PostgresTextDecodable {
    public init?(postgresText text: String) { self.init(text) }
}
extension Bool: PostgresTextDecodable {
    public init?(postgresText text: String) {
        switch text {
        case "t", "true": self = true
        case "f", "false": self = false
        default: return nil
        }
    }
    public init?(postgresBytes bytes: UnsafeBufferPointer<UInt8>) {
        switch bytes.count == 1 ? bytes[0] : 0 {
        case UInt8(ascii: "t"): self = true
        case UInt8(ascii: "f"): self = false
        default: self.init(postgresText: String(decoding: bytes, as: UTF8.self))
        }
    }
}
extension UUID: PostgresTextDecodable {
    public init?(postgresText text: String) {
        guard let value = PostgresText.parseUUID(text) else { return nil }
        self = value
    }
    public init?(postgresBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let value = PostgresText.parseUUID(bytes: bytes) else { return nil }
        self = value
    }
}
extension JSONB: PostgresTextDecodable {
    public init?(postgresText text: String) { self.init(text: text) }
}
extension Data: PostgresTextDecodable {
    /// Decodes `bytea` in hex output format (`\x...`).
    public init?(postgresText text: String) {
        guard text.hasPrefix("\\x"), let data = PostgresHex.decode(text.dropFirst(2)) else { return nil }
        self = data
    }
    public init?(postgresBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "\\"), bytes[1] == UInt8(ascii: "x"),
            let data = PostgresHex.decode(bytes: UnsafeBufferPointer(rebasing: bytes[2...]))
        else { return nil }
        self = data
    }
}
extension Date: PostgresTextDecodable {
    public init?(postgresText text: String) {
        guard let date = PostgresTimestamp.parse(text) else { return nil }
        self = date
    }
    public init?(postgresBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let date = PostgresTimestamp.parse(bytes: bytes) else { return nil }
        self = date
    }
}
