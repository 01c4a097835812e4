extension PostgresClient {
    /// Whether this pool's server is a hot standby, and how many seconds its replay lags behind
    /// the primary (0 on a primary, or when everything received is replayed).
    public func standbyLag() async throws -> (isStandby: Bool, seconds: Double) {
        try await withConnection { connection in
            let row = try connection.query(PostgresStatements.standbyLag).first
            return (try row?.decode(0, as: Bool.self) ?? false, try row?.decode(1, as: Double.self) ?? 0)
        }
    }
}
