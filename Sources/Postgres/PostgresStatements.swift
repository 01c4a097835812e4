/// The statements the client itself runs: transaction control and LISTEN/NOTIFY.
enum PostgresStatements {
    /// `BEGIN`, with `ISOLATION LEVEL <isolation>` when given (raw text, from the caller's code).
    static func begin(isolation: String?) -> String {
        isolation.map { "BEGIN ISOLATION LEVEL \($0)" } ?? "BEGIN"
    }

    static let commit = "COMMIT"
    static let rollback = "ROLLBACK"

    /// LISTEN takes no bind: the channel is quoted as an identifier.
    static func listen(_ channel: String) -> String {
        "LISTEN \(PostgresConnection.quoteIdentifier(channel))"
    }

    /// Notifies through `pg_notify`, channel and payload as binds.
    static func notify(_ channel: String, payload: String) -> PostgresQuery {
        "SELECT pg_notify(\(channel), \(payload))"
    }
}
