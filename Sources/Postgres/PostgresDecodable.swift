import Foundation

/// A type decoded from a cell in PostgreSQL's text format.
public protocol PostgresDecodable: Sendable {
    /// Decodes a cell; `text` is nil for SQL NULL.
    static func decode(postgresText text: String?, column: String) throws -> Self
}

/// A non-optional type decoded from non-NULL text.
public protocol PostgresTextDecodable: PostgresDecodable {
    init?(postgresText text: String)
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
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public static func decode(postgresText text: String?, column: String) throws -> Self {
        guard let text else { return nil }
        return try Wrapped.decode(postgresText: text, column: column)
    }
}

extension String: PostgresTextDecodable {
    public init?(postgresText text: String) { self = text }
}
extension Int: PostgresTextDecodable {
    public init?(postgresText text: String) { self.init(text) }
}
extension Int32: PostgresTextDecodable {
    public init?(postgresText text: String) { self.init(text) }
}
extension Int64: PostgresTextDecodable {
    public init?(postgresText text: String) { self.init(text) }
}
extension UInt64: PostgresTextDecodable {
    public init?(postgresText text: String) { self.init(text) }
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
}
extension UUID: PostgresTextDecodable {
    public init?(postgresText text: String) {
        guard let value = PostgresText.parseUUID(text) else { return nil }
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
}
extension Date: PostgresTextDecodable {
    public init?(postgresText text: String) {
        guard let date = PostgresTimestamp.parse(text) else { return nil }
        self = date
    }
}
