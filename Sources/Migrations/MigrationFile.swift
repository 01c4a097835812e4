import Cryptography

/// One numbered SQL file of `schema/`, e.g. `0001_event_store.sql`.
public struct MigrationFile: Sendable, Equatable {
    public let name: String
    public let sql: String

    public init(name: String, sql: String) {
        self.name = name
        self.sql = sql
    }

    /// The number before the first underscore; files without one sort last and fail validation.
    public var version: Int? { name.split(separator: "_").first.flatMap { Int($0) } }

    /// Hex SHA-256 of the file's text.
    public var checksum: String { SHA256.hexDigest(sql) }
}
