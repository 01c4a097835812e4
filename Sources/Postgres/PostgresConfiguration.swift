import CLibPQ
import Foundation

/// Where and how to connect: a `postgresql://` URL or a `key=value` conninfo string.
public struct PostgresConfiguration: Sendable {
    /// The URL or conninfo string as given (may contain a password; never log it).
    public let connectionString: String
    /// Seconds to wait for a connection to open. Default 5.
    public var connectTimeout: Int = 5
    /// `application_name` shown in `pg_stat_activity`. Default `journeys`.
    public var applicationName: String = "journeys"

    /// Validates `connectionString` with libpq's own parser.
    public init(_ connectionString: String) throws {
        let trimmed = connectionString.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else {
            throw PostgresError(.invalidConfiguration, "database URL is empty")
        }
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(trimmed, &errorMessage) else {
            // libpq quotes the URL in some messages; it may hold a password.
            let detail = (errorMessage.map { String(cString: $0) } ?? "unparseable")
                .replacingOccurrences(of: trimmed, with: "<the URL>")
            if let errorMessage { PQfreemem(errorMessage) }
            throw PostgresError(
                .invalidConfiguration,
                "invalid database URL: \(detail.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        PQconninfoFree(options)
        self.connectionString = trimmed
    }

    /// The parsed options, minus the password, for display.
    public var redacted: String {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &errorMessage) else { return "<invalid>" }
        defer { PQconninfoFree(options) }
        var parts: [String] = []
        var cursor = options
        while let keyword = cursor.pointee.keyword {
            let key = String(cString: keyword)
            if let value = cursor.pointee.val, key != "password" {
                parts.append("\(key)=\(String(cString: value))")
            }
            cursor += 1
        }
        return parts.joined(separator: " ")
    }

    /// The value of one parsed option (`host`, `port`, `user`, `dbname`, ...).
    public func option(_ name: String) -> String? {
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &errorMessage) else { return nil }
        defer { PQconninfoFree(options) }
        var cursor = options
        while let keyword = cursor.pointee.keyword {
            if String(cString: keyword) == name, let value = cursor.pointee.val { return String(cString: value) }
            cursor += 1
        }
        return nil
    }
}
